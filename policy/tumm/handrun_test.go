package tumm_test

import (
	"slices"
	"testing"

	"github.com/mrbound/mrbound/policy/tumm"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
)

// TestTuMMByHand: two nodes of 3 fungible slots (S = 6, k = 2, s_m ∈ [2, 4]),
// one job of four 10 s maps and two 10 s reduces, exact estimates (Known),
// ideal offers, slow-start 1.
//
//   - t = 0: s_m starts at S − k = 4; node 0's targets are 2 map / 1 reduce.
//     Its first slot takes map m0 (the job starts: eq 4 with w'_m = 40,
//     w'_r = 0 gives ⌊6⌋ → 4); its second slot's deficits are 1 vs 1, so a
//     reduce is chosen, none is eligible, and A-T4 gives it map m1 (map
//     deficit 1); its third slot has map deficit 0: left free. Node 1 the
//     same with m2, m3.
//   - t = 10: the maps end; M = {}, R = {job}: eq 4 with w'_m = 0 gives
//     ⌊0⌋ → 2, so node 0 (1 map / 2 reduce) takes both reduces.
//   - t = 20: done.
func TestTuMMByHand(t *testing.T) {
	spec := func(n int) []sim.TaskSpec {
		out := make([]sim.TaskSpec, n)
		for i := range out {
			out[i] = sim.TaskSpec{Work: 10000}
		}
		return out
	}
	w := &sim.Workload{Cluster: sim.Cluster{Fungible: true, Nodes: []sim.Node{{TotalSlots: 3}, {TotalSlots: 3}}},
		Jobs: []sim.Job{{Name: "a", Parent: -1, Deadline: sim.NoDeadline, Maps: spec(4), Reduces: spec(2)}}}
	o := sim.DefaultOptions()
	o.Heartbeat, o.SlowStart = 0, 1
	p := tumm.NewTuMM(tumm.TuMMOptions{Known: true})
	res, err := sim.Run(w, p, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := check.Verify(w, res); err != nil {
		t.Fatal(err)
	}
	if res.Metrics.Makespan != 20 {
		t.Errorf("makespan %v s, want 20", res.Metrics.Makespan)
	}
	want := []tumm.TargetPoint{{At: 0, MapSlots: 4}, {At: 10000, MapSlots: 2}}
	if !slices.Equal(p.Targets, want) {
		t.Errorf("targets %v, want %v", p.Targets, want)
	}
	nodes := map[sim.Kind][]int32{}
	for _, a := range res.Trace {
		nodes[a.Kind] = append(nodes[a.Kind], a.Node)
	}
	if !slices.Equal(nodes[sim.Map], []int32{0, 0, 1, 1}) || !slices.Equal(nodes[sim.Reduce], []int32{0, 0}) {
		t.Errorf("placement maps %v reduces %v, want [0 0 1 1] and [0 0]", nodes[sim.Map], nodes[sim.Reduce])
	}
}
