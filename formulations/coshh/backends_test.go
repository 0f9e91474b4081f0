package coshh

import (
	"context"
	"math"
	"testing"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
	_ "github.com/mrbound/mrbound/solve/highs"
	_ "github.com/mrbound/mrbound/solve/native"
)

// forEachBackend runs f once per registered backend that can solve a tiny LP
// (max x, x ≤ 1); a backend that cannot is skipped with its reason.
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
	x := b.Continuous("x", 0, math.Inf(1))
	b.LessEq("c", model.Sum(x), 1)
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
		return "probe LP max x s.t. x ≤ 1 gave " + r.Status.String()
	}
	return ""
}
