package cuts

import (
	"math"
	"sort"
)

const (
	// maxMIRDeltas bounds the divisors tried per row.
	maxMIRDeltas = 8
	// mirMinFrac is the smallest fractionality of β/δ used.
	mirMinFrac = 0.05
	// maxAggr is the number of rows added to a starting row.
	maxAggr = 4
)

// VUB is a variable upper bound x_Col ≤ U·x_Bin of a continuous column with
// lower bound 0 on a binary column.
type VUB struct {
	Bin int
	U   float64
}

// FindVUBs returns, per column, the variable upper bound found among the
// two-entry rows of p (continuous x, binary y, x − U·y ≤ 0); ok is false for
// columns without one.
func FindVUBs(p *Problem) (vub []VUB, ok []bool) {
	vub = make([]VUB, p.NumCols)
	ok = make([]bool, p.NumCols)
	for i := 0; i < p.NumRows(); i++ {
		ind, val := p.row(i)
		if len(ind) != 2 {
			continue
		}
		p.leForms(i, func(_ []int, coef []float64, rhs float64) {
			if rhs != 0 {
				return
			}
			for a := 0; a < 2; a++ {
				x, y := ind[a], ind[1-a]
				cx, cy := coef[a], coef[1-a]
				if p.IsInt[x] || !p.IsBinary(y) || p.Lower[x] != 0 || cx <= 0 || cy >= 0 || ok[x] {
					continue
				}
				vub[x] = VUB{Bin: y, U: -cy / cx}
				ok[x] = true
			}
		})
		_ = val
	}
	return vub, ok
}

// MIR separates complemented mixed-integer rounding cuts from aggregations
// of rows. Each row i is read as the equality a_i·x − r_i = 0 with its
// activity r_i bounded by the row bounds; starting from one row, up to
// maxAggr further rows are added to eliminate a continuous column whose LP
// value lies strictly between its bounds, and at each step the c-MIR
// procedure is tried on both signs of the aggregate: variable upper bounds
// substituted where the LP point is closer to them, other columns complemented
// to their closer bound, divisors taken from the integer coefficients.
func MIR(p *Problem, x []float64, vub []VUB, hasVUB []bool) []Cut {
	n := p.NumCols
	act := make([]float64, p.NumRows())
	colRows := make([][]int, n)
	for i := range act {
		ind, val := p.row(i)
		for k, j := range ind {
			act[i] += val[k] * x[j]
			colRows[j] = append(colRows[j], i)
		}
	}
	val := func(k int) float64 {
		if k < n {
			return x[k]
		}
		return act[k-n]
	}
	var out []Cut
	for i := 0; i < p.NumRows(); i++ {
		agg := map[int]float64{n + i: -1}
		ind, v := p.row(i)
		for k, j := range ind {
			agg[j] += v[k]
		}
		used := map[int]bool{i: true}
		for step := 0; ; step++ {
			var best Cut
			bestEff := 0.0
			for _, sgn := range []float64{1, -1} {
				if c, ok := mirAgg(p, agg, sgn, x, val, vub, hasVUB); ok {
					if e := c.Efficacy(x); e > bestEff {
						best, bestEff = c, e
					}
				}
			}
			if bestEff >= MinViolation {
				out = append(out, best)
				break
			}
			if step >= maxAggr {
				break
			}
			// Eliminate the continuous column farthest from its bounds.
			elim, far := -1, 1e-6
			for _, j := range sortedKeys(agg) {
				if j >= n || p.IsInt[j] {
					continue
				}
				d := math.Min(x[j]-p.Lower[j], p.Upper[j]-x[j])
				if d > far {
					elim, far = j, d
				}
			}
			if elim < 0 {
				break
			}
			next, nextLen := -1, 0
			for _, r := range colRows[elim] {
				if used[r] {
					continue
				}
				if l := p.Rows.RowStart[r+1] - p.Rows.RowStart[r]; next < 0 || l < nextLen {
					next, nextLen = r, l
				}
			}
			if next < 0 {
				break
			}
			ind, v := p.row(next)
			var a float64
			for k, j := range ind {
				if j == elim {
					a = v[k]
				}
			}
			lambda := -agg[elim] / a
			for k, j := range ind {
				agg[j] += lambda * v[k]
			}
			agg[n+next] -= lambda
			delete(agg, elim)
			used[next] = true
		}
	}
	return out
}

