package simplex

import (
	"fmt"
	"math"
	"math/rand"
	"sort"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

// Engine constants.
const (
	// refactorEvery is the number of Forrest–Tomlin updates after which the
	// basis is factorised afresh.
	refactorEvery = 100
	// pivotTol: pivot-row or pivot-column entries below this (scaled) are
	// not pivot candidates.
	pivotTol = 1e-9
	// alphaRelErr: a relative disagreement between the pivot computed by row
	// and by column above this triggers a refactorisation.
	alphaRelErr = 1e-6
	// finalTol is the unscaled primal and dual tolerance of the final check,
	// relative to 1 + |bound| (or 1 + |cost|).
	finalTol = 1e-6
	// refineSkipTol: iterative refinement of x_B or y is skipped when
	// every residual is below refineSkipTol relative to 1 + its right-hand
	// side, a rounding-level residual whose correction would be as small.
	refineSkipTol = 1e-13
	// perturbBase is the relative size of the cost perturbation.
	perturbBase = 5e-7
	// dseMin is the smallest dual steepest-edge weight kept.
	dseMin = 1e-8
	// phaseCapFactor bounds the iterations of one simplex phase to
	// phaseCapFactor·(rows+columns) + phaseCapBase; a phase that runs
	// longer is taken for cycling and restarted (finally NumericalTrouble).
	phaseCapFactor = 50
	phaseCapBase   = 10000
	// stallIters is the number of consecutive dual degenerate iterations
	// (zero dual step) after which the costs are perturbed.
	stallIters = 30
	// primalStallIters is the number of consecutive degenerate primal steps
	// after which the primal simplex prices at random.
	primalStallIters = 300
)

// Nonbasic and basic states of a variable.
type vstat int8

const (
	stBasic vstat = iota
	stLower
	stUpper
	stFree // nonbasic free variable at zero
)

// engine is the state behind a Solver. Variables 0..n-1 are columns,
// n..n+m-1 row logicals; all arrays below are scaled.
type engine struct {
	opts   Options
	n, m   int
	sense  float64 // 1 minimise, −1 maximise
	offset float64

	// Scaled matrix by column and by row.
	colStart, rowIdx []int
	val              []float64
	rStart, rCol     []int
	rVal             []float64
	colScale         []float64 // x = colScale·x̃ for columns
	rowScale         []float64 // ã = rowScale·a for rows

	cost  []float64 // internal (minimisation) scaled costs
	wcost []float64 // working costs: shifted and perturbed
	lo    []float64
	up    []float64
	x     []float64
	d     []float64
	stat  []vstat
	head  []int
	pos   []int

	fac        *factor
	needFactor bool
	dse        []float64
	devex      []float64

	ray        []float64
	status     solve.Status
	totalIters int64
	lastIters  int64
	rng        *rand.Rand
	iterLimit  int64
	shifted    bool
	// perturbed: the working costs are perturbed; mayPerturb: the dual
	// simplex may perturb them once it stalls.
	perturbed, mayPerturb bool
	// dualsFresh: d holds the reduced costs of the true costs for the current
	// basis, as the last passed final check computed them (bound changes and
	// added rows keep them valid; basis changes from outside do not).
	dualsFresh bool

	// work vectors of length m
	wrk1, wrk2, wrk3 []float64
	// pivot row over all variables and its nonzero list
	prow   []float64
	pmark  []bool
	plist  []int
	rowRho []float64
	rhoIdx []int
	// sparse work vectors of the iterations (hyper.go) and a marker for
	// building their patterns
	rhoV, alphaV, tauV, flipV *svec
	smark                     []int
	sstamp                    int
	// pinf: the squared primal infeasibility of the basic variable at each
	// position (0 within the tolerance), kept up to date by the dual
	// simplex for its pricing.
	pinf []float64
	// primalAt is totalIters when x_B was last computed afresh from x_N
	// (every change of x between two such computations is an iteration).
	primalAt int64
	// dual ratio test work storage (ratio.go)
	rc    []rcand
	rcMin []float64
}

func newEngine(mod *model.Model, opts Options) *engine {
	n, m := mod.NumCols(), mod.NumRows()
	e := &engine{opts: opts, n: n, m: m, sense: 1, offset: mod.ObjOffset}
	if mod.Sense == model.Maximize {
		e.sense = -1
	}
	e.colStart = append([]int(nil), mod.ColStart...)
	e.rowIdx = append([]int(nil), mod.RowIndex...)
	e.val = append([]float64(nil), mod.Value...)
	e.colScale = make([]float64, n)
	e.rowScale = make([]float64, m)
	for j := range e.colScale {
		e.colScale[j] = 1
	}
	for i := range e.rowScale {
		e.rowScale[i] = 1
	}
	if !opts.NoScaling {
		e.computeScaling()
	}
	for j := 0; j < n; j++ {
		for k := e.colStart[j]; k < e.colStart[j+1]; k++ {
			e.val[k] *= e.colScale[j] * e.rowScale[e.rowIdx[k]]
		}
	}
	N := n + m
	e.cost = make([]float64, N)
	e.lo = make([]float64, N)
	e.up = make([]float64, N)
	for j := 0; j < n; j++ {
		e.cost[j] = e.sense * mod.Obj[j] * e.colScale[j]
		e.lo[j] = mod.ColLower[j] / e.colScale[j]
		e.up[j] = mod.ColUpper[j] / e.colScale[j]
	}
	for i := 0; i < m; i++ {
		e.lo[n+i] = mod.RowLower[i] * e.rowScale[i]
		e.up[n+i] = mod.RowUpper[i] * e.rowScale[i]
	}
	e.x = make([]float64, N)
	e.d = make([]float64, N)
	e.stat = make([]vstat, N)
	e.pos = make([]int, N)
	e.head = make([]int, m)
	e.primalAt = -1
	for j := 0; j < n; j++ {
		e.pos[j] = -1
		e.setNonbasicDefault(j)
	}
	for i := 0; i < m; i++ {
		e.head[i] = n + i
		e.pos[n+i] = i
		e.stat[n+i] = stBasic
	}
	e.dse = make([]float64, m)
	for i := range e.dse {
		e.dse[i] = 1
	}
	e.devex = make([]float64, N)
	e.rng = rand.New(rand.NewSource(opts.Seed))
	e.buildRows()
	e.allocWork()
	e.needFactor = true
	return e
}

func (e *engine) allocWork() {
	N := e.n + e.m
	e.wrk1 = make([]float64, e.m)
	e.wrk2 = make([]float64, e.m)
	e.wrk3 = make([]float64, e.m)
	e.rowRho = make([]float64, e.m)
	e.prow = make([]float64, N)
	e.pmark = make([]bool, N)
	e.plist = e.plist[:0]
	e.rhoIdx = nil
	e.rc, e.rcMin = nil, nil
	e.pinf = make([]float64, e.m)
	e.rhoV, e.alphaV, e.tauV, e.flipV = newSvec(e.m), newSvec(e.m), newSvec(e.m), newSvec(e.m)
	e.smark = make([]int, e.m)
	e.sstamp = 0
	e.fac = newFactor(e.m)
	e.needFactor = true
}

// computeScaling sets power-of-two row and column scales: a few passes of
// geometric-mean scaling, then column equilibration.
func (e *engine) computeScaling() {
	n, m := e.n, e.m
	if len(e.val) == 0 {
		return
	}
	rmin := make([]float64, m)
	rmax := make([]float64, m)
	for pass := 0; pass < 6; pass++ {
		for i := range rmin {
			rmin[i], rmax[i] = math.Inf(1), 0
		}
		for j := 0; j < n; j++ {
			for k := e.colStart[j]; k < e.colStart[j+1]; k++ {
				a := math.Abs(e.val[k]) * e.colScale[j]
				i := e.rowIdx[k]
				rmin[i] = math.Min(rmin[i], a)
				rmax[i] = math.Max(rmax[i], a)
			}
		}
		for i := 0; i < m; i++ {
			if rmax[i] > 0 {
				e.rowScale[i] = 1 / math.Sqrt(rmin[i]*rmax[i])
			}
		}
		for j := 0; j < n; j++ {
			cmin, cmax := math.Inf(1), 0.0
			for k := e.colStart[j]; k < e.colStart[j+1]; k++ {
				a := math.Abs(e.val[k]) * e.rowScale[e.rowIdx[k]]
				cmin = math.Min(cmin, a)
				cmax = math.Max(cmax, a)
			}
			if cmax > 0 {
				e.colScale[j] = 1 / math.Sqrt(cmin*cmax)
			}
		}
	}
	for i := range e.rowScale {
		e.rowScale[i] = pow2(e.rowScale[i])
	}
	for j := 0; j < n; j++ {
		cmax := 0.0
		for k := e.colStart[j]; k < e.colStart[j+1]; k++ {
			cmax = math.Max(cmax, math.Abs(e.val[k])*e.rowScale[e.rowIdx[k]])
		}
		if cmax > 0 {
			e.colScale[j] = pow2(1 / cmax)
		} else {
			e.colScale[j] = 1
		}
	}
}

// pow2 rounds a positive scale to the nearest power of two, clamped.
func pow2(s float64) float64 {
	if s <= 0 || math.IsInf(s, 0) || math.IsNaN(s) {
		return 1
	}
	ex := math.Round(math.Log2(s))
	ex = math.Max(-40, math.Min(40, ex))
	return math.Ldexp(1, int(ex))
}

// buildRows rebuilds the row-wise copy of the scaled matrix.
func (e *engine) buildRows() {
	m := e.m
	e.rStart = make([]int, m+1)
	for _, r := range e.rowIdx {
		e.rStart[r+1]++
	}
	for i := 0; i < m; i++ {
		e.rStart[i+1] += e.rStart[i]
	}
	e.rCol = make([]int, len(e.rowIdx))
	e.rVal = make([]float64, len(e.rowIdx))
	next := append([]int(nil), e.rStart[:m]...)
	for j := 0; j < e.n; j++ {
		for k := e.colStart[j]; k < e.colStart[j+1]; k++ {
			r := e.rowIdx[k]
			e.rCol[next[r]] = j
			e.rVal[next[r]] = e.val[k]
			next[r]++
		}
	}
}

// setNonbasicDefault makes k nonbasic at its finite bound nearest zero.
func (e *engine) setNonbasicDefault(k int) {
	lo, up := e.lo[k], e.up[k]
	switch {
	case !math.IsInf(lo, -1) && !math.IsInf(up, 1):
		if math.Abs(up) < math.Abs(lo) {
			e.stat[k], e.x[k] = stUpper, up
		} else {
			e.stat[k], e.x[k] = stLower, lo
		}
	case !math.IsInf(lo, -1):
		e.stat[k], e.x[k] = stLower, lo
	case !math.IsInf(up, 1):
		e.stat[k], e.x[k] = stUpper, up
	default:
		e.stat[k], e.x[k] = stFree, 0
	}
}

// setNonbasicNear makes k nonbasic at the bound nearest its current value.
func (e *engine) setNonbasicNear(k int) {
	lo, up, v := e.lo[k], e.up[k], e.x[k]
	switch {
	case !math.IsInf(lo, -1) && !math.IsInf(up, 1):
		if math.Abs(v-up) < math.Abs(v-lo) {
			e.stat[k], e.x[k] = stUpper, up
		} else {
			e.stat[k], e.x[k] = stLower, lo
		}
	default:
		e.setNonbasicDefault(k)
	}
}

// column returns the scaled column of variable k.
func (e *engine) column(k int, buf []spEntry) []spEntry {
	buf = buf[:0]
	if k < e.n {
		for t := e.colStart[k]; t < e.colStart[k+1]; t++ {
			buf = append(buf, spEntry{e.rowIdx[t], e.val[t]})
		}
		return buf
	}
	return append(buf, spEntry{k - e.n, -1})
}

// addColumn adds mult·a_k to v (indexed by row).
func (e *engine) addColumn(v []float64, k int, mult float64) {
	if k < e.n {
		for t := e.colStart[k]; t < e.colStart[k+1]; t++ {
			v[e.rowIdx[t]] += mult * e.val[t]
		}
		return
	}
	v[k-e.n] -= mult
}

// setColumnS sets v (zero on entry) to a_k.
func (e *engine) setColumnS(v *svec, k int) {
	if k < e.n {
		for t := e.colStart[k]; t < e.colStart[k+1]; t++ {
			v.set(e.rowIdx[t], e.val[t])
		}
		return
	}
	v.set(k-e.n, -1)
}

// addColumnS adds mult·a_k to v, listing new nonzeros; v's listed indices
// must be marked with e.sstamp in e.smark (newMark starts that).
func (e *engine) addColumnS(v *svec, k int, mult float64) {
	add := func(i int, x float64) {
		v.val[i] += x
		if e.smark[i] != e.sstamp {
			e.smark[i] = e.sstamp
			v.idx = append(v.idx, i)
		}
	}
	if k < e.n {
		for t := e.colStart[k]; t < e.colStart[k+1]; t++ {
			add(e.rowIdx[t], mult*e.val[t])
		}
		return
	}
	add(k-e.n, -mult)
}

// newMark starts a fresh marking for addColumnS.
func (e *engine) newMark() {
	e.sstamp++
	if e.sstamp == int(^uint(0)>>1) {
		clear(e.smark)
		e.sstamp = 1
	}
}

// copySvec sets dst to src.
func copySvec(dst, src *svec) {
	dst.reset()
	for _, i := range src.idx {
		dst.set(i, src.val[i])
	}
}

// dotColumn is yᵀa_k.
func (e *engine) dotColumn(y []float64, k int) float64 {
	if k < e.n {
		s := 0.0
		for t := e.colStart[k]; t < e.colStart[k+1]; t++ {
			s += y[e.rowIdx[t]] * e.val[t]
		}
		return s
	}
	return -y[k-e.n]
}

// refactor factorises the basis, repairing singularity by logicals. It
// reports whether the basis had to be repaired.
func (e *engine) refactor() bool {
	repaired := false
	var ri []int
	var rv []float64
	colOf := func(p int) ([]int, []float64) {
		k := e.head[p]
		ri, rv = ri[:0], rv[:0]
		if k < e.n {
			return e.rowIdx[e.colStart[k]:e.colStart[k+1]], e.val[e.colStart[k]:e.colStart[k+1]]
		}
		ri = append(ri, k-e.n)
		rv = append(rv, -1)
		return ri, rv
	}
	for attempt := 0; attempt < 3; attempt++ {
		badPos, badRows := e.fac.factorize(colOf)
		if len(badPos) == 0 {
			e.needFactor = false
			return repaired
		}
		repaired = true
		e.dualsFresh = false
		for t, p := range badPos {
			k := e.head[p]
			e.pos[k] = -1
			e.setNonbasicNear(k)
			l := e.n + badRows[t]
			if e.pos[l] >= 0 {
				panic("simplex: logical of an unpivoted row is basic")
			}
			e.head[p] = l
			e.pos[l] = p
			e.stat[l] = stBasic
			e.dse[p] = 1
		}
	}
	panic("simplex: cannot repair a singular basis")
}

// computePrimal sets x_B = −B⁻¹·N·x_N.
func (e *engine) computePrimal() { e.primalValues() }

// computePrimalRefined is computePrimal with one step of iterative
// refinement. It reports whether the row activities A·x and the largest
// term of each (in wrk2 and wrk3) are those of the final x: the residual
// pass computes them, and they stay valid when the correction is skipped.
//
// With current, x_B is taken as computed afresh already (no iteration since
// the last computePrimal, same factors) and only refined.
func (e *engine) computePrimalRefined(current bool) bool {
	if !current {
		e.primalValues()
	}
	// Residual −[A −I]·z, solved for the correction of x_B (skipped when
	// the residual is at rounding level: the correction would be too).
	act, scale := e.wrk2, e.wrk3
	e.activities(act, scale)
	rhs := e.wrk1
	small := true
	for i := range rhs {
		xi := e.x[e.n+i]
		rhs[i] = xi - act[i]
		if math.Abs(rhs[i]) > refineSkipTol*(1+math.Abs(xi)) {
			small = false
		}
	}
	if small {
		return true
	}
	e.fac.ftran(rhs)
	for p, k := range e.head {
		e.x[k] += rhs[p]
	}
	return false
}

// activities sets act to the row activities A·x of the columns and scale
// to the largest |a_ij·x_j| of each row.
func (e *engine) activities(act, scale []float64) {
	clear(act)
	clear(scale)
	for j := 0; j < e.n; j++ {
		xj := e.x[j]
		if xj == 0 {
			continue
		}
		for t := e.colStart[j]; t < e.colStart[j+1]; t++ {
			i := e.rowIdx[t]
			v := e.val[t] * xj
			act[i] += v
			if a := math.Abs(v); a > scale[i] {
				scale[i] = a
			}
		}
	}
}

func (e *engine) primalValues() {
	rhs := e.wrk1
	clear(rhs)
	for k := 0; k < e.n+e.m; k++ {
		if e.stat[k] != stBasic && e.x[k] != 0 {
			e.addColumn(rhs, k, -e.x[k])
		}
	}
	e.fac.ftran(rhs)
	for p, k := range e.head {
		e.x[k] = rhs[p]
	}
	e.primalAt = e.totalIters
}

// computeDual sets y = B⁻ᵀc_B (in rowRho) and d = c − Aᵀy from wcost.
func (e *engine) computeDual() { e.dualValues(false) }

// computeDualRefined is computeDual with one step of iterative refinement
// of y.
func (e *engine) computeDualRefined() { e.dualValues(true) }

func (e *engine) dualValues(refine bool) {
	y := e.rowRho
	for p, k := range e.head {
		y[p] = e.wcost[k]
	}
	e.fac.btran(y)
	if refine {
		res := e.wrk1
		small := true
		for p, k := range e.head {
			res[p] = e.wcost[k] - e.dotColumn(y, k)
			if math.Abs(res[p]) > refineSkipTol*(1+math.Abs(e.wcost[k])) {
				small = false
			}
		}
		if !small {
			e.fac.btran(res)
			for i := range y {
				y[i] += res[i]
			}
		}
	}
	for k := 0; k < e.n+e.m; k++ {
		if e.stat[k] == stBasic {
			e.d[k] = 0
		} else {
			e.d[k] = e.wcost[k] - e.dotColumn(y, k)
		}
	}
}

// pivotRow computes alpha_k = ρᵀa_k for the nonbasic variables into prow,
// listing nonzeros in plist.
func (e *engine) pivotRow(rho []float64) {
	idx := e.rhoIdx[:0]
	for i, v := range rho {
		if v != 0 {
			idx = append(idx, i)
		}
	}
	e.rhoIdx = idx
	e.pivotRowS(rho, idx)
}

// pivotRowS is pivotRow for a ρ whose nonzeros are listed in idx.
func (e *engine) pivotRowS(rho []float64, idx []int) {
	for _, k := range e.plist {
		e.prow[k] = 0
		e.pmark[k] = false
	}
	e.plist = e.plist[:0]
	// Row-wise (over ρ's nonzeros) when that touches fewer entries than
	// the column-wise products over all columns; a scattered row-wise
	// entry costs about two of a column-wise one.
	rowWork := 0
	for _, i := range idx {
		rowWork += e.rStart[i+1] - e.rStart[i]
	}
	if 2*rowWork < len(e.val)+e.n {
		for _, i := range idx {
			v := rho[i]
			if v == 0 {
				continue
			}
			for t := e.rStart[i]; t < e.rStart[i+1]; t++ {
				j := e.rCol[t]
				if e.stat[j] == stBasic {
					continue
				}
				if !e.pmark[j] {
					e.pmark[j] = true
					e.plist = append(e.plist, j)
				}
				e.prow[j] += v * e.rVal[t]
			}
		}
	} else {
		for j := 0; j < e.n; j++ {
			if e.stat[j] == stBasic {
				continue
			}
			s := e.dotColumn(rho, j)
			if s != 0 {
				e.prow[j] = s
				e.pmark[j] = true
				e.plist = append(e.plist, j)
			}
		}
	}
	for _, i := range idx {
		v := rho[i]
		k := e.n + i
		if v != 0 && e.stat[k] != stBasic {
			e.prow[k] = -v
			e.pmark[k] = true
			e.plist = append(e.plist, k)
		}
	}
}

// primalInfeas is the scaled infeasibility of x_k (positive below the lower
// bound, negative above the upper, zero inside).
func (e *engine) primalInfeas(k int) float64 {
	switch {
	case e.x[k] < e.lo[k]:
		return e.lo[k] - e.x[k]
	case e.x[k] > e.up[k]:
		return e.up[k] - e.x[k]
	}
	return 0
}

// maxPrimalInfeas is the largest scaled bound violation of a basic variable.
func (e *engine) maxPrimalInfeas() float64 {
	mx := 0.0
	for _, k := range e.head {
		mx = math.Max(mx, math.Abs(e.primalInfeas(k)))
	}
	return mx
}

// dualInfeas is how far d_k has the wrong sign for its status.
func (e *engine) dualInfeas(k int) float64 {
	switch e.stat[k] {
	case stLower:
		if e.lo[k] == e.up[k] {
			return 0
		}
		return math.Max(0, -e.d[k])
	case stUpper:
		if e.lo[k] == e.up[k] {
			return 0
		}
		return math.Max(0, e.d[k])
	case stFree:
		return math.Abs(e.d[k])
	}
	return 0
}

// ---- results, unscaled ----

// unscaledValue is the unscaled value of variable k given a scaled value.
func (e *engine) unscale(k int, v float64) float64 {
	if k < e.n {
		return v * e.colScale[k]
	}
	return v / e.rowScale[k-e.n]
}

func (e *engine) varValue(k int) float64 { return e.unscale(k, e.x[k]) }

func (e *engine) varBounds(k int) (float64, float64) {
	return e.unscale(k, e.lo[k]), e.unscale(k, e.up[k])
}

func (e *engine) colBounds(j int) (float64, float64) { return e.varBounds(j) }

func (e *engine) colValues() []float64 {
	x := make([]float64, e.n)
	for j := range x {
		x[j] = e.varValue(j)
	}
	return x
}

func (e *engine) rowValues() []float64 {
	r := make([]float64, e.m)
	for i := range r {
		r[i] = e.varValue(e.n + i)
	}
	return r
}

// objective uses the unscaled column values and original costs.
func (e *engine) objective() float64 {
	s := e.offset
	for j := 0; j < e.n; j++ {
		// cost[j] = sense·c_j·colScale_j and x = colScale·x̃.
		s += e.sense * e.cost[j] * e.x[j]
	}
	return s
}

// duals returns y = rowScale·ỹ in the model's sense, computed from the true
// (unperturbed) costs.
func (e *engine) duals() []float64 {
	y := e.trueDuals()
	out := make([]float64, e.m)
	for i := range out {
		out[i] = e.sense*y[i]*e.rowScale[i] + 0 // + 0: no −0
	}
	return out
}

// trueDuals is B⁻ᵀc_B for the original scaled costs.
func (e *engine) trueDuals() []float64 {
	y := make([]float64, e.m)
	if e.needFactor {
		e.refactor()
	}
	for p, k := range e.head {
		y[p] = e.cost[k]
	}
	e.fac.btran(y)
	res := make([]float64, e.m)
	for p, k := range e.head {
		res[p] = e.cost[k] - e.dotColumn(y, k)
	}
	e.fac.btran(res)
	for i := range y {
		y[i] += res[i]
	}
	return y
}

func (e *engine) reducedCosts() []float64 {
	y := e.trueDuals()
	out := make([]float64, e.n)
	for j := range out {
		if e.stat[j] == stBasic {
			continue
		}
		out[j] = e.sense*(e.cost[j]-e.dotColumn(y, j))/e.colScale[j] + 0
	}
	return out
}

func (e *engine) rayCopy() []float64 { return append([]float64(nil), e.ray...) }

func (e *engine) posOf(k int) int { return e.pos[k] }

func (e *engine) varStatus(k int) solve.BasisStatus {
	switch e.stat[k] {
	case stBasic:
		return solve.Basic
	case stFree:
		return solve.Zero
	case stLower:
		if e.lo[k] == e.up[k] {
			return solve.NonbasicFixed
		}
		return solve.AtLower
	case stUpper:
		if e.lo[k] == e.up[k] {
			return solve.NonbasicFixed
		}
		return solve.AtUpper
	}
	return solve.BasisUnknown
}

func (e *engine) basis() Basis {
	b := Basis{Cols: make([]solve.BasisStatus, e.n), Rows: make([]solve.BasisStatus, e.m)}
	for j := range b.Cols {
		b.Cols[j] = e.varStatus(j)
	}
	for i := range b.Rows {
		b.Rows[i] = e.varStatus(e.n + i)
	}
	return b
}

func (e *engine) setBasis(b Basis) error {
	if len(b.Cols) != e.n || len(b.Rows) != e.m {
		return fmt.Errorf("%w: basis has %d columns and %d rows, want %d and %d", ErrBadInput, len(b.Cols), len(b.Rows), e.n, e.m)
	}
	nb := 0
	for _, s := range b.Cols {
		if s == solve.Basic {
			nb++
		}
	}
	for _, s := range b.Rows {
		if s == solve.Basic {
			nb++
		}
	}
	if nb != e.m {
		return fmt.Errorf("%w: basis has %d basic variables, want %d", ErrBadInput, nb, e.m)
	}
	if e.sameBasis(b) {
		return nil // keep the factorisation
	}
	e.dualsFresh = false
	p := 0
	for k := 0; k < e.n+e.m; k++ {
		var s solve.BasisStatus
		if k < e.n {
			s = b.Cols[k]
		} else {
			s = b.Rows[k-e.n]
		}
		e.pos[k] = -1
		switch s {
		case solve.Basic:
			e.stat[k] = stBasic
			e.head[p] = k
			e.pos[k] = p
			p++
		case solve.AtLower, solve.NonbasicFixed:
			if math.IsInf(e.lo[k], -1) {
				e.setNonbasicDefault(k)
			} else {
				e.stat[k], e.x[k] = stLower, e.lo[k]
			}
		case solve.AtUpper:
			if math.IsInf(e.up[k], 1) {
				e.setNonbasicDefault(k)
			} else {
				e.stat[k], e.x[k] = stUpper, e.up[k]
			}
		default:
			e.setNonbasicDefault(k)
		}
	}
	for i := range e.dse {
		e.dse[i] = 1
	}
	e.needFactor = true
	return nil
}

// sameBasis reports whether b is the current basis.
func (e *engine) sameBasis(b Basis) bool {
	for k := 0; k < e.n+e.m; k++ {
		var s solve.BasisStatus
		if k < e.n {
			s = b.Cols[k]
		} else {
			s = b.Rows[k-e.n]
		}
		if s != e.varStatus(k) {
			return false
		}
	}
	return true
}

func (e *engine) setColBounds(j int, lo, up float64) error {
	if j < 0 || j >= e.n {
		return fmt.Errorf("%w: column %d out of range", ErrBadInput, j)
	}
	if math.IsNaN(lo) || math.IsNaN(up) || lo > up || math.IsInf(lo, 1) || math.IsInf(up, -1) {
		return fmt.Errorf("%w: column %d: bounds [%v, %v]", ErrBadInput, j, lo, up)
	}
	e.lo[j] = lo / e.colScale[j]
	e.up[j] = up / e.colScale[j]
	switch e.stat[j] {
	case stLower:
		if math.IsInf(e.lo[j], -1) {
			e.setNonbasicDefault(j)
		} else {
			e.x[j] = e.lo[j]
		}
	case stUpper:
		if math.IsInf(e.up[j], 1) {
			e.setNonbasicDefault(j)
		} else {
			e.x[j] = e.up[j]
		}
	case stFree:
		e.setNonbasicDefault(j)
	}
	return nil
}

// addRows appends rows; their logicals become basic.
func (e *engine) addRows(rows []Row) error {
	for r, row := range rows {
		if len(row.Index) != len(row.Value) {
			return fmt.Errorf("%w: added row %d: %d indices, %d values", ErrBadInput, r, len(row.Index), len(row.Value))
		}
		if math.IsNaN(row.Lower) || math.IsNaN(row.Upper) || row.Lower > row.Upper || math.IsInf(row.Lower, 1) || math.IsInf(row.Upper, -1) {
			return fmt.Errorf("%w: added row %d: bounds [%v, %v]", ErrBadInput, r, row.Lower, row.Upper)
		}
		seen := map[int]bool{}
		for k, j := range row.Index {
			if j < 0 || j >= e.n || seen[j] {
				return fmt.Errorf("%w: added row %d: column index %d out of range or repeated", ErrBadInput, r, j)
			}
			seen[j] = true
			if v := row.Value[k]; math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: added row %d: coefficient %v", ErrBadInput, r, v)
			}
		}
	}
	if len(rows) == 0 {
		return nil
	}
	oldM := e.m
	// Per-column additions.
	add := make([][]spEntry, e.n)
	newScale := make([]float64, len(rows))
	for r, row := range rows {
		i := oldM + r
		s := 1.0
		if !e.opts.NoScaling {
			mn, mx := math.Inf(1), 0.0
			for k, j := range row.Index {
				a := math.Abs(row.Value[k]) * e.colScale[j]
				if a > 0 {
					mn, mx = math.Min(mn, a), math.Max(mx, a)
				}
			}
			if mx > 0 {
				s = pow2(1 / math.Sqrt(mn*mx))
			}
		}
		newScale[r] = s
		for k, j := range row.Index {
			if row.Value[k] != 0 {
				add[j] = append(add[j], spEntry{i, row.Value[k] * e.colScale[j] * s})
			}
		}
	}
	starts := make([]int, e.n+1)
	nnz := len(e.val)
	for _, a := range add {
		nnz += len(a)
	}
	ri := make([]int, 0, nnz)
	rv := make([]float64, 0, nnz)
	for j := 0; j < e.n; j++ {
		starts[j] = len(ri)
		ri = append(ri, e.rowIdx[e.colStart[j]:e.colStart[j+1]]...)
		rv = append(rv, e.val[e.colStart[j]:e.colStart[j+1]]...)
		sort.Slice(add[j], func(a, b int) bool { return add[j][a].row < add[j][b].row })
		for _, en := range add[j] {
			ri = append(ri, en.row)
			rv = append(rv, en.val)
		}
	}
	starts[e.n] = len(ri)
	e.colStart, e.rowIdx, e.val = starts, ri, rv
	e.m += len(rows)
	e.rowScale = append(e.rowScale, newScale...)
	for r, row := range rows {
		k := e.n + oldM + r
		e.cost = append(e.cost, 0)
		e.lo = append(e.lo, row.Lower*newScale[r])
		e.up = append(e.up, row.Upper*newScale[r])
		// Value of the new logical: current activity.
		act := 0.0
		for t, j := range row.Index {
			act += row.Value[t] * e.colScale[j] * newScale[r] * e.x[j]
		}
		e.x = append(e.x, act)
		e.d = append(e.d, 0)
		e.stat = append(e.stat, stBasic)
		e.pos = append(e.pos, oldM+r)
		e.head = append(e.head, k)
		e.dse = append(e.dse, 1)
		e.devex = append(e.devex, 1)
	}
	if e.wcost != nil {
		e.wcost = append(e.wcost, make([]float64, len(rows))...)
	}
	e.buildRows()
	e.allocWork()
	return nil
}

