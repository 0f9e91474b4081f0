package mrcpsched

import (
	"context"
	"reflect"
	"testing"

	"github.com/mrbound/mrbound/formulations/mrcp"
	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
	"github.com/mrbound/mrbound/solve"
	_ "github.com/mrbound/mrbound/solve/highs"
	"github.com/mrbound/mrbound/workload"
)

// streamWorkload is an MRCP stream as a simulator workload (workload.FromMRCP:
// durations in seconds are the true durations and the estimates).
func streamWorkload(in *mrcpscenario.Instance) *sim.Workload {
	w, err := workload.FromMRCP(in.Name, in)
	if err != nil {
		panic(err) // generated streams have unit demands
	}
	return w
}

func idealOptions(seed uint64) sim.Options {
	o := sim.DefaultOptions()
	o.Heartbeat, o.Estimates, o.Seed, o.SlowStart = 0, sim.EstimateGiven, seed, 1
	return o
}

// atZero generates a stream and releases every job at 0 (deadlines keep
// their slack).
func atZero(t *testing.T, w mrcpscenario.Workload, jobs int, seed uint64, emMax float64) *mrcpscenario.Instance {
	t.Helper()
	in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: w, Jobs: jobs, Lambda: 1.0 / 30, Durations: mrcpscenario.Fit, Seed: seed,
		EmMin: 1, EmMax: emMax})
	if err != nil {
		t.Fatal(err)
	}
	for j := range in.Jobs {
		in.Jobs[j].Deadline -= in.Jobs[j].Release
		in.Jobs[j].Release = 0
	}
	return in
}

// TestFirstPlanIsOfflineOptimum: with every job present at time 0 the first
// re-solve is the offline problem itself, so its plan's objective must equal
// the optimum formulations/mrcp proves for the same instance (and the
// policy must prove it too).
func TestFirstPlanIsOfflineOptimum(t *testing.T) {
	cases := []struct {
		w          mrcpscenario.Workload
		jobs       int
		seed       uint64
		emMax      float64 // 5 as published; 1.5 makes late jobs
		solverName string
	}{
		{mrcpscenario.Small, 4, 1, 5, "native"}, {mrcpscenario.Small, 5, 7, 1.5, "native"}, {mrcpscenario.Mixed, 3, 3, 5, "native"},
		{mrcpscenario.Small, 6, 2, 5, "native"}, {mrcpscenario.Mixed, 4, 4, 1.5, "native"}, {mrcpscenario.Small, 5, 5, 1.2, "native"},
		{mrcpscenario.Mixed, 4, 6, 5, "native"}, {mrcpscenario.Small, 4, 8, 1.5, "highs"},
	}
	if testing.Short() {
		cases = cases[:3]
	}
	for _, c := range cases {
		in := atZero(t, c.w, c.jobs, c.seed, c.emMax)
		rep, err := mrcp.RunInstance(context.Background(), "", in, mrcp.Options{Solve: solve.Options{Solver: c.solverName}})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Result.Status != solve.Optimal || !rep.Verified {
			t.Fatalf("%s: offline status %v verified %v", in.Name, rep.Result.Status, rep.Verified)
		}
		pol := New(Options{Solver: c.solverName})
		w := streamWorkload(in)
		res, err := sim.Run(w, pol, idealOptions(c.seed))
		if err != nil {
			t.Fatal(err)
		}
		if err := check.Verify(w, res); err != nil {
			t.Fatalf("%s: checker: %v", in.Name, err)
		}
		first := pol.Solves()[0]
		if first.Jobs != len(in.Jobs) || first.At != 0 {
			t.Fatalf("%s: first solve at %d ms over %d jobs", in.Name, first.At, first.Jobs)
		}
		if !first.Optimal || float64(first.Value) != rep.Recomputed {
			t.Errorf("%s: first plan value %d (optimal %v), offline optimum %v", in.Name, first.Value, first.Optimal, rep.Recomputed)
		} else {
			t.Logf("%s on %s: first plan %d = offline optimum, %d late (%d MILPs)", in.Name, c.solverName, first.Value, first.Late, first.MILPs)
		}
	}
}

