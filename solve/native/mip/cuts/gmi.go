package cuts

import "math"

// TableauRow is one row of an optimal simplex tableau,
//
//	x_B + Σ_k Alpha[k]·v[Ind[k]] = const,
//
// over the nonbasic variables v: index j < NumCols is column x_j, index
// NumCols+i is the activity r_i = A_i·x of row i, whose bounds are
// [RowLower[i], RowUpper[i]]. AtUpper[k] tells whether nonbasic v[Ind[k]] sits
// at its upper bound (else at its lower bound). BasicValue is the LP value of
// the basic column x_B, which must be an integer column.
type TableauRow struct {
	Ind        []int
	Alpha      []float64
	AtUpper    []bool
	BasicValue float64
}

// GMI returns the Gomory mixed-integer cut of a tableau row, valid for the
// bounds in p (the bounds the LP had), or false when the row's right-hand
// side is too close to an integer, a nonbasic variable is free, or the cut is
// numerically unusable. The cut is not checked for violation.
//
// With nonbasics shifted to t ≥ 0 (t = v − l at lower, u − v at upper), the
// row reads x_B + Σ a_k t_k = x_B*, f0 = frac(x_B*), and the cut is
//
//	Σ_{integer k} min(f_k/f0, (1−f_k)/(1−f0))·t_k
//	  + Σ_{continuous k} max(a_k/f0, −a_k/(1−f0))·t_k ≥ 1.
func GMI(p *Problem, row TableauRow) (Cut, bool) {
	f0 := row.BasicValue - math.Floor(row.BasicValue)
	if f0 < minFrac || f0 > 1-minFrac {
		return Cut{}, false
	}
	n := p.NumCols
	// Cut in x-space as Σ coef·x ≥ rhs, accumulated densely by map.
	acc := map[int]float64{}
	rhs := 1.0
	for k, v := range row.Ind {
		alpha := row.Alpha[k]
		if math.Abs(alpha) < zeroTol {
			continue
		}
		var lo, up float64
		var integral bool
		if v < n {
			lo, up, integral = p.Lower[v], p.Upper[v], p.IsInt[v]
		} else {
			i := v - n
			lo, up = p.RowLower[i], p.RowUpper[i]
			integral = p.rowIntegral(i)
		}
		if lo == up {
			continue // a fixed nonbasic contributes t = 0
		}
		bound, sign := lo, 1.0
		if row.AtUpper[k] {
			bound, sign = up, -1.0
		}
		if math.IsInf(bound, 0) {
			return Cut{}, false
		}
		a := sign * alpha
		var g float64
		if integral && bound == math.Round(bound) {
			fk := a - math.Floor(a)
			if fk <= f0 {
				g = fk / f0
			} else {
				g = (1 - fk) / (1 - f0)
			}
		} else if a >= 0 {
			g = a / f0
		} else {
			g = -a / (1 - f0)
		}
		if g == 0 {
			continue
		}
		// g·t = g·sign·(v − bound).
		rhs += g * sign * bound
		gs := g * sign
		if v < n {
			acc[v] += gs
		} else {
			ind, val := p.row(v - n)
			for q, j := range ind {
				acc[j] += gs * val[q]
			}
		}
	}
	// ≥ form → ≤ form by negation.
	c := Cut{Rhs: -rhs}
	for j, v := range acc {
		c.Ind = append(c.Ind, j)
		c.Coef = append(c.Coef, -v)
	}
	if !normalize(&c, p) {
		return Cut{}, false
	}
	return c, true
}

// rowIntegral reports whether the activity of row i is integral at every
// integer-feasible point: all its columns are integer with integer
// coefficients.
func (p *Problem) rowIntegral(i int) bool {
	ind, val := p.row(i)
	for k, j := range ind {
		if !p.IsInt[j] || val[k] != math.Round(val[k]) {
			return false
		}
	}
	return true
}