// removeRows deletes rows; nonbasic logicals are first pivoted into the
// basis.
func (e *engine) removeRows(idx []int) error {
	del := make([]bool, e.m)
	for _, i := range idx {
		if i < 0 || i >= e.m || del[i] {
			return fmt.Errorf("%w: row index %d out of range or repeated", ErrBadInput, i)
		}
		del[i] = true
	}
	if len(idx) == 0 {
		return nil
	}
	e.dualsFresh = false
	// Pivot nonbasic logicals of deleted rows into the basis.
	for _, i := range idx {
		l := e.n + i
		if e.stat[l] == stBasic {
			continue
		}
		if e.needFactor || e.fac.numUpdates() > 0 {
			e.refactor()
		}
		alpha := e.wrk1
		clear(alpha)
		alpha[i] = -1
		e.fac.ftran(alpha)
		best, bp := 0.0, -1
		for p, v := range alpha {
			k := e.head[p]
			if k >= e.n && del[k-e.n] {
				continue
			}
			if a := math.Abs(v); a > best {
				best, bp = a, p
			}
		}
		if bp < 0 || best < pivotTol {
			panic("simplex: cannot pivot a removed row's logical into the basis")
		}
		k := e.head[bp]
		e.pos[k] = -1
		e.stat[k] = stBasic // set below
		e.setNonbasicNear(k)
		e.head[bp] = l
		e.pos[l] = bp
		e.stat[l] = stBasic
		e.needFactor = true
	}
	// Renumber.
	newIdx := make([]int, e.m)
	nm := 0
	for i := 0; i < e.m; i++ {
		if del[i] {
			newIdx[i] = -1
		} else {
			newIdx[i] = nm
			nm++
		}
	}
	starts := make([]int, e.n+1)
	ri := e.rowIdx[:0:0]
	rv := e.val[:0:0]
	for j := 0; j < e.n; j++ {
		starts[j] = len(ri)
		for t := e.colStart[j]; t < e.colStart[j+1]; t++ {
			if ni := newIdx[e.rowIdx[t]]; ni >= 0 {
				ri = append(ri, ni)
				rv = append(rv, e.val[t])
			}
		}
	}
	starts[e.n] = len(ri)
	e.colStart, e.rowIdx, e.val = starts, ri, rv
	keepVar := func(k int) bool { return k < e.n || !del[k-e.n] }
	filt := func(a []float64) []float64 {
		out := a[:0:0]
		for k, v := range a {
			if keepVar(k) {
				out = append(out, v)
			}
		}
		return out
	}
	e.cost, e.lo, e.up, e.x, e.d, e.devex = filt(e.cost), filt(e.lo), filt(e.up), filt(e.x), filt(e.d), filt(e.devex)
	if e.wcost != nil {
		e.wcost = filt(e.wcost)
	}
	var st []vstat
	for k, s := range e.stat {
		if keepVar(k) {
			st = append(st, s)
		}
	}
	e.stat = st
	var rs []float64
	for i, s := range e.rowScale {
		if !del[i] {
			rs = append(rs, s)
		}
	}
	e.rowScale = rs
	newVar := func(k int) int {
		if k < e.n {
			return k
		}
		return e.n + newIdx[k-e.n]
	}
	var head []int
	var dse []float64
	for p, k := range e.head {
		if keepVar(k) {
			head = append(head, newVar(k))
			dse = append(dse, e.dse[p])
		}
	}
	e.m = nm
	e.head, e.dse = head, dse
	if len(e.head) != e.m {
		panic("simplex: basis size mismatch after row removal")
	}
	e.pos = make([]int, e.n+e.m)
	for k := range e.pos {
		e.pos[k] = -1
	}
	for p, k := range e.head {
		e.pos[k] = p
	}
	e.buildRows()
	e.allocWork()
	return nil
}

