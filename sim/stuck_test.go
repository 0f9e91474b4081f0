package sim_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
	"github.com/mrbound/mrbound/sim/simtest"
)

// reducesFirst launches reduces before maps and keeps a periodic timer
// (every 10 s, for ever): on a fungible node whose slots its reduces fill
// before any map ran, it deadlocks the way hfsp-kill did (the reduces wait
// for maps that can get no slot, the timer keeps the run alive).
type reducesFirst struct{ timers int }

func (p *reducesFirst) Name() string { return "reduces-first" }
func (p *reducesFirst) Init(s *sim.Sim) error {
	p.timers = 0
	return s.SetTimer(10000, 0)
}
func (p *reducesFirst) JobArrival(*sim.Sim, int)               {}
func (p *reducesFirst) TaskEnd(*sim.Sim, sim.TaskID, sim.Time) {}
func (p *reducesFirst) Timer(s *sim.Sim, _ int64)              { p.timers++; _ = s.SetTimer(s.Now()+10000, 0) }
func (p *reducesFirst) Offer(s *sim.Sim, x int, free sim.Free) {
	for n := free.Map; n > 0; n-- {
		launched := false
		for j := range s.NumJobs() {
			if t, ok := s.PickReduce(j); ok {
				launched = s.Launch(t, x) == nil
			} else if t, _, ok := s.PickMap(j, x); ok {
				launched = s.Launch(t, x) == nil
			}
			if launched {
				break
			}
		}
		if !launched {
			return
		}
	}
}

// deadlock is one fungible node with 2 slots and a job of 4 maps and 2
// reduces; slow-start 0 makes the reduces eligible at once.
func deadlock() (*sim.Workload, sim.Options) {
	w := &sim.Workload{
		Cluster: sim.Cluster{Fungible: true, Nodes: []sim.Node{{TotalSlots: 2}}},
		Jobs: []sim.Job{{Name: "a", Arrival: 5000, Deadline: sim.NoDeadline, Parent: -1,
			Maps:    []sim.TaskSpec{{Work: 1000}, {Work: 1000}, {Work: 1000}, {Work: 1000}},
			Reduces: []sim.TaskSpec{{Work: 1000}, {Work: 1000}}}},
	}
	o := sim.DefaultOptions()
	o.SlowStart = 0
	return w, o
}

// TestStuckRule: the deadlocked run ends with status Stuck, stuck since the
// reduces' launch (at the job's arrival, 5 s, in ideal mode; at the next
// heartbeat, 6 s, with H = 3 s), observed up to the first event at least
// DefaultStuckAfter later; the trace passes the checker with the two
// reduces still running, and the report says so.
func TestStuckRule(t *testing.T) {
	for _, c := range []struct{ hb, launch sim.Time }{{0, 5000}, {3000, 6000}} {
		hb := c.hb
		w, o := deadlock()
		o.Heartbeat = hb
		p := &reducesFirst{}
		res, err := sim.Run(w, p, o)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != sim.Stuck || res.StuckSince != c.launch || res.Unfinished() != 1 {
			t.Fatalf("H=%d: status %v since %d ms, %d unfinished; want stuck since %d ms, 1 unfinished", hb, res.Status, res.StuckSince, res.Unfinished(), c.launch)
		}
		if res.End < c.launch+sim.DefaultStuckAfter || res.End > c.launch+sim.DefaultStuckAfter+10000 {
			t.Errorf("H=%d: observed until %d ms, want the first timer from %d ms", hb, res.End, c.launch+sim.DefaultStuckAfter)
		}
		if p.timers < 300 {
			t.Errorf("H=%d: %d timers fired before the rule, want the whole hour's (≥ 360)", hb, p.timers)
		}
		if len(res.Trace) != 2 || res.Trace[0].Kind != sim.Reduce || res.Trace[0].End != -1 {
			t.Errorf("H=%d: trace %+v, want the two reduces still running", hb, res.Trace)
		}
		if err := check.Verify(w, res); err != nil {
			t.Errorf("H=%d: %v", hb, err)
		}
		if msg := res.Incomplete(); !strings.HasPrefix(msg, fmt.Sprintf("stuck at %.3f s with 1 unfinished jobs", c.launch.Seconds())) {
			t.Errorf("H=%d: Incomplete() = %q", hb, msg)
		}
	}
}

// TestStuckAfterOption: a shorter window ends the run sooner; a negative one
// turns the rule off (the horizon then ends the run); the window is at least
// two heartbeats.
func TestStuckAfterOption(t *testing.T) {
	w, o := deadlock()
	o.StuckAfter = 60000
	res, err := sim.Run(w, &reducesFirst{}, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != sim.Stuck || res.End < 65000 || res.End > 75000 {
		t.Errorf("StuckAfter 60 s: status %v at %d ms, want stuck at 65-75 s", res.Status, res.End)
	}
	o.StuckAfter, o.Heartbeat = 1000, 30000
	if res, err = sim.Run(w, &reducesFirst{}, o); err != nil || res.Status != sim.Stuck || res.End < 65000 {
		t.Errorf("StuckAfter 1 s with H = 30 s: %v, status %v at %d ms, want stuck after 2H (≥ 65 s)", err, res.Status, res.End)
	}
	o.StuckAfter, o.Heartbeat, o.Horizon = -1, 3000, 2*sim.DefaultStuckAfter
	if res, err = sim.Run(w, &reducesFirst{}, o); err != nil || res.Status != sim.HorizonReached || res.End > o.Horizon {
		t.Errorf("rule off: %v, status %v at %d ms, want the horizon", err, res.Status, res.End)
	}
	if msg := res.Incomplete(); !strings.HasPrefix(msg, "stopped at the horizon 7200.000 s with 1 unfinished jobs") {
		t.Errorf("Incomplete() = %q", msg)
	}
}

// TestStatusFinishedAndStalled: every conformance workload run by FIFO
// finishes (status Finished, nothing incomplete); a policy that launches
// nothing stalls once no event is left.
func TestStatusFinishedAndStalled(t *testing.T) {
	for _, c := range simtest.Cases() {
		res, err := sim.Run(c.Workload, fifo.New(), c.Options)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != sim.Finished || res.Incomplete() != "" {
			t.Errorf("%s: status %v, %q", c.Name, res.Status, res.Incomplete())
		}
	}
	o := sim.DefaultOptions()
	o.Heartbeat = 0
	res, err := sim.Run(tiny(), idle{}, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != sim.Stalled || !strings.HasPrefix(res.Incomplete(), "stalled at 1.000 s with 2 unfinished jobs") {
		t.Errorf("idle policy: status %v, %q; want stalled at the last arrival", res.Status, res.Incomplete())
	}
}

type idle struct{}

func (idle) Name() string                           { return "idle" }
func (idle) Init(*sim.Sim) error                    { return nil }
func (idle) JobArrival(*sim.Sim, int)               {}
func (idle) TaskEnd(*sim.Sim, sim.TaskID, sim.Time) {}
func (idle) Timer(*sim.Sim, int64)                  {}
func (idle) Offer(*sim.Sim, int, sim.Free)          {}
