package coshh_test

import (
	"math"
	"slices"
	"testing"

	capacity "github.com/mrbound/mrbound/formulations/coshh"
	"github.com/mrbound/mrbound/policy/coshh"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
	"github.com/mrbound/mrbound/sim/simtest"
	_ "github.com/mrbound/mrbound/solve/native"
)

func TestConformanceCOSHH(t *testing.T) {
	simtest.Run(t, func() sim.Policy { return coshh.New() }, simtest.Caps{
		MayIdle: "without fallback a resource serves only its suggested classes (A-C9)",
	})
}

func TestConformanceCOSHHFallback(t *testing.T) {
	simtest.Run(t, func() sim.Policy { p := coshh.New(); p.Fallback = true; return p }, simtest.Caps{})
}

// example is the paper's worked example (COSHH §3): α = [2.45, 2.45],
// μ = [[9, 5], [2, 1]], whose LP gives λ = 2.5/2.45 = 1.0204,
// δ = [[0, .5], [1, .5]], SC_1 = {C2}, SC_2 = {C1, C2}.
func example() *coshh.Stated {
	p := capacity.Problem{Name: "primary", Classes: []string{"C1", "C2"}, Resources: []string{"R1", "R2"},
		Alpha: []float64{2.45, 2.45}, Mu: [][]float64{{9, 5}, {2, 1}}}
	q := p
	q.Name = "secondary"
	return &coshh.Stated{Primary: p, Secondary: q}
}

func ideal() sim.Options {
	o := sim.DefaultOptions()
	o.Heartbeat = 0
	o.Seed = 3
	return o
}

func tasks(n int, d sim.Time) []sim.TaskSpec {
	out := make([]sim.TaskSpec, n)
	for i := range out {
		out[i] = sim.TaskSpec{Work: d}
	}
	return out
}

// exampleWorkload: nodes R1, R2 (2 map + 1 reduce slots each), users U1
// (class C1) and U2 (class C2) with min share 1, and jobs of the given users
// arriving a second apart, each 3 maps of 10 s and a 5 s reduce.
func exampleWorkload(users ...int) *sim.Workload {
	w := &sim.Workload{
		Cluster: sim.Cluster{Nodes: []sim.Node{{Name: "R1", MapSlots: 2, ReduceSlots: 1}, {Name: "R2", MapSlots: 2, ReduceSlots: 1}}, Replicas: 1},
		Users:   []sim.User{{Name: "U1", MinShare: 1, Weight: 1}, {Name: "U2", MinShare: 1, Weight: 1}},
	}
	for i, u := range users {
		w.Jobs = append(w.Jobs, sim.Job{User: u, Arrival: sim.Time(1000 * i), Deadline: sim.NoDeadline, Parent: -1,
			Maps: tasks(3, 10000), Reduces: tasks(1, 5000)})
	}
	return w
}

func run(t *testing.T, w *sim.Workload, p *coshh.Policy) *sim.Result {
	t.Helper()
	res, err := sim.Run(w, p, ideal())
	if err != nil {
		t.Fatal(err)
	}
	if err := check.Verify(w, res); err != nil {
		t.Fatalf("checker: %v", err)
	}
	if res.Rejected > 0 {
		t.Fatalf("%d invalid actions", res.Rejected)
	}
	return res
}

// TestWorkedExampleDrivesRouting: the example's LP decides where tasks run:
// R1 only ever serves class C2 (U2's jobs), R2 serves both, and U1's blocks
// are placed on R2, the only resource suggesting C1.
func TestWorkedExampleDrivesRouting(t *testing.T) {
	w := exampleWorkload(0, 1, 0, 1, 0, 1)
	p := coshh.New()
	p.Stated = example()
	res := run(t, w, p)
	if got := p.Stats.Lambda[0]; math.Abs(got-2.5/2.45) > 1e-6 {
		t.Errorf("λ = %v, want %v", got, 2.5/2.45)
	}
	if a, b := p.Suggested(0, 0), p.Suggested(0, 1); !slices.Equal(a, []int{1}) || !slices.Equal(b, []int{0, 1}) {
		t.Errorf("SC_1 = %v, SC_2 = %v; want [1] and [0 1]", a, b)
	}
	if res.Metrics.CompletedJobs != len(w.Jobs) {
		t.Errorf("%d of %d jobs completed", res.Metrics.CompletedJobs, len(w.Jobs))
	}
	onR2 := [2]int{}
	for _, a := range res.Trace {
		u := w.Jobs[a.Job].User
		if a.Node == 0 && u != 1 {
			t.Errorf("R1 ran %s %d of job %d (user U%d): SC_1 = {C2}", a.Kind, a.Index, a.Job, u+1)
		}
		if a.Node == 1 {
			onR2[u]++
		}
	}
	if onR2[0] == 0 || onR2[1] == 0 {
		t.Errorf("R2 ran %v tasks per user; SC_2 = {C1, C2} should serve both", onR2)
	}
	for j, job := range w.Jobs {
		if job.User != 0 {
			continue
		}
		first := 0
		for k := 0; k < j; k++ {
			first += len(w.Jobs[k].Maps) + len(w.Jobs[k].Reduces)
		}
		for i := range job.Maps {
			if r := res.Replicas[(first+i)*res.Rep]; r != 1 {
				t.Errorf("job %d map %d: replica on node %d; only R2 suggests C1", j, i, r)
			}
		}
	}
}

