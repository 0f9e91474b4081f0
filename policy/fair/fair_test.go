package fair_test

import (
	"testing"

	"github.com/mrbound/mrbound/policy/fair"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/simtest"
)

func TestConformanceFair(t *testing.T) {
	simtest.Run(t, func() sim.Policy { return fair.New() }, simtest.Caps{})
}

func TestConformanceFairNoDelay(t *testing.T) {
	simtest.Run(t, func() sim.Policy { p := fair.New(); p.NoDelay = true; return p }, simtest.Caps{})
}

func TestConformanceFairH1Caps(t *testing.T) {
	simtest.Run(t, func() sim.Policy { p := fair.New(); p.H1Caps = true; return p }, simtest.Caps{})
}

func ideal() sim.Options {
	o := sim.DefaultOptions()
	o.Heartbeat = 0
	return o
}

func maps(n int, d sim.Time) []sim.TaskSpec {
	out := make([]sim.TaskSpec, n)
	for i := range out {
		out[i] = sim.TaskSpec{Work: d}
	}
	return out
}

// launchedBy counts, per job, the maps launched at time at.
func launchedBy(res *sim.Result, at sim.Time) map[int32]int {
	out := map[int32]int{}
	for _, a := range res.Trace {
		if a.Launch == at {
			out[a.Job]++
		}
	}
	return out
}

// TestWeights: on 3 free slots, a weight-2 pool gets two and a weight-1
// pool one (order by running/weight: A 0, B 0 → A by pool id; then B 0/2 <
// A 1/1; then B 1/2 < A 1/1).
func TestWeights(t *testing.T) {
	w := &sim.Workload{
		Cluster: sim.Cluster{Nodes: []sim.Node{{MapSlots: 3}}},
		Users:   []sim.User{{Name: "a", Weight: 1}, {Name: "b", Weight: 2}},
		Jobs: []sim.Job{
			{User: 0, Deadline: sim.NoDeadline, Parent: -1, Maps: maps(10, 10000)},
			{User: 1, Deadline: sim.NoDeadline, Parent: -1, Maps: maps(10, 10000)},
		},
	}
	res, err := sim.Run(w, fair.New(), ideal())
	if err != nil {
		t.Fatal(err)
	}
	if got := launchedBy(res, 0); got[0] != 1 || got[1] != 2 {
		t.Errorf("at t=0 the pools got %v slots, want job 0: 1, job 1: 2", got)
	}
}

// TestMinShare: a pool below its min share is served first even though it
// arrived last and has the lower weight.
func TestMinShare(t *testing.T) {
	w := &sim.Workload{
		Cluster: sim.Cluster{Nodes: []sim.Node{{MapSlots: 4}}},
		Users:   []sim.User{{Name: "a", Weight: 4}, {Name: "b", Weight: 1, MinShare: 3}},
		Jobs: []sim.Job{
			{User: 0, Deadline: sim.NoDeadline, Parent: -1, Maps: maps(40, 5000)},
			{User: 1, Arrival: 1000, Deadline: sim.NoDeadline, Parent: -1, Maps: maps(40, 5000)},
		},
	}
	res, err := sim.Run(w, fair.New(), ideal())
	if err != nil {
		t.Fatal(err)
	}
	// at 5 s all four slots free: b (needy, 0 < 3) takes three, then a
	if got := launchedBy(res, 5000); got[1] != 3 || got[0] != 1 {
		t.Errorf("at t=5 s the pools got %v slots, want job 1: 3 (its min share), job 0: 1", got)
	}
}

// TestDelayScheduling: node 0 stores no block and node 1 every block, and
// node 0 is offered first. With delay scheduling job 0 skips node 0 and runs
// local on node 1; job 1 (arriving at 1 s) waits W = 4.5 s (ideal mode) and
// then runs non-local on node 0 (3 s + 2 s penalty). Without delay job 0
// takes node 0 non-locally at once and job 1 runs local on node 1 at 1 s.
func TestDelayScheduling(t *testing.T) {
	w := &sim.Workload{
		Cluster: sim.Cluster{BlockBytes: 64, Replicas: 1, NonLocalPenalty: 2000, Nodes: []sim.Node{
			{MapSlots: 1, StorageBytes: 1}, // cannot store a block
			{MapSlots: 1},
		}},
		Jobs: []sim.Job{
			{Deadline: sim.NoDeadline, Parent: -1, Maps: maps(1, 100000)},
			{Arrival: 1000, Deadline: sim.NoDeadline, Parent: -1, Maps: maps(1, 3000)},
		},
	}
	type run struct {
		node   int32
		launch sim.Time
		local  bool
	}
	for _, c := range []struct {
		noDelay bool
		want    [2]run
	}{
		{false, [2]run{{1, 0, true}, {0, 5500, false}}},
		{true, [2]run{{0, 0, false}, {1, 1000, true}}},
	} {
		p := fair.New()
		p.NoDelay = c.noDelay
		res, err := sim.Run(w, p, ideal())
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range res.Trace {
			if got := (run{a.Node, a.Launch, a.Local}); got != c.want[a.Job] {
				t.Errorf("noDelay=%v: job %d ran %+v, want %+v", c.noDelay, a.Job, got, c.want[a.Job])
			}
		}
	}
}
