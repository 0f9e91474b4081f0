package formulations

import (
	"io"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

// Report is what every formulation's Run returns.
type Report interface {
	// Outcome sums the answer up the same way for every formulation.
	Outcome() Outcome
	// WriteText writes the human report.
	WriteText(w io.Writer) error
	// WriteJSON writes the machine-readable report as one JSON object.
	WriteJSON(w io.Writer) error
}

// ScheduleReport is a Report whose answer is a schedule that can be written
// as JSON and drawn (jlassi, mrcp). Both writers fail when HasSchedule is
// false.
type ScheduleReport interface {
	Report
	HasSchedule() bool
	WriteSchedule(w io.Writer) error
	WriteSVG(w io.Writer) error
}

// Outcome is a formulation's answer in the terms every formulation shares.
type Outcome struct {
	// Status is the solve's status (for several solves, the first that is
	// not optimal).
	Status solve.Status `json:"status"`
	// Sense says whether Objective is minimised or maximised, and so on
	// which side Bound lies.
	Sense model.Sense `json:"sense"`
	// Measure names what Objective and Bound measure, e.g. "realtime"
	// (jlassi, seconds), "product" (mrcp), "lambda" (coshh), "makespan"
	// (tumm).
	Measure string `json:"measure"`
	// Objective is the value of the reported answer; NaN when there is none.
	Objective solve.Number `json:"objective"`
	// Bound is a proven bound on the optimum of the model the formulation
	// solved (its horizon and readings, see its package doc): no answer of
	// that model is better. It is −Inf (minimising) or +Inf (maximising)
	// when nothing is proven, NaN when the formulation computes none.
	Bound solve.Number `json:"bound"`
	// Verdict is the independent checker's verdict on the reported answer.
	Verdict Verdict `json:"verdict"`
}

// Verdict is the independent checker's verdict on an answer: the schedule
// or allocation checked against the instance (never the model), its
// objective recomputed.
type Verdict struct {
	// Verified is true when an answer exists and the checker accepted it.
	Verified bool `json:"verified"`
	// Problem names the first violation found, or why nothing was checked;
	// empty when Verified.
	Problem string `json:"problem,omitempty"`
}

// Verified is the verdict on an accepted answer.
func Verified() Verdict { return Verdict{Verified: true} }

// Rejected is the verdict naming the first problem found.
func Rejected(problem string) Verdict { return Verdict{Problem: problem} }

func (v Verdict) String() string {
	if v.Verified {
		return "verified"
	}
	if v.Problem == "" {
		return "not verified"
	}
	return "not verified: " + v.Problem
}
