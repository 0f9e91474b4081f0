package hfsp

import (
	"testing"

	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
)

func ideal() sim.Options {
	o := sim.DefaultOptions()
	o.Heartbeat = 0
	return o
}

func maps(d ...sim.Time) []sim.TaskSpec {
	out := make([]sim.TaskSpec, len(d))
	for i := range d {
		out[i] = sim.TaskSpec{Work: d[i]}
	}
	return out
}

func same(n int, d sim.Time) []sim.TaskSpec {
	out := make([]sim.TaskSpec, n)
	for i := range out {
		out[i] = sim.TaskSpec{Work: d}
	}
	return out
}

// oneSlot is one node with mapSlots map slots and no reduce slot.
func cluster(nodes, mapSlots int) sim.Cluster {
	c := sim.Cluster{}
	for range nodes {
		c.Nodes = append(c.Nodes, sim.Node{MapSlots: mapSlots})
	}
	return c
}

func job(at sim.Time, m []sim.TaskSpec) sim.Job {
	return sim.Job{Arrival: at, Deadline: sim.NoDeadline, Parent: -1, Maps: m}
}

func run(t *testing.T, w *sim.Workload, p sim.Policy, o sim.Options) *sim.Result {
	t.Helper()
	res, err := sim.Run(w, p, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := check.Verify(w, res); err != nil {
		t.Fatal(err)
	}
	if res.Rejected > 0 {
		t.Fatalf("%d rejected actions", res.Rejected)
	}
	return res
}

type span struct {
	job        int32
	start, end sim.Time
}

// TestSmallJobOvertakes, by hand (one map slot, ideal mode, T = ⌈0.25⌉ = 1
// training slot, t = 2): A (10 maps × 10 s) arrives at 0 with
// S_i = 10·60 s; B (3 maps × 1 s) at 1 s with S_i = 3·60 s. A0 is A's first
// training task [0, 10]. At 10 s the training slot is free and B has the
// smaller S_i, so B0 and B1 train [10, 11], [11, 12]; B's S_f = 3 s and
// V_B = max(0, 3 − (180 − 175.5)) = 0. At 12 s A's second training task
// takes the training slot [12, 22]; at 22 s V_B = 0 beats A, so B2 runs
// [22, 23] and B completes at 23 s, 80 s before A (103 s); under FIFO B
// would end at 103 s.
func TestSmallJobOvertakes(t *testing.T) {
	w := &sim.Workload{Cluster: cluster(1, 1), Jobs: []sim.Job{job(0, same(10, 10000)), job(1000, same(3, 1000))}}
	res := run(t, w, New(Options{}), ideal())
	want := []span{{0, 0, 10000}, {1, 10000, 11000}, {1, 11000, 12000}, {0, 12000, 22000}, {1, 22000, 23000}}
	for i, s := range want {
		a := res.Trace[i]
		if got := (span{a.Job, a.Launch, a.End}); got != s {
			t.Errorf("attempt %d = %+v, want %+v", i, got, s)
		}
	}
	if a, b := res.Jobs[0].Completion, res.Jobs[1].Completion; b != 23000 || a != 103000 {
		t.Errorf("completions A %d, B %d ms; want 103000, 23000", a, b)
	}
}

// TestTinyFirst: with no training slots, a tiny job (1 map < t) arriving
// after a 3-map job gets the next free slot (V = 0).
func TestTinyFirst(t *testing.T) {
	w := &sim.Workload{Cluster: cluster(1, 1), Jobs: []sim.Job{
		job(0, same(4, 10000)), job(1000, same(3, 5000)), job(2000, same(1, 5000)),
	}}
	res := run(t, w, New(Options{TrainingShare: -1}), ideal())
	if a := res.Trace[1]; a.Job != 2 || a.Launch != 10000 {
		t.Errorf("second launch is job %d at %d ms, want the tiny job 2 at 10000", a.Job, a.Launch)
	}
}

// probe records phase 0's virtual size after each TaskEnd.
type probe struct {
	*Policy
	v []float64
}

func (p *probe) TaskEnd(s *sim.Sim, t sim.TaskID, d sim.Time) {
	p.Policy.TaskEnd(s, t, d)
	p.v = append(p.v, p.ph[0].v)
}

// TestTrainingUpdatesSize: one job, 4 maps × 10 s, one slot. S_i = 4·60 s;
// alone in the virtual cluster it is served at 1 slot-ms per ms. At 10 s
// V = 230 s; at 20 s training ends, S_f = 4·10 s = 40 s and
// V = max(0, 40 − (240 − 220)) = 20 s (subtractive, A-H5); then 10 s, 0.
func TestTrainingUpdatesSize(t *testing.T) {
	w := &sim.Workload{Cluster: cluster(1, 1), Jobs: []sim.Job{job(0, same(4, 10000))}}
	p := &probe{Policy: New(Options{})}
	run(t, w, p, ideal())
	want := []float64{230000, 20000, 10000, 0}
	for i := range want {
		if i >= len(p.v) || p.v[i] != want[i] {
			t.Fatalf("virtual sizes after each task end = %v, want %v", p.v, want)
		}
	}
	if f := p.ph[0]; !f.known || f.size != 40000 {
		t.Errorf("final size %v (known %v), want 40000", f.size, f.known)
	}
}

// TestKillFreesSlot: exact sizes, one slot. A (300 s) runs; B (2 × 5 s)
// arrives at 5 s with the smaller size, A's task is killed (its 5 s are
// lost, it is pending again) and B runs at once; A restarts at 15 s.
func TestKillFreesSlot(t *testing.T) {
	w := &sim.Workload{Cluster: cluster(1, 1), Jobs: []sim.Job{job(0, maps(300000)), job(5000, same(2, 5000))}}
	p := New(Options{Preemption: Kill, Sizes: Estimated})
	res := run(t, w, p, ideal())
	want := []struct {
		span
		out sim.Outcome
	}{
		{span{0, 0, 5000}, sim.Killed}, {span{1, 5000, 10000}, sim.Completed},
		{span{1, 10000, 15000}, sim.Completed}, {span{0, 15000, 315000}, sim.Completed},
	}
	if len(res.Trace) != len(want) {
		t.Fatalf("%d attempts, want %d", len(res.Trace), len(want))
	}
	for i, w := range want {
		a := res.Trace[i]
		if got := (span{a.Job, a.Launch, a.End}); got != w.span || a.Outcome != w.out {
			t.Errorf("attempt %d = %+v %v, want %+v %v", i, got, a.Outcome, w.span, w.out)
		}
	}
	if res.Metrics.Killed != 1 || res.Metrics.WorkLost != 5 || p.Preempted() != 1 {
		t.Errorf("killed %d, work lost %v s, preempted %d; want 1, 5, 1", res.Metrics.Killed, res.Metrics.WorkLost, p.Preempted())
	}
}

// TestSuspendResumesOnItsNode: exact sizes, two nodes × 1 slot. A (2 × 100
// s) runs on both; B (150 s) arrives at 5 s with a smaller size than A's
// V = 190 s, so A's newest task is suspended and B takes its node N. A's
// other task ends at 100 s, but the suspended one may resume only on N:
// the other node idles until B ends at 155 s, then A resumes on N with its
// 95 s left and ends at 250 s.
func TestSuspendResumesOnItsNode(t *testing.T) {
	w := &sim.Workload{Cluster: cluster(2, 1), Jobs: []sim.Job{job(0, same(2, 100000)), job(5000, maps(150000))}}
	res := run(t, w, New(Options{Preemption: Suspend, Sizes: Estimated}), ideal())
	var susp, resumed *sim.Attempt
	for i := range res.Trace {
		a := &res.Trace[i]
		switch {
		case a.Outcome == sim.Suspended:
			susp = a
		case a.Resumed:
			resumed = a
		}
	}
	if susp == nil || resumed == nil {
		t.Fatalf("no suspend/resume in %+v", res.Trace)
	}
	if susp.End != 5000 || resumed.Task != susp.Task || resumed.Node != susp.Node || resumed.Launch != 155000 || resumed.End != 250000 {
		t.Errorf("suspended %+v, resumed %+v; want the same task on the same node, [155 s, 250 s]", *susp, *resumed)
	}
	for _, a := range res.Trace {
		if a.Node != susp.Node && a.Launch > 5000 {
			t.Errorf("the other node launched %+v; the suspended task may not move", a)
		}
	}
	if res.Jobs[1].Completion != 155000 || res.Jobs[0].Completion != 250000 {
		t.Errorf("completions %d, %d ms; want A 250000, B 155000", res.Jobs[0].Completion, res.Jobs[1].Completion)
	}
}

// TestReducesAfterMaps: with slow-start 0.05 a reduce launches after the
// first of two maps (10 s) and idles in shuffle; with ReducesAfterMaps it
// launches only when the map phase is done (20 s).
func TestReducesAfterMaps(t *testing.T) {
	w := &sim.Workload{Cluster: sim.Cluster{Nodes: []sim.Node{{MapSlots: 1, ReduceSlots: 1}}},
		Jobs: []sim.Job{{Deadline: sim.NoDeadline, Parent: -1, Maps: same(2, 10000), Reduces: same(1, 5000)}}}
	for _, c := range []struct {
		after  bool
		launch sim.Time
	}{{false, 10000}, {true, 20000}} {
		res := run(t, w, New(Options{ReducesAfterMaps: c.after}), ideal())
		for _, a := range res.Trace {
			if a.Kind == sim.Reduce && a.Launch != c.launch {
				t.Errorf("ReducesAfterMaps=%v: reduce launched at %d ms, want %d", c.after, a.Launch, c.launch)
			}
		}
		if res.Jobs[0].Completion != 25000 {
			t.Errorf("ReducesAfterMaps=%v: completion %d ms, want 25000", c.after, res.Jobs[0].Completion)
		}
	}
}
