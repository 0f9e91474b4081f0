package presolve

import (
	"fmt"
	"math"
	"sort"

	"github.com/mrbound/mrbound/model"
)

const (
	// feasTol is the violation of a row or bound accepted as zero.
	feasTol = 1e-9
	// intTol is how far from an integer a tightened integer bound may be and
	// still be rounded to it.
	intTol = 1e-6
	// minBoundGain is the smallest improvement of a bound worth recording, so
	// that tightening loops terminate.
	minBoundGain = 1e-7
	// maxPasses bounds the number of presolve passes.
	maxPasses = 20
	// coefTol is the smallest coefficient kept after coefficient tightening;
	// smaller ones would be numerical noise.
	coefTol = 1e-9
	// maxAbsBound is the largest finite bound produced by tightening: beyond it
	// a bound is treated as infinite.
	maxAbsBound = 1e9
)

// Status is what presolve established. Zero is unknown.
type Status int8

const (
	StatusUnknown Status = iota
	// Reduced: the returned model is equivalent to the original.
	Reduced
	// Infeasible: presolve proved that no feasible point exists.
	Infeasible
	// Stopped: the stop function said to stop (RunDeadline); there is no
	// model.
	Stopped
)

func (s Status) String() string {
	switch s {
	case Reduced:
		return "reduced"
	case Infeasible:
		return "infeasible"
	case Stopped:
		return "stopped"
	}
	return "unknown"
}

// MarshalText encodes the status by name.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Stats counts the reductions made.
type Stats struct {
	Passes                       int
	RowsRemoved, ColsRemoved     int
	BoundsTightened, CoefsTightd int
	DuplicateRows                int
	// DualFixed and SlackCols count the columns removed by dual fixing and
	// as slack column singletons (both included in ColsRemoved).
	DualFixed, SlackCols int
	// Stopped says RunStop's stop ended the presolve early: the model is
	// valid, only less reduced.
	Stopped bool
}

func (s Stats) String() string {
	return fmt.Sprintf("%d passes, %d rows and %d columns removed (%d dual fixed, %d slacks), %d bounds and %d coefficients tightened, %d duplicate rows",
		s.Passes, s.RowsRemoved, s.ColsRemoved, s.DualFixed, s.SlackCols, s.BoundsTightened, s.CoefsTightd, s.DuplicateRows)
}

// Result is the outcome of Run.
type Result struct {
	Status Status
	// Model is the reduced model (same sense; the offset absorbs the fixed
	// columns). Nil when Status is Infeasible.
	Model *model.Model
	// Post maps reduced points back to original ones.
	Post *Postsolve
	// Reason says which row or column proved infeasibility.
	Reason string
	Stats  Stats
}

// Postsolve is the stack of reductions that removed columns.
type Postsolve struct {
	numOrig int
	// colMap[k] is the original index of reduced column k.
	colMap []int
	// steps lists, in the order they were made, the reductions that removed
	// a column: fixed at a value, or a slack column computed from its row.
	steps []postStep
}

// postStep restores one removed column: col = val, or, when slack is set,
// the value of col that puts the row's activity into [lo, up] (the row as it
// was when col was removed, whose other columns are restored by then),
// closest to 0 within [colLo, colUp]. A flag, not a non-nil row, marks a
// slack: a slack removed from a row where it was alone leaves row empty.
type postStep struct {
	col          int
	val          float64
	slack        bool
	row          []entry
	a            float64
	lo, up       float64
	colLo, colUp float64
}

// slackValue returns the value of a removed slack column for the original
// point x.
func (st postStep) slackValue(x []float64) float64 {
	r := 0.0
	for _, e := range st.row {
		r += e.val * x[e.col]
	}
	// a·v ∈ [lo − r, up − r].
	vlo, vup := (st.lo-r)/st.a, (st.up-r)/st.a
	if st.a < 0 {
		vlo, vup = vup, vlo
	}
	vlo, vup = math.Max(vlo, st.colLo), math.Min(vup, st.colUp)
	if vlo > vup {
		// Only by rounding: take the side the row needs.
		return math.Max(st.colLo, math.Min(st.colUp, vlo))
	}
	return math.Max(vlo, math.Min(vup, 0))
}

