package mrcpsched

import (
	"testing"

	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
)

// congested is a mixed stream at the top of its λ grid, 20 simulated
// minutes, with hadoop1 heartbeats.
func congested(t *testing.T, seed uint64) (*sim.Workload, sim.Options) {
	t.Helper()
	in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: mrcpscenario.Mixed, Duration: 1200, Lambda: 1.0 / 30,
		Durations: mrcpscenario.Fit, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	o := sim.DefaultOptions()
	o.Estimates, o.Seed = sim.EstimateGiven, seed
	return streamWorkload(in), o
}

// runChecked runs pol and fails unless the trace passes the checker, every
// job completes and no action was rejected.
func runChecked(t *testing.T, name string, w *sim.Workload, pol *Policy, o sim.Options) *sim.Result {
	t.Helper()
	res, err := sim.Run(w, pol, o)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := check.Verify(w, res); err != nil {
		t.Fatalf("%s: checker: %v", name, err)
	}
	if res.Metrics.CompletedJobs != len(w.Jobs) || res.Rejected != 0 {
		t.Fatalf("%s: %d of %d jobs completed, %d actions rejected", name, res.Metrics.CompletedJobs, len(w.Jobs), res.Rejected)
	}
	return res
}

// TestParseOptions: every §2.4 option by name, and the errors.
func TestParseOptions(t *testing.T) {
	var o Options
	if err := ParseOptions("skiphol, strict-times,latency=model,blocking-jt", &o); err != nil {
		t.Fatal(err)
	}
	if !o.SkipHOL || !o.StrictTimes || !o.ModelLatency || !o.BlockingJT {
		t.Fatalf("parsed %+v", o)
	}
	for _, bad := range []string{"skip-hol", "blocking-jt", "latency=model,latency=0,blocking-jt"} {
		if err := ParseOptions(bad, &Options{}); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestSkipHOL: one node, two map slots, one reduce slot; job A's map is
// estimated at 1 s but runs 100 s, job B's runs its estimated 10 s. The
// plan puts A's reduce (at 1 s) before B's (at 10 s) on the reduce slot.
// Faithfully the slot waits behind A's reduce until A's map ends (B ends at
// 110 s); with SkipHOL B's reduce runs once B's map ends (B ends at 15 s).
func TestSkipHOL(t *testing.T) {
	sec := func(s int) sim.Time { return sim.Time(s) * 1000 }
	task := func(work, estimate int) []sim.TaskSpec {
		t := sim.TaskSpec{Work: sec(work)}
		t.SetEstimate(sec(estimate))
		return []sim.TaskSpec{t}
	}
	w := &sim.Workload{Name: "hol", Cluster: sim.Cluster{Nodes: []sim.Node{{Name: "n0", MapSlots: 2, ReduceSlots: 1}}},
		Jobs: []sim.Job{
			{Name: "A", Parent: -1, Deadline: sec(20), Maps: task(100, 1), Reduces: task(5, 5)},
			{Name: "B", Parent: -1, Deadline: sec(40), Maps: task(10, 10), Reduces: task(5, 5)},
		}}
	for _, c := range []struct {
		skip  bool
		bEnds sim.Time
		skips int
	}{{false, sec(110), 0}, {true, sec(15), 1}} {
		pol := New(Options{SkipHOL: c.skip})
		res := runChecked(t, "hol", w, pol, idealOptions(1))
		if got := res.Jobs[1].Completion; got != c.bEnds || pol.HOLSkips() != c.skips {
			t.Errorf("SkipHOL %v: B ends at %d ms with %d skips, want %d ms and %d", c.skip, got, pol.HOLSkips(), c.bEnds, c.skips)
		}
	}
}

// TestStrictTimesRealisesPlan: with every job at 0, exact durations and
// ideal offers there is one solve, and with StrictTimes every task starts
// exactly at its planned start, so the run's objective is the plan's.
func TestStrictTimesRealisesPlan(t *testing.T) {
	seeds := []uint64{1, 2}
	if testing.Short() {
		seeds = seeds[:1]
	}
	for _, seed := range seeds {
		in := atZero(t, mrcpscenario.Mixed, 5, seed, 1.5)
		w := streamWorkload(in)
		pol := New(Options{StrictTimes: true})
		res := runChecked(t, "strict", w, pol, idealOptions(seed))
		if len(pol.Solves()) != 1 {
			t.Fatalf("%d solves, want 1", len(pol.Solves()))
		}
		for _, a := range res.Trace {
			if want := pol.planAt[a.Task]; a.Launch != want {
				t.Fatalf("seed %d: task %d started at %d ms, planned %d ms", seed, a.Task, a.Launch, want)
			}
		}
		z := sim.Time(0)
		for _, j := range res.Jobs {
			z = max(z, j.Completion)
		}
		if got, first := (res.Metrics.LateJobs+1)*int(z/1000), pol.Solves()[0]; got != first.Value || z%1000 != 0 {
			t.Errorf("seed %d: run objective (%d+1)·%d ms, plan %d", seed, res.Metrics.LateJobs, z, first.Value)
		}
	}
}

// TestBlockingLatency: with latency=model and blocking-jt nothing starts
// while a plan is being made ([At, Ready) of each re-solve), and the trace
// passes the checker; latency=model alone also passes.
func TestBlockingLatency(t *testing.T) {
	w, o := congested(t, 4)
	runChecked(t, "latency", w, New(Options{ModelLatency: true}), o)
	pol := New(Options{ModelLatency: true, BlockingJT: true})
	res := runChecked(t, "blocking", w, pol, o)
	waited := 0
	for _, r := range pol.Solves() {
		if r.Ready <= r.At {
			continue
		}
		waited++
		for _, a := range res.Trace {
			if a.Launch >= r.At && a.Launch < r.Ready {
				t.Fatalf("task %d started at %d ms while the plan of %d ms was made (ready %d ms)", a.Task, a.Launch, r.At, r.Ready)
			}
		}
	}
	if waited == 0 {
		t.Fatal("no re-solve took a millisecond: the test checks nothing")
	}
}
