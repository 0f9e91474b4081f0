package mrcp

import (
	"context"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mrbound/mrbound/solve"
)

// cancelIn is a context that is cancelled from the first time Err is
// called from within a function whose name contains in (a stack frame's),
// and stays cancelled: it stops a run at one chosen step, deterministically.
type cancelIn struct {
	context.Context
	in  string
	hit atomic.Bool
}

func (c *cancelIn) Err() error {
	if !c.hit.Load() {
		pcs := make([]uintptr, 64)
		frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
		for {
			f, more := frames.Next()
			if strings.Contains(f.Function, c.in) {
				c.hit.Store(true)
				break
			}
			if !more {
				break
			}
		}
	}
	if c.hit.Load() {
		return context.Canceled
	}
	return nil
}

// TestStopsBetweenBuildAndSolve (s21opt): a context cancelled at each step
// that used to run past a deadline — naming and validating the built model
// (model.Builder.BuildStop), validating it again for the solve
// (solve.ValidateModel), setting up, reducing and rebuilding it in the
// native presolve (newWork, duplicateRows, build) — stops the monolithic
// run there: the step read the context (the stop went through it), the
// status is Interrupted, with no error, the checked heuristic schedule and
// a bound not above the optimum; stopped in BuildStop, no model is kept.
func TestStopsBetweenBuildAndSolve(t *testing.T) {
	usable(t, "native")
	in, so, opt := stoppableStream(t)
	for _, step := range []string{"model.(*Builder).BuildStop", "solve.ValidateModel", "presolve.newWork", "presolve.(*work).duplicateRows", "presolve.(*work).build"} {
		ctx := &cancelIn{Context: context.Background(), in: step}
		out := runWatched(t, ctx, in, Options{Method: Monolithic, Solve: so})
		r := out.Result
		t.Logf("%s: %v, %q, objective %v, bound %v, model skipped %v", step, r.Status, r.Message, r.Objective, r.Bound, out.Built.ModelSkipped)
		if !ctx.hit.Load() {
			t.Errorf("%s: never read the context", step)
			continue
		}
		if r.Status != solve.Interrupted || !out.Verified || r.Objective < opt || r.Bound > opt || !(r.Bound <= r.Objective) {
			t.Errorf("%s: %v, objective %v, bound %v, verified %v; want interrupted, the optimum %v between", step, r.Status, r.Objective, r.Bound, out.Verified, opt)
		}
		if step == "model.(*Builder).BuildStop" && !out.Built.ModelSkipped {
			t.Errorf("%s: a model kept after a stop in its build", step)
		}
	}
}
