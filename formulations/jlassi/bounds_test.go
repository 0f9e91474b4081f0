package jlassi

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/highs"
	_ "github.com/mrbound/mrbound/solve/native"
	_ "github.com/mrbound/mrbound/solve/native/mip"
)

// jlassiStops are the early stops of the bound tests: node limits
// (deterministic), a loose gap, a time limit that expires before the MIP (and
// before the LP relaxation), a cancelled context.
var jlassiStops = []struct {
	name      string
	opts      solve.Options
	cancelled bool
}{
	{"nodes_1", solve.Options{NodeLimit: 1}, false},
	{"nodes_10", solve.Options{NodeLimit: 10}, false},
	{"nodes_100", solve.Options{NodeLimit: 100}, false},
	{"gap_0.2", solve.Options{RelGap: 0.2, NodeLimit: 100}, false},
	{"time_1ns", solve.Options{TimeLimit: time.Nanosecond}, false},
	{"cancelled", solve.Options{}, true},
}

// checkReportBounds fails unless the report's bound is at most opt and its
// objective at least opt (RealTime is minimised), and a schedule it reports
// is verified.
func checkReportBounds(t *testing.T, what string, rep *Report, opt float64) {
	t.Helper()
	r := rep.Result
	tol := 1e-9 * math.Max(1, math.Abs(opt))
	if r.Bound > opt+tol {
		t.Errorf("%s: %v with bound %v above the optimum %v (objective %v, LP bound %v)", what, r.Status, r.Bound, opt, r.Objective, rep.LPBound)
	}
	if !math.IsNaN(rep.LPBound) && rep.LPBound > opt+tol {
		t.Errorf("%s: LP bound %v above the optimum %v", what, rep.LPBound, opt)
	}
	if r.HasSolution && r.Objective < opt-tol {
		t.Errorf("%s: objective %v below the optimum %v", what, r.Objective, opt)
	}
	if rep.Schedule != nil && !rep.Verified() {
		t.Errorf("%s: schedule not verified: %v", what, rep.Verdict)
	}
}

// TestRunBoundsAtStops runs Run on the hand-made instances (known optima
// 15, 110, 20) and on generated scenario 1 seed 1 (optimum at its horizon by
// an exact HiGHS solve, native when HiGHS is not installed) on the native
// backend, with
// and without the LP bound and the heuristic, under every stop of
// jlassiStops, and checks that the reported bound (the solver's, or the LP
// relaxation's when the MIP stopped before its own) never passes the
// optimum.
func TestRunBoundsAtStops(t *testing.T) {
	cases := map[string]float64{"migration": 15, "bandwidth": 110, "ram": 20}
	checked, limited := 0, 0
	for _, name := range []string{"migration", "bandwidth", "ram", "scenario1_seed1"} {
		t.Run(name, func(t *testing.T) {
			var opt float64
			in := generated(t, 1, 1)
			if name == "scenario1_seed1" {
				oracle := "highs"
				if _, err := highs.Locate(); err != nil {
					oracle = "native"
				}
				ref := run(t, in, Options{Solve: solve.Options{Solver: oracle, RelGap: 1e-9, AbsGap: 1e-9}})
				if ref.Result.Status != solve.Optimal || !ref.Verified() {
					t.Skipf("reference: %v", ref.Result.Status)
				}
				opt = ref.Result.Objective
			} else {
				in, opt = compile(t, loadScenario(t, name)), cases[name]
			}
			for _, lp := range []bool{false, true} {
				for _, noHeur := range []bool{false, true} {
					for _, st := range jlassiStops {
						ctx := context.Background()
						if st.cancelled {
							c, cancel := context.WithCancel(ctx)
							cancel()
							ctx = c
						}
						so := st.opts
						so.Solver = "native"
						rep, err := RunInstance(ctx, in, Options{LPBound: lp, NoHeuristic: noHeur, Solve: so})
						if err != nil {
							t.Fatal(err)
						}
						checkReportBounds(t, fmt.Sprintf("lp %v, no heuristic %v, %s", lp, noHeur, st.name), rep, opt)
						checked++
						if rep.Result.Status.IsLimit() {
							limited++
						}
					}
				}
			}
		})
	}
	t.Logf("%d reports checked, %d at a limit", checked, limited)
	if limited == 0 {
		t.Error("no stop bit")
	}
}

// fakeBadBound claims optimality with a bound above every schedule and
// returns none: a wrong solver.
var fakeBadBound = &fakeSolver{name: "jlassi-test-bad-bound", res: solve.Result{Status: solve.Optimal,
	Objective: math.Inf(1), Bound: 1e9}}

func init() { solve.Register(fakeBadBound) }

// TestRunRefutedBound: when the heuristic's checked schedule beats the
// solver's dual bound, Run does not report that bound (nor the solver's
// optimality), nor an LP optimum that the schedule refutes as well.
func TestRunRefutedBound(t *testing.T) {
	in := compile(t, loadScenario(t, "migration"))
	for _, lp := range []bool{false, true} {
		rep, err := RunInstance(context.Background(), in, Options{LPBound: lp, NoDecomposition: true, Solve: solve.Options{Solver: fakeBadBound.name}})
		if err != nil {
			t.Fatal(err)
		}
		r := rep.Result
		if !rep.FromHeuristic || !rep.Verified() {
			t.Fatalf("lp %v: from heuristic %v, verified %v", lp, rep.FromHeuristic, rep.Verified())
		}
		want := math.Inf(-1) // the fake's LP optimum (+Inf) is refuted too
		if r.Status == solve.Optimal || r.Bound != want || r.Bound > r.Objective {
			t.Errorf("lp %v: %v with bound %v (want %v), objective %v: %s", lp, r.Status, r.Bound, want, r.Objective, r.Message)
		}
	}
}
