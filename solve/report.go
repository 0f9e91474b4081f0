package solve

import (
	"fmt"
	"io"
	"math"
	"strconv"
)

// Number is a float64 that encodes to JSON as a number, or as null when it is
// infinite or NaN (JSON has no infinities).
type Number float64

// MarshalJSON encodes n, with null for non-finite values.
func (n Number) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

// UnmarshalJSON decodes a number or null (as NaN).
func (n *Number) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = Number(math.NaN())
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	*n = Number(f)
	return err
}

// Summary is the solver part of every machine-readable report: the field
// names are what scripts rely on and are never renamed.
type Summary struct {
	Status        string `json:"status"`
	Objective     Number `json:"objective"`
	Bound         Number `json:"bound"`
	Gap           Number `json:"gap"`
	Nodes         int64  `json:"nodes"`
	Iterations    int64  `json:"iterations"`
	Seconds       Number `json:"seconds"`
	Solver        string `json:"solver"`
	SolverVersion string `json:"solver_version,omitempty"`
	HasSolution   bool   `json:"has_solution"`
	Message       string `json:"message,omitempty"`
}

// Summarize extracts the Summary of r.
func (r Result) Summarize() Summary {
	return Summary{
		Status:        r.Status.String(),
		Objective:     Number(r.Objective),
		Bound:         Number(r.Bound),
		Gap:           Number(r.Gap()),
		Nodes:         r.Nodes,
		Iterations:    r.Iterations,
		Seconds:       Number(math.Round(r.Wall.Seconds()*1e3) / 1e3),
		Solver:        r.Solver,
		SolverVersion: r.SolverVersion,
		HasSolution:   r.HasSolution,
		Message:       r.Message,
	}
}

// WriteText prints the summary as aligned "key  value" lines.
func (s Summary) WriteText(w io.Writer) error {
	solver := s.Solver
	if s.SolverVersion != "" {
		solver += " " + s.SolverVersion
	}
	_, err := fmt.Fprintf(w, "status       %s\nobjective    %s\nbound        %s\ngap          %s\nnodes        %d\niterations   %d\ntime         %.3f s\nsolver       %s\n",
		s.Status, FormatValue(float64(s.Objective)), FormatValue(float64(s.Bound)), FormatGap(float64(s.Gap)),
		s.Nodes, s.Iterations, float64(s.Seconds), solver)
	if err == nil && s.Message != "" {
		_, err = fmt.Fprintf(w, "message      %s\n", s.Message)
	}
	return err
}

// FormatValue prints an objective value with up to 10 significant digits, and
// "none" for infinities.
func FormatValue(v float64) string {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return "none"
	}
	return strconv.FormatFloat(v, 'g', 10, 64)
}

// FormatGap prints a relative gap as a percentage.
func FormatGap(g float64) string {
	if math.IsInf(g, 0) || math.IsNaN(g) {
		return "none"
	}
	return fmt.Sprintf("%.4g%%", 100*g)
}
