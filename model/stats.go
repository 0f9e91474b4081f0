package model

import (
	"fmt"
	"io"
	"math"
)

// Range is the smallest and largest absolute non-zero finite value seen; both
// are zero when there was none.
type Range struct{ Min, Max float64 }

func (r *Range) add(v float64) {
	a := math.Abs(v)
	if a == 0 || math.IsInf(a, 0) || math.IsNaN(a) {
		return
	}
	if r.Min == 0 || a < r.Min {
		r.Min = a
	}
	if a > r.Max {
		r.Max = a
	}
}

func (r Range) String() string {
	if r.Max == 0 {
		return "none"
	}
	return fmt.Sprintf("[%.0e, %.0e]", r.Min, r.Max)
}

// Statistics summarises a model's size and numerics.
type Statistics struct {
	Rows, Cols, Nonzeros             int
	Continuous, Integer, Binary      int
	Equalities, Ranged, Inequalities int
	FreeRows                         int
	Matrix, Objective, Bounds, RHS   Range
}

// Stats computes the model's statistics.
func (m *Model) Stats() Statistics {
	s := Statistics{Rows: m.NumRows(), Cols: m.NumCols(), Nonzeros: m.NumNonzeros()}
	for j, t := range m.ColType {
		switch t {
		case Binary:
			s.Binary++
		case Integer:
			s.Integer++
		default:
			s.Continuous++
		}
		s.Objective.add(m.Obj[j])
		s.Bounds.add(m.ColLower[j])
		s.Bounds.add(m.ColUpper[j])
	}
	for _, v := range m.Value {
		s.Matrix.add(v)
	}
	for i := range m.RowLower {
		lo, up := m.RowLower[i], m.RowUpper[i]
		switch {
		case lo == up:
			s.Equalities++
		case math.IsInf(lo, -1) && math.IsInf(up, 1):
			s.FreeRows++
		case math.IsInf(lo, -1) || math.IsInf(up, 1):
			s.Inequalities++
		default:
			s.Ranged++
		}
		s.RHS.add(lo)
		s.RHS.add(up)
	}
	return s
}

// Write prints the statistics as aligned text.
func (s Statistics) Write(w io.Writer) error {
	_, err := fmt.Fprintf(w, `rows         %d (%d equality, %d inequality, %d ranged, %d free)
columns      %d (%d continuous, %d integer, %d binary)
nonzeros     %d
matrix       %s
objective    %s
bounds       %s
rhs          %s
`, s.Rows, s.Equalities, s.Inequalities, s.Ranged, s.FreeRows,
		s.Cols, s.Continuous, s.Integer, s.Binary, s.Nonzeros,
		s.Matrix, s.Objective, s.Bounds, s.RHS)
	return err
}