// ColMap returns the original index of each reduced column.
func (p *Postsolve) ColMap() []int { return p.colMap }

// Primal returns the original point for a point xr of the reduced model.
func (p *Postsolve) Primal(xr []float64) []float64 {
	x := make([]float64, p.numOrig)
	for k, j := range p.colMap {
		x[j] = xr[k]
	}
	for i := len(p.steps) - 1; i >= 0; i-- {
		st := p.steps[i]
		if st.slack {
			x[st.col] = st.slackValue(x)
		} else {
			x[st.col] = st.val
		}
	}
	return x
}

// Reduce returns the reduced point of an original point (the columns kept).
func (p *Postsolve) Reduce(x []float64) []float64 {
	xr := make([]float64, len(p.colMap))
	for k, j := range p.colMap {
		xr[k] = x[j]
	}
	return xr
}

type entry struct {
	col int
	val float64
}

type work struct {
	m        *model.Model
	obj      []float64
	lo, up   []float64
	isInt    []bool
	rowLo    []float64
	rowUp    []float64
	rows     [][]entry
	colRows  [][]int
	colAlive []bool
	rowAlive []bool
	offset   float64
	post     *Postsolve
	stats    Stats
	changed  bool
	infeas   string
	stop     func() bool
	visits   int
}

// stopped asks the stop function and records a stop.
func (w *work) stopped() bool {
	if w.stop == nil || w.stats.Stopped {
		return w.stats.Stopped
	}
	w.stats.Stopped = w.stop()
	return w.stats.Stopped
}

// stopNow counts a visit and asks the stop function every stopEvery visits.
func (w *work) stopNow() bool {
	w.visits++
	return w.visits%stopEvery == 0 && w.stopped() || w.stats.Stopped
}

// Run presolves m, which is not modified.
func Run(m *model.Model) Result { return RunStop(m, nil) }

// stopEvery is how many rows or columns a pass visits between two calls of
// the stop function (a call may read the clock).
const stopEvery = 256

// RunStop is Run that ends early once stop (nil: never) returns true, for a
// wall deadline: it is asked before each pass and every stopEvery rows or
// columns within one. Each reduction is complete when stop is asked, so an
// early end gives a valid, less reduced model (Stats.Stopped).
func RunStop(m *model.Model, stop func() bool) Result { return run(m, stop, true) }

// RunDeadline is RunStop for a caller with no use for a model once stopped
// (a solve past its deadline): stop is also asked while the work arrays are
// set up and while the reduced model is built, and a stop anywhere returns
// status Stopped and no model. (Setting up and building a time-indexed
// model of 10^5 columns took a tenth of a second past a deadline.)
func RunDeadline(m *model.Model, stop func() bool) Result { return run(m, stop, false) }

// run is RunStop (keep: a model even after a stop) or RunDeadline.
func run(m *model.Model, stop func() bool, keep bool) Result {
	w := newWork(m, stop, keep)
	if w.stats.Stopped && !keep {
		return Result{Status: Stopped, Stats: w.stats}
	}
	for w.infeas == "" && w.stats.Passes < maxPasses && !w.stopped() {
		w.stats.Passes++
		w.changed = false
		w.pass()
		if !w.changed {
			break
		}
	}
	if w.infeas != "" {
		return Result{Status: Infeasible, Reason: w.infeas, Stats: w.stats}
	}
	if w.stats.Stopped && !keep {
		return Result{Status: Stopped, Stats: w.stats}
	}
	out := w.build(!keep)
	if out == nil {
		return Result{Status: Stopped, Stats: w.stats}
	}
	return Result{Status: Reduced, Model: out, Post: w.post, Stats: w.stats}
}

