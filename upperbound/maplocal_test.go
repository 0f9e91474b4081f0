package upperbound_test

import (
	"testing"

	"github.com/mrbound/mrbound/compare/simbridge"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/upperbound"
)

// TestHoldWaitsForLocalMap: two nodes of one map slot and one reduce
// slot; a map away from its block takes 0.5 s more. W arrives at 0 s with
// a 1-s map (its block on node 0), a 1.3-s map (on node 1) and a 100-s
// reduce; S at 0.5 s with a 1-s map (on node 1) and a 1-s reduce. At 1 s
// node 0's map slot frees and srpt starts S's map there, away from its
// block: it ends at 2.5 s and S at 3.5 s (W at 101.3 s: mean turnaround
// 52.15 s). Node 1's slot frees at 1.3 s, sooner than the penalty:
// srpt-hold leaves S's map to it (S's map [1.3, 2.3], its reduce [2.3,
// 3.3]: mean 52.05 s). The test asserts both values and each trace's
// verdict.
func TestHoldWaitsForLocalMap(t *testing.T) {
	w := &sim.Workload{Name: "local map", Cluster: sim.Cluster{NonLocalPenalty: 500, Replicas: 1,
		Nodes: []sim.Node{{MapSlots: 1, ReduceSlots: 1}, {MapSlots: 1, ReduceSlots: 1}}}}
	mapOn := func(work sim.Time, node int) sim.TaskSpec {
		m := sim.TaskSpec{Work: work}
		m.SetReplicas([]int{node})
		return m
	}
	w.Jobs = []sim.Job{
		{Arrival: 0, Deadline: sim.NoDeadline, Parent: -1, Maps: []sim.TaskSpec{mapOn(1000, 0), mapOn(1300, 1)}, Reduces: []sim.TaskSpec{{Work: 100000}}},
		{Arrival: 500, Deadline: sim.NoDeadline, Parent: -1, Maps: []sim.TaskSpec{mapOn(1000, 1)}, Reduces: []sim.TaskSpec{{Work: 1000}}},
	}
	p, err := simbridge.Problem(w, simbridge.IdealOptions(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer upperbound.SetMapLocal(true)
	upperbound.SetMapLocal(false)
	before := runRule(t, w, p, upperbound.SRPTHold)
	upperbound.SetMapLocal(true)
	after := runRule(t, w, p, upperbound.SRPTHold)
	if before != 52150 || after != 52050 {
		t.Errorf("srpt-hold's mean turnaround %g ms without the local wait, %g with it; want 52150, 52050", before, after)
	}
}
