package solvertest

import (
	"context"
	"math"
	"testing"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

// ForEachBackend runs f once per registered backend, as a subtest named after
// it, with Options naming that backend. A backend that cannot solve a tiny
// probe (max x s.t. 2x ≤ 3, x integer when mip is true, continuous otherwise)
// is skipped with its reason, never passed silently: that is how a test runs
// without the HiGHS build installed. The test binary decides which backends
// exist by importing them.
func ForEachBackend(t *testing.T, mip bool, f func(t *testing.T, opts solve.Options)) {
	t.Helper()
	names := solve.Backends()
	if len(names) == 0 {
		t.Skip("no solver backend registered")
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			opts := solve.Options{Solver: name}
			if reason := Unusable(name, mip); reason != "" {
				t.Skipf("backend %s unusable: %s", name, reason)
			}
			f(t, opts)
		})
	}
}

// Unusable solves the probe max x s.t. 2x ≤ 3 (x integer when mip is true)
// with the backend called name and returns why it failed, or "" when it
// works.
func Unusable(name string, mip bool) string {
	opts := solve.Options{Solver: name}
	b := model.NewBuilder("probe")
	x := b.Continuous("x", 0, 10)
	want := 1.5
	if mip {
		x = b.Integer("xi", 0, 10)
		want = 1
	}
	e := model.NewExpr(1)
	e.Add(x, 2)
	b.LessEq("c", e, 3)
	b.Maximize(model.Sum(x))
	m, err := b.Build()
	if err != nil {
		return err.Error()
	}
	r, err := solve.Solve(context.Background(), m, opts)
	switch {
	case err != nil:
		return err.Error()
	case r.Status != solve.Optimal || math.Abs(r.Objective-want) > 1e-7:
		return "probe max x s.t. 2x ≤ 3 gave " + r.Status.String()
	}
	return ""
}