// newWork sets up the work arrays of m; when stoppable, a stop (stop may
// be nil) leaves them half made, with Stats.Stopped.
func newWork(m *model.Model, stop func() bool, keep bool) *work {
	n, r := m.NumCols(), m.NumRows()
	w := &work{
		m: m, obj: append([]float64(nil), m.Obj...),
		lo: append([]float64(nil), m.ColLower...), up: append([]float64(nil), m.ColUpper...),
		isInt: make([]bool, n),
		rowLo: append([]float64(nil), m.RowLower...), rowUp: append([]float64(nil), m.RowUpper...),
		rows: make([][]entry, r), colRows: make([][]int, n),
		colAlive: make([]bool, n), rowAlive: make([]bool, r),
		offset: m.ObjOffset,
		post:   &Postsolve{numOrig: n},
		stop:   stop,
	}
	for j := 0; j < n; j++ {
		if !keep && w.stopNow() {
			return w
		}
		w.colAlive[j] = true
		w.isInt[j] = m.ColType[j].IsInteger()
		if w.isInt[j] {
			w.lo[j] = math.Ceil(w.lo[j] - intTol)
			w.up[j] = math.Floor(w.up[j] + intTol)
			if w.lo[j] > w.up[j] {
				w.infeas = "column " + m.ColName(j) + " has no integer value in its bounds"
			}
		}
		for k := m.ColStart[j]; k < m.ColStart[j+1]; k++ {
			i := m.RowIndex[k]
			w.rows[i] = append(w.rows[i], entry{j, m.Value[k]})
			w.colRows[j] = append(w.colRows[j], i)
		}
	}
	for i := range w.rowAlive {
		w.rowAlive[i] = true
	}
	return w
}

func (w *work) pass() {
	for i := range w.rows {
		if w.infeas != "" || w.stopNow() {
			return
		}
		if !w.rowAlive[i] {
			continue
		}
		switch len(w.rows[i]) {
		case 0:
			if w.rowLo[i] > feasTol || w.rowUp[i] < -feasTol {
				w.infeas = "row " + w.m.RowName(i) + " is empty with bounds excluding 0"
				return
			}
			w.removeRow(i)
		case 1:
			w.singletonRow(i)
		default:
			w.activityRow(i)
		}
	}
	if w.infeas != "" || w.stopped() {
		return
	}
	w.duplicateRows()
	for j := range w.obj {
		if w.infeas != "" || w.stopNow() {
			return
		}
		if !w.colAlive[j] {
			continue
		}
		if w.up[j]-w.lo[j] <= feasTol {
			w.fixCol(j, w.lo[j])
			continue
		}
		if w.colCount(j) == 0 {
			w.emptyCol(j)
			continue
		}
		if w.dualFix(j) {
			continue
		}
		w.slackCol(j)
	}
}

func (w *work) removeRow(i int) {
	w.rowAlive[i] = false
	w.rows[i] = nil
	w.stats.RowsRemoved++
	w.changed = true
}

func (w *work) colCount(j int) int {
	c := 0
	for _, i := range w.colRows[j] {
		if w.rowAlive[i] {
			c++
		}
	}
	return c
}

// fixCol substitutes x_j = v everywhere and records it.
func (w *work) fixCol(j int, v float64) {
	w.offset += w.obj[j] * v
	for _, i := range w.colRows[j] {
		if !w.rowAlive[i] {
			continue
		}
		row := w.rows[i]
		for k, e := range row {
			if e.col == j {
				a := e.val * v
				w.rowLo[i] -= a
				w.rowUp[i] -= a
				w.rows[i] = append(row[:k], row[k+1:]...)
				break
			}
		}
	}
	w.colAlive[j] = false
	w.post.steps = append(w.post.steps, postStep{col: j, val: v})
	w.stats.ColsRemoved++
	w.changed = true
}

// emptyCol fixes a column that appears in no row at its best bound, unless
// the objective pushes it to an infinite bound (left to the solver, which
// then reports unboundedness if the rest is feasible).
func (w *work) emptyCol(j int) {
	c, lo, up := w.obj[j], w.lo[j], w.up[j]
	if w.m.Sense == model.Maximize {
		c = -c
	}
	var v float64
	switch {
	case c > 0:
		v = lo
	case c < 0:
		v = up
	default:
		v = math.Max(lo, math.Min(up, 0))
	}
	if math.IsInf(v, 0) {
		return
	}
	w.fixCol(j, v)
}

