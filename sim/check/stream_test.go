package check_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/policy/fair"
	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
	"github.com/mrbound/mrbound/sim/simtest"
)

// TestStreamMatchesVerify: on every conformance case run by FIFO, Fair and
// the preempter, and on seeded random corruptions of those runs (a field of
// a record changed, a record dropped or repeated, an outcome or a replica
// changed), the streaming checker and Verify return the same error, word
// for word — or both nil. The corruptions are those whose records an
// engine could still have handed over in time order (one task's segments
// end in trace order); the rest are the documented difference (Stream).
func TestStreamMatchesVerify(t *testing.T) {
	pols := map[string]func() sim.Policy{
		"fifo":      func() sim.Policy { return fifo.New() },
		"fair":      func() sim.Policy { return fair.New() },
		"preempter": func() sim.Policy { return &preempter{} },
	}
	rejected, compared := 0, 0
	for _, c := range simtest.Cases() {
		for _, pn := range []string{"fifo", "fair", "preempter"} {
			t.Run(c.Name+"/"+pn, func(t *testing.T) {
				res := runPolicy(t, c.Workload, pols[pn](), c.Options)
				rng := rand.New(rand.NewPCG(uint64(len(res.Trace)), 30))
				for k := range 60 {
					r := clone(res)
					what := corrupt(rng, r)
					if !inTaskOrder(r.Trace) {
						continue
					}
					compared++
					err := check.Verify(c.Workload, r)
					serr := check.VerifyStream(c.Workload, r)
					if err != nil {
						rejected++
					}
					if (err == nil) != (serr == nil) || (err != nil && err.Error() != serr.Error()) {
						t.Fatalf("corruption %d (%s): the two forms disagree:\nVerify:       %v\nVerifyStream: %v", k, what, err, serr)
					}
				}
			})
		}
	}
	// the corruptions must mostly be caught, or the comparison says little
	if rejected < compared*3/4 {
		t.Errorf("only %d of %d corruptions rejected", rejected, compared)
	}
	t.Logf("%d corruptions compared, %d rejected", compared, rejected)
}

// corrupt changes r at random and says how.
func corrupt(rng *rand.Rand, r *sim.Result) string {
	n := len(r.Trace)
	i := rng.IntN(n)
	a := &r.Trace[i]
	d := sim.Time(1 + rng.IntN(3000))
	switch rng.IntN(15) {
	case 0:
		a.Duration += d
		return fmt.Sprintf("trace[%d].Duration += %d", i, d)
	case 1:
		a.Launch = max(0, a.Launch-d)
		return fmt.Sprintf("trace[%d].Launch -= %d", i, d)
	case 2:
		if a.End >= 0 {
			a.End += d
		}
		return fmt.Sprintf("trace[%d].End += %d", i, d)
	case 3:
		a.Start = max(a.Launch, a.Start-d)
		return fmt.Sprintf("trace[%d].Start -= %d", i, d)
	case 4:
		a.Node = int32(rng.IntN(6)) - 1 // -1 and 4 or 5 are no node of the small clusters
		return fmt.Sprintf("trace[%d].Node = %d", i, a.Node)
	case 5:
		a.Local = !a.Local
		return fmt.Sprintf("trace[%d].Local flipped", i)
	case 6:
		a.Resumed = !a.Resumed
		return fmt.Sprintf("trace[%d].Resumed flipped", i)
	case 7:
		a.Outcome = sim.Outcome(rng.IntN(4))
		return fmt.Sprintf("trace[%d].Outcome = %s", i, a.Outcome)
	case 8:
		r.Trace = slices.Delete(r.Trace, i, i+1)
		return fmt.Sprintf("trace[%d] dropped", i)
	case 9:
		r.Trace = slices.Insert(r.Trace, i+1, *a)
		return fmt.Sprintf("trace[%d] repeated", i)
	case 10:
		j := rng.IntN(len(r.Jobs))
		r.Jobs[j].Completion += d
		return fmt.Sprintf("job %d's completion += %d", j, d)
	case 11:
		if len(r.Replicas) > 0 {
			k := rng.IntN(len(r.Replicas))
			r.Replicas[k] = int32(rng.IntN(4))
			return fmt.Sprintf("replica %d changed", k)
		}
		return "nothing"
	case 12:
		a.Launch += d
		a.Start = max(a.Start, a.Launch)
		if a.End >= 0 {
			a.End = max(a.End, a.Start)
		}
		return fmt.Sprintf("trace[%d] launched %d later", i, d)
	case 13:
		a.Kind = sim.Kind(rng.IntN(3))
		return fmt.Sprintf("trace[%d].Kind = %s", i, a.Kind)
	default:
		a.Task = sim.TaskID(rng.IntN(n+2)) - 1
		return fmt.Sprintf("trace[%d].Task = %d", i, a.Task)
	}
}

