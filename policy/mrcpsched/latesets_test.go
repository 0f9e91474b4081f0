package mrcpsched

import (
	"context"
	"slices"
	"testing"

	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/solve"
)

// minZ solves buildSub(p, k, zcap, 0, late) and returns its optimal Z, or
// -1 when it is infeasible.
func minZ(t *testing.T, p *problem, k, zcap int, late []bool) int {
	t.Helper()
	sm := buildSub(p, k, zcap, 0, late)
	if sm.infea {
		return -1
	}
	res, err := solve.Solve(context.Background(), sm.m, solve.Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	switch res.Status {
	case solve.Infeasible:
		return -1
	case solve.Optimal:
		return int(res.Objective + 0.5)
	}
	t.Fatalf("K=%d: %v", k, res.Status)
	return 0
}

// TestLateSetMILPs: for every late count K of small current problems of
// runs with tight deadlines, the least Z over one MILP per passing late set
// (the other jobs on time, windows ending at their deadlines: the path taken
// when K's own MILP is over the size limit) equals the least Z of K's own
// MILP, infeasible when it is; and solveProblem by that path, whenever it
// claims optimality, has the optimum found without the policy's bounds.
func TestLateSetMILPs(t *testing.T) {
	checked, bySets, limit := 0, 0, 12
	if testing.Short() {
		limit = 4
	}
	for seed := uint64(1); seed <= 40 && (checked < limit || bySets == 0); seed++ {
		in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: []mrcpscenario.Workload{mrcpscenario.Small, mrcpscenario.Mixed}[seed%2],
			Duration: 400, Lambda: 1.0 / 10, Durations: mrcpscenario.Fit, Seed: seed, EmMin: 1, EmMax: 1.3})
		if err != nil {
			t.Fatal(err)
		}
		var probs []*problem
		pol := New(Options{NoMILP: true}) // greedy plans: states come cheap
		probe := &probePolicy{Policy: pol, at: func(s *sim.Sim) {
			if pol.newJobs > 0 {
				probs = append(probs, snapshot(s, pol.active, pol.estimate))
			}
		}}
		if _, err := sim.Run(streamWorkload(in), probe, idealOptions(seed)); err != nil {
			t.Fatal(err)
		}
		for _, p := range probs {
			if len(p.jobs) > 4 || (checked >= limit && bySets > 0) {
				continue
			}
			h, _ := heuristic(p, nil)
			if h.value() > 250 {
				continue
			}
			_, fixedLate := p.lowerBounds()
			setsTried := false
			for k := countLate(p, fixedLate) + 1; k <= len(p.jobs); k++ {
				zcap := h.z // every late count has a schedule with Z ≤ the greedy's
				sets, decided := p.passingLateSets(fixedLate, k, zcap, 1<<20)
				if !decided {
					continue
				}
				want := minZ(t, p, k, zcap, fixedLate)
				got := -1
				for _, set := range sets {
					late := slices.Clone(fixedLate)
					for _, j := range set {
						late[j] = true
					}
					if z := minZ(t, p, k, zcap, late); z >= 0 && (got < 0 || z < got) {
						got = z
					}
					setsTried = true
				}
				if got != want {
					t.Errorf("seed %d, problem at %d ms, K=%d, Z ≤ %d: least Z %d over %d late sets, %d by K's own MILP (-1: infeasible)",
						seed, p.nowMs, k, zcap, got, len(sets), want)
				}
			}
			if !setsTried {
				continue
			}
			checked++
			b, _, st := solveProblem(context.Background(), p, nil, solve.Options{Threads: 1}, 0, true)
			if st.setMILPs > 0 {
				bySets++
				if opt, _, _ := exhaustive(t, p, b.value()); st.optimal && b.value() != opt {
					t.Errorf("seed %d, problem at %d ms: by %d late-set MILPs plan %d claimed optimal, optimum %d", seed, p.nowMs, st.setMILPs, b.value(), opt)
				}
			}
		}
	}
	if checked < limit || bySets == 0 {
		t.Fatalf("only %d problems with late sets to try, %d solved by them", checked, bySets)
	}
}
