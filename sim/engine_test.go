package sim_test

import (
	"testing"

	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
)

// tiny: one node with one map and one reduce slot; job 0 (t=0) has maps of
// 10 s and 10 s and a 5 s reduce, job 1 (t=1 s) one 3 s map.
func tiny() *sim.Workload {
	return &sim.Workload{
		Cluster: sim.Cluster{Nodes: []sim.Node{{MapSlots: 1, ReduceSlots: 1}}},
		Jobs: []sim.Job{
			{Name: "a", Arrival: 0, Deadline: sim.NoDeadline, Parent: -1,
				Maps: []sim.TaskSpec{{Work: 10000}, {Work: 10000}}, Reduces: []sim.TaskSpec{{Work: 5000}}},
			{Name: "b", Arrival: 1000, Deadline: sim.NoDeadline, Parent: -1,
				Maps: []sim.TaskSpec{{Work: 3000}}},
		},
	}
}

// TestFIFOIdealTiny: maps [0,10] [10,20] then job 1's [20,23]; the reduce
// launches at 10 (slow-start 0.05 needs one map) and works [20,25].
func TestFIFOIdealTiny(t *testing.T) {
	opt := sim.DefaultOptions()
	opt.Heartbeat = 0
	res, err := sim.Run(tiny(), fifo.New(), opt)
	if err != nil {
		t.Fatal(err)
	}
	want := map[sim.TaskID][3]sim.Time{0: {0, 0, 10000}, 1: {10000, 10000, 20000}, 2: {10000, 20000, 25000}, 3: {20000, 20000, 23000}}
	if len(res.Trace) != 4 {
		t.Fatalf("%d attempts, want 4", len(res.Trace))
	}
	for _, a := range res.Trace {
		if w := want[a.Task]; [3]sim.Time{a.Launch, a.Start, a.End} != w {
			t.Errorf("task %d: launch/start/end %d/%d/%d, want %v", a.Task, a.Launch, a.Start, a.End, w)
		}
	}
	if m := res.Metrics; m.Makespan != 25 || m.MeanTurnaround != 23.5 || m.CompletedJobs != 2 {
		t.Errorf("metrics %+v, want makespan 25, mean turnaround 23.5", m)
	}
}

// TestFIFOHeartbeatTiny: with H = 3 s a freed slot waits for the next
// heartbeat: maps [0,10] [12,22] [24,27]; the reduce launches at 12 and works
// [22,27].
func TestFIFOHeartbeatTiny(t *testing.T) {
	for _, literal := range []bool{false, true} {
		opt := sim.DefaultOptions()
		opt.LiteralHeartbeats = literal
		res, err := sim.Run(tiny(), fifo.New(), opt)
		if err != nil {
			t.Fatal(err)
		}
		want := map[sim.TaskID][3]sim.Time{0: {0, 0, 10000}, 1: {12000, 12000, 22000}, 2: {12000, 22000, 27000}, 3: {24000, 24000, 27000}}
		if len(res.Trace) != 4 {
			t.Fatalf("literal=%v: %d attempts, want 4", literal, len(res.Trace))
		}
		for _, a := range res.Trace {
			if w := want[a.Task]; [3]sim.Time{a.Launch, a.Start, a.End} != w {
				t.Errorf("literal=%v task %d: launch/start/end %d/%d/%d, want %v", literal, a.Task, a.Launch, a.Start, a.End, w)
			}
		}
	}
}

// TestHorizon: a run stopped at 15 s leaves job 0's second map and its
// reduce open (End = -1) and no job finished (job 1 waits behind job 0); the
// trace still verifies.
func TestHorizon(t *testing.T) {
	opt := sim.DefaultOptions()
	opt.Heartbeat = 0
	opt.Horizon = 15000
	res, err := sim.Run(tiny(), fifo.New(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := check.Verify(tiny(), res); err != nil {
		t.Fatal(err)
	}
	open := 0
	for _, a := range res.Trace {
		if a.End < 0 {
			open++
		}
	}
	// m1 (10–20 s) and the reduce (launched at 10 s) are still open
	if open != 2 || res.Metrics.CompletedJobs != 0 || res.Jobs[0].Done {
		t.Errorf("%d open segments, %d jobs completed; want 2 and 0", open, res.Metrics.CompletedJobs)
	}
}
