package tumm_test

import (
	"fmt"
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

// TestHTuMMByHand: node 0 (2 slots, maps and reduces 10 s) and node 1 (3
// slots, maps 20 s), one job of six maps and two reduces, ideal offers,
// slow-start 1.
//
//   - t = 0: no job runs, D = 0: node 0 keeps its initial 1/1 targets, picks
//     a reduce, finds none and (D = 0) takes map m0. Its second slot: n'_m = 5,
//     n'_r = 0, so sⁱ_m = ⌊2·5/5⌋ = 2: map m1. Node 1: n'_m = 4 → sⁱ_m = 3: maps
//     m2, m3, m4.
//   - t = 10: node 0 takes m5 (n'_m = 1 → 2/0); its other slot finds D = 0,
//     keeps 2/0, and no reduce is eligible yet: left free.
//   - t = 20: the map phase ends; node 0: n'_r = 2 → 0/2: reduces r0, r1.
//   - t = 30: done. D = 0 was met twice.
func TestHTuMMByHand(t *testing.T) {
	task := func(d ...sim.Time) sim.TaskSpec {
		var t sim.TaskSpec
		t.SetByGroup(d)
		return t
	}
	job := sim.Job{Name: "a", Parent: -1, Deadline: sim.NoDeadline}
	for range 6 {
		job.Maps = append(job.Maps, task(10000, 20000))
	}
	job.Reduces = []sim.TaskSpec{task(10000, 10000), task(10000, 10000)}
	w := &sim.Workload{Cluster: sim.Cluster{Fungible: true, Nodes: []sim.Node{{TotalSlots: 2}, {TotalSlots: 3, Group: 1}}},
		Jobs: []sim.Job{job}}
	o := sim.DefaultOptions()
	o.Heartbeat, o.SlowStart = 0, 1
	p := tumm.NewHTuMM(tumm.HTuMMOptions{})
	res, err := sim.Run(w, p, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := check.Verify(w, res); err != nil {
		t.Fatal(err)
	}
	if res.Metrics.Makespan != 30 || p.NoWork != 2 {
		t.Errorf("makespan %v s, D = 0 %d times; want 30 and 2", res.Metrics.Makespan, p.NoWork)
	}
	var got []string
	for _, a := range res.Trace {
		got = append(got, fmt.Sprintf("%s%d@%d:%d", a.Kind.String()[:1], a.Index, a.Node, a.Launch/1000))
	}
	want := []string{"m0@0:0", "m1@0:0", "m2@1:0", "m3@1:0", "m4@1:0", "m5@0:10", "r0@0:20", "r1@0:20"}
	if !slices.Equal(got, want) {
		t.Errorf("launches %v, want %v", got, want)
	}
}