// TestFallback: with only C1 jobs, R1 (SC_1 = {C2}) idles under the paper's
// algorithm and works with the fallback.
func TestFallback(t *testing.T) {
	w := exampleWorkload(0, 0, 0)
	strict := coshh.New()
	strict.Stated = example()
	res := run(t, w, strict)
	for _, a := range res.Trace {
		if a.Node == 0 {
			t.Fatalf("strict COSHH ran job %d on R1", a.Job)
		}
	}
	fb := coshh.New()
	fb.Stated, fb.Fallback = example(), true
	res2 := run(t, w, fb)
	on := 0
	for _, a := range res2.Trace {
		if a.Node == 0 {
			on++
		}
	}
	if on == 0 || fb.Stats.FallbackLaunches != on {
		t.Errorf("fallback ran %d tasks on R1, counted %d", on, fb.Stats.FallbackLaunches)
	}
	if res2.Metrics.MeanTurnaround >= res.Metrics.MeanTurnaround {
		t.Errorf("fallback mean turnaround %.1f s not below strict %.1f s", res2.Metrics.MeanTurnaround, res.Metrics.MeanTurnaround)
	}
}

// TestStageOneMinShare: a user below its min share is served first even when
// another user's job arrived earlier (stage 1 before stage 2).
func TestStageOneMinShare(t *testing.T) {
	w := &sim.Workload{
		Cluster: sim.Cluster{Nodes: []sim.Node{{MapSlots: 1, ReduceSlots: 1}}},
		Users:   []sim.User{{Name: "A", MinShare: 0, Weight: 1}, {Name: "B", MinShare: 1, Weight: 1}},
		Jobs: []sim.Job{
			{User: 0, Arrival: 0, Deadline: sim.NoDeadline, Parent: -1, Maps: tasks(3, 10000)},
			{User: 1, Arrival: 0, Deadline: sim.NoDeadline, Parent: -1, Maps: tasks(3, 10000)},
		},
	}
	p := coshh.New()
	res := run(t, w, p)
	if res.Trace[0].Job != 1 {
		t.Errorf("first launch went to job %d; user B is below its min share", res.Trace[0].Job)
	}
	if res.Metrics.CompletedJobs != 2 {
		t.Errorf("%d of 2 jobs completed", res.Metrics.CompletedJobs)
	}
}

// TestReclassifyOnlyWhenNoFit: identical jobs of two users (oracle rates)
// classify twice (the first arrival, then the second user's first job); a
// job of a new size fits no class and classifies again.
func TestReclassifyOnlyWhenNoFit(t *testing.T) {
	w := &sim.Workload{
		Cluster: sim.Cluster{Nodes: []sim.Node{{MapSlots: 2, ReduceSlots: 1, Speed: 1}, {MapSlots: 2, ReduceSlots: 1, Speed: 0.5}}},
		Users:   []sim.User{{Name: "A", MinShare: 2, Weight: 1}, {Name: "B", MinShare: 0, Weight: 2}},
	}
	for i := 0; i < 8; i++ {
		u := i % 2
		w.Jobs = append(w.Jobs, sim.Job{User: u, Arrival: sim.Time(5000 * i), Deadline: sim.NoDeadline, Parent: -1,
			Maps: tasks(2+u*6, 4000), Reduces: tasks(1, 2000)})
	}
	p := coshh.New()
	p.UserRates = []float64{0.1, 0.1}
	run(t, w, p)
	if p.Stats.Classifications != 2 {
		t.Errorf("%d classifications, want 2", p.Stats.Classifications)
	}
	// primary LP: 1 class (A); secondary: 2 classes; each re-solved per classification
	if p.Stats.LPSolves != 4 || p.Stats.LPFailures != 0 {
		t.Errorf("%d LP solves (%d failed), want 4 and 0", p.Stats.LPSolves, p.Stats.LPFailures)
	}
	if c0, c1 := p.Class(1, 0), p.Class(1, 1); c0 == c1 {
		t.Errorf("jobs of A and B share secondary class %d", c0)
	}
	for j := 2; j < len(w.Jobs); j++ {
		if p.Class(1, j) != p.Class(1, j%2) {
			t.Errorf("job %d: class %d, its twin job %d has %d", j, p.Class(1, j), j%2, p.Class(1, j%2))
		}
	}
	if p.Class(0, 1) != -1 || p.Class(0, 0) < 0 {
		t.Errorf("primary classes %d, %d: only A (min share 2) is primary", p.Class(0, 0), p.Class(0, 1))
	}

	w.Jobs = append(w.Jobs, sim.Job{User: 0, Arrival: 60000, Deadline: sim.NoDeadline, Parent: -1, Maps: tasks(40, 4000)})
	p2 := coshh.New()
	p2.UserRates = []float64{0.1, 0.1}
	run(t, w, p2)
	if p2.Stats.Classifications != 3 {
		t.Errorf("with an outsized job: %d classifications, want 3", p2.Stats.Classifications)
	}
}