// locks counts the alive rows that block a decrease (down) and an increase
// (up) of column j.
func (w *work) locks(j int) (down, up int) {
	for _, i := range w.colRows[j] {
		if !w.rowAlive[i] {
			continue
		}
		a := w.coef(i, j)
		hasLo, hasUp := !math.IsInf(w.rowLo[i], -1), !math.IsInf(w.rowUp[i], 1)
		if a < 0 {
			hasLo, hasUp = hasUp, hasLo
		}
		if hasLo {
			down++
		}
		if hasUp {
			up++
		}
	}
	return down, up
}

// coef returns the coefficient of column j in row i (0 when absent).
func (w *work) coef(i, j int) float64 {
	for _, e := range w.rows[i] {
		if e.col == j {
			return e.val
		}
	}
	return 0
}

// dualFix fixes column j at a finite bound when the objective does not push
// it away from that bound and no row blocks the move towards it (dual
// fixing): for every feasible point, the point with x_j at that bound is
// feasible and no worse, so an optimum survives. It reports whether j was
// fixed.
func (w *work) dualFix(j int) bool {
	c := w.obj[j]
	if w.m.Sense == model.Maximize {
		c = -c
	}
	down, up := w.locks(j)
	switch {
	case c >= 0 && down == 0 && !math.IsInf(w.lo[j], -1):
		w.fixCol(j, w.lo[j])
	case c <= 0 && up == 0 && !math.IsInf(w.up[j], 1):
		w.fixCol(j, w.up[j])
	default:
		return false
	}
	w.stats.DualFixed++
	return true
}

// slackCol removes a continuous column without cost that appears in one row
// only: the row lo ≤ r + a·v ≤ up with v ∈ [l, u] says exactly that r lies
// in [lo − max a·v, up − min a·v], and postsolve picks v from r.
func (w *work) slackCol(j int) {
	if w.isInt[j] || w.obj[j] != 0 || w.colCount(j) != 1 {
		return
	}
	i := -1
	for _, r := range w.colRows[j] {
		if w.rowAlive[r] {
			i = r
		}
	}
	a := w.coef(i, j)
	if a == 0 {
		return
	}
	avLo, avUp := a*w.lo[j], a*w.up[j]
	if a < 0 {
		avLo, avUp = avUp, avLo
	}
	if math.IsNaN(avLo) || math.IsNaN(avUp) {
		return
	}
	st := postStep{col: j, slack: true, a: a, lo: w.rowLo[i], up: w.rowUp[i], colLo: w.lo[j], colUp: w.up[j]}
	row := w.rows[i]
	for k, e := range row {
		if e.col == j {
			row = append(row[:k:k], row[k+1:]...)
			break
		}
	}
	st.row = append([]entry(nil), row...)
	w.rows[i] = row
	w.rowLo[i] -= avUp
	w.rowUp[i] -= avLo
	w.colAlive[j] = false
	w.post.steps = append(w.post.steps, st)
	w.stats.ColsRemoved++
	w.stats.SlackCols++
	w.changed = true
}

// setBounds tightens column bounds to [lo, up], rounding for integers, and
// detects an empty domain.
func (w *work) setBounds(j int, lo, up float64, why int) {
	if w.isInt[j] {
		lo = math.Ceil(lo - intTol)
		up = math.Floor(up + intTol)
	}
	if math.Abs(lo) > maxAbsBound {
		lo = math.Inf(-1)
	}
	if math.Abs(up) > maxAbsBound {
		up = math.Inf(1)
	}
	changed := false
	if lo > w.lo[j]+minBoundGain {
		w.lo[j] = lo
		changed = true
	}
	if up < w.up[j]-minBoundGain {
		w.up[j] = up
		changed = true
	}
	if !changed {
		return
	}
	w.changed = true
	w.stats.BoundsTightened++
	if w.lo[j] > w.up[j] {
		if w.lo[j]-w.up[j] <= 10*feasTol && !w.isInt[j] {
			w.up[j] = w.lo[j]
			return
		}
		w.infeas = fmt.Sprintf("column %s: bounds [%g, %g] cross (row %s)", w.m.ColName(j), w.lo[j], w.up[j], w.m.RowName(why))
	}
}