// TestDeterministic: two runs on the same seed, in heartbeat mode with a
// congested Poisson stream whose re-solves solve MILPs, give the same trace
// and the same plans, and the wall-clock safety net never binds.
func TestDeterministic(t *testing.T) {
	in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: mrcpscenario.Mixed, Duration: 2400, Lambda: 1.0 / 25, Durations: mrcpscenario.Fit, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	w := streamWorkload(in)
	o := sim.DefaultOptions()
	o.Estimates, o.Seed = sim.EstimateGiven, 9
	var traces [2][]sim.Attempt
	var plans [2][]int
	milps := 0
	for i := range traces {
		pol := New(Options{})
		res, err := sim.Run(w, pol, o)
		if err != nil {
			t.Fatal(err)
		}
		if err := check.Verify(w, res); err != nil {
			t.Fatalf("checker: %v", err)
		}
		if res.Metrics.CompletedJobs != len(w.Jobs) {
			t.Fatalf("%d of %d jobs completed", res.Metrics.CompletedJobs, len(w.Jobs))
		}
		traces[i] = res.Trace
		for _, s := range pol.Solves() {
			if s.WallHit {
				t.Fatalf("the wall-clock safety net bound in the re-solve at %d ms (%v): the default limits must be deterministic", s.At, s.Wall)
			}
			plans[i] = append(plans[i], s.Value, s.MILPs)
			milps += s.MILPs
		}
	}
	if !reflect.DeepEqual(traces[0], traces[1]) || !reflect.DeepEqual(plans[0], plans[1]) {
		t.Error("two runs on the same seed differ")
	}
	if milps == 0 {
		t.Fatal("no re-solve solved a MILP: the test checks only the heuristic")
	}
	t.Logf("%d MILPs per run", milps/2)
}

// TestVerifyPlanCatches: the plan checker rejects a reduce before its maps,
// an over-full slot and a missing task.
func TestVerifyPlanCatches(t *testing.T) {
	in := atZero(t, mrcpscenario.Small, 3, 1, 5)
	w := streamWorkload(in)
	pol := New(Options{})
	var pr *problem
	probe := &probePolicy{Policy: pol, at: func(s *sim.Sim) {
		if pr == nil {
			pr = snapshot(s, pol.active, pol.estimate)
		}
	}}
	if _, err := sim.Run(w, probe, idealOptions(1)); err != nil {
		t.Fatal(err)
	}
	best, _ := heuristic(pr, nil)
	if err := verifyPlan(pr, best); err != nil {
		t.Fatalf("the greedy plan fails the checker: %v", err)
	}
	for name, tamper := range map[string]func(s *schedule){
		"reduce early": func(s *schedule) {
			for i := range s.tasks {
				if s.tasks[i].kind == sim.Reduce {
					s.tasks[i].start = 0
				}
			}
		},
		"over capacity": func(s *schedule) {
			for i := range s.tasks {
				if s.tasks[i].kind == sim.Map {
					s.tasks[i].start, s.tasks[i].node = 0, 0
				}
			}
		},
		"missing": func(s *schedule) { s.tasks = s.tasks[1:] },
	} {
		bad := &schedule{tasks: append([]plannedTask(nil), best.tasks...)}
		tamper(bad)
		if verifyPlan(pr, bad) == nil {
			t.Errorf("%s: not caught", name)
		}
	}
}

// probePolicy calls at before each timer, where the policy re-solves.
type probePolicy struct {
	*Policy
	at func(*sim.Sim)
}

func (p *probePolicy) Timer(s *sim.Sim, tag int64) {
	p.at(s)
	p.Policy.Timer(s, tag)
}
