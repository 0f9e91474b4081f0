package native_test

import (
	"context"
	"math"
	"testing"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/native"
)

// knapsackMIP: max 5a + 4b + 3c s.t. 2a + 3b + c ≤ 5, a, b, c binary.
// LP optimum 32/3 (c = 1, a = 1, b = 2/3; capacity dual 4/3), IP optimum 9
// (a = b = 1).
func knapsackMIP(t *testing.T) *model.Model {
	b := model.NewBuilder("knapsack")
	a, bb, c := b.Binary("a"), b.Binary("b"), b.Binary("c")
	e := model.NewExpr(3)
	e.Add(a, 5).Add(bb, 4).Add(c, 3)
	b.Maximize(e)
	w := model.NewExpr(3)
	w.Add(a, 2).Add(bb, 3).Add(c, 1)
	b.LessEq("cap", w, 5)
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMIPWithPlainImport: this package imports only native, and the
// registered backend solves a MIP to its known optimum (no hook to set).
func TestMIPWithPlainImport(t *testing.T) {
	s, err := solve.Lookup(native.Name)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Solve(context.Background(), knapsackMIP(t), solve.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != solve.Optimal || math.Abs(res.Objective-9) > 1e-9 || math.Abs(res.Bound-9) > 1e-9 {
		t.Fatalf("status %v, objective %v, bound %v; want optimal 9", res.Status, res.Objective, res.Bound)
	}
}

func TestSolveLPOfRelaxation(t *testing.T) {
	res, err := native.SolveLP(context.Background(), knapsackMIP(t), solve.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != solve.Optimal || math.Abs(res.Objective-32.0/3) > 1e-9 || res.Bound != res.Objective {
		t.Fatalf("status %v objective %v bound %v, want optimal 32/3", res.Status, res.Objective, res.Bound)
	}
	if len(res.RowDuals) != 1 || len(res.ReducedCosts) != 3 || len(res.ColBasis) != 3 || len(res.RowBasis) != 1 {
		t.Fatal("duals or basis missing")
	}
	// The capacity row's dual is the best ratio of the fractional item: 4/3.
	if math.Abs(res.RowDuals[0]-4.0/3) > 1e-9 {
		t.Fatalf("row dual %v, want 4/3", res.RowDuals[0])
	}
}

func TestIterationLimitResult(t *testing.T) {
	res, err := native.SolveLP(context.Background(), knapsackMIP(t), solve.Options{IterationLimit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != solve.IterationLimit || res.Iterations != 1 {
		t.Fatalf("status %v after %d iterations, want iteration_limit after 1", res.Status, res.Iterations)
	}
	if !math.IsInf(res.Bound, 1) {
		t.Fatalf("bound %v of a maximisation stopped by a limit, want +Inf", res.Bound)
	}
}
