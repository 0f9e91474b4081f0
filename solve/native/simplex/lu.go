package simplex

import "math"

// LU tolerances.
const (
	// markowitzThreshold u: a pivot must satisfy |a| ≥ u·max|column|.
	markowitzThreshold = 0.1
	// luPivotAbsTol: entries smaller than this are never pivots; a column
	// without a larger entry makes the basis singular.
	luPivotAbsTol = 1e-11
	// luDropTol: eliminated entries smaller than this are dropped.
	luDropTol = 1e-14
	// markowitzSearch is how many candidate columns the Markowitz search
	// examines once one acceptable pivot has been found.
	markowitzSearch = 4
)

// spEntry is one entry of a sparse column in the active submatrix.
type spEntry struct {
	row int
	val float64
}

// factor is B = L·U in a row and column permutation, kept up to date by
// Forrest–Tomlin updates. B's columns are indexed by basis position 0..m-1
// and its rows by constraint row; FTRAN maps a vector over rows to one over
// positions, BTRAN the other way.
//
// FTRAN applies the L etas, then the R etas of the updates (row
// operations), then solves with U in pivot order; BTRAN does the transposes
// in reverse. An update replaces the column of the leaving position by the
// spike L⁻¹a_q (saved by ftranSpike), moves it to the end of the pivot order
// and eliminates the old pivot row, recording the multipliers as an R eta.
type factor struct {
	m int
	// L as a sequence of column etas: for k, b[lidx[i]] -= lval[i]·b[lpiv[k]]
	// for i in lstart[k]..lstart[k+1].
	lpiv, lstart, lidx []int
	lval               []float64
	// R etas of the updates: b[rpiv[k]] -= Σ rval[i]·b[ridx[i]] for i in
	// rstart[k]..rstart[k+1].
	rpiv, rstart, ridx []int
	rval               []float64
	// U by position: the pivot order, each position's index in it, its pivot
	// row and diagonal, its off-diagonal column entries (rows pivoted
	// earlier) and, by row, the off-diagonal row entries (row field = the
	// position, pivoted later).
	order, ordIdx []int
	rowOf         []int
	diag          []float64
	ucol, urow    [][]spEntry
	uNnz, uNnz0   int
	// spike saved by ftranSpike for the next update.
	spike    []float64
	hasSpike bool
	// Pivot sequence of the last factorisation (build-time).
	prow, pcol []int
	upiv       []float64
	// work arrays
	work, wrow []float64
	// Hyper-sparse solve structures (hyper.go), built by buildHyper: the
	// position pivoting on each row, the L eta pivoting on each row (−1 if
	// none), Lᵀ by source row, the search marks and stacks, the pattern
	// under construction and the nonzero rows of the saved spike.
	posOfRow, lEtaOf                []int
	ltStart, ltIdx                  []int
	ltVal                           []float64
	mark                            []int
	stamp                           int
	dfsStack, dfsNext, dfsPost, pat []int
	spikeIdx                        []int
	// nHyper counts the solves completed on the hyper-sparse path.
	nHyper int
	// factorisation work storage, reused between calls
	fcols  [][]spEntry
	frows  [][]int
	fints  []int
	fbools []bool
}

func newFactor(m int) *factor {
	return &factor{m: m, work: make([]float64, m), wrow: make([]float64, m), spike: make([]float64, m)}
}