// TestUnknownBackend: a backend nobody registered fails the run at Init.
func TestUnknownBackend(t *testing.T) {
	p := coshh.New()
	p.Solve.Solver = "nope"
	if _, err := sim.Run(exampleWorkload(0, 1), p, ideal()); err == nil {
		t.Error("unknown backend accepted")
	}
}

func TestConformanceCOSHHResolveEvery(t *testing.T) {
	simtest.Run(t, func() sim.Policy { p := coshh.New(); p.Fallback, p.ResolveEvery = true, 5000; return p }, simtest.Caps{})
}

// TestResolveEvery: periodic re-solves happen and are counted; a strict run
// that idles stops re-arming its timer (the run ends).
func TestResolveEvery(t *testing.T) {
	w := exampleWorkload(0, 1, 0, 1)
	p := coshh.New()
	p.ResolveEvery = 2000
	run(t, w, p)
	if p.Stats.Resolves == 0 || p.Stats.LPSolves < p.Stats.Resolves {
		t.Errorf("stats %+v: no periodic re-solve", p.Stats)
	}
	// a third user has no stated class: strict COSHH never serves its job
	w3 := exampleWorkload(0, 2)
	w3.Users = append(w3.Users, sim.User{Name: "U3", Weight: 1})
	strict := coshh.New()
	strict.Stated, strict.ResolveEvery = example(), 1000
	res := run(t, w3, strict)
	if res.Metrics.CompletedJobs != 1 || res.Jobs[1].Done {
		t.Errorf("%d of 2 jobs completed; the classless job should wait for ever", res.Metrics.CompletedJobs)
	}
}

// TestAllSuggestedIgnoresTheLP: with AllSuggested the worked example's R1
// serves class C1 too (the LP would keep it off R1), no LP is solved, and the
// run still completes every job.
func TestAllSuggestedIgnoresTheLP(t *testing.T) {
	w := exampleWorkload(0, 1, 0, 1, 0, 1)
	p := coshh.New()
	p.Stated = example()
	p.AllSuggested = true
	res := run(t, w, p)
	if p.Name() != "coshh-nolp" {
		t.Errorf("name %q", p.Name())
	}
	if p.Stats.LPSolves != 0 {
		t.Errorf("%d LP solves with AllSuggested", p.Stats.LPSolves)
	}
	if a := p.Suggested(1, 0); !slices.Equal(a, []int{0, 1}) {
		t.Errorf("SC'_1 = %v, want [0 1]", a)
	}
	if res.Metrics.CompletedJobs != len(w.Jobs) {
		t.Errorf("%d of %d jobs completed", res.Metrics.CompletedJobs, len(w.Jobs))
	}
	u1OnR1 := false
	for _, a := range res.Trace {
		if a.Node == 0 && w.Jobs[a.Job].User == 0 {
			u1OnR1 = true
		}
	}
	if !u1OnR1 {
		t.Error("R1 never ran a task of U1 (class C1), as if the LP's SC_1 = {C2} still applied")
	}
}

func TestConformanceCOSHHAllSuggested(t *testing.T) {
	simtest.Run(t, func() sim.Policy { p := coshh.New(); p.AllSuggested = true; return p }, simtest.Caps{})
}