// inTaskOrder: each task's segments end (as the stream would hand them
// over) in trace order.
func inTaskOrder(tr []sim.Attempt) bool {
	last := map[sim.TaskID]sim.Time{}
	for _, a := range tr {
		e := a.End
		if e < 0 {
			e = 1 << 62
		}
		if e < a.Launch {
			e = a.Launch
		}
		if p, ok := last[a.Task]; ok && e < p {
			return false
		}
		last[a.Task] = e
	}
	return true
}

// TestStreamNestedSegments: two segments of one task that overlap, the
// later one ending first (a trace no engine makes, where the stream sees
// the task's segments out of trace order): both forms reject it.
func TestStreamNestedSegments(t *testing.T) {
	w := simtest.Tiny()
	opt := sim.DefaultOptions()
	opt.Heartbeat = 0
	res := run(t, w, opt)
	r := clone(res)
	a := r.Trace[0]
	a.Launch, a.Start, a.End, a.Outcome = a.Launch+1, a.Launch+1, a.Launch+2, sim.Killed
	r.Trace = append(r.Trace, a)
	if err := check.Verify(w, r); err == nil {
		t.Errorf("Verify accepts a segment inside another of the same task")
	}
	if err := check.VerifyStream(w, r); err == nil {
		t.Errorf("VerifyStream accepts a segment inside another of the same task")
	}
}