// clone returns a deep copy of the factors (work storage is not shared).
func (f *factor) clone() *factor {
	ci := func(a []int) []int { return append([]int(nil), a...) }
	cf := func(a []float64) []float64 { return append([]float64(nil), a...) }
	cs := func(a [][]spEntry) [][]spEntry {
		out := make([][]spEntry, len(a))
		for i, v := range a {
			out[i] = append([]spEntry(nil), v...)
		}
		return out
	}
	g := &factor{m: f.m, work: make([]float64, f.m), wrow: make([]float64, f.m), spike: make([]float64, f.m),
		lpiv: ci(f.lpiv), lstart: ci(f.lstart), lidx: ci(f.lidx), lval: cf(f.lval),
		rpiv: ci(f.rpiv), rstart: ci(f.rstart), ridx: ci(f.ridx), rval: cf(f.rval),
		order: ci(f.order), ordIdx: ci(f.ordIdx), rowOf: ci(f.rowOf), diag: cf(f.diag),
		ucol: cs(f.ucol), urow: cs(f.urow), uNnz: f.uNnz, uNnz0: f.uNnz0}
	if f.posOfRow != nil {
		g.buildHyper()
	}
	return g
}

// numUpdates is the number of updates since the factorisation.
func (f *factor) numUpdates() int { return len(f.rpiv) }

// filled reports whether the updates have doubled the size of U.
func (f *factor) filled() bool { return f.uNnz > 2*f.uNnz0+f.m }

