package native_test

import (
	"context"
	"testing"
	"time"

	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/native"
)

// TestStoppedInValidation: a solve whose context is cancelled, or whose time
// limit has passed, before it starts stops while validating the model
// (solve.ValidateModel, s21opt) — in solve.Solve and in the backend called
// directly — with no error, no point and the trivial bound (+Inf for this
// maximisation, so no better than its optimum 9); with neither, the same
// model is solved to that optimum.
func TestStoppedInValidation(t *testing.T) {
	m := knapsackMIP(t)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name string
		ctx  context.Context
		opt  solve.Options
		want solve.Status
	}{
		{"cancelled", cancelled, solve.Options{Solver: native.Name}, solve.Interrupted},
		{"time limit", context.Background(), solve.Options{Solver: native.Name, TimeLimit: time.Nanosecond}, solve.TimeLimit},
	} {
		viaSolve, err := solve.Solve(c.ctx, m, c.opt)
		if err != nil {
			t.Fatalf("%s: solve.Solve: %v", c.name, err)
		}
		direct, err := native.Solver{}.Solve(c.ctx, m, c.opt)
		if err != nil {
			t.Fatalf("%s: native: %v", c.name, err)
		}
		for _, r := range []solve.Result{viaSolve, direct} {
			if r.Status != c.want || r.HasSolution || r.Message != "stopped while validating the model" || r.Bound < 9 || r.Solver != native.Name {
				t.Errorf("%s: %s %v, solution %v, bound %v, %q; want %v while validating, bound ≥ 9", c.name, r.Solver, r.Status, r.HasSolution, r.Bound, r.Message, c.want)
			}
		}
	}
	res, err := solve.Solve(context.Background(), m, solve.Options{Solver: native.Name})
	if err != nil || res.Status != solve.Optimal || res.Objective != 9 {
		t.Fatalf("unstopped: %v %v %v; want the optimum 9", err, res.Status, res.Objective)
	}
}
