package mip

import (
	"context"
	"testing"
	"time"

	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/native/mip/presolve"
	"github.com/mrbound/mrbound/solve/native/mip/symmetry"
)

// TestWallDeadlineStopsSetUp: a wall limit that has passed before the solve
// starts, or a cancelled context, stops it before any node, with no error,
// no point and a bound no better than the optimum (the set-up used to run
// its whole work budget first): Solve in the model's validation (s21opt),
// and past that, the search in presolve.
func TestWallDeadlineStopsSetUp(t *testing.T) {
	m := hardish()
	full := mustSolve(t, m, solve.Options{Seed: 3})
	if full.Status != solve.Optimal {
		t.Fatalf("status %v", full.Status)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name string
		ctx  context.Context
		opt  solve.Options
		want solve.Status
	}{
		{"time limit", context.Background(), solve.Options{TimeLimit: time.Nanosecond}, solve.TimeLimit},
		{"cancelled", cancelled, solve.Options{}, solve.Interrupted},
	} {
		res, err := Solve(c.ctx, m, c.opt)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		pre := solveWith(c.ctx, m, c.opt, config{})
		for _, r := range []struct {
			res  solve.Result
			want string
		}{{res, "stopped while validating the model"}, {pre, "stopped in presolve"}} {
			if r.res.Status != c.want || r.res.Nodes != 0 || r.res.HasSolution || r.res.Message != r.want {
				t.Errorf("%s: status %v, %d nodes, solution %v, message %q; want %v, %q", c.name, r.res.Status, r.res.Nodes, r.res.HasSolution, r.res.Message, c.want, r.want)
			}
			if r.res.Bound > full.Objective+1e-9 {
				t.Errorf("%s: bound %v above the optimum %v", c.name, r.res.Bound, full.Objective)
			}
		}
	}
}

// TestPresolveStoppedIsValid: presolve stopped after any number of stop
// questions gives a model with the same optimum (each reduction is complete
// when the question is asked).
func TestPresolveStoppedIsValid(t *testing.T) {
	m := hardish()
	full := mustSolve(t, m, solve.Options{Seed: 3})
	stoppedOnce := false
	for _, after := range []int{0, 1, 2, 3, 5, 8} {
		calls := 0
		pre := presolve.RunStop(m, func() bool { calls++; return calls > after })
		if pre.Status == presolve.Infeasible {
			t.Fatalf("stop after %d: infeasible: %s", after, pre.Reason)
		}
		stoppedOnce = stoppedOnce || pre.Stats.Stopped
		res := mustSolve(t, pre.Model, solve.Options{Seed: 3})
		if res.Status != solve.Optimal || abs(res.Objective-full.Objective) > 1e-6 {
			t.Fatalf("stop after %d: %v %v, want optimal %v", after, res.Status, res.Objective, full.Objective)
		}
		if x := pre.Post.Primal(res.X); abs(m.Evaluate(x).Objective-full.Objective) > 1e-6 {
			t.Fatalf("stop after %d: postsolved objective %v, want %v", after, m.Evaluate(x).Objective, full.Objective)
		}
	}
	if !stoppedOnce {
		t.Fatal("no presolve was stopped: the test checks nothing")
	}
}

// TestSymmetryStop: Find with a stop that fires at once returns no
// permutation and says so.
func TestSymmetryStop(t *testing.T) {
	m := hardish()
	res := symmetry.Find(m, symmetry.Options{Stop: func() bool { return true }})
	if !res.Stopped || len(res.Perms) != 0 {
		t.Fatalf("stop at once: stopped %v, %d permutations", res.Stopped, len(res.Perms))
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestPresolveDeadline: RunDeadline stopped at any question, in the set-up,
// the passes or the build, returns Stopped and no model (a solve past its
// deadline has no use for one), and never stopped the model RunStop builds.
func TestPresolveDeadline(t *testing.T) {
	m := hardish()
	whole := presolve.RunStop(m, nil)
	asked := 0
	presolve.RunDeadline(m, func() bool { asked++; return false })
	for _, after := range []int{0, 1, 2, asked / 2, asked - 1} {
		calls := 0
		pre := presolve.RunDeadline(m, func() bool { calls++; return calls > after })
		if pre.Status != presolve.Stopped || pre.Model != nil {
			t.Fatalf("stop after %d of %d questions: %v, model %v; want stopped, none", after, asked, pre.Status, pre.Model != nil)
		}
	}
	never := presolve.RunDeadline(m, func() bool { return false })
	if never.Status != presolve.Reduced || never.Model.NumCols() != whole.Model.NumCols() || never.Model.NumRows() != whole.Model.NumRows() {
		t.Fatalf("never stopped: %v; want the model RunStop builds", never.Status)
	}
}