// factorize computes the LU of the m×m matrix whose column at position p is
// given by col(p). It returns the positions it could not pivot (the basis is
// singular there) and, paired with them, rows left without a pivot; the
// caller replaces those columns by the logicals of those rows and
// factorises again.
func (f *factor) factorize(col func(p int) ([]int, []float64)) (badPos, badRows []int) {
	m := f.m
	f.lpiv, f.lstart, f.lidx, f.lval = f.lpiv[:0], append(f.lstart[:0], 0), f.lidx[:0], f.lval[:0]
	f.prow, f.pcol, f.upiv = f.prow[:0], f.pcol[:0], f.upiv[:0]
	f.rpiv, f.rstart, f.ridx, f.rval = f.rpiv[:0], append(f.rstart[:0], 0), f.ridx[:0], f.rval[:0]
	f.hasSpike = false
	if len(f.urow) < m {
		f.urow = make([][]spEntry, m)
		f.ucol = make([][]spEntry, m)
	}
	for i := 0; i < m; i++ {
		f.urow[i] = f.urow[i][:0]
		f.ucol[i] = f.ucol[i][:0]
	}

	if len(f.fcols) < m {
		f.fcols = make([][]spEntry, m)
		f.frows = make([][]int, m)
	}
	cols, rows := f.fcols[:m], f.frows[:m]
	for i := range rows {
		rows[i] = rows[i][:0]
	}
	for p := 0; p < m; p++ {
		ri, rv := col(p)
		c := cols[p][:0]
		for k, r := range ri {
			if rv[k] != 0 {
				c = append(c, spEntry{r, rv[k]})
				rows[r] = append(rows[r], p)
			}
		}
		cols[p] = c
	}
	// Column count buckets (doubly linked lists).
	if len(f.fints) < 6*m+2 {
		f.fints = make([]int, 6*m+2)
		f.fbools = make([]bool, 2*m)
	}
	bhead := f.fints[:m+2]
	for i := range bhead {
		bhead[i] = -1
	}
	bnext := f.fints[m+2 : 2*m+2]
	bprev := f.fints[2*m+2 : 3*m+2]
	bcnt := f.fints[3*m+2 : 4*m+2]
	insert := func(p int) {
		c := len(cols[p])
		if c > m+1 {
			c = m + 1
		}
		bcnt[p] = c
		bprev[p] = -1
		bnext[p] = bhead[c]
		if bhead[c] >= 0 {
			bprev[bhead[c]] = p
		}
		bhead[c] = p
	}
	remove := func(p int) {
		c := bcnt[p]
		if bprev[p] >= 0 {
			bnext[bprev[p]] = bnext[p]
		} else {
			bhead[c] = bnext[p]
		}
		if bnext[p] >= 0 {
			bprev[bnext[p]] = bprev[p]
		}
	}
	for p := 0; p < m; p++ {
		insert(p)
	}
	colDone := f.fbools[:m]
	rowDone := f.fbools[m : 2*m]
	clear(colDone)
	clear(rowDone)
	var rowSingle []int
	for r := 0; r < m; r++ {
		if len(rows[r]) == 1 {
			rowSingle = append(rowSingle, r)
		}
	}
	mark := f.fints[4*m+2 : 5*m+2]
	for i := range mark {
		mark[i] = -1
	}
	mult := make([]spEntry, 0, 16)

	colMax := func(p int) float64 {
		mx := 0.0
		for _, e := range cols[p] {
			if a := math.Abs(e.val); a > mx {
				mx = a
			}
		}
		return mx
	}

	for step := 0; step < m; step++ {
		pr, pc := -1, -1
		// Row singletons first: no fill.
		for len(rowSingle) > 0 && pc < 0 {
			r := rowSingle[len(rowSingle)-1]
			rowSingle = rowSingle[:len(rowSingle)-1]
			if rowDone[r] || len(rows[r]) != 1 {
				continue
			}
			p := rows[r][0]
			mx := colMax(p)
			for _, e := range cols[p] {
				if e.row == r && math.Abs(e.val) >= luPivotAbsTol && math.Abs(e.val) >= markowitzThreshold*mx {
					pr, pc = r, p
				}
			}
		}
		if pc < 0 {
			// Markowitz search over column buckets.
			bestCost := math.MaxInt
			bestAbs := 0.0
			examined := 0
			for c := 1; c <= m+1 && (examined < markowitzSearch || pc < 0); c++ {
				for p := bhead[c]; p >= 0; p = bnext[p] {
					mx := colMax(p)
					if mx < luPivotAbsTol {
						continue
					}
					found := false
					for _, e := range cols[p] {
						a := math.Abs(e.val)
						if a < markowitzThreshold*mx || a < luPivotAbsTol {
							continue
						}
						cost := (len(rows[e.row]) - 1) * (c - 1)
						if cost < bestCost || (cost == bestCost && a > bestAbs) {
							bestCost, bestAbs, pr, pc = cost, a, e.row, p
						}
						found = true
					}
					if found {
						examined++
					}
					if examined >= markowitzSearch || (pc >= 0 && bestCost <= (c-1)*(c-1)) {
						break
					}
				}
				if pc >= 0 && (bestCost <= (c-1)*(c-1) || bestCost <= c-1) {
					break
				}
			}
		}
		if pc < 0 {
			break // singular
		}
		// Pivot on (pr, pc).
		var piv float64
		mult = mult[:0]
		for _, e := range cols[pc] {
			if e.row == pr {
				piv = e.val
			}
		}
		for _, e := range cols[pc] {
			if e.row != pr {
				mult = append(mult, spEntry{e.row, e.val / piv})
				removeInt(&rows[e.row], pc)
				if len(rows[e.row]) == 1 {
					rowSingle = append(rowSingle, e.row)
				}
			}
		}
		remove(pc)
		cols[pc] = cols[pc][:0]
		colDone[pc] = true
		rowDone[pr] = true
		if len(mult) > 0 {
			f.lpiv = append(f.lpiv, pr)
			for _, e := range mult {
				f.lidx = append(f.lidx, e.row)
				f.lval = append(f.lval, e.val)
			}
			f.lstart = append(f.lstart, len(f.lidx))
		}
		f.prow = append(f.prow, pr)
		f.pcol = append(f.pcol, pc)
		f.upiv = append(f.upiv, piv)
		for _, j := range rows[pr] {
			if j == pc {
				continue
			}
			// Take a_{pr,j} out of column j and eliminate.
			cj := cols[j]
			var apj float64
			for k := range cj {
				if cj[k].row == pr {
					apj = cj[k].val
					cj[k] = cj[len(cj)-1]
					cj = cj[:len(cj)-1]
					break
				}
			}
			f.urow[pr] = append(f.urow[pr], spEntry{j, apj})
			f.ucol[j] = append(f.ucol[j], spEntry{pr, apj})
			if len(mult) > 0 {
				for k := range cj {
					mark[cj[k].row] = k
				}
				for _, e := range mult {
					delta := -e.val * apj
					if k := mark[e.row]; k >= 0 {
						cj[k].val += delta
					} else {
						cj = append(cj, spEntry{e.row, delta})
						mark[e.row] = len(cj) - 1
						rows[e.row] = append(rows[e.row], j)
					}
				}
				// Drop cancelled entries.
				for k := 0; k < len(cj); {
					mark[cj[k].row] = -1
					if math.Abs(cj[k].val) < luDropTol {
						removeInt(&rows[cj[k].row], j)
						if len(rows[cj[k].row]) == 1 {
							rowSingle = append(rowSingle, cj[k].row)
						}
						cj[k] = cj[len(cj)-1]
						cj = cj[:len(cj)-1]
						continue
					}
					k++
				}
			}
			cols[j] = cj
			remove(j)
			insert(j)
		}
		rows[pr] = rows[pr][:0]
	}
	npiv := len(f.prow)
	if npiv < m {
		for p := 0; p < m; p++ {
			if !colDone[p] {
				badPos = append(badPos, p)
			}
		}
		for r := 0; r < m; r++ {
			if !rowDone[r] {
				badRows = append(badRows, r)
			}
		}
		return badPos, badRows
	}
	f.order = append(f.order[:0], f.pcol...)
	f.ordIdx = resizeInt(f.ordIdx, m)
	f.rowOf = resizeInt(f.rowOf, m)
	f.diag = resizeFloat(f.diag, m)
	f.uNnz = 0
	for k, p := range f.pcol {
		f.ordIdx[p] = k
		f.rowOf[p] = f.prow[k]
		f.diag[p] = f.upiv[k]
		f.uNnz += len(f.ucol[p]) + 1
	}
	f.uNnz0 = f.uNnz
	f.buildHyper()
	return nil, nil
}

