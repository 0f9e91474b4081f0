package tumm_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/policy/tumm"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
)

// Regressions found by compare's randomized cross-check
// (TestCrossCheckBoundsAgainstSimulator): on tiny fungible clusters the
// TuMM-family policies left jobs unfinished.

// tasks returns n tasks of the given works (ms), the last repeated.
func tasks(n int, works ...sim.Time) []sim.TaskSpec {
	out := make([]sim.TaskSpec, n)
	for i := range out {
		out[i].Work = works[min(i, len(works)-1)]
	}
	return out
}

func fungible(slots ...int) sim.Cluster {
	c := sim.Cluster{Fungible: true}
	for _, n := range slots {
		c.Nodes = append(c.Nodes, sim.Node{TotalSlots: n})
	}
	return c
}

func job(name string, at sim.Time, maps, reds []sim.TaskSpec) sim.Job {
	return sim.Job{Name: name, Arrival: at, Parent: -1, Deadline: sim.NoDeadline, Maps: maps, Reduces: reds}
}

// runComplete runs w under p, verifies the trace and requires every job done.
func runComplete(t *testing.T, w *sim.Workload, p sim.Policy, o sim.Options) *sim.Result {
	t.Helper()
	res, err := sim.Run(w, p, o)
	if err != nil {
		t.Fatalf("%s: %v", p.Name(), err)
	}
	if err := check.Verify(w, res); err != nil {
		t.Fatalf("%s: checker: %v", p.Name(), err)
	}
	if res.Metrics.CompletedJobs != len(w.Jobs) {
		t.Fatalf("%s: %d of %d jobs completed\ntrace %+v", p.Name(), res.Metrics.CompletedJobs, len(w.Jobs), res.Trace)
	}
	return res
}

// TestStaticRefusesSplitWithoutKind (cross-check seeds 9, 47, 56, 73): a
// per-node ratio on 0- and 1-slot nodes can leave no slot of a kind in the
// whole cluster; the split then refuses, in Init, a workload with tasks of
// that kind (it could never finish) and runs one without them.
func TestStaticRefusesSplitWithoutKind(t *testing.T) {
	both := []sim.Job{job("a", 0, tasks(2, 1000), tasks(1, 500))}
	mapsOnly := []sim.Job{job("a", 0, tasks(2, 1000), nil)}
	o := sim.DefaultOptions()
	o.Heartbeat, o.SlowStart = 0, 1
	for _, c := range []struct {
		name  string
		slots []int
		jobs  []sim.Job
		want  string // the refusal, or "" for a complete run
	}{
		// Seed 9: nodes of 0 and 1 slots. 1:3 rounds the 1-slot node to
		// 0 maps, 2:2 and 3:1 to 0 reduces.
		{"static:1:3", []int{0, 1}, both, "no map slot"},
		{"static:2:2", []int{0, 1}, both, "no reduce slot"},
		{"static:3:1", []int{0, 1}, both, "no reduce slot"},
		{"static:alg1", []int{0, 1}, both, "1-slot cluster"},
		{"static:3:1", []int{0, 1}, mapsOnly, ""},
		{"static:alg1", []int{0, 1}, mapsOnly, ""},
		{"static:1:3", []int{0, 1}, mapsOnly, "no map slot"},
		// Seed 56: two 1-slot nodes. Algorithm 1's split spreads one map
		// and one reduce slot over them.
		{"static:2:2", []int{1, 1}, both, "no reduce slot"},
		{"static:alg1", []int{1, 1}, both, ""},
		{"static:alg1", []int{0, 1, 3}, both, ""},
	} {
		w := &sim.Workload{Cluster: fungible(c.slots...), Jobs: c.jobs}
		p := tumm.MustByName(c.name)
		if c.want == "" {
			runComplete(t, w, p, o)
			continue
		}
		_, err := sim.Run(w, p, o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s on slots %v: error %v, want one containing %q", c.name, c.slots, err, c.want)
		}
	}
	// Every node's own caps stay within its slots (Algorithm 1's even
	// spread used to give a 1-slot node 2 map slots and −1 reduce slots).
	w := &sim.Workload{Cluster: fungible(1, 0, 3), Jobs: []sim.Job{job("a", 0, tasks(8, 1000), tasks(1, 100))}}
	p := tumm.NewStaticAlg1()
	runComplete(t, w, p, o)
	for x, m := range p.MapCaps() {
		if n := w.Cluster.Nodes[x].TotalSlots; m < 0 || m > n {
			t.Errorf("static:alg1: node %d: %d map slots of %d", x, m, n)
		}
	}
}