func (w *work) singletonRow(i int) {
	e := w.rows[i][0]
	lo, up := w.rowLo[i]/e.val, w.rowUp[i]/e.val
	if e.val < 0 {
		lo, up = up, lo
	}
	// Keep tiny infeasibilities from rounding: widen by the tolerance for
	// continuous columns.
	if !w.isInt[e.col] {
		if lo > w.lo[e.col] && lo <= w.up[e.col]+feasTol {
			lo = math.Min(lo, w.up[e.col])
		}
		if up < w.up[e.col] && up >= w.lo[e.col]-feasTol {
			up = math.Max(up, w.lo[e.col])
		}
	}
	w.setBounds(e.col, lo, up, i)
	w.removeRow(i)
}

// activity returns the minimum and maximum activity of row i, each as a
// finite sum plus the number of infinite contributions.
func (w *work) activity(i int) (minF float64, minInf int, maxF float64, maxInf int) {
	for _, e := range w.rows[i] {
		l, u := w.lo[e.col], w.up[e.col]
		if e.val > 0 {
			if math.IsInf(l, -1) {
				minInf++
			} else {
				minF += e.val * l
			}
			if math.IsInf(u, 1) {
				maxInf++
			} else {
				maxF += e.val * u
			}
		} else {
			if math.IsInf(u, 1) {
				minInf++
			} else {
				minF += e.val * u
			}
			if math.IsInf(l, -1) {
				maxInf++
			} else {
				maxF += e.val * l
			}
		}
	}
	return
}

func (w *work) activityRow(i int) {
	minF, minInf, maxF, maxInf := w.activity(i)
	lo, up := w.rowLo[i], w.rowUp[i]
	scale := 1.0
	for _, e := range w.rows[i] {
		scale = math.Max(scale, math.Abs(e.val))
	}
	tol := feasTol * scale * 10
	if (minInf == 0 && minF > up+tol*math.Max(1, math.Abs(up))) || (maxInf == 0 && maxF < lo-tol*math.Max(1, math.Abs(lo))) {
		w.infeas = "row " + w.m.RowName(i) + " cannot be satisfied within the column bounds"
		return
	}
	if (minInf == 0 && minF >= lo-tol || math.IsInf(lo, -1)) && (maxInf == 0 && maxF <= up+tol || math.IsInf(up, 1)) {
		w.removeRow(i)
		return
	}
	// Bound tightening for integer columns.
	for _, e := range w.rows[i] {
		j := e.col
		if !w.isInt[j] {
			continue
		}
		l, u := w.lo[j], w.up[j]
		// Residual minimum and maximum activity without column j.
		var rMin, rMax float64
		rMinOK, rMaxOK := false, false
		if e.val > 0 {
			if !math.IsInf(l, -1) && minInf == 0 {
				rMin, rMinOK = minF-e.val*l, true
			} else if math.IsInf(l, -1) && minInf == 1 {
				rMin, rMinOK = minF, true
			}
			if !math.IsInf(u, 1) && maxInf == 0 {
				rMax, rMaxOK = maxF-e.val*u, true
			} else if math.IsInf(u, 1) && maxInf == 1 {
				rMax, rMaxOK = maxF, true
			}
		} else {
			if !math.IsInf(u, 1) && minInf == 0 {
				rMin, rMinOK = minF-e.val*u, true
			} else if math.IsInf(u, 1) && minInf == 1 {
				rMin, rMinOK = minF, true
			}
			if !math.IsInf(l, -1) && maxInf == 0 {
				rMax, rMaxOK = maxF-e.val*l, true
			} else if math.IsInf(l, -1) && maxInf == 1 {
				rMax, rMaxOK = maxF, true
			}
		}
		nl, nu := l, u
		// a·x_j ≤ up − rMin and a·x_j ≥ lo − rMax.
		if rMinOK && !math.IsInf(up, 1) {
			b := (up - rMin) / e.val
			if e.val > 0 {
				nu = math.Min(nu, b)
			} else {
				nl = math.Max(nl, b)
			}
		}
		if rMaxOK && !math.IsInf(lo, -1) {
			b := (lo - rMax) / e.val
			if e.val > 0 {
				nl = math.Max(nl, b)
			} else {
				nu = math.Min(nu, b)
			}
		}
		if nl > l || nu < u {
			w.setBounds(j, nl, nu, i)
			if w.infeas != "" {
				return
			}
			minF, minInf, maxF, maxInf = w.activity(i)
		}
	}
	w.coefTighten(i)
}

