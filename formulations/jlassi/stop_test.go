package jlassi

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/mrbound/mrbound/instances/jlassiscenario"
	"github.com/mrbound/mrbound/internal/stopper"
	"github.com/mrbound/mrbound/solve"
)

// TestBuildStops: on scenario 5 (the published instance) a cancelled
// context and a 1 ns time limit stop the model build itself, and the run
// reports interrupted / time_limit with no bound (nothing was proven) and
// no model; under the time limit the heuristic's schedule, checked against
// the instance, is kept.
func TestBuildStops(t *testing.T) {
	in, err := jlassiscenario.Load("../../examples/scenario5.json")
	if err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Build(in, BuildOptions{T: in.Eq17(), Stop: stopper.New(cancelled, time.Now(), 0)}); !errors.Is(err, stopper.ErrStopped) {
		t.Fatalf("Build under a cancelled context: %v, want ErrStopped", err)
	}
	for _, c := range []struct {
		name  string
		ctx   context.Context
		limit time.Duration
		want  solve.Status
	}{
		{"cancelled", cancelled, 0, solve.Interrupted},
		{"1ns", context.Background(), time.Nanosecond, solve.TimeLimit},
	} {
		rep, err := RunInstance(c.ctx, in, Options{Solve: solve.Options{Solver: "native", TimeLimit: c.limit}})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		r := rep.Result
		if r.Status != c.want || rep.Stats.Cols != 0 || rep.MIPRan || !math.IsInf(r.Bound, -1) {
			t.Errorf("%s: status %v, %d columns built, MIP ran %v, bound %v; want %v, no model, -Inf bound",
				c.name, r.Status, rep.Stats.Cols, rep.MIPRan, r.Bound, c.want)
		}
		// A time limit keeps the heuristic's schedule, checked against the
		// instance; a Ctrl-C reports nothing.
		if c.want == solve.TimeLimit {
			if !rep.FromHeuristic || !rep.Verified() || !r.HasSolution || r.Objective != rep.Verdict.Objective {
				t.Errorf("%s: from heuristic %v, verified %v, objective %v; want the heuristic's checked schedule", c.name, rep.FromHeuristic, rep.Verified(), r.Objective)
			}
		} else if r.HasSolution || rep.Schedule != nil || !math.IsInf(r.Objective, 1) {
			t.Errorf("%s: solution %v, schedule %v, objective %v; want none", c.name, r.HasSolution, rep.Schedule != nil, r.Objective)
		}
	}
}

// TestHeuristicStops: with a stop already seen, the heuristic returns its
// first checked schedule at once instead of trying every order, variant
// and cap (quadratic in T each): a schedule the checker accepts, never
// better than the best of all attempts.
func TestHeuristicStops(t *testing.T) {
	in, err := jlassiscenario.Load("../../examples/scenario5.json")
	if err != nil {
		t.Fatal(err)
	}
	T := in.Eq17()
	all := heuristicBy(in, T, func(s *Schedule) float64 { return s.RealTime }, false, nil)
	stop := stopper.New(context.Background(), time.Now(), time.Nanosecond)
	time.Sleep(time.Millisecond)
	first := heuristicBy(in, T, func(s *Schedule) float64 { return s.RealTime }, false, stop)
	if all == nil || first == nil {
		t.Fatalf("no schedule: all %v, stopped %v", all != nil, first != nil)
	}
	if v := Check(in, first, RealTime, math.NaN()); !v.OK || first.RealTime < all.RealTime {
		t.Errorf("stopped heuristic: check %v, RealTime %v; the best of all attempts %v", v, first.RealTime, all.RealTime)
	}
}
