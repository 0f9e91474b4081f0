package upperbound_test

import (
	"testing"

	"github.com/mrbound/mrbound/compare/simbridge"
	"github.com/mrbound/mrbound/lowerbound"
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
	p := idealProblem(t, w)
	off, err := upperbound.NewHoldNoMapLocal(w)
	if err != nil {
		t.Fatal(err)
	}
	before := runPolicy(t, w, p, off)
	after := runRule(t, w, p, upperbound.SRPTHold)
	if before != 52150 || after != 52050 {
		t.Errorf("srpt-hold's mean turnaround %g ms without the local wait, %g with it; want 52150, 52050", before, after)
	}
}

// TestHoldWaitsForLocalMapsOfOneWave: three nodes of one map slot and one
// reduce slot; a map away from its block takes 0.5 s more. W arrives at 0
// s with maps of 1 s (block on node 0), 1.3 s (node 1) and 1.3 s (node 2)
// and a 100-s reduce; S at 0.5 s with two 0.2-s maps, blocks on nodes 1 and
// 2, and a 1-s reduce. At 1 s node 0's map slot frees: starting S's first
// map there, away from its block, ends it at 1.7 s and S at 2.7 s (mean
// turnaround 51.75 s). S's maps fit in one wave: srpt-hold leaves both to
// nodes 1 and 2, which free at 1.3 s, sooner than the penalty; they end at
// 1.5 s and S at 2.5 s (mean 51.65 s). The last-map-only rule of s25maps
// gave 51.75 s.
func TestHoldWaitsForLocalMapsOfOneWave(t *testing.T) {
	w := &sim.Workload{Name: "local maps", Cluster: sim.Cluster{NonLocalPenalty: 500, Replicas: 1,
		Nodes: []sim.Node{{MapSlots: 1, ReduceSlots: 1}, {MapSlots: 1, ReduceSlots: 1}, {MapSlots: 1, ReduceSlots: 1}}}}
	mapOn := func(work sim.Time, node int) sim.TaskSpec {
		m := sim.TaskSpec{Work: work}
		m.SetReplicas([]int{node})
		return m
	}
	w.Jobs = []sim.Job{
		{Arrival: 0, Deadline: sim.NoDeadline, Parent: -1, Maps: []sim.TaskSpec{mapOn(1000, 0), mapOn(1300, 1), mapOn(1300, 2)}, Reduces: []sim.TaskSpec{{Work: 100000}}},
		{Arrival: 500, Deadline: sim.NoDeadline, Parent: -1, Maps: []sim.TaskSpec{mapOn(200, 1), mapOn(200, 2)}, Reduces: []sim.TaskSpec{{Work: 1000}}},
	}
	p := idealProblem(t, w)
	if got := runRule(t, w, p, upperbound.SRPTHold); got != 51650 {
		t.Errorf("srpt-hold's mean turnaround %g ms; want 51650 (both of S's maps on their blocks)", got)
	}
}

// idealProblem is w's problem in ideal mode.
func idealProblem(t *testing.T, w *sim.Workload) *lowerbound.Problem {
	t.Helper()
	p, err := simbridge.Problem(w, simbridge.IdealOptions(), false)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
