package simtest

import (
	"fmt"

	"github.com/mrbound/mrbound/sim"
)

// Recorder is a sim.TraceSink that rebuilds the trace it is handed and
// checks the sink's contract on the way: every index launched once, in
// order, then ended once; calls in simulated-time order; an ended record
// keeps the fields it launched with; the records still running come last.
// Problems lists the breaches (none from a correct engine).
type Recorder struct {
	Rep      int
	Replicas []int32
	Trace    []sim.Attempt
	Problems []string
	ended    []bool
	now      sim.Time
	tail     bool // records without an end have begun
}

// Begin implements sim.TraceSink.
func (r *Recorder) Begin(rep int, replicas []int32) { r.Rep, r.Replicas = rep, replicas }

func (r *Recorder) problem(format string, a ...any) {
	r.Problems = append(r.Problems, fmt.Sprintf(format, a...))
}

func (r *Recorder) at(i int, t sim.Time) {
	if r.tail || t < r.now {
		r.problem("record %d at %d ms comes after %d ms (tail %v)", i, t, r.now, r.tail)
	}
	r.now = t
}

// Launched implements sim.TraceSink.
func (r *Recorder) Launched(i int, a *sim.Attempt) {
	if i != len(r.Trace) {
		r.problem("record %d launched where %d was due", i, len(r.Trace))
		return
	}
	if a.End != -1 || a.Outcome != sim.OutcomeUnknown || a.Start != a.Launch {
		r.problem("record %d launched with end %d, outcome %s, start %d", i, a.End, a.Outcome, a.Start)
	}
	r.at(i, a.Launch)
	r.Trace = append(r.Trace, *a)
	r.ended = append(r.ended, false)
}

// Ended implements sim.TraceSink.
func (r *Recorder) Ended(i int, a *sim.Attempt) {
	if i < 0 || i >= len(r.Trace) || r.ended[i] {
		r.problem("record %d ended without a launch, or twice", i)
		return
	}
	r.ended[i] = true
	if a.End < 0 {
		r.tail = true
	} else {
		r.at(i, a.End)
	}
	was := r.Trace[i]
	was.Start, was.End, was.Outcome = a.Start, a.End, a.Outcome
	if was != *a {
		r.problem("record %d launched as %+v, ended as %+v", i, r.Trace[i], *a)
	}
	r.Trace[i] = *a
}

// Close reports the records that never ended.
func (r *Recorder) Close() {
	for i, e := range r.ended {
		if !e {
			r.problem("record %d never ended", i)
		}
	}
}