// coefTighten applies Savelsbergh's coefficient tightening to binary columns
// of a one-sided row.
func (w *work) coefTighten(i int) {
	lo, up := w.rowLo[i], w.rowUp[i]
	var sign float64
	switch {
	case math.IsInf(lo, -1) && !math.IsInf(up, 1):
		sign = 1
	case math.IsInf(up, 1) && !math.IsInf(lo, -1):
		sign = -1
	default:
		return
	}
	// Work on the ≤ form: sign·a·x ≤ sign·bound.
	b := up
	if sign < 0 {
		b = -lo
	}
	var maxAct float64
	for _, e := range w.rows[i] {
		a := sign * e.val
		l, u := w.lo[e.col], w.up[e.col]
		if a > 0 {
			if math.IsInf(u, 1) {
				return
			}
			maxAct += a * u
		} else {
			if math.IsInf(l, -1) {
				return
			}
			maxAct += a * l
		}
	}
	row := w.rows[i]
	for k := range row {
		j := row[k].col
		if !w.isInt[j] || w.lo[j] != 0 || w.up[j] != 1 {
			continue
		}
		a := sign * row[k].val
		if a > 0 {
			d := b - (maxAct - a)
			if d > intTol && a-d > coefTol {
				row[k].val = sign * (a - d)
				b -= d
				maxAct -= d
				w.stats.CoefsTightd++
				w.changed = true
			}
		} else {
			d := b - (maxAct + a)
			if d > intTol && -(a+d) > coefTol {
				row[k].val = sign * (a + d)
				maxAct += 0 // x_j = 0 at the maximum: unchanged
				w.stats.CoefsTightd++
				w.changed = true
			}
		}
	}
	if sign > 0 {
		w.rowUp[i] = b
	} else {
		w.rowLo[i] = -b
	}
}

