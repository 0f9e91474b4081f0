package model

import "math"

// Evaluation is what Evaluate learns about a point.
type Evaluation struct {
	// Objective is c·x + ObjOffset.
	Objective float64
	// RowActivity holds A·x, one entry per row.
	RowActivity []float64
	// MaxBoundViolation is the largest amount by which a column leaves its
	// bounds; WorstCol is that column (-1 when there is none).
	MaxBoundViolation float64
	WorstCol          int
	// MaxRowViolation is the largest amount by which a row activity leaves its
	// bounds; WorstRow is that row (-1 when there is none).
	MaxRowViolation float64
	WorstRow        int
	// MaxIntegrality is the largest distance of an integer column from the
	// nearest integer; WorstIntCol is that column (-1 when there is none).
	MaxIntegrality float64
	WorstIntCol    int
}

// MaxViolation is the largest of the bound and row violations.
func (e Evaluation) MaxViolation() float64 { return math.Max(e.MaxBoundViolation, e.MaxRowViolation) }

// Feasible reports whether bounds and rows hold to tol and, when integral is
// true, integrality too.
func (e Evaluation) Feasible(tol float64, integral bool) bool {
	return e.MaxViolation() <= tol && (!integral || e.MaxIntegrality <= tol)
}

// Evaluate computes the objective, the row activities and the violations of x,
// which must have one entry per column. A NaN entry counts as an infinite
// violation.
func (m *Model) Evaluate(x []float64) Evaluation {
	if len(x) != m.NumCols() {
		panic("model: Evaluate: point has the wrong length")
	}
	ev := Evaluation{Objective: m.ObjOffset, RowActivity: make([]float64, m.NumRows()), WorstCol: -1, WorstRow: -1, WorstIntCol: -1}
	for j, xj := range x {
		ev.Objective += m.Obj[j] * xj
		for k := m.ColStart[j]; k < m.ColStart[j+1]; k++ {
			ev.RowActivity[m.RowIndex[k]] += m.Value[k] * xj
		}
		if v := outside(xj, m.ColLower[j], m.ColUpper[j]); v > ev.MaxBoundViolation {
			ev.MaxBoundViolation, ev.WorstCol = v, j
		}
		if m.ColType[j].IsInteger() {
			f := math.Abs(xj - math.Round(xj))
			if math.IsNaN(f) {
				f = math.Inf(1)
			}
			if f > ev.MaxIntegrality {
				ev.MaxIntegrality, ev.WorstIntCol = f, j
			}
		}
	}
	for i, a := range ev.RowActivity {
		if v := outside(a, m.RowLower[i], m.RowUpper[i]); v > ev.MaxRowViolation {
			ev.MaxRowViolation, ev.WorstRow = v, i
		}
	}
	return ev
}

// outside is how far v lies outside [lo, up]; +Inf for NaN.
func outside(v, lo, up float64) float64 {
	switch {
	case math.IsNaN(v):
		return math.Inf(1)
	case v < lo:
		return lo - v
	case v > up:
		return v - up
	}
	return 0
}
