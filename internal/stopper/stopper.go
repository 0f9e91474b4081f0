package stopper

import (
	"context"
	"errors"
	"time"

	"github.com/mrbound/mrbound/solve"
)

// ErrStopped is returned by a build that a Stopper stopped; the caller reads
// the reason from Status.
var ErrStopped = errors.New("the build was stopped by the time limit or the context")

// PollEvery is how many ticks pass between two reads of the context and the
// clock (a power of two): a tick of the builds is a few microseconds of
// emitting columns, so a stop is seen within a millisecond or so, while the
// reads (well under a microsecond) stay out of the profile.
const PollEvery = 64

// Stopper remembers the first stop it sees. A nil *Stopper never stops (the
// builders' unit tests and library callers without a context).
type Stopper struct {
	ctx context.Context
	// deadline is start + limit; zero when there is no limit.
	deadline time.Time
	ticks    uint32
	// status is StatusUnknown until a stop, then Interrupted (the context is
	// done, as the solvers map it) or TimeLimit (the deadline passed).
	status solve.Status
}

// New returns a Stopper for ctx and, when limit > 0, the deadline
// start + limit.
func New(ctx context.Context, start time.Time, limit time.Duration) *Stopper {
	s := &Stopper{ctx: ctx}
	if limit > 0 {
		s.deadline = start.Add(limit)
	}
	return s
}

// Tick counts one unit of work and reports whether the build must stop,
// reading the context and the clock every PollEvery ticks.
func (s *Stopper) Tick() bool {
	if s == nil {
		return false
	}
	if s.status != solve.StatusUnknown {
		return true
	}
	s.ticks++
	if s.ticks%PollEvery != 0 {
		return false
	}
	return s.Poll()
}

// Poll reads the context and the clock now and reports whether the build
// must stop.
func (s *Stopper) Poll() bool {
	if s == nil {
		return false
	}
	if s.status == solve.StatusUnknown {
		switch {
		case s.ctx != nil && s.ctx.Err() != nil:
			s.status = solve.Interrupted
		case !s.deadline.IsZero() && !time.Now().Before(s.deadline):
			s.status = solve.TimeLimit
		}
	}
	return s.status != solve.StatusUnknown
}

// Stopped reports whether a stop has been seen, reading nothing.
func (s *Stopper) Stopped() bool { return s != nil && s.status != solve.StatusUnknown }

// Status is Interrupted or TimeLimit after a stop, StatusUnknown before.
func (s *Stopper) Status() solve.Status {
	if s == nil {
		return solve.StatusUnknown
	}
	return s.status
}
