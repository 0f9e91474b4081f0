package solvertest

import (
	"math"

	"github.com/mrbound/mrbound/model"
)

// Enumerate returns the optimum of a pure-integer model with finite bounds
// by visiting every integer point within them (feasible to 1e-9), and whether
// any point is feasible. It is the oracle for small models only: the points
// number Π (upper − lower + 1).
func Enumerate(m *model.Model) (best float64, feasible bool) {
	best, _, feasible = enumerate(m)
	return best, feasible
}

// enumTol is the row slack within which enumerate keeps a partial point
// alive; every complete point is then checked exactly (to 1e-9) by
// model.Evaluate.
const enumTol = 1e-6

// enumerate is Enumerate that also returns an optimal point. It visits the
// integer points column by column, depth first, and abandons a partial
// point only when some row cannot be satisfied whatever values the
// remaining columns take (their least and greatest contributions summed);
// the objective prunes nothing, so every feasible point is evaluated.
func enumerate(m *model.Model) (best float64, arg []float64, feasible bool) {
	n, r := m.NumCols(), m.NumRows()
	a := make([][]float64, n) // a[j][i]: dense columns
	for j := range a {
		a[j] = make([]float64, r)
		for k := m.ColStart[j]; k < m.ColStart[j+1]; k++ {
			a[j][m.RowIndex[k]] += m.Value[k]
		}
	}
	// restLo[k][i], restHi[k][i]: least and greatest activity of row i over
	// the columns k..n−1 within their bounds.
	restLo, restHi := make([][]float64, n+1), make([][]float64, n+1)
	restLo[n], restHi[n] = make([]float64, r), make([]float64, r)
	for k := n - 1; k >= 0; k-- {
		restLo[k], restHi[k] = make([]float64, r), make([]float64, r)
		for i := range r {
			p, q := a[k][i]*m.ColLower[k], a[k][i]*m.ColUpper[k]
			restLo[k][i] = restLo[k+1][i] + math.Min(p, q)
			restHi[k][i] = restHi[k+1][i] + math.Max(p, q)
		}
	}
	best = math.Inf(1)
	sense := 1.0
	if m.Sense == model.Maximize {
		sense = -1
	}
	x, act := make([]float64, n), make([]float64, r)
	var visit func(k int, obj float64)
	visit = func(k int, obj float64) {
		for i := range r {
			if act[i]+restLo[k][i] > m.RowUpper[i]+enumTol || act[i]+restHi[k][i] < m.RowLower[i]-enumTol {
				return
			}
		}
		if k == n {
			if sense*obj > best+enumTol*math.Max(1, math.Abs(best)) {
				return // the running sum says worse; only near-ties are evaluated
			}
			ev := m.Evaluate(x)
			if !ev.Feasible(1e-9, true) {
				return
			}
			if v := sense * ev.Objective; v < best {
				best, arg, feasible = v, append([]float64(nil), x...), true
			}
			return
		}
		for v := m.ColLower[k]; v <= m.ColUpper[k]; v++ {
			x[k] = v
			for i, c := range a[k] {
				act[i] += c * v
			}
			visit(k+1, obj+m.Obj[k]*v)
			for i, c := range a[k] {
				act[i] -= c * v
			}
		}
	}
	visit(0, m.ObjOffset)
	best *= sense
	return best, arg, feasible
}
