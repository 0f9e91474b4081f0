package mrcp

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/solvertest"
)

// stopWatchdog is how long a stopped run may take before the test calls it
// stuck: stopped runs return in well under a second, the unstopped one in
// about one.
const stopWatchdog = 30 * time.Second

// runWatched runs RunInstance in a goroutine and fails the test if it has
// not returned after stopWatchdog.
func runWatched(t *testing.T, ctx context.Context, in *mrcpscenario.Instance, o Options) *Report {
	t.Helper()
	type answer struct {
		out *Report
		err error
	}
	done := make(chan answer, 1)
	go func() {
		out, err := RunInstance(ctx, "stopped", in, o)
		done <- answer{out, err}
	}()
	select {
	case a := <-done:
		if a.err != nil {
			t.Fatal(a.err)
		}
		return a.out
	case <-time.After(stopWatchdog):
		t.Fatalf("the run has not returned after %v", stopWatchdog)
		return nil
	}
}

// phaseStop is one early stop of TestCombinatorialPhaseStops.
type phaseStop struct {
	name string
	ctx  context.Context
	so   solve.Options
	// want is the status the stop must give (StatusUnknown: a limit or,
	// if proven first, Optimal).
	want solve.Status
}

func countdownStops(ns ...int64) []phaseStop {
	var out []phaseStop
	for _, n := range ns {
		want := solve.StatusUnknown
		if n == 1 {
			want = solve.Interrupted // nothing is proven in one check
		}
		out = append(out, phaseStop{fmt.Sprintf("countdown_%d", n), solvertest.Countdown(n), solve.Options{Solver: "native"}, want})
	}
	return out
}

// TestCombinatorialPhaseStops: on congested mixed streams (1-s units) whose
// optimum the combinatorial phase proves with no MILP, a stop returns a
// verified schedule no better than the optimum, a bound not above it, and
// Interrupted or TimeLimit unless the bound proves the incumbent. On the
// 8-job stream a cancelled context and an expired time limit stop the run
// at once (before stops were honoured both still ended optimal after the
// whole proof), stops after 1 to 3 000 context checks and after short time
// limits fall before and inside the late counts' proofs, and a node limit
// of 1 leaves the search's proof intact; the lexicographic and late-count
// objectives are stopped there too. On the 20-job stream (seed 1)
// the stops after 15–30 checks fall inside the relaxation's late-count
// bounds (the late-set branch and bound).
func TestCombinatorialPhaseStops(t *testing.T) {
	usable(t, "native")
	type stream struct {
		jobs int
		seed uint64
		// obj is the objective; ObjectiveUnknown is the product as Run
		// takes it from the CLI without --objective.
		obj   ObjectiveKind
		stops []phaseStop
	}
	streams := []stream{
		{8, 3, ObjectiveUnknown, append([]phaseStop{
			{"cancelled", solvertest.Cancelled(), solve.Options{Solver: "native"}, solve.Interrupted},
			{"time_1ns", context.Background(), solve.Options{Solver: "native", TimeLimit: time.Nanosecond}, solve.TimeLimit},
			{"time_20ms", context.Background(), solve.Options{Solver: "native", TimeLimit: 20 * time.Millisecond}, solve.StatusUnknown},
			{"time_200ms", context.Background(), solve.Options{Solver: "native", TimeLimit: 200 * time.Millisecond}, solve.StatusUnknown},
		}, countdownStops(1, 3, 10, 30, 100, 300, 1000, 3000)...)},
		{8, 3, Lexicographic, countdownStops(1, 3, 30, 1000)},
		{8, 3, LateCount, countdownStops(1, 3)},
		{20, 1, ObjectiveUnknown, countdownStops(15, 20, 30)},
	}
	for _, sc := range streams {
		in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: mrcpscenario.Mixed, Jobs: sc.jobs, Lambda: 0.02, Seed: sc.seed, TimeUnit: 1})
		if err != nil {
			t.Fatal(err)
		}
		obj := Objective{Kind: sc.obj}
		label := obj.String()
		if sc.obj == ObjectiveUnknown {
			label = "default"
		}
		ref := runWatched(t, context.Background(), in, Options{Objective: obj, Solve: solve.Options{Solver: "native"}})
		if ref.Result.Status != solve.Optimal || !ref.Verified || ref.Result.Solver != "search" {
			t.Fatalf("%d jobs %s: reference %v by %s, verified %v: want optimal by the search", sc.jobs, label, ref.Result.Status, ref.Result.Solver, ref.Verified)
		}
		opt := ref.Result.Objective
		t.Logf("%d jobs %s: optimum %v (%d subproblems)", sc.jobs, label, opt, len(ref.Subproblems))
		stoppedInK, partial := 0, 0
		for _, st := range sc.stops {
			name := fmt.Sprintf("%d jobs %s %s", sc.jobs, label, st.name)
			ts := time.Now()
			out := runWatched(t, st.ctx, in, Options{Objective: obj, Solve: st.so})
			r := out.Result
			t.Logf("%s: %v, objective %v, bound %v, %d subproblems, %v", name, r.Status, r.Objective, r.Bound, len(out.Subproblems), time.Since(ts))
			checkOutcomeBounds(t, name, out, opt, st.so)
			switch {
			case st.want != solve.StatusUnknown && r.Status != st.want:
				t.Errorf("%s: %v, want %v", name, r.Status, st.want)
			case r.Status != solve.Optimal && !r.Status.IsLimit():
				t.Errorf("%s: %v, want optimal or a limit", name, r.Status)
			case r.Status == solve.Optimal && r.Bound != r.Objective:
				t.Errorf("%s: optimal with bound %v below the objective %v", name, r.Bound, r.Objective)
			}
			if r.Status.IsLimit() {
				partial++
				if len(out.Subproblems) > 0 {
					stoppedInK++
				}
			}
		}
		// Some stops must bite, and on the 8-job stream some must fall
		// inside a late count's proof, not only before it.
		if partial == 0 || (sc.jobs == 8 && sc.obj != LateCount && stoppedInK == 0) {
			t.Errorf("%d jobs %s: %d stops at a limit, %d after a late count's work had started", sc.jobs, label, partial, stoppedInK)
		}
		if sc.jobs != 8 || sc.obj != ObjectiveUnknown {
			continue
		}
		// A node limit bounds the MILP sub-solves only: the search's proof
		// stands (docs/mrcp.md § Stops).
		nodes := runWatched(t, context.Background(), in, Options{Solve: solve.Options{Solver: "native", NodeLimit: 1}})
		if r := nodes.Result; r.Status != solve.Optimal || r.Solver != "search" || r.Objective != opt || r.Bound != opt {
			t.Errorf("node limit 1: %v by %s, objective %v, bound %v; want optimal %v by the search", r.Status, r.Solver, r.Objective, r.Bound, opt)
		}
	}
}