// TestStreamChecksItsOrder: the streaming checker relies on the records
// coming in simulated-time order, each launched once and ended once after
// its launch; a feed that breaks this is rejected, naming the record,
// rather than trusted. The valid feed of the same run is accepted.
func TestStreamChecksItsOrder(t *testing.T) {
	w := simtest.Random(3, simtest.RandomSpec{})
	opt := sim.DefaultOptions()
	opt.Heartbeat = 0
	res := run(t, w, opt)
	type call struct {
		i   int
		end bool
	}
	// the engine's order: launches and ends by time, at one time in trace
	// order with a record's launch before its end
	var calls []call
	for i := range res.Trace {
		calls = append(calls, call{i, false}, call{i, true})
	}
	at := func(c call) sim.Time {
		a := res.Trace[c.i]
		if !c.end {
			return a.Launch
		}
		return a.End
	}
	slices.SortStableFunc(calls, func(a, b call) int { return int(at(a) - at(b)) })
	// feedBegun feeds calls to a stream begun with the replica table
	// (rep, replicas), then finishes it with res.
	feedBegun := func(rep int, replicas []int32, calls []call) error {
		st := check.NewStream(w, opt)
		st.Begin(rep, replicas)
		for _, c := range calls {
			a := res.Trace[c.i]
			if c.end {
				st.Ended(c.i, &a)
			} else {
				a.Start, a.End, a.Outcome = a.Launch, -1, sim.OutcomeUnknown
				st.Launched(c.i, &a)
			}
		}
		return st.Finish(res)
	}
	feed := func(calls []call) error { return feedBegun(res.Rep, res.Replicas, calls) }
	if err := feed(calls); err != nil {
		t.Fatalf("the engine's order rejected: %v", err)
	}
	// the last end moved to the front: ends before its launch, and out of
	// time order
	last := calls[len(calls)-1]
	cases := []struct {
		name, want string
		calls      []call
	}{
		{"end first", "ends without a launch", append([]call{last}, calls[:len(calls)-1]...)},
		{"no end", "never ended", calls[:len(calls)-1]},
		{"launched twice", "launched twice", append(slices.Clone(calls[:1]), calls...)},
		{"ended twice", "ends without a launch, or twice", append(slices.Clone(calls), last)},
		{"time reversed", "out of time order", slices.Concat(calls[len(calls)/2:], calls[:len(calls)/2])},
	}
	for _, c := range cases {
		err := feed(c.calls)
		if !errors.Is(err, check.ErrViolation) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want a violation saying %q", c.name, err, c.want)
		}
	}
	// a record whose launch and end name different tasks: one that held a
	// slot (its open segment carries the launch), and one launched and
	// ended at one instant (it held none)
	feedSwapped := func(i int, zeroLength bool) error {
		st := check.NewStream(w, opt)
		st.Begin(res.Rep, res.Replicas)
		for _, c := range calls {
			a := res.Trace[c.i]
			if zeroLength && c.i == i {
				a.Launch, a.Start = a.End, a.End
			}
			if c.end {
				st.Ended(c.i, &a)
				continue
			}
			if c.i == i {
				a.Task = res.Trace[(i+1)%len(res.Trace)].Task
			}
			a.Start, a.End, a.Outcome = a.Launch, -1, sim.OutcomeUnknown
			st.Launched(c.i, &a)
		}
		return st.Finish(res)
	}
	last = calls[len(calls)-1] // the record ending last: no launch follows its end
	for _, zero := range []bool{false, true} {
		err := feedSwapped(last.i, zero)
		if want := fmt.Sprintf("trace[%d]: launched as task %d, ends as task %d", last.i, res.Trace[(last.i+1)%len(res.Trace)].Task, res.Trace[last.i].Task); !errors.Is(err, check.ErrViolation) || !strings.Contains(err.Error(), want) {
			t.Errorf("launch and end of different tasks (zero length %v): got %v, want a violation saying %q", zero, err, want)
		}
	}
	// an end that claims no length for a record whose launch came earlier
	// and took a slot: still checked against its open segment
	{
		st := check.NewStream(w, opt)
		st.Begin(res.Rep, res.Replicas)
		for _, c := range calls {
			a := res.Trace[c.i]
			if c.end {
				if c.i == last.i {
					a.Launch, a.Start = a.End, a.End
				}
				st.Ended(c.i, &a)
				continue
			}
			a.Start, a.End, a.Outcome = a.Launch, -1, sim.OutcomeUnknown
			st.Launched(c.i, &a)
		}
		a := res.Trace[last.i]
		want := fmt.Sprintf("trace[%d]: launched at %d ms, ends saying %d ms", last.i, a.Launch, a.End)
		if err := st.Finish(res); a.End == a.Launch || !errors.Is(err, check.ErrViolation) || !strings.Contains(err.Error(), want) {
			t.Errorf("an end claiming no length after a launch that held a slot: got %v, want a violation saying %q", err, want)
		}
	}
	// an end of a negative index is a violation, not a panic; a result
	// whose replica table is not the one the run began with is rejected
	st := check.NewStream(w, opt)
	st.Begin(res.Rep, res.Replicas)
	a := res.Trace[0]
	st.Ended(-1, &a)
	if err := st.Finish(res); !errors.Is(err, check.ErrViolation) || !strings.Contains(err.Error(), "trace[-1]: ends without a launch") {
		t.Errorf("an end of record -1: got %v", err)
	}
	other := slices.Clone(res.Replicas)
	for k := range other {
		other[k] = -1 // no replica anywhere (the locality flags may fail too)
	}
	if err := feedBegun(res.Rep, other, calls); !errors.Is(err, check.ErrViolation) || !strings.Contains(err.Error(), "not the one the run began with") {
		t.Errorf("another replica table at the start: got %v", err)
	}
}
