package simplex

import (
	"math"
	"testing"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

// checkTol is the tolerance of the optimality certificate checks in tests,
// relative to 1 + |magnitude|.
const checkTol = 1e-6

// checkOptimality verifies primal feasibility, dual feasibility and
// complementary slackness of an Optimal answer on the unscaled model.
func checkOptimality(t testing.TB, m *model.Model, s *Solver) {
	t.Helper()
	x := s.X()
	ev := m.Evaluate(x)
	if ev.MaxViolation() > checkTol*(1+maxAbs(x)) {
		t.Fatalf("primal infeasible: bound violation %g (col %d), row violation %g (row %d)",
			ev.MaxBoundViolation, ev.WorstCol, ev.MaxRowViolation, ev.WorstRow)
	}
	if d := math.Abs(ev.Objective - s.Objective()); d > checkTol*(1+math.Abs(ev.Objective)) {
		t.Fatalf("objective %v, evaluated %v", s.Objective(), ev.Objective)
	}
	y := s.Duals()
	d := s.ReducedCosts()
	// d = c − Aᵀy.
	for j := 0; j < m.NumCols(); j++ {
		dj, mag := m.Obj[j], math.Abs(m.Obj[j])
		for k := m.ColStart[j]; k < m.ColStart[j+1]; k++ {
			dj -= m.Value[k] * y[m.RowIndex[k]]
			mag += math.Abs(m.Value[k] * y[m.RowIndex[k]])
		}
		// Relative to the magnitude of the terms: cancellation is expected.
		if math.Abs(dj-d[j]) > checkTol*(1+mag) {
			t.Fatalf("column %d: reduced cost %v, c − Aᵀy = %v", j, d[j], dj)
		}
	}
	sign := 1.0
	if m.Sense == model.Maximize {
		sign = -1
	}
	tight := func(v, lo, up float64) (atLo, atUp bool) {
		return !math.IsInf(lo, -1) && math.Abs(v-lo) <= checkTol*(1+math.Abs(lo)),
			!math.IsInf(up, 1) && math.Abs(v-up) <= checkTol*(1+math.Abs(up))
	}
	// Minimisation: d_j > 0 only at lower, d_j < 0 only at upper; likewise the
	// row duals (the logical's reduced cost is y_i).
	check := func(what string, idx int, dv, v, lo, up, scale float64) {
		dv *= sign
		atLo, atUp := tight(v, lo, up)
		tol := checkTol * (1 + scale)
		if dv > tol && !atLo {
			t.Fatalf("%s %d: dual %v but value %v not at lower bound %v", what, idx, dv, v, lo)
		}
		if dv < -tol && !atUp {
			t.Fatalf("%s %d: dual %v but value %v not at upper bound %v", what, idx, dv, v, up)
		}
	}
	for j := 0; j < m.NumCols(); j++ {
		check("column", j, d[j], x[j], m.ColLower[j], m.ColUpper[j], math.Abs(m.Obj[j]))
	}
	for i := 0; i < m.NumRows(); i++ {
		check("row", i, y[i], ev.RowActivity[i], m.RowLower[i], m.RowUpper[i], 0)
	}
	b := s.Basis()
	nb := 0
	for _, st := range append(append([]solve.BasisStatus(nil), b.Cols...), b.Rows...) {
		if st == solve.Basic {
			nb++
		}
	}
	if nb != m.NumRows() {
		t.Fatalf("basis has %d basic variables, want %d", nb, m.NumRows())
	}
}

func maxAbs(x []float64) float64 {
	mx := 0.0
	for _, v := range x {
		mx = math.Max(mx, math.Abs(v))
	}
	return mx
}
