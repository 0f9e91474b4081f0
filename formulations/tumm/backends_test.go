package tumm

import (
	"context"
	"math"
	"testing"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
	_ "github.com/mrbound/mrbound/solve/highs"
	_ "github.com/mrbound/mrbound/solve/native"
	_ "github.com/mrbound/mrbound/solve/native/mip"
)

// forEachBackend runs f once per registered backend that can solve a tiny
// MIP (max x, 2x ≤ 3, x integer → 1); a backend that cannot is skipped with
// its reason.
func forEachBackend(t *testing.T, f func(t *testing.T, opts solve.Options)) {
	t.Helper()
	names := solve.Backends()
	if len(names) == 0 {
		t.Skip("no solver backend registered")
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			opts := solve.Options{Solver: name}
			if reason := probe(opts); reason != "" {
				t.Skipf("backend %s unusable: %s", name, reason)
			}
			f(t, opts)
		})
	}
}

func probe(opts solve.Options) string {
	b := model.NewBuilder("probe")
	x := b.Integer("x", 0, 10)
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
	case r.Status != solve.Optimal || math.Abs(r.Objective-1) > 1e-7:
		return "probe MIP max x s.t. 2x ≤ 3, x integer gave " + r.Status.String()
	}
	return ""
}
