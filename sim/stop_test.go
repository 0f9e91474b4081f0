package sim_test

import (
	"strings"
	"testing"

	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
)

// many: 2000 jobs of ten 1 s maps and a reduce, one a second, on two nodes:
// far more than sim.StopEvery loop steps.
func many() *sim.Workload {
	w := &sim.Workload{Cluster: sim.Cluster{Nodes: []sim.Node{{MapSlots: 2, ReduceSlots: 1}, {MapSlots: 2, ReduceSlots: 1}}}}
	for j := 0; j < 2000; j++ {
		job := sim.Job{Name: "j", Arrival: sim.Time(j) * 1000, Deadline: sim.NoDeadline, Parent: -1,
			Reduces: []sim.TaskSpec{{Work: 500}}}
		for range 10 {
			job.Maps = append(job.Maps, sim.TaskSpec{Work: 1000})
		}
		w.Jobs = append(w.Jobs, job)
	}
	return w
}

// TestStopAtOnce: a Stop that is already true ends the run before its first
// event, with status Interrupted, every job unfinished and an empty trace
// that the checker accepts.
func TestStopAtOnce(t *testing.T) {
	opt := sim.DefaultOptions()
	opt.Heartbeat = 0
	opt.Stop = func() bool { return true }
	res, err := sim.Run(many(), fifo.New(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != sim.Interrupted || res.Unfinished() != 2000 || len(res.Trace) != 0 {
		t.Fatalf("status %v, %d unfinished, %d attempts; want interrupted, 2000, 0", res.Status, res.Unfinished(), len(res.Trace))
	}
	if !strings.HasPrefix(res.Incomplete(), "interrupted at 0.000 s with 2000 unfinished jobs") {
		t.Errorf("Incomplete() = %q", res.Incomplete())
	}
	if err := check.Verify(many(), res); err != nil {
		t.Errorf("the empty trace fails the check: %v", err)
	}
}

// TestStopMidRun: a Stop that turns true at its third call ends the run
// after 2·StopEvery steps with jobs left, and the partial trace verifies; a
// Stop that never fires leaves the run exactly as without one.
func TestStopMidRun(t *testing.T) {
	opt := sim.DefaultOptions()
	opt.Heartbeat = 0
	calls := 0
	opt.Stop = func() bool { calls++; return calls == 3 }
	res, err := sim.Run(many(), fifo.New(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != sim.Interrupted || res.Unfinished() == 0 || res.Unfinished() == 2000 || calls != 3 {
		t.Fatalf("status %v, %d unfinished, %d calls; want interrupted part-way at the third call", res.Status, res.Unfinished(), calls)
	}
	if err := check.Verify(many(), res); err != nil {
		t.Errorf("the partial trace fails the check: %v", err)
	}
	opt.Stop = func() bool { return false }
	with, err := sim.Run(many(), fifo.New(), opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.Stop = nil
	without, err := sim.Run(many(), fifo.New(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if with.Status != sim.Finished || with.Metrics != without.Metrics || len(with.Trace) != len(without.Trace) {
		t.Errorf("a Stop that never fires changed the run: %v %+v vs %v %+v", with.Status, with.Metrics, without.Status, without.Metrics)
	}
}