// ftran overwrites b (indexed by row) with B⁻¹b (indexed by position).
func (f *factor) ftran(b []float64) { f.solveF(b, false) }

// ftranSpike is ftran that also saves the spike L⁻¹b for the next update.
func (f *factor) ftranSpike(b []float64) { f.solveF(b, true) }

func (f *factor) solveF(b []float64, save bool) {
	for k, p := range f.lpiv {
		v := b[p]
		if v == 0 {
			continue
		}
		for t := f.lstart[k]; t < f.lstart[k+1]; t++ {
			b[f.lidx[t]] -= f.lval[t] * v
		}
	}
	for k, p := range f.rpiv {
		v := b[p]
		for t := f.rstart[k]; t < f.rstart[k+1]; t++ {
			v -= f.rval[t] * b[f.ridx[t]]
		}
		b[p] = v
	}
	if save {
		copy(f.spike, b)
		f.spikeIdx = f.spikeIdx[:0]
		for i, v := range b {
			if v != 0 {
				f.spikeIdx = append(f.spikeIdx, i)
			}
		}
		f.hasSpike = true
	}
	f.solveU(b)
}

// solveU overwrites b (indexed by row) with U⁻¹b (indexed by position).
func (f *factor) solveU(b []float64) {
	x := f.work
	for k := len(f.order) - 1; k >= 0; k-- {
		p := f.order[k]
		v := b[f.rowOf[p]]
		if v == 0 {
			x[p] = 0
			continue
		}
		v /= f.diag[p]
		x[p] = v
		for _, e := range f.ucol[p] {
			b[e.row] -= e.val * v
		}
	}
	copy(b, x)
}

// btran overwrites c (indexed by position) with B⁻ᵀc (indexed by row).
func (f *factor) btran(c []float64) {
	y := f.work
	for _, p := range f.order {
		v := c[p]
		r := f.rowOf[p]
		if v == 0 {
			y[r] = 0
			continue
		}
		w := v / f.diag[p]
		y[r] = w
		for _, e := range f.urow[r] {
			c[e.row] -= e.val * w
		}
	}
	copy(c, y)
	for k := len(f.rpiv) - 1; k >= 0; k-- {
		v := c[f.rpiv[k]]
		if v == 0 {
			continue
		}
		for t := f.rstart[k]; t < f.rstart[k+1]; t++ {
			c[f.ridx[t]] -= f.rval[t] * v
		}
	}
	f.solveLT(c)
}

