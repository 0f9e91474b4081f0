package mrcp

import (
	"context"
	"time"

	"github.com/mrbound/mrbound/solve"
)

// stopper is how the decomposition's combinatorial phase (relaxation
// bounds, late-set enumeration, deadline search) honours the caller's
// context and time limit. Its loops call tick once per unit of work (a
// search node, a late set, a relaxation check) and poll between phases;
// once a stop is seen it is kept, every later tick reports it at once, and
// each loop returns what it has proven so far: a search its budget's
// "undecided", a bound the least value not yet ruled out. A nil stopper
// never stops (the unit tests of the phases). Only the wall stops are
// here: node and iteration limits bound the MILP sub-solves alone, the
// phase's own budgets being fixed node counts.
type stopper struct {
	ctx context.Context
	// deadline is the start plus Options.Solve.TimeLimit (zero: none).
	deadline time.Time
	ticks    uint32
	// status is StatusUnknown until a stop, then Interrupted (the context
	// is done: cancelled or past its own deadline, as the native MIP maps
	// it) or TimeLimit (the time limit).
	status solve.Status
}

// pollEvery is how many ticks pass between two reads of the context and
// the clock (a power of two). A search node costs a few tens of
// microseconds at 20 jobs, a relaxation check about as much, so a stop is
// seen within a few milliseconds; the reads themselves cost well under a
// microsecond.
const pollEvery = 64

func newStopper(ctx context.Context, start time.Time, limit time.Duration) *stopper {
	s := &stopper{ctx: ctx}
	if limit > 0 {
		s.deadline = start.Add(limit)
	}
	return s
}

// tick counts one unit of work and reports whether the run must stop,
// reading the context and the clock every pollEvery ticks.
func (s *stopper) tick() bool {
	if s == nil {
		return false
	}
	if s.status != solve.StatusUnknown {
		return true
	}
	s.ticks++
	if s.ticks%pollEvery != 0 {
		return false
	}
	return s.poll()
}

// poll reads the context and the clock now and reports whether the run
// must stop.
func (s *stopper) poll() bool {
	if s == nil {
		return false
	}
	if s.status == solve.StatusUnknown {
		switch {
		case s.ctx.Err() != nil:
			s.status = solve.Interrupted
		case !s.deadline.IsZero() && !time.Now().Before(s.deadline):
			s.status = solve.TimeLimit
		}
	}
	return s.status != solve.StatusUnknown
}

// stopped reports whether a stop has been seen, without reading anything.
func (s *stopper) stopped() bool { return s != nil && s.status != solve.StatusUnknown }
