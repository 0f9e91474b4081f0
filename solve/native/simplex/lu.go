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

// factor is B = L·U (in a row and column permutation) followed by a product
// form of eta updates. B's columns are indexed by basis position 0..m-1 and
// its rows by constraint row; FTRAN maps a vector over rows to one over
// positions, BTRAN the other way.
type factor struct {
	m int
	// L as a sequence of column etas: for k, b[lidx[i]] -= lval[i]·b[lpiv[k]]
	// for i in lstart[k]..lstart[k+1].
	lpiv, lstart, lidx []int
	lval               []float64
	// U in pivot order k: row prow[k], position pcol[k], diagonal upiv[k].
	prow, pcol []int
	upiv       []float64
	// U off-diagonals by column (rows pivoted earlier) and by row (positions
	// pivoted later).
	ucStart, ucRow []int
	ucVal          []float64
	urStart, urCol []int
	urVal          []float64
	// Product-form etas: position epos[k], pivot epiv[k], other entries
	// (eidx, eval) in estart[k]..estart[k+1].
	epos, estart, eidx []int
	epiv, evals        []float64
	// work arrays
	work []float64
	// factorisation work storage, reused between calls
	fcols  [][]spEntry
	frows  [][]int
	fints  []int
	fbools []bool
}

func newFactor(m int) *factor {
	return &factor{m: m, work: make([]float64, m)}
}

// clone returns a deep copy of the factors (work storage is not shared).
func (f *factor) clone() *factor {
	ci := func(a []int) []int { return append([]int(nil), a...) }
	cf := func(a []float64) []float64 { return append([]float64(nil), a...) }
	return &factor{m: f.m, work: make([]float64, f.m),
		lpiv: ci(f.lpiv), lstart: ci(f.lstart), lidx: ci(f.lidx), lval: cf(f.lval),
		prow: ci(f.prow), pcol: ci(f.pcol), upiv: cf(f.upiv),
		ucStart: ci(f.ucStart), ucRow: ci(f.ucRow), ucVal: cf(f.ucVal),
		urStart: ci(f.urStart), urCol: ci(f.urCol), urVal: cf(f.urVal),
		epos: ci(f.epos), estart: ci(f.estart), eidx: ci(f.eidx), epiv: cf(f.epiv), evals: cf(f.evals)}
}

// numUpdates is the number of product-form etas since the factorisation.
func (f *factor) numUpdates() int { return len(f.epos) }

// factorize computes the LU of the m×m matrix whose column at position p is
// given by col(p). It returns the positions it could not pivot (the basis is
// singular there) and, paired with them, rows left without a pivot; the
// caller replaces those columns by the logicals of those rows and
// factorises again.
func (f *factor) factorize(col func(p int) ([]int, []float64)) (badPos, badRows []int) {
	m := f.m
	f.lpiv, f.lstart, f.lidx, f.lval = f.lpiv[:0], append(f.lstart[:0], 0), f.lidx[:0], f.lval[:0]
	f.prow, f.pcol, f.upiv = f.prow[:0], f.pcol[:0], f.upiv[:0]
	f.epos, f.estart, f.eidx, f.epiv, f.evals = f.epos[:0], append(f.estart[:0], 0), f.eidx[:0], f.epiv[:0], f.evals[:0]
	urowStart := append(f.urStart[:0], 0)
	urowCol := f.urCol[:0]
	urowVal := f.urVal[:0]

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
			urowCol = append(urowCol, j)
			urowVal = append(urowVal, apj)
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
		urowStart = append(urowStart, len(urowCol))
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
	// Row-wise U as built; column-wise U by transposition.
	f.urStart, f.urCol, f.urVal = urowStart, urowCol, urowVal
	kOfPos := f.fints[5*m+2 : 6*m+2]
	for k, p := range f.pcol {
		kOfPos[p] = k
	}
	cnt := make([]int, m+1)
	for _, p := range urowCol {
		cnt[kOfPos[p]+1]++
	}
	for k := 0; k < m; k++ {
		cnt[k+1] += cnt[k]
	}
	f.ucStart = append(f.ucStart[:0], cnt...)
	f.ucRow = resizeInt(f.ucRow, len(urowCol))
	f.ucVal = resizeFloat(f.ucVal, len(urowCol))
	next := append([]int(nil), cnt[:m]...)
	for k := 0; k < m; k++ {
		for t := urowStart[k]; t < urowStart[k+1]; t++ {
			kk := kOfPos[urowCol[t]]
			f.ucRow[next[kk]] = f.prow[k]
			f.ucVal[next[kk]] = urowVal[t]
			next[kk]++
		}
	}
	return nil, nil
}

// ftran overwrites b (indexed by row) with B⁻¹b (indexed by position).
func (f *factor) ftran(b []float64) {
	for k, p := range f.lpiv {
		v := b[p]
		if v == 0 {
			continue
		}
		for t := f.lstart[k]; t < f.lstart[k+1]; t++ {
			b[f.lidx[t]] -= f.lval[t] * v
		}
	}
	x := f.work
	for k := len(f.prow) - 1; k >= 0; k-- {
		v := b[f.prow[k]]
		if v == 0 {
			x[f.pcol[k]] = 0
			continue
		}
		v /= f.upiv[k]
		x[f.pcol[k]] = v
		for t := f.ucStart[k]; t < f.ucStart[k+1]; t++ {
			b[f.ucRow[t]] -= f.ucVal[t] * v
		}
	}
	copy(b, x)
	for k, r := range f.epos {
		v := b[r]
		if v == 0 {
			continue
		}
		v /= f.epiv[k]
		b[r] = v
		for t := f.estart[k]; t < f.estart[k+1]; t++ {
			b[f.eidx[t]] -= f.evals[t] * v
		}
	}
}

// btran overwrites c (indexed by position) with B⁻ᵀc (indexed by row).
func (f *factor) btran(c []float64) {
	for k := len(f.epos) - 1; k >= 0; k-- {
		r := f.epos[k]
		v := c[r]
		for t := f.estart[k]; t < f.estart[k+1]; t++ {
			v -= f.evals[t] * c[f.eidx[t]]
		}
		c[r] = v / f.epiv[k]
	}
	y := f.work
	for k := range f.prow {
		v := c[f.pcol[k]]
		if v == 0 {
			y[f.prow[k]] = 0
			continue
		}
		w := v / f.upiv[k]
		y[f.prow[k]] = w
		for t := f.urStart[k]; t < f.urStart[k+1]; t++ {
			c[f.urCol[t]] -= f.urVal[t] * w
		}
	}
	copy(c, y)
	for k := len(f.lpiv) - 1; k >= 0; k-- {
		s := 0.0
		for t := f.lstart[k]; t < f.lstart[k+1]; t++ {
			s += f.lval[t] * c[f.lidx[t]]
		}
		c[f.lpiv[k]] -= s
	}
}

// update records the basis change at position r, given alpha = B⁻¹a_q for
// the entering column (before the change).
func (f *factor) update(r int, alpha []float64) {
	f.epos = append(f.epos, r)
	f.epiv = append(f.epiv, alpha[r])
	for i, v := range alpha {
		if i != r && v != 0 && math.Abs(v) > luDropTol {
			f.eidx = append(f.eidx, i)
			f.evals = append(f.evals, v)
		}
	}
	f.estart = append(f.estart, len(f.eidx))
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