// TestTuMMZeroSlotNodeNotCounted (cross-check seed 75): nodes of 3, 2, 2
// and 0 slots. Counting the empty node, k = 4 and s_m ∈ [3, 4], so s_m/k =
// 0 map slots per node; once the first jobs had finished, the reduce
// top-up side won every idle slot and the maps of the jobs still queued
// never launched. The empty node is not one of TuMM's k nodes.
func TestTuMMZeroSlotNodeNotCounted(t *testing.T) {
	jobs := []sim.Job{
		job("a", 0, tasks(2, 2600, 0), tasks(1, 700)),
		job("reduce-only", 0, nil, tasks(2, 800, 5)),
		job("b", 0, tasks(2, 3500, 2500), tasks(2, 0, 1700)),
		job("c", 0, tasks(4, 400, 1900, 4500, 3), tasks(1, 2500)),
		job("d", 0, tasks(3, 4200, 0, 900), tasks(2, 1500, 2300)),
	}
	for j := range jobs { // every block on node 0: the same locality with or without node 3
		for i := range jobs[j].Maps {
			jobs[j].Maps[i].SetReplicas([]int{0})
		}
	}
	o := sim.DefaultOptions()
	o.Heartbeat, o.SlowStart = 835, 1
	for _, name := range []string{"tumm", "tumm-literal"} {
		runComplete(t, &sim.Workload{Cluster: fungible(3, 2, 2, 0), Jobs: jobs}, tumm.MustByName(name), o)
		// A node without slots changes nothing (it was k's fourth node);
		// with ideal offers, as heartbeat phases depend on the node count.
		ideal := o
		ideal.Heartbeat = 0
		with := runComplete(t, &sim.Workload{Cluster: fungible(3, 2, 2, 0), Jobs: jobs}, tumm.MustByName(name), ideal)
		without := runComplete(t, &sim.Workload{Cluster: fungible(3, 2, 2), Jobs: jobs}, tumm.MustByName(name), ideal)
		if !reflect.DeepEqual(with.Trace, without.Trace) {
			t.Errorf("%s: an empty node changes the trace\nwith    %+v\nwithout %+v", name, with.Trace, without.Trace)
		}
	}
}

// TestTuMMAdmitsJobIntoIdleCluster (cross-check seed 1904 and 60 others):
// on one 1-slot node (S = 1, k = 1, so s_m ∈ [0, 1]) the target follows the
// running jobs only. After a job's reduce phase s_m = 0 and a later job of
// maps finds no map deficit; after a map-only job s_m = 1 and a later
// reduce-only job finds no reduce deficit. With nothing running nothing
// would change the target again: an idle cluster admits the FIFO job's
// task of either kind, whose start then sets s_m by eq 4.
func TestTuMMAdmitsJobIntoIdleCluster(t *testing.T) {
	for _, c := range []struct {
		name string
		jobs []sim.Job
	}{
		{"maps after a reduce phase", []sim.Job{
			job("a", 0, tasks(1, 800), tasks(1, 900)),
			job("b", 5000, tasks(2, 700), tasks(1, 300))}},
		{"reduce-only after a map phase", []sim.Job{
			job("a", 0, tasks(2, 800), nil),
			job("b", 5000, nil, tasks(2, 400))}},
	} {
		for _, h := range []sim.Time{0, 681} {
			w := &sim.Workload{Cluster: fungible(1), Jobs: c.jobs}
			o := sim.DefaultOptions()
			o.Heartbeat, o.SlowStart = h, 1
			for _, name := range []string{"tumm", "tumm-literal"} {
				t.Run(c.name, func(t *testing.T) { runComplete(t, w, tumm.MustByName(name), o) })
			}
		}
	}
}

// TestTuMMIdleWakeMatchesLiteralHeartbeats (cross-check seed 56 and seven
// others): the cluster falling idle is an input of a parked node's
// decision (the admission valve), so it wakes the parked nodes as a change
// of s_m does. Two 1-slot nodes (S = 2, k = 2, s_m = 1: no node has a map
// deficit, maps launch through the valve or the top-up), heartbeats every
// 3 s at phases 0 and 1.5 s, one job of two 3.1 s maps: node 0 takes map 0
// at 0 through the valve; node 1 declines map 1 at 1.5 s (node 0 busy) and
// is parked; map 0 ends at 3.1 s, which wakes no one in the engine (no job
// ends, no reduce becomes eligible). With literal heartbeats node 1 takes
// map 1 at 4.5 s; without the policy's wake it stayed parked and node 0
// took it at 6 s.
func TestTuMMIdleWakeMatchesLiteralHeartbeats(t *testing.T) {
	w := &sim.Workload{Cluster: fungible(1, 1), Jobs: []sim.Job{job("a", 0, tasks(2, 3100), nil)}}
	o := sim.DefaultOptions()
	o.Heartbeat, o.SlowStart = 3000, 1
	parked := runComplete(t, w, tumm.NewTuMM(tumm.TuMMOptions{}), o)
	o.LiteralHeartbeats = true
	literal := runComplete(t, w, tumm.NewTuMM(tumm.TuMMOptions{}), o)
	if !reflect.DeepEqual(parked.Trace, literal.Trace) {
		t.Errorf("parked trace %+v\nliteral trace %+v", parked.Trace, literal.Trace)
	}
	if a := parked.Trace[1]; a.Node != 1 || a.Launch != 4500 {
		t.Errorf("map 1 launched on node %d at %d ms, want node 1 at 4500", a.Node, a.Launch)
	}
}
