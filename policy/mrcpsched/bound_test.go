package mrcpsched

import (
	"context"
	"testing"

	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/solve"
)

// exhaustive is the optimum of p by the late-count MILPs alone, without the
// policy's bounds: for every K, minimise Z with at most K late jobs (Z ≤ cap,
// from zero); the optimum is min_K (K + 1)·Z*_K. It also returns the least Z
// over all K, and which K have a schedule with Z ≤ cap.
func exhaustive(t *testing.T, p *problem, cap int) (opt, zmin int, feasible []bool) {
	t.Helper()
	none := make([]bool, len(p.jobs))
	opt, zmin = -1, -1
	feasible = make([]bool, len(p.jobs)+1)
	for k := 0; k <= len(p.jobs); k++ {
		sm := buildSub(p, k, cap, 0, none)
		if sm.infea {
			continue
		}
		res, err := solve.Solve(context.Background(), sm.m, solve.Options{Threads: 1})
		if err != nil {
			t.Fatal(err)
		}
		switch res.Status {
		case solve.Infeasible:
			continue
		case solve.Optimal:
		default:
			t.Fatalf("K=%d: %v", k, res.Status)
		}
		feasible[k] = true
		z := int(res.Objective + 0.5)
		if v := (k + 1) * z; opt < 0 || v < opt {
			opt = v
		}
		if zmin < 0 || z < zmin {
			zmin = z
		}
	}
	return opt, zmin, feasible
}

// TestBoundsAndPlansAgainstExhaustive takes the current problems of a
// congested run (running tasks, raised releases, late jobs) and checks, on
// each small one, that the lower bound on Z is at most the least Z of any
// schedule, that the jobs declared late in every schedule are, and that the
// policy's plan value equals the optimum found without its bounds; that
// the late-count bound (Moore–Hodgson on the fluid relaxations) is at most
// the fewest late jobs of any schedule, and that the late-set relaxation
// never dismisses a late count that has a schedule.
func TestBoundsAndPlansAgainstExhaustive(t *testing.T) {
	var probs []*problem
	for seed := uint64(1); seed <= 6; seed++ {
		wl := []mrcpscenario.Workload{mrcpscenario.Small, mrcpscenario.Mixed}[seed%2]
		in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: wl, Duration: 900, Lambda: 1.0 / 14,
			Durations: mrcpscenario.Fit, Seed: seed, EmMin: 1, EmMax: 1.5})
		if err != nil {
			t.Fatal(err)
		}
		pol := New(Options{})
		probe := &probePolicy{Policy: pol, at: func(s *sim.Sim) {
			if pol.newJobs > 0 {
				probs = append(probs, snapshot(s, pol.active, pol.estimate))
			}
		}}
		if _, err := sim.Run(streamWorkload(in), probe, idealOptions(seed)); err != nil {
			t.Fatal(err)
		}
	}
	checked, withRunning, withLate, withLateBound := 0, 0, 0, 0
	limit := 30
	if testing.Short() {
		limit = 10
	}
	for _, p := range probs {
		if len(p.jobs) > 4 || checked >= limit {
			continue
		}
		best, _, st := solveProblem(context.Background(), p, nil, solve.Options{Threads: 1}, 0, false)
		if best.value() > 250 {
			continue
		}
		opt, zmin, feasible := exhaustive(t, p, best.value())
		zlb, late := p.lowerBounds()
		kmin := 0
		for _, l := range late {
			if l {
				kmin++
			}
		}
		if zlb > zmin {
			t.Errorf("problem at %d ms: lower bound %d on Z above the least Z %d", p.nowMs, zlb, zmin)
		}
		if (kmin+1)*zlb > opt {
			t.Errorf("problem at %d ms: bound (%d+1)·%d above the optimum %d", p.nowMs, kmin, zlb, opt)
		}
		fewest := len(p.jobs)
		for k, ok := range feasible {
			if sets, decided := p.passingLateSets(late, k, best.value(), 0); ok && decided && len(sets) == 0 {
				t.Errorf("problem at %d ms: late sets of size %d dismissed at cap %d, but a schedule exists", p.nowMs, k, best.value())
			}
			if ok {
				fewest = min(fewest, k)
			}
		}
		if kl := p.lateLowerBound(late); kl > fewest {
			t.Errorf("problem at %d ms: late-count bound %d above the fewest late jobs %d", p.nowMs, kl, fewest)
		}
		if kl := p.lateLowerBound(late); kl > 0 {
			withLateBound++
		}
		if !st.optimal || best.value() != opt {
			t.Errorf("problem at %d ms: plan %d (optimal %v), exhaustive optimum %d", p.nowMs, best.value(), st.optimal, opt)
		}
		checked++
		if len(p.run) > 0 {
			withRunning++
		}
		if best.late > 0 {
			withLate++
		}
	}
	if checked < limit/2 || withRunning == 0 || withLate == 0 || withLateBound == 0 {
		t.Fatalf("only %d problems checked (%d with running tasks, %d with late jobs, %d with a late-count bound > 0)",
			checked, withRunning, withLate, withLateBound)
	}
	t.Logf("%d problems: %d with running tasks, %d with late jobs, %d with a late-count bound > 0", checked, withRunning, withLate, withLateBound)
}