// TestSearchNodeLimit: Options.SearchNodeLimit bounds the combinatorial
// phase, which a node limit alone does not (TestCombinatorialPhaseStops: the
// search still proves the 8-job stream at node limit 1). After one unit of
// work nothing is proven, so the run stops with NodeLimit; larger limits
// stop inside the proof or let it finish (2^40 is never reached: the proof
// must stand), always with a verified schedule no better than the optimum
// and a bound not above it.
func TestSearchNodeLimit(t *testing.T) {
	usable(t, "native")
	in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: mrcpscenario.Mixed, Jobs: 8, Lambda: 0.02, Seed: 3, TimeUnit: 1})
	if err != nil {
		t.Fatal(err)
	}
	ref := runWatched(t, context.Background(), in, Options{Solve: solve.Options{Solver: "native"}})
	if ref.Result.Status != solve.Optimal {
		t.Fatalf("reference %v, want optimal", ref.Result.Status)
	}
	opt := ref.Result.Objective
	stopped := 0
	for _, n := range []int64{1, 10, 100, 1000, 100000} {
		so := solve.Options{Solver: "native", NodeLimit: n}
		out := runWatched(t, context.Background(), in, Options{Solve: so, SearchNodeLimit: n})
		r := out.Result
		name := fmt.Sprintf("search node limit %d", n)
		t.Logf("%s: %v, objective %v, bound %v", name, r.Status, r.Objective, r.Bound)
		checkOutcomeBounds(t, name, out, opt, so)
		switch {
		case n == 1 && r.Status != solve.NodeLimit:
			t.Errorf("%s: %v, want node_limit", name, r.Status)
		case r.Status == solve.NodeLimit:
			stopped++
		case r.Status != solve.Optimal:
			t.Errorf("%s: %v, want optimal or node_limit", name, r.Status)
		case r.Objective != opt || r.Bound != opt:
			t.Errorf("%s: optimal at %v, bound %v; the optimum is %v", name, r.Objective, r.Bound, opt)
		}
	}
	if stopped == 0 {
		t.Error("no limit stopped the run")
	}
	if out := runWatched(t, context.Background(), in, Options{Solve: solve.Options{Solver: "native"}, SearchNodeLimit: 1 << 40}); out.Result.Status != solve.Optimal {
		t.Errorf("search node limit 2^40: %v, want optimal", out.Result.Status)
	}
}
