package mip

import (
	"bytes"
	"context"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

func mustSolve(t *testing.T, m *model.Model, opts solve.Options) solve.Result {
	t.Helper()
	res, err := Solve(context.Background(), m, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestCoverCutsCloseRoot: max Σx s.t. 5x1+…+5x8 ≤ 12 objective weights 1 + j/100 (LP picks 2.4 items, IP 2).
// No clique exists (5+5 ≤ 12) and presolve cannot tighten; the extended cover
// Σx ≤ 2 closes the gap at the root: one node.
func TestCoverCutsCloseRoot(t *testing.T) {
	b := model.NewBuilder("knap")
	e, obj := model.NewExpr(8), model.NewExpr(8)
	for j := 0; j < 8; j++ {
		v := b.Binary("")
		obj.Add(v, 1+0.01*float64(j))
		e.Add(v, 5)
	}
	b.Maximize(obj)
	b.LessEq("cap", e, 12)
	m := mustBuild(b)
	res := mustSolve(t, m, solve.Options{})
	if res.Status != solve.Optimal || math.Abs(res.Objective-2.13) > 1e-9 {
		t.Fatalf("status %v objective %v, want optimal 2.13", res.Status, res.Objective)
	}
	if res.Nodes != 1 {
		t.Fatalf("%d nodes, want the root only", res.Nodes)
	}
	if res := solveWith(context.Background(), m, solve.Options{}, config{noCuts: true}); res.Nodes < 2 {
		t.Fatalf("without cuts %d nodes: the instance does not need the cover", res.Nodes)
	}
}

// TestCliqueCutsCloseRoot: maximum weighted stable set on the complete graph
// K14 written with pairwise edge rows x_i + x_j ≤ 1, weights 1 + i/100 (LP
// 7.455 at x = ½, IP 1.13); the clique cut Σx ≤ 1 closes the gap at the root.
// Without cuts the root cannot close it (strong branching may fix at most
// maxNodeResolves columns there).
func TestCliqueCutsCloseRoot(t *testing.T) {
	b := model.NewBuilder("k14")
	v := make([]model.Var, 14)
	obj := model.NewExpr(14)
	for i := range v {
		v[i] = b.Binary("")
		obj.Add(v[i], 1+0.01*float64(i))
	}
	b.Maximize(obj)
	for i := range v {
		for j := i + 1; j < len(v); j++ {
			b.LessEq("", model.Sum(v[i], v[j]), 1)
		}
	}
	m := mustBuild(b)
	res := mustSolve(t, m, solve.Options{})
	if res.Status != solve.Optimal || math.Abs(res.Objective-1.13) > 1e-9 {
		t.Fatalf("status %v objective %v, want optimal 1.13", res.Status, res.Objective)
	}
	if res.Nodes != 1 {
		t.Fatalf("%d nodes, want the root only", res.Nodes)
	}
	if res := solveWith(context.Background(), m, solve.Options{}, config{noCuts: true}); res.Nodes < 2 {
		t.Fatalf("without cuts %d nodes: the instance does not need the clique", res.Nodes)
	}
}

// TestPresolveEmptiesModel: every column is fixed by singleton rows and the
// rest becomes redundant; the solver answers without an LP.
func TestPresolveEmptiesModel(t *testing.T) {
	b := model.NewBuilder("empties")
	x, y, z := b.Binary("x"), b.Integer("y", 0, 5), b.Continuous("z", 0, 10)
	b.Minimize(*(&model.Expr{}).Add(x, 1).Add(y, 2).Add(z, -1))
	b.GreaterEq("sx", model.Sum(x), 0.5)
	b.LessEq("sy", *(&model.Expr{}).Add(y, 2), 3)
	b.GreaterEq("sy2", model.Sum(y), 1)
	b.GreaterEq("cover", model.Sum(x, y, z), 1)
	m := mustBuild(b)
	res := mustSolve(t, m, solve.Options{})
	if res.Status != solve.Optimal || res.Objective != 1+2-10 {
		t.Fatalf("status %v objective %v, want optimal -7", res.Status, res.Objective)
	}
	if res.Iterations != 0 {
		t.Fatalf("%d LP iterations, want 0 (presolve empties the model)", res.Iterations)
	}
}

// hardish is a seeded generalised assignment problem that needs a tree.
func hardish() *model.Model {
	rng := rand.New(rand.NewSource(42))
	b := model.NewBuilder("gap")
	na, nj := 5, 30
	x := make([][]model.Var, na)
	obj := model.NewExpr(na * nj)
	caps := make([]model.Expr, na)
	for i := range x {
		x[i] = make([]model.Var, nj)
		for j := range x[i] {
			x[i][j] = b.Binary("")
			obj.Add(x[i][j], float64(10+rng.Intn(40)))
			caps[i].Add(x[i][j], float64(5+rng.Intn(20)))
		}
	}
	b.Minimize(obj)
	for j := 0; j < nj; j++ {
		row := model.NewExpr(na)
		for i := range x {
			row.Add(x[i][j], 1)
		}
		b.Equal("", row, 1)
	}
	for i := range x {
		b.LessEq("", caps[i], 60)
	}
	return mustBuild(b)
}

// TestDeterministic: two solves with the same seed give the same nodes,
// iterations and point; the node limit gives NodeLimit with a bound no better
// than the optimum and a log with the usual columns.
func TestDeterministicAndLimits(t *testing.T) {
	m := hardish()
	full := mustSolve(t, m, solve.Options{Seed: 3, RelGap: 1e-9})
	again := mustSolve(t, m, solve.Options{Seed: 3, RelGap: 1e-9})
	if full.Status != solve.Optimal {
		t.Fatalf("status %v", full.Status)
	}
	if full.Nodes != again.Nodes || full.Iterations != again.Iterations || full.Objective != again.Objective {
		t.Fatalf("not deterministic: %d/%d nodes, %d/%d iterations", full.Nodes, again.Nodes, full.Iterations, again.Iterations)
	}
	for j := range full.X {
		if full.X[j] != again.X[j] {
			t.Fatalf("points differ at column %d", j)
		}
	}
	if full.Nodes < 3 {
		t.Skipf("instance solved in %d nodes: the limit test needs a tree", full.Nodes)
	}
	var log bytes.Buffer
	lim := mustSolve(t, m, solve.Options{Seed: 3, NodeLimit: 2, Log: &log, Verbosity: 1})
	if lim.Status != solve.NodeLimit {
		t.Fatalf("status %v, want node_limit", lim.Status)
	}
	if lim.Bound > full.Objective+1e-9 {
		t.Fatalf("bound %v after the node limit exceeds the optimum %v", lim.Bound, full.Objective)
	}
	if lim.HasSolution && lim.Objective < full.Objective-1e-9 {
		t.Fatalf("incumbent %v better than the optimum %v", lim.Objective, full.Objective)
	}
	for _, w := range []string{"nodes", "open", "incumbent", "bound", "gap"} {
		if !strings.Contains(log.String(), w) {
			t.Fatalf("log lacks %q:\n%s", w, log.String())
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Solve(ctx, m, solve.Options{})
	if err != nil || res.Status != solve.Interrupted {
		t.Fatalf("cancelled: status %v err %v, want interrupted", res.Status, err)
	}
}

// TestNodeReducedCostFixing: seeded random multi-constraint 0-1 knapsacks
// (min Σc·x with Σa_i·x ≥ b_i, a mas74-like shape: dense rows, wide cost
// range) solved with and without reduced-cost fixing at the nodes. The
// optimum must not move, the fixing must fire, and over the set it must not
// cost nodes.
func TestNodeReducedCostFixing(t *testing.T) {
	var models []*model.Model
	for seed := int64(1); seed <= 6; seed++ {
		rng := rand.New(rand.NewSource(seed))
		b := model.NewBuilder("rcknap")
		const n, rows = 30, 4
		x := make([]model.Var, n)
		obj := model.NewExpr(n)
		for j := range x {
			x[j] = b.Binary("")
			obj.Add(x[j], float64(10+rng.Intn(90)))
		}
		b.Minimize(obj)
		for i := 0; i < rows; i++ {
			e := model.NewExpr(n)
			sum := 0.0
			for j := range x {
				a := float64(1 + rng.Intn(40))
				e.Add(x[j], a)
				sum += a
			}
			b.GreaterEq("", e, math.Round(0.4*sum))
		}
		models = append(models, mustBuild(b))
	}
	with, without, on, off := compareConfigs(t, models, config{}, config{noNodeRC: true})
	fired := false
	for c := range models {
		if on[c].nodeRCFixed > 0 {
			fired = true
		}
		if off[c].nodeRCFixed != 0 {
			t.Fatalf("model %d: %d fixings with node fixing off", c, off[c].nodeRCFixed)
		}
	}
	if !fired {
		t.Fatal("reduced-cost fixing never fired at a node")
	}
	t.Logf("nodes with node fixing %d, without %d", with, without)
	if with > without {
		t.Fatalf("node fixing cost nodes: %d against %d", with, without)
	}
}
