package fair

import (
	"flag"
	"fmt"
	"os"
	"reflect"
	"testing"

	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/simtest"
	"github.com/mrbound/mrbound/workload/swim"
)

var fbDay = flag.Bool("fbday", false, "TestSameAsResortFBDay: compare on the FB-2009 SWIM day (about a minute)")

// overloaded is a seeded backlog: n jobs arriving about every 300 ms on 3
// nodes (a queue of hundreds builds), 1–12 maps and 0–4 reduces, users with
// min shares and weights (or none), 2 replicas so that locality matters.
func overloaded(seed uint64, n int, users, fungible bool) *sim.Workload {
	rng := sim.NewStream(seed, "fair-overloaded")
	w := &sim.Workload{Name: "overloaded"}
	w.Cluster = sim.Cluster{Replicas: 2, NonLocalPenalty: 1500, Fungible: fungible, BlockBytes: 64 << 20}
	for range 3 {
		w.Cluster.Nodes = append(w.Cluster.Nodes, sim.Node{MapSlots: 2, ReduceSlots: 1, TotalSlots: 3, Speed: 1})
	}
	if users {
		w.Users = []sim.User{{Name: "a", MinShare: 2, Weight: 1}, {Name: "b", Weight: 3}, {Name: "c", MinShare: 1, Weight: 0.5}, {Name: "d", Weight: 1}}
	}
	at := sim.Time(0)
	for j := range n {
		at += sim.Time(rng.ExpFloat64() * 300)
		job := sim.Job{Name: "j", Arrival: at, Deadline: sim.NoDeadline, Parent: -1}
		if users {
			job.User = rng.IntN(len(w.Users))
		}
		if j%7 == 3 && j > 0 {
			at = w.Jobs[j-1].Arrival // same-instant arrivals: the id tie-break
			job.Arrival = at
		}
		for range 1 + rng.IntN(12) {
			job.Maps = append(job.Maps, sim.TaskSpec{Work: sim.Time(500 + rng.IntN(6000))})
		}
		for range rng.IntN(5) {
			job.Reduces = append(job.Reduces, sim.TaskSpec{Work: sim.Time(rng.IntN(5000))})
		}
		w.Jobs = append(w.Jobs, job)
	}
	return w
}

// TestSameAsResort: the incremental Policy makes exactly the decisions of
// the plain re-sorting scheduler (resort_test.go), for every variant, on the
// conformance workloads and on overloaded ones with and without users, in
// both offer modes: same trace, same job outcomes, same offer and event
// counts.
func TestSameAsResort(t *testing.T) {
	type variant struct {
		name string
		set  func(noDelay, h1, poolFIFO *bool)
	}
	variants := []variant{
		{"fair", func(*bool, *bool, *bool) {}},
		{"nodelay", func(n, _, _ *bool) { *n = true }},
		{"h1caps", func(_, h, _ *bool) { *h = true }},
		{"poolfifo", func(_, _, f *bool) { *f = true }},
	}
	cases := simtest.Cases()
	for seed := range uint64(3) {
		for _, users := range []bool{false, true} {
			for _, hb := range []sim.Time{0, 3000} {
				o := sim.DefaultOptions()
				o.Heartbeat, o.Seed = hb, seed
				fung := seed == 2 && users
				cases = append(cases, simtest.Case{Name: fmt.Sprintf("overloaded/seed%d/users=%v/H=%d", seed, users, hb),
					Workload: overloaded(seed, 300, users, fung), Options: o})
			}
		}
	}
	for _, c := range cases {
		for _, v := range variants {
			inc, ref := New(), &resort{}
			v.set(&inc.NoDelay, &inc.H1Caps, &inc.PoolFIFO)
			v.set(&ref.NoDelay, &ref.H1Caps, &ref.PoolFIFO)
			compareRuns(t, c.Name+"/"+v.name, c.Workload, c.Options, inc, ref)
		}
	}
}

// compareRuns runs inc and ref on w and reports any difference.
func compareRuns(t *testing.T, name string, w *sim.Workload, o sim.Options, inc, ref sim.Policy) {
	t.Helper()
	a, err := sim.Run(w, inc, o)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	b, err := sim.Run(w, ref, o)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if a.Metrics.CompletedJobs != len(w.Jobs) {
		t.Errorf("%s: %d of %d jobs completed", name, a.Metrics.CompletedJobs, len(w.Jobs))
	}
	switch {
	case !reflect.DeepEqual(a.Trace, b.Trace):
		t.Errorf("%s: traces differ (%d vs %d attempts)%s", name, len(a.Trace), len(b.Trace), firstDiff(a.Trace, b.Trace))
	case !reflect.DeepEqual(a.Jobs, b.Jobs):
		t.Errorf("%s: job outcomes differ", name)
	case a.Offers != b.Offers || a.Events != b.Events || a.Rejected != b.Rejected:
		t.Errorf("%s: offers/events/rejected %d/%d/%d vs %d/%d/%d", name,
			a.Offers, a.Events, a.Rejected, b.Offers, b.Events, b.Rejected)
	default:
		t.Logf("%s: same %d attempts, %d offers; wall %v (incremental) vs %v (re-sorting)", name, len(a.Trace), a.Offers, a.Wall, b.Wall)
	}
}

// TestSameAsResortFBDay (only with -args -fbday): the same comparison on the
// FB-2009 SWIM day, on its 600 nodes and on 20 nodes × (2+2), where thousands
// of jobs queue (the case the incremental state was written for), with and
// without delay scheduling.
func TestSameAsResortFBDay(t *testing.T) {
	const path = "../../../shared/traces/swim/FB-2009_samples_24_times_1hr_0.tsv"
	if !*fbDay {
		t.Skip("about a minute: run with -args -fbday")
	}
	if _, err := os.Stat(path); err != nil {
		t.Skip("../shared/traces/swim is absent")
	}
	w, err := swim.Load(path, swim.DefaultModel(), swim.DefaultCluster())
	if err != nil {
		t.Fatal(err)
	}
	for _, nodes := range []int{600, 20} {
		w.Cluster.Nodes = w.Cluster.Nodes[:nodes]
		for _, noDelay := range []bool{false, true} {
			inc, ref := New(), &resort{}
			inc.NoDelay, ref.NoDelay = noDelay, noDelay
			compareRuns(t, fmt.Sprintf("fb2009/%d nodes/nodelay=%v", nodes, noDelay), w, sim.DefaultOptions(), inc, ref)
		}
	}
}

func firstDiff(a, b []sim.Attempt) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("; first at attempt %d: %+v vs %+v", i, a[i], b[i])
		}
	}
	return ""
}
