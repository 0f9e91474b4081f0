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

// MIR separates complemented mixed-integer rounding cuts from every single
// row of p, substituting variable upper bounds of continuous columns where
// the LP point is closer to them than to the simple bound.
func MIR(p *Problem, x []float64, vub []VUB, hasVUB []bool) []Cut {
	var out []Cut
	for i := 0; i < p.NumRows(); i++ {
		p.leForms(i, func(ind []int, coef []float64, rhs float64) {
			if c, ok := mirRow(p, ind, coef, rhs, x, vub, hasVUB); ok {
				out = append(out, c)
			}
		})
	}
	return out
}

// term of a transformed row: coefficient on a nonnegative variable
// v = sign·(x_col − bound), or for a VUB slack x̄ = U·x_bin − x_col.
type mirTerm struct {
	col   int
	a     float64
	isInt bool
	// back-substitution: v = sign·x_col − sign·bound, plus vubBin/vubU
	// for a VUB slack (v = vubU·x_bin − x_col).
	sign   float64
	bound  float64
	vubBin int
	vubU   float64
	val    float64 // LP value of v
	ub     float64 // upper bound of v (integers)
}

func mirRow(p *Problem, ind []int, coef []float64, rhs float64, x []float64, vub []VUB, hasVUB []bool) (Cut, bool) {
	beta := rhs
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
	for k, j := range ind {
		a := coef[k]
		if p.IsInt[j] {
			add(j, a)
			hasInt = true
			continue
		}
		lo, up := p.Lower[j], p.Upper[j]
		if hasVUB[j] {
			v := vub[j]
			dv := v.U*x[v.Bin] - x[j]
			if dv < x[j]-lo {
				// x = U·y − x̄: a·x = a·U·y − a·x̄.
				add(v.Bin, a*v.U)
				terms = append(terms, mirTerm{col: j, a: -a, vubBin: v.Bin, vubU: v.U, val: dv, sign: 0})
				hasInt = true
				continue
			}
		}
		dl, du := x[j]-lo, up-x[j]
		switch {
		case !math.IsInf(lo, -1) && (math.IsInf(up, 1) || dl <= du):
			beta -= a * lo
			terms = append(terms, mirTerm{col: j, a: a, sign: 1, bound: lo, val: dl, vubBin: -1})
		case !math.IsInf(up, 1):
			beta -= a * up
			terms = append(terms, mirTerm{col: j, a: -a, sign: -1, bound: up, val: du, vubBin: -1})
		default:
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
		if a == 0 {
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
	bestEff := 0.0
	try := func(delta float64) {
		c, ok := mirCut(p, ints, terms, beta, delta)
		if !ok {
			return
		}
		if e := c.Efficacy(x); e > bestEff {
			best, bestEff = c, e
		}
	}
	for _, d := range deltas {
		try(d)
	}
	if bestEff > 0 {
		d0 := 0.0
		for _, d := range deltas {
			if c, ok := mirCut(p, ints, terms, beta, d); ok && c.Efficacy(x) == bestEff {
				d0 = d
				break
			}
		}
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
	sub := func(t mirTerm, g float64) {
		if t.vubBin >= 0 && t.sign == 0 {
			// v = U·y − x.
			acc[t.vubBin] += g * t.vubU
			acc[t.col] -= g
			return
		}
		acc[t.col] += g * t.sign
		rhs += g * t.sign * t.bound
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