// tableauRow computes the unscaled tableau row of position pos.
func (e *engine) tableauRow(pos int, row []float64) []float64 {
	N := e.n + e.m
	if cap(row) < N {
		row = make([]float64, N)
	}
	row = row[:N]
	clear(row)
	if e.needFactor {
		e.refactor()
	}
	rho := e.wrk3
	clear(rho)
	rho[pos] = 1
	e.fac.btran(rho)
	e.pivotRow(rho)
	kb := e.head[pos]
	sb := e.scaleOf(kb)
	for _, k := range e.plist {
		v := e.prow[k] * sb / e.scaleOf(k)
		if math.Abs(v) > 1e-12 {
			row[k] = v
		}
	}
	row[kb] = 1
	return row
}

// scaleOf is σ_k with x_k = σ_k·x̃_k.
func (e *engine) scaleOf(k int) float64 {
	if k < e.n {
		return e.colScale[k]
	}
	return 1 / e.rowScale[k-e.n]
}

func (e *engine) clone() *engine {
	c := *e
	c.colStart = append([]int(nil), e.colStart...)
	c.rowIdx = append([]int(nil), e.rowIdx...)
	c.val = append([]float64(nil), e.val...)
	c.rStart = append([]int(nil), e.rStart...)
	c.rCol = append([]int(nil), e.rCol...)
	c.rVal = append([]float64(nil), e.rVal...)
	c.colScale = append([]float64(nil), e.colScale...)
	c.rowScale = append([]float64(nil), e.rowScale...)
	c.cost = append([]float64(nil), e.cost...)
	if e.wcost != nil {
		c.wcost = append([]float64(nil), e.wcost...)
	}
	c.lo = append([]float64(nil), e.lo...)
	c.up = append([]float64(nil), e.up...)
	c.x = append([]float64(nil), e.x...)
	c.d = append([]float64(nil), e.d...)
	c.stat = append([]vstat(nil), e.stat...)
	c.head = append([]int(nil), e.head...)
	c.pos = append([]int(nil), e.pos...)
	c.dse = append([]float64(nil), e.dse...)
	c.devex = append([]float64(nil), e.devex...)
	c.ray = append([]float64(nil), e.ray...)
	c.rng = rand.New(rand.NewSource(e.rng.Int63()))
	c.plist = nil
	c.allocWork()
	if !e.needFactor {
		c.fac = e.fac.clone()
		c.needFactor = false
	}
	return &c
}
