package sim_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/policy/fifo"
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

// early probes every task before any job arrives (in Init), then runs FIFO.
type early struct {
	sim.Policy
	t *testing.T
	w *sim.Workload
}

func (p *early) Init(s *sim.Sim) error {
	id := sim.TaskID(0)
	for j, job := range p.w.Jobs {
		for k, list := range [2][]sim.TaskSpec{job.Maps, job.Reduces} {
			for i := range list {
				want := sim.TaskView{ID: id, Job: j, Kind: sim.Kind(k + 1), Index: i, State: sim.TaskPending, Node: -1}
				// one task in six is first viewed, the others first launched,
				// killed or estimated: each path sets the record up
				if id%6 == 5 {
					if got := s.Task(id); got != want {
						p.t.Errorf("task %d before its job arrives, viewed first: %+v, want %+v", id, got, want)
					}
				}
				switch id % 3 {
				case 0:
					if err := s.Launch(id, 0); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("job %d has not arrived", j)) {
						p.t.Errorf("launch of task %d before its job: %v", id, err)
					}
				case 1:
					if err := s.Kill(id); err == nil || !strings.HasSuffix(err.Error(), fmt.Sprintf("kill: task %d is pending", id)) {
						p.t.Errorf("kill of task %d before its job: %v", id, err)
					}
				case 2:
					if d, ok := s.Estimate(id, 0); !ok || d != list[i].Work {
						p.t.Errorf("estimate of task %d: %d, %v, want %d", id, d, ok, list[i].Work)
					}
				}
				if got := s.Task(id); got != want {
					p.t.Errorf("task %d before its job arrives: %+v, want %+v", id, got, want)
				}
				id++
			}
		}
	}
	return p.Policy.Init(s)
}

// TestNotArrivedTasks: the task records are set up when their job arrives,
// but a policy that names a task of a job not yet arrived sees what it saw
// when every record was set up before the run: its view (pending, on no
// node, its job, kind and index), the refusals of Launch and Kill, its
// estimate; the run that follows is FIFO's, the same trace as without the
// probes.
func TestNotArrivedTasks(t *testing.T) {
	w := simtest.Random(5, simtest.RandomSpec{})
	opt := sim.DefaultOptions()
	opt.Heartbeat = 0
	want, err := sim.Run(w, fifo.New(), opt)
	if err != nil {
		t.Fatal(err)
	}
	got, err := sim.Run(w, &early{Policy: fifo.New(), t: t, w: w}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Trace, want.Trace) {
		t.Errorf("the probes changed the run")
	}
}
