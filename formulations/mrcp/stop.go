package mrcp

import (
	"context"
	"time"

	"github.com/mrbound/mrbound/solve"
)

// stopper is how the decomposition's combinatorial phase (relaxation
// bounds, late-set enumeration, deadline search) honours the caller's
// context, time limit and Options.SearchNodeLimit. Its loops call tick once
// per unit of work (a search node, a late set, a relaxation check) and
// poll between phases; once a stop is seen it is kept, every later tick
// reports it at once, and each loop returns what it has proven so far: a
// search its budget's "undecided", a bound the least value not yet ruled
// out. A nil stopper never stops (the unit tests of the phases). Without
// a SearchNodeLimit, node and iteration limits bound the MILP sub-solves
// alone, the phase's own budgets being fixed node counts.
type stopper struct {
	ctx context.Context
	// deadline is the start plus Options.Solve.TimeLimit (zero: none).
	deadline time.Time
	// maxTicks is Options.SearchNodeLimit (0: none).
	maxTicks uint64
	ticks    uint64
	// status is StatusUnknown until a stop, then Interrupted (the context
	// is done: cancelled or past its own deadline, as the native MIP maps
	// it), TimeLimit (the time limit) or NodeLimit (maxTicks).
	status solve.Status
}

func newStopper(ctx context.Context, start time.Time, limit time.Duration) *stopper {
	s := &stopper{ctx: ctx}
	if limit > 0 {
		s.deadline = start.Add(limit)
	}
	return s
}

// newRunStopper is newStopper for a run with options o.
func newRunStopper(ctx context.Context, start time.Time, o Options) *stopper {
	s := newStopper(ctx, start, o.Solve.TimeLimit)
	s.maxTicks = uint64(max(0, o.SearchNodeLimit))
	return s
}

// tick counts one unit of work and reports whether the run must stop. It
// reads the context and the clock every time: a unit costs tens of
// microseconds at 20 jobs in coarse units but milliseconds on a horizon of
// 10^4 units (the energetic check walks it), where reading every 64th
// overran a 2-s deadline by 0.6 s; a read costs well under a microsecond.
func (s *stopper) tick() bool {
	if s == nil {
		return false
	}
	if s.status != solve.StatusUnknown {
		return true
	}
	s.ticks++
	if s.maxTicks > 0 && s.ticks > s.maxTicks {
		s.status = solve.NodeLimit
		return true
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