// duplicateRows merges rows that are multiples of each other.
func (w *work) duplicateRows() {
	type key struct {
		n    int
		hash uint64
	}
	groups := map[key][]int{}
	for i, row := range w.rows {
		// Nothing is reduced before the groups are made: a stop here
		// leaves the model as it was (s21opt: this loop ran 0.1 s past a
		// deadline on a 1-ms time-indexed model).
		if w.stopNow() {
			return
		}
		if !w.rowAlive[i] || len(row) < 2 {
			continue
		}
		sortRow(row)
		h := uint64(14695981039346656037)
		for _, e := range row {
			h ^= uint64(e.col)
			h *= 1099511628211
			r := math.Round(e.val/row[0].val*1e6) / 1e6
			h ^= math.Float64bits(r)
			h *= 1099511628211
		}
		k := key{len(row), h}
		groups[k] = append(groups[k], i)
	}
	keys := make([]key, 0, len(groups))
	for k, g := range groups {
		if len(g) > 1 {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(a, b int) bool { return groups[keys[a]][0] < groups[keys[b]][0] })
	for _, k := range keys {
		if w.stopNow() {
			return // each merge is complete
		}
		g := groups[k]
		for x := 0; x < len(g); x++ {
			i := g[x]
			if !w.rowAlive[i] {
				continue
			}
			for y := x + 1; y < len(g); y++ {
				r := g[y]
				if !w.rowAlive[r] {
					continue
				}
				lambda, ok := parallel(w.rows[i], w.rows[r])
				if !ok {
					continue
				}
				// row r = lambda·row i, so row i ∈ [lo_r, up_r]/lambda.
				lo, up := w.rowLo[r]/lambda, w.rowUp[r]/lambda
				if lambda < 0 {
					lo, up = up, lo
				}
				w.rowLo[i] = math.Max(w.rowLo[i], lo)
				w.rowUp[i] = math.Min(w.rowUp[i], up)
				if w.rowLo[i] > w.rowUp[i] {
					if w.rowLo[i]-w.rowUp[i] > feasTol*math.Max(1, math.Abs(w.rowUp[i])) {
						w.infeas = "rows " + w.m.RowName(i) + " and " + w.m.RowName(r) + " are parallel with disjoint bounds"
						return
					}
					w.rowUp[i] = w.rowLo[i]
				}
				w.removeRow(r)
				w.stats.DuplicateRows++
			}
		}
	}
}

func sortRow(row []entry) {
	sort.Slice(row, func(a, b int) bool { return row[a].col < row[b].col })
}

// parallel reports whether b = lambda·a exactly up to a relative tolerance.
func parallel(a, b []entry) (float64, bool) {
	if len(a) != len(b) {
		return 0, false
	}
	lambda := b[0].val / a[0].val
	for k := range a {
		if a[k].col != b[k].col || math.Abs(b[k].val-lambda*a[k].val) > 1e-12*math.Max(1, math.Abs(b[k].val)) {
			return 0, false
		}
	}
	return lambda, true
}

// build assembles the reduced model.
// build is the reduced model, or nil after a stop when stoppable.
func (w *work) build(stoppable bool) *model.Model {
	m := w.m
	newRow := make([]int, len(w.rows))
	out := &model.Model{Name: m.Name, Sense: m.Sense, ObjOffset: w.offset}
	nr := 0
	for i, alive := range w.rowAlive {
		newRow[i] = -1
		if !alive {
			continue
		}
		newRow[i] = nr
		nr++
		out.RowLower = append(out.RowLower, w.rowLo[i])
		out.RowUpper = append(out.RowUpper, w.rowUp[i])
		if m.RowNames != nil {
			out.RowNames = append(out.RowNames, m.RowNames[i])
		}
	}
	// Column-wise entries from the current rows.
	cols := make([][]entry, len(w.obj))
	for i, row := range w.rows {
		if stoppable && w.stopNow() {
			return nil
		}
		if !w.rowAlive[i] {
			continue
		}
		for _, e := range row {
			if w.colAlive[e.col] && e.val != 0 {
				cols[e.col] = append(cols[e.col], entry{newRow[i], e.val})
			}
		}
	}
	out.ColStart = []int{0}
	for j := range w.obj {
		if stoppable && w.stopNow() {
			return nil
		}
		if !w.colAlive[j] {
			continue
		}
		w.post.colMap = append(w.post.colMap, j)
		out.Obj = append(out.Obj, w.obj[j])
		out.ColLower = append(out.ColLower, w.lo[j])
		out.ColUpper = append(out.ColUpper, w.up[j])
		out.ColType = append(out.ColType, m.ColType[j])
		if m.ColNames != nil {
			out.ColNames = append(out.ColNames, m.ColNames[j])
		}
		c := cols[j]
		sort.Slice(c, func(a, b int) bool { return c[a].col < c[b].col })
		for _, e := range c {
			out.RowIndex = append(out.RowIndex, e.col)
			out.Value = append(out.Value, e.val)
		}
		out.ColStart = append(out.ColStart, len(out.RowIndex))
	}
	if out.Obj == nil {
		out.Obj, out.ColLower, out.ColUpper, out.ColType = []float64{}, []float64{}, []float64{}, []model.VarType{}
	}
	if out.RowLower == nil {
		out.RowLower, out.RowUpper = []float64{}, []float64{}
	}
	return out
}
