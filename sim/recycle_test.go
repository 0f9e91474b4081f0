package sim_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
)

// brief: n jobs of two 1-s maps and a 1-s reduce, one every 5 s, on one
// node with two map slots and a reduce slot: each job is done before the
// next arrives.
func brief(n int) *sim.Workload {
	w := &sim.Workload{Cluster: sim.Cluster{Nodes: []sim.Node{{MapSlots: 2, ReduceSlots: 1}}}}
	for j := range n {
		w.Jobs = append(w.Jobs, sim.Job{Name: "j", Arrival: sim.Time(j) * 5000, Deadline: sim.NoDeadline, Parent: -1,
			Maps: []sim.TaskSpec{{Work: 1000}, {Work: 1000}}, Reduces: []sim.TaskSpec{{Work: 1000}}})
	}
	return w
}

// late probes, at every tenth arrival, the tasks of the job that arrived
// two before (done by then, its chunk recycled or not), then runs FIFO.
type late struct {
	*fifo.Policy
	t      *testing.T
	probes int
}

func (p *late) JobArrival(s *sim.Sim, j int) {
	if j >= 2 && j%10 == 0 {
		d := j - 2
		first := s.Job(d).FirstMap
		for i := range sim.TaskID(3) {
			id := first + i
			kind, index := sim.Map, int(i)
			if i == 2 {
				kind, index = sim.Reduce, 0
			}
			want := sim.TaskView{ID: id, Job: d, Kind: kind, Index: index, State: sim.TaskDone, Node: -1}
			if got := s.Task(id); got != want {
				p.t.Errorf("task %d of done job %d: %+v, want %+v", id, d, got, want)
			}
			for what, err := range map[string]error{
				"launch": s.Launch(id, 0), "kill": s.Kill(id), "suspend": s.Suspend(id), "resume": s.Resume(id),
			} {
				want := fmt.Sprintf("%s: task %d is done", what, id)
				if what == "suspend" || what == "resume" {
					want = fmt.Sprintf("%s: task %d is not %s", what, id, map[string]string{"suspend": "running", "resume": "suspended"}[what])
				}
				if err == nil || !strings.HasSuffix(err.Error(), want) {
					p.t.Errorf("%s of task %d of done job %d: %v, want …%q", what, id, d, err, want)
				}
			}
			if e, ok := s.Estimate(id, 0); !ok || e != 1000 {
				p.t.Errorf("estimate of task %d of done job %d: %d, %v, want 1000", id, d, e, ok)
			}
			p.probes++
		}
		if j%5000 == 0 {
			if err := sim.PendingConsistent(s); err != nil {
				p.t.Fatal(err)
			}
		}
	}
	p.Policy.JobArrival(s, j)
}

// TestTaskRecordsRecycled: the task records of done jobs are recycled, so
// a run of 30,000 short jobs one after another (90,000 tasks, 22 chunks of
// records) allocates at most two chunks (a job may straddle two) and holds
// none at the end; a task of a done job still answers every call as
// before — its view (done, on no node), the refusals of the actions, its
// estimate — and the probes change nothing in the trace, which the
// independent checker accepts.
func TestTaskRecordsRecycled(t *testing.T) {
	w := brief(30000)
	for _, hb := range []sim.Time{0, 3000} {
		opt := sim.DefaultOptions()
		opt.Heartbeat = hb
		want, err := sim.Run(w, fifo.New(), opt)
		if err != nil {
			t.Fatal(err)
		}
		var s *sim.Sim
		p := &late{Policy: fifo.New(), t: t}
		got, err := sim.Run(w, &spy{Policy: p, s: &s}, opt)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != sim.Finished || !reflect.DeepEqual(got.Trace, want.Trace) {
			t.Errorf("heartbeat %d: status %v; the probes changed the run", hb, got.Status)
		}
		if err := check.Verify(w, got); err != nil {
			t.Errorf("heartbeat %d: the checker rejects the run: %v", hb, err)
		}
		if n := 3 * (len(w.Jobs)/10 - 1); p.probes != n {
			t.Errorf("heartbeat %d: %d probes, want %d", hb, p.probes, n)
		}
		allocated, held := sim.TaskChunks(s)
		if allocated > 2 || held != 0 {
			t.Errorf("heartbeat %d: %d chunks of task records allocated, %d held at the end; want at most 2 and none", hb, allocated, held)
		}
		if err := sim.PendingConsistent(s); err != nil {
			t.Errorf("heartbeat %d: after the run: %v", hb, err)
		}
	}
}

// spy keeps the Sim of the run it wraps.
type spy struct {
	sim.Policy
	s **sim.Sim
}

func (p *spy) Init(s *sim.Sim) error {
	*p.s = s
	return p.Policy.Init(s)
}
