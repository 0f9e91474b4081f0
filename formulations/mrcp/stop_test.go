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

// TestCombinatorialPhaseStops: on a congested 8-job mixed stream (1-s units)
// whose optimum the combinatorial phase proves with no MILP, a cancelled
// context and an expired time limit stop the run at once (before stops were
// honoured both still ended optimal after the whole proof), and a stop
// after 1 to 3 000 context checks or after a short time limit returns a
// verified schedule no better than the optimum, a bound not above it, and
// Interrupted or TimeLimit unless the bound proves the incumbent. A node
// limit of 1 leaves the search's proof intact.
func TestCombinatorialPhaseStops(t *testing.T) {
	usable(t, "native")
	in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: mrcpscenario.Mixed, Jobs: 8, Lambda: 0.02, Seed: 3, TimeUnit: 1})
	if err != nil {
		t.Fatal(err)
	}
	so := solve.Options{Solver: "native"}
	ref := runWatched(t, context.Background(), in, Options{Solve: so})
	if ref.Result.Status != solve.Optimal || !ref.Verified || ref.Result.Solver != "search" {
		t.Fatalf("reference: %v by %s, verified %v: want optimal by the search", ref.Result.Status, ref.Result.Solver, ref.Verified)
	}
	opt := ref.Result.Objective
	t.Logf("optimum %v (%d subproblems)", opt, len(ref.Subproblems))

	stops := []struct {
		name string
		ctx  context.Context
		so   solve.Options
		// want is the status the stop must give (StatusUnknown: a limit or,
		// if proven first, Optimal).
		want solve.Status
	}{
		{"cancelled", solvertest.Cancelled(), so, solve.Interrupted},
		{"time_1ns", context.Background(), solve.Options{Solver: "native", TimeLimit: time.Nanosecond}, solve.TimeLimit},
	}
	for _, n := range []int64{1, 3, 10, 30, 100, 300, 1000, 3000} {
		stops = append(stops, struct {
			name string
			ctx  context.Context
			so   solve.Options
			want solve.Status
		}{fmt.Sprintf("countdown_%d", n), solvertest.Countdown(n), so, map[bool]solve.Status{true: solve.Interrupted}[n == 1]})
	}
	for _, d := range []time.Duration{20 * time.Millisecond, 200 * time.Millisecond} {
		stops = append(stops, struct {
			name string
			ctx  context.Context
			so   solve.Options
			want solve.Status
		}{fmt.Sprintf("time_%v", d), context.Background(), solve.Options{Solver: "native", TimeLimit: d}, solve.StatusUnknown})
	}
	stoppedInK := 0
	for _, st := range stops {
		ts := time.Now()
		out := runWatched(t, st.ctx, in, Options{Solve: st.so})
		r := out.Result
		t.Logf("%s: %v, objective %v, bound %v, %d subproblems, %v", st.name, r.Status, r.Objective, r.Bound, len(out.Subproblems), time.Since(ts))
		checkOutcomeBounds(t, st.name, out, opt, st.so)
		switch {
		case st.want != solve.StatusUnknown && r.Status != st.want:
			t.Errorf("%s: %v, want %v", st.name, r.Status, st.want)
		case r.Status != solve.Optimal && !r.Status.IsLimit():
			t.Errorf("%s: %v, want optimal or a limit", st.name, r.Status)
		case r.Status == solve.Optimal && r.Bound != r.Objective:
			t.Errorf("%s: optimal with bound %v below the objective %v", st.name, r.Bound, r.Objective)
		}
		if r.Status.IsLimit() && len(out.Subproblems) > 0 {
			stoppedInK++
		}
	}
	// Some stops must fall inside a late count's proof, not only before it.
	if stoppedInK == 0 {
		t.Error("no stop fell after a late count's work had started")
	}
	// A node limit bounds the MILP sub-solves only: the search's proof
	// stands (docs/mrcp.md § Stops).
	nodes := runWatched(t, context.Background(), in, Options{Solve: solve.Options{Solver: "native", NodeLimit: 1}})
	if r := nodes.Result; r.Status != solve.Optimal || r.Solver != "search" || r.Objective != opt || r.Bound != opt {
		t.Errorf("node limit 1: %v by %s, objective %v, bound %v; want optimal %v by the search", r.Status, r.Solver, r.Objective, r.Bound, opt)
	}
}