func sortedKeys(m map[int]float64) []int {
	ks := make([]int, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	return ks
}

// mirTerm is a term of a transformed row: coefficient a on a nonnegative
// variable v = sign·(x_col − bound), or, for a VUB slack (sign 0),
// v = vubU·x_vubBin − x_col. col ≥ NumCols names the activity of row
// col − NumCols.
type mirTerm struct {
	col    int
	a      float64
	isInt  bool
	sign   float64
	bound  float64
	vubBin int
	vubU   float64
	val    float64 // LP value of v
	ub     float64 // upper bound of v (integers)
}

// mirAgg applies c-MIR to sgn·Σ agg[k]·v_k ≤ 0.
func mirAgg(p *Problem, agg map[int]float64, sgn float64, x []float64, value func(int) float64, vub []VUB, hasVUB []bool) (Cut, bool) {
	n := p.NumCols
	beta := 0.0
	acc := map[int]float64{} // integer columns' coefficients (VUB substitution adds to binaries)
	var order []int
	add := func(j int, a float64) {
		if _, ok := acc[j]; !ok {
			order = append(order, j)
		}
		acc[j] += a
	}
	var terms []mirTerm
	hasInt := false
	for _, j := range sortedKeys(agg) {
		a := sgn * agg[j]
		if math.Abs(a) < zeroTol {
			continue
		}
		if j < n && p.IsInt[j] {
			add(j, a)
			hasInt = true
			continue
		}
		var lo, up float64
		if j < n {
			lo, up = p.Lower[j], p.Upper[j]
		} else {
			lo, up = p.RowLower[j-n], p.RowUpper[j-n]
		}
		xj := value(j)
		if j < n && hasVUB[j] {
			v := vub[j]
			dv := v.U*x[v.Bin] - xj
			if dv < xj-lo {
				// x = U·y − x̄: a·x = a·U·y − a·x̄.
				add(v.Bin, a*v.U)
				terms = append(terms, mirTerm{col: j, a: -a, vubBin: v.Bin, vubU: v.U, val: dv, sign: 0})
				hasInt = true
				continue
			}
		}
		dl, du := xj-lo, up-xj
		switch {
		case !math.IsInf(lo, -1) && (math.IsInf(up, 1) || dl <= du):
			beta -= a * lo
			terms = append(terms, mirTerm{col: j, a: a, sign: 1, bound: lo, val: dl, vubBin: -1})
		case !math.IsInf(up, 1):
			beta -= a * up
			terms = append(terms, mirTerm{col: j, a: -a, sign: -1, bound: up, val: du, vubBin: -1})
		default:
			// A free variable cannot be complemented.
			return Cut{}, false
		}
	}
	if !hasInt {
		return Cut{}, false
	}
	// Integer columns: complement to the closer bound.
	var ints []mirTerm
	for _, j := range order {
		a := acc[j]
		if math.Abs(a) < zeroTol {
			continue
		}
		lo, up := p.Lower[j], p.Upper[j]
		dl, du := x[j]-lo, up-x[j]
		switch {
		case !math.IsInf(lo, -1) && (math.IsInf(up, 1) || dl <= du):
			beta -= a * lo
			ints = append(ints, mirTerm{col: j, a: a, isInt: true, sign: 1, bound: lo, val: dl, ub: up - lo, vubBin: -1})
		case !math.IsInf(up, 1):
			beta -= a * up
			ints = append(ints, mirTerm{col: j, a: -a, isInt: true, sign: -1, bound: up, val: du, ub: up - lo, vubBin: -1})
		default:
			return Cut{}, false
		}
	}
	// Divisors: coefficients of integer terms strictly inside their bounds.
	var deltas []float64
	seen := map[float64]bool{}
	for _, t := range ints {
		d := math.Abs(t.a)
		if t.val > 1e-6 && t.val < t.ub-1e-6 && d > 1e-6 && !seen[d] {
			seen[d] = true
			deltas = append(deltas, d)
		}
	}
	sort.Float64s(deltas)
	if len(deltas) > maxMIRDeltas {
		deltas = deltas[len(deltas)-maxMIRDeltas:]
	}
	var best Cut
	bestEff, bestDelta := 0.0, 0.0
	try := func(delta float64) {
		c, ok := mirCut(p, ints, terms, beta, delta)
		if !ok {
			return
		}
		if e := c.Efficacy(x); e > bestEff {
			best, bestEff, bestDelta = c, e, delta
		}
	}
	for _, d := range deltas {
		try(d)
	}
	if bestEff > 0 {
		d0 := bestDelta
		for _, q := range []float64{2, 4, 8} {
			try(d0 / q)
		}
	}
	if bestEff < MinViolation {
		return Cut{}, false
	}
	return best, true
}

// mirCut builds the MIR cut of Σ a·v_int + Σ c·v_cont ≤ β divided by δ and
// maps it back to the columns.
func mirCut(p *Problem, ints, conts []mirTerm, beta, delta float64) (Cut, bool) {
	b := beta / delta
	f0 := b - math.Floor(b)
	if f0 < mirMinFrac || f0 > 1-mirMinFrac {
		return Cut{}, false
	}
	acc := map[int]float64{}
	rhs := math.Floor(b)
	n := p.NumCols
	sub := func(t mirTerm, g float64) {
		if t.vubBin >= 0 && t.sign == 0 {
			// v = U·y − x.
			acc[t.vubBin] += g * t.vubU
			acc[t.col] -= g
			return
		}
		rhs += g * t.sign * t.bound
		if t.col < n {
			acc[t.col] += g * t.sign
			return
		}
		// A row activity: r = a·x.
		ind, val := p.row(t.col - n)
		for k, j := range ind {
			acc[j] += g * t.sign * val[k]
		}
	}
	for _, t := range ints {
		a := t.a / delta
		fj := a - math.Floor(a)
		g := math.Floor(a) + math.Max(0, fj-f0)/(1-f0)
		if g != 0 {
			sub(t, g)
		}
	}
	for _, t := range conts {
		if t.a < 0 {
			sub(t, t.a/(delta*(1-f0)))
		}
	}
	c := Cut{Rhs: rhs}
	for j, v := range acc {
		c.Ind = append(c.Ind, j)
		c.Coef = append(c.Coef, v)
	}
	if !normalize(&c, p) {
		return Cut{}, false
	}
	return c, true
}
