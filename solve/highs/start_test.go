package highs_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/highs"
)

// startSplit is a small market-split MIP: minimise Σ c_i x_i over 30
// binaries subject to four equality rows Σ a_ri x_i = b_r, with b built from
// the point start (x_i = 1 for i ≡ 0, 1 mod 3), so start is feasible while a
// feasible point is hard to find from the LP alone.
func startSplit() (*model.Model, []float64) {
	const n = 30
	b := model.NewBuilder("start_split")
	start := make([]float64, n)
	xs := make([]model.Var, n)
	var obj model.Expr
	for i := range xs {
		xs[i] = b.Binary(fmt.Sprintf("x%d", i))
		obj.Add(xs[i], float64(1+(i*7)%11))
		if i%3 != 2 {
			start[i] = 1
		}
	}
	for r := 0; r < 4; r++ {
		var e model.Expr
		rhs := 0.0
		for i := range xs {
			a := float64((i*(r+3)*31+r*17)%97 + 1)
			e.Add(xs[i], a)
			rhs += a * start[i]
		}
		b.Equal(fmt.Sprintf("split%d", r), e, rhs)
	}
	b.Minimize(obj)
	m, err := b.Build()
	if err != nil {
		panic(err)
	}
	return m, start
}

// startUsed is what HiGHS logs when it accepts a MIP start.
const startUsed = "MIP start solution is feasible"

// TestStart: a feasible MIP start is HiGHS's first incumbent (its log says
// so), so a solve stopped after one node returns a solution at least as good
// as the start; an infeasible or short start is ignored, not an error.
func TestStart(t *testing.T) {
	requireHiGHS(t)
	s := highs.New("")
	m, start := startSplit()
	want := m.Evaluate(start).Objective
	solveLog := func(x []float64) (solve.Result, string) {
		t.Helper()
		var lb strings.Builder
		res, err := s.Solve(context.Background(), m, solve.Options{NodeLimit: 1, Start: x, Log: &lb, Verbosity: 1})
		if err != nil {
			t.Fatal(err)
		}
		return res, lb.String()
	}
	res, log := solveLog(start)
	if !strings.Contains(log, startUsed) {
		t.Errorf("HiGHS did not report the start as feasible; log:\n%s", log)
	}
	if !res.HasSolution || res.Objective > want+1e-9 {
		t.Fatalf("with start (objective %g): status %v, has solution %v, objective %g", want, res.Status, res.HasSolution, res.Objective)
	}
	if ev := m.Evaluate(res.X); !ev.Feasible(1e-6, true) {
		t.Fatalf("returned point is infeasible: %+v", ev)
	}
	bad := make([]float64, len(start))
	for i := range bad {
		bad[i] = 1 // every item: breaks the equalities
	}
	for name, x := range map[string][]float64{"none": nil, "infeasible": bad, "short": start[:3]} {
		if _, log := solveLog(x); strings.Contains(log, startUsed) {
			t.Errorf("%s start: HiGHS reports a feasible start", name)
		}
	}
}
