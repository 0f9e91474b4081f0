package native_test

import (
	"context"
	"math"
	"testing"

	"github.com/mrbound/mrbound/formulations/coshh"
	"github.com/mrbound/mrbound/instances/coshhscenario"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/native"
)

// Regression: the COSHH capacity LPs of a 102-resource Table 10 cluster
// (slot rates from 5 MHz to 500 GHz side by side) gave numerical_trouble:
// after scaling, a scaled dual tolerance of 1e-7 left unscaled reduced costs
// of −1e-4 that the final check rejected, and every retry repeated the same
// solve. Retries now tighten the working tolerances.
func TestCoshhTable10Regression(t *testing.T) {
	for _, trace := range []string{"facebook", "yahoo"} {
		s, err := coshhscenario.Generate(coshhscenario.GenOptions{Trace: trace, Seed: 1, Cluster: "table10", Resources: 102, MaxError: 0.1})
		if err != nil {
			t.Fatal(err)
		}
		ps, _, err := coshh.Problems(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			m, _, err := coshh.Build(p, math.NaN())
			if err != nil {
				t.Fatal(err)
			}
			res, err := native.SolveLP(context.Background(), m, solve.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != solve.Optimal {
				t.Fatalf("%s/%s: status %v", trace, p.Name, res.Status)
			}
			if ev := m.Evaluate(res.X); ev.MaxViolation() > 1e-7 {
				t.Fatalf("%s/%s: violation %g", trace, p.Name, ev.MaxViolation())
			}
			if h, err := solve.Lookup("highs"); err == nil {
				want, err := h.Solve(context.Background(), m, solve.Options{})
				if err == nil && want.Status == solve.Optimal && math.Abs(want.Objective-res.Objective) > 1e-6*math.Max(1, math.Abs(want.Objective)) {
					t.Fatalf("%s/%s: objective %.12g, HiGHS %.12g", trace, p.Name, res.Objective, want.Objective)
				}
			}
		}
	}
}
