package sim_test

import (
	"testing"

	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
	"github.com/mrbound/mrbound/sim/simtest"
)

// churner launches the lowest pending tasks of the arrived jobs (local maps
// first, through PickMap) and, after each task end, kills, suspends or
// resumes tasks at random; after every callback it asserts that the
// engine's pending bitset agrees with every task's state.
type churner struct {
	t      *testing.T
	jobs   []int
	kills  int
	checks int
}

func (p *churner) Name() string          { return "churner" }
func (p *churner) Init(s *sim.Sim) error { return nil }
func (p *churner) Timer(*sim.Sim, int64) {}
func (p *churner) JobArrival(s *sim.Sim, j int) {
	p.jobs = append(p.jobs, j)
	p.verify(s)
}

func (p *churner) verify(s *sim.Sim) {
	p.checks++
	if err := sim.PendingConsistent(s); err != nil {
		p.t.Fatal(err)
	}
}

func (p *churner) Offer(s *sim.Sim, x int, free sim.Free) {
	for _, j := range p.jobs {
		for {
			if t, _, ok := s.PickMap(j, x); ok && s.Launch(t, x) == nil {
				continue
			}
			if t, ok := s.PickReduce(j); ok && s.Launch(t, x) == nil {
				continue
			}
			break
		}
	}
	p.verify(s)
}

func (p *churner) TaskEnd(s *sim.Sim, id sim.TaskID, _ sim.Time) {
	r := s.Rand()
	if run := s.Running(); len(run) > 0 && r.IntN(3) == 0 {
		victim := run[r.IntN(len(run))]
		if r.IntN(2) == 0 {
			_ = s.Kill(victim)
		} else if s.Suspend(victim) == nil && r.IntN(2) == 0 {
			_ = s.Kill(victim) // a suspended task killed: pending again
		}
		p.kills++
	}
	for t := range s.NumTasks() {
		if v := s.Task(sim.TaskID(t)); v.State == sim.TaskSuspended && r.IntN(2) == 0 {
			_ = s.Resume(v.ID)
		}
	}
	p.verify(s)
}

// TestPendingBitset: the engine's pending bitset (what PickMap, PickReduce
// and the first-pending scans read instead of the task records) agrees
// with the task states through launches, kills of running and suspended
// tasks, suspends and resumes, in both modes, and the trace passes the
// independent checker.
func TestPendingBitset(t *testing.T) {
	for _, hb := range []sim.Time{0, 3000} {
		w := simtest.Random(7, simtest.RandomSpec{})
		p := &churner{t: t}
		opt := sim.DefaultOptions()
		opt.Heartbeat = hb
		opt.StuckAfter = -1
		res, err := sim.Run(w, p, opt)
		if err != nil {
			t.Fatal(err)
		}
		if err := check.Verify(w, res); err != nil {
			t.Errorf("heartbeat %d: %v", hb, err)
		}
		if p.kills == 0 || p.checks < 10 {
			t.Errorf("heartbeat %d: %d kills or suspends, %d checks: the test exercised nothing", hb, p.kills, p.checks)
		}
	}
}