// solveLT overwrites c with L⁻ᵀc (both indexed by row).
func (f *factor) solveLT(c []float64) {
	for k := len(f.lpiv) - 1; k >= 0; k-- {
		s := 0.0
		for t := f.lstart[k]; t < f.lstart[k+1]; t++ {
			s += f.lval[t] * c[f.lidx[t]]
		}
		c[f.lpiv[k]] -= s
	}
}

// ftUpdateTol: an update whose new diagonal is this small relative to the
// spike is refused (the caller refactorises).
const ftUpdateTol = 1e-9

// update replaces the column at position r by the column whose spike the
// last ftranSpike saved (a Forrest–Tomlin update). It reports false when the
// update is unstable or no spike is saved; the factors are then invalid and
// the caller must refactorise.
func (f *factor) update(r int) bool {
	if !f.hasSpike {
		return false
	}
	f.hasSpike = false
	pr := f.rowOf[r]
	k := f.ordIdx[r]
	// Take the old column r out of the row lists.
	for _, e := range f.ucol[r] {
		removeEntry(&f.urow[e.row], r)
	}
	f.uNnz -= len(f.ucol[r]) + 1
	f.ucol[r] = f.ucol[r][:0]
	// Eliminate row pr over the positions after k.
	w := f.wrow
	for _, e := range f.urow[pr] {
		w[e.row] = e.val
		removeEntry(&f.ucol[e.row], pr)
	}
	f.uNnz -= len(f.urow[pr])
	f.urow[pr] = f.urow[pr][:0]
	spike := f.spike
	newDiag := spike[pr]
	for t := k + 1; t < len(f.order); t++ {
		pj := f.order[t]
		v := w[pj]
		if v == 0 {
			continue
		}
		w[pj] = 0
		mult := v / f.diag[pj]
		rj := f.rowOf[pj]
		f.ridx = append(f.ridx, rj)
		f.rval = append(f.rval, mult)
		newDiag -= mult * spike[rj]
		for _, e := range f.urow[rj] {
			w[e.row] -= mult * e.val
		}
	}
	f.rpiv = append(f.rpiv, pr)
	f.rstart = append(f.rstart, len(f.ridx))
	mx := 0.0
	for _, i := range f.spikeIdx {
		mx = math.Max(mx, math.Abs(spike[i]))
	}
	if math.Abs(newDiag) <= ftUpdateTol*mx || newDiag == 0 {
		return false
	}
	// The spike becomes column r, last in the pivot order.
	for _, i := range f.spikeIdx {
		v := spike[i]
		if i == pr || math.Abs(v) <= luDropTol {
			continue
		}
		f.ucol[r] = append(f.ucol[r], spEntry{i, v})
		f.urow[i] = append(f.urow[i], spEntry{r, v})
	}
	f.uNnz += len(f.ucol[r]) + 1
	f.diag[r] = newDiag
	copy(f.order[k:], f.order[k+1:])
	f.order[len(f.order)-1] = r
	for t := k; t < len(f.order); t++ {
		f.ordIdx[f.order[t]] = t
	}
	return true
}

// removeEntry deletes the entry whose row field is v.
func removeEntry(s *[]spEntry, v int) {
	a := *s
	for k, x := range a {
		if x.row == v {
			a[k] = a[len(a)-1]
			*s = a[:len(a)-1]
			return
		}
	}
}

func removeInt(s *[]int, v int) {
	a := *s
	for k, x := range a {
		if x == v {
			a[k] = a[len(a)-1]
			*s = a[:len(a)-1]
			return
		}
	}
}

func resizeInt(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}

func resizeFloat(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}
