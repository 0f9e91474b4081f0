package mip

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"testing"
	"time"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
	_ "github.com/mrbound/mrbound/solve/highs"
)

// crossGap is the gap requested from both solvers in the cross-check, so that
// both optima are exact to well within crossTol.
const (
	crossGap = 1e-9
	crossTol = 1e-6
)

// knapsack: max Σ v·x s.t. Σ w·x ≤ C, x binary.
func genKnapsack(rng *rand.Rand) *model.Model {
	b := model.NewBuilder("knapsack")
	n := 5 + rng.Intn(16)
	obj, w := model.NewExpr(n), model.NewExpr(n)
	total := 0.0
	for j := 0; j < n; j++ {
		x := b.Binary("")
		wt := float64(10 + rng.Intn(90))
		total += wt
		obj.Add(x, wt+float64(rng.Intn(20)-5))
		w.Add(x, wt)
	}
	b.Maximize(obj)
	b.LessEq("cap", w, math.Floor(total*(0.2+0.5*rng.Float64())))
	return mustBuild(b)
}

// set cover: min Σ c·x s.t. every element is covered by a chosen set.
func genSetCover(rng *rand.Rand) *model.Model {
	b := model.NewBuilder("setcover")
	nSets, nElem := 6+rng.Intn(15), 5+rng.Intn(15)
	xs := make([]model.Var, nSets)
	obj := model.NewExpr(nSets)
	for j := range xs {
		xs[j] = b.Binary("")
		obj.Add(xs[j], float64(1+rng.Intn(10)))
	}
	b.Minimize(obj)
	for e := 0; e < nElem; e++ {
		row := model.NewExpr(4)
		for j := range xs {
			if rng.Float64() < 0.25 {
				row.Add(xs[j], 1)
			}
		}
		if len(row.Terms) == 0 {
			row.Add(xs[rng.Intn(nSets)], 1)
		}
		b.GreaterEq("", row, 1)
	}
	return mustBuild(b)
}

// generalised assignment: min Σ c_ij·x_ij, each job to one agent, agent
// capacities on weights (may be infeasible).
func genGAP(rng *rand.Rand) *model.Model {
	b := model.NewBuilder("gap")
	na, nj := 2+rng.Intn(3), 4+rng.Intn(8)
	x := make([][]model.Var, na)
	obj := model.NewExpr(na * nj)
	cap := make([]model.Expr, na)
	for i := range x {
		x[i] = make([]model.Var, nj)
		for j := range x[i] {
			x[i][j] = b.Binary("")
			obj.Add(x[i][j], float64(5+rng.Intn(30)))
			cap[i].Add(x[i][j], float64(3+rng.Intn(15)))
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
		b.LessEq("", cap[i], float64(10+rng.Intn(10*nj/na+10)))
	}
	return mustBuild(b)
}

// time-indexed single machine: x_jt = 1 when job j starts at t; one job at a
// time; min Σ w_j·(t + p_j)·x_jt (weighted completion time), with release
// dates.
func genSchedule(rng *rand.Rand) *model.Model {
	b := model.NewBuilder("sched")
	n := 3 + rng.Intn(3)
	p := make([]int, n)
	rel := make([]int, n)
	T := 0
	for j := range p {
		p[j] = 1 + rng.Intn(4)
		rel[j] = rng.Intn(4)
		T += p[j]
	}
	T += 4
	x := make([][]model.Var, n)
	obj := model.NewExpr(n * T)
	for j := range x {
		x[j] = make([]model.Var, T)
		w := float64(1 + rng.Intn(5))
		once := model.NewExpr(T)
		for t := 0; t+p[j] <= T; t++ {
			x[j][t] = b.Binary("")
			if t < rel[j] {
				b.SetBounds(x[j][t], 0, 0)
			}
			obj.Add(x[j][t], w*float64(t+p[j]))
			once.Add(x[j][t], 1)
		}
		b.Equal("", once, 1)
	}
	b.Minimize(obj)
	for s := 0; s < T; s++ {
		row := model.NewExpr(n)
		for j := range x {
			for t := s - p[j] + 1; t <= s; t++ {
				if t >= 0 && t+p[j] <= T {
					row.Add(x[j][t], 1)
				}
			}
		}
		if len(row.Terms) > 1 {
			b.LessEq("", row, 1)
		}
	}
	return mustBuild(b)
}

// general integers with a few continuous columns and mixed row senses.
func genGeneral(rng *rand.Rand) *model.Model {
	b := model.NewBuilder("general")
	n := 3 + rng.Intn(8)
	xs := make([]model.Var, n)
	obj := model.NewExpr(n)
	for j := range xs {
		if rng.Intn(4) == 0 {
			xs[j] = b.Continuous("", 0, float64(5+rng.Intn(10)))
		} else {
			xs[j] = b.Integer("", float64(-rng.Intn(3)), float64(3+rng.Intn(10)))
		}
		obj.Add(xs[j], float64(rng.Intn(21)-10)+0.5*float64(rng.Intn(2)))
	}
	if rng.Intn(2) == 0 {
		b.Minimize(obj)
	} else {
		b.Maximize(obj)
	}
	nr := 2 + rng.Intn(6)
	for i := 0; i < nr; i++ {
		row := model.NewExpr(n)
		for j := range xs {
			if rng.Float64() < 0.6 {
				row.Add(xs[j], float64(rng.Intn(15)-5)+0.25*float64(rng.Intn(4)))
			}
		}
		if len(row.Terms) == 0 {
			row.Add(xs[0], 1)
		}
		rhs := float64(rng.Intn(40) - 5)
		switch rng.Intn(5) {
		case 0:
			b.GreaterEq("", row, -rhs)
		case 1:
			b.AddConstr("", row, rhs-float64(rng.Intn(20)), rhs)
		default:
			b.LessEq("", row, rhs)
		}
	}
	return mustBuild(b)
}

// lot sizing: production x_t ≤ U·y_t with setups y_t, stock s_t, balance
// s_{t−1} + x_t − s_t = d_t, an unbounded-above integer batch count on one
// period; min setup + holding + production cost. Exercises variable upper
// bounds (aggregated MIR).
func genLotSizing(rng *rand.Rand) *model.Model {
	b := model.NewBuilder("lotsizing")
	T := 4 + rng.Intn(6)
	obj := model.NewExpr(3 * T)
	var prev model.Var
	for t := 0; t < T; t++ {
		x := b.Continuous("", 0, math.Inf(1))
		y := b.Binary("")
		s := b.Continuous("", 0, math.Inf(1))
		obj.Add(y, float64(20+rng.Intn(60)))
		obj.Add(s, float64(1+rng.Intn(3))+0.5)
		obj.Add(x, float64(rng.Intn(3)))
		U := float64(10 + rng.Intn(30))
		b.LessEq("", *(&model.Expr{}).Add(x, 1).Add(y, -U), 0)
		bal := model.NewExpr(3)
		if t > 0 {
			bal.Add(prev, 1)
		}
		bal.Add(x, 1).Add(s, -1)
		b.Equal("", bal, float64(3+rng.Intn(15)))
		prev = s
	}
	if rng.Intn(2) == 0 {
		// Batches: the last stock is shipped in integer lots of 4.
		k := b.Integer("", 0, math.Inf(1))
		obj.Add(k, 1)
		b.GreaterEq("", *(&model.Expr{}).Add(k, 4).Add(prev, -1), 0)
	}
	b.Minimize(obj)
	return mustBuild(b)
}

// time-indexed single machine with cumulative-start columns, as the MRCP
// model builds them: x_kτ (task k starts at τ; some starts ruled out by
// their bounds), cost-free continuous F_kτ = F_k,τ−1 + x_kτ, "started by
// a deadline" F_k,d ≥ 1, capacity per instant, precedence
// F_bτ ≤ F_a,τ−p_a; min weighted completion. Exercises presolve's slack
// columns and fixings in the same pass.
// (A deadline before the last start is what made a slack column end alone
// in its row in an MRCP model; see presolve's TestSlackAloneInItsRow.)
func genCumulative(rng *rand.Rand) *model.Model {
	b := model.NewBuilder("cumulative")
	K := 2 + rng.Intn(3)
	p := make([]int, K)
	H := 1 + rng.Intn(3)
	for k := range p {
		p[k] = 1 + rng.Intn(3)
		H += p[k]
	}
	x := make([][]model.Var, K)
	F := make([][]model.Var, K)
	obj := model.NewExpr(0)
	for k := 0; k < K; k++ {
		last := H - p[k]
		w := float64(1 + rng.Intn(4))
		for tau := 0; tau <= last; tau++ {
			up := 1.0
			if rng.Intn(5) == 0 {
				up = 0 // outside the task's window
			}
			x[k] = append(x[k], b.Integer("", 0, up))
			F[k] = append(F[k], b.Continuous("", 0, 1))
			obj.Add(x[k][tau], w*float64(tau+p[k]))
			def := *(&model.Expr{}).Add(F[k][tau], 1).Add(x[k][tau], -1)
			if tau > 0 {
				def.Add(F[k][tau-1], -1)
			}
			b.Equal("", def, 0)
		}
		// Started by a deadline that may fall before the last start: the
		// later F are then fixed one presolve pass after another.
		b.GreaterEq("", *(&model.Expr{}).Add(F[k][max(0, last-rng.Intn(4))], 1), 1)
	}
	for t := 0; t < H; t++ {
		row := model.NewExpr(0)
		for k := 0; k < K; k++ {
			for tau := max(0, t-p[k]+1); tau <= t && tau < len(x[k]); tau++ {
				row.Add(x[k][tau], 1)
			}
		}
		if len(row.Terms) > 0 {
			b.LessEq("", row, 1)
		}
	}
	if a, c := rng.Intn(K), rng.Intn(K); a != c {
		for tau := range F[c] {
			row := *(&model.Expr{}).Add(F[c][tau], 1)
			if tau-p[a] >= 0 && tau-p[a] < len(F[a]) {
				row.Add(F[a][tau-p[a]], -1)
			}
			b.LessEq("", row, 0)
		}
	}
	b.Minimize(obj)
	return mustBuild(b)
}

func mustBuild(b *model.Builder) *model.Model {
	m, err := b.Build()
	if err != nil {
		panic(err)
	}
	return m
}

// TestCrossCheckHiGHS compares native optima with HiGHS's on 300 seeded
// random MILPs of seven families (238 under -short).
func TestCrossCheckHiGHS(t *testing.T) {
	hs, err := solve.Lookup("highs")
	if err != nil {
		t.Skip("highs backend not registered")
	}
	probe := genKnapsack(rand.New(rand.NewSource(0)))
	if _, err := hs.Solve(context.Background(), probe, solve.Options{}); err != nil {
		t.Skipf("highs does not load: %v", err)
	}
	gens := []struct {
		name string
		gen  func(*rand.Rand) *model.Model
	}{{"knapsack", genKnapsack}, {"setcover", genSetCover}, {"gap", genGAP}, {"sched", genSchedule}, {"general", genGeneral}, {"lotsizing", genLotSizing}, {"cumulative", genCumulative}}
	perFamily := 50
	if testing.Short() {
		perFamily = 34
	}
	opts := solve.Options{RelGap: crossGap, AbsGap: crossGap, TimeLimit: 20 * time.Second}
	var tNative, tHighs time.Duration
	for _, g := range gens {
		for seed := 0; seed < perFamily; seed++ {
			m := g.gen(rand.New(rand.NewSource(int64(1000*len(g.name) + seed))))
			name := fmt.Sprintf("%s/%d", g.name, seed)
			want, err := hs.Solve(context.Background(), m, opts)
			if err != nil {
				t.Fatalf("%s: highs: %v", name, err)
			}
			got, err := Solve(context.Background(), m, opts)
			if err != nil {
				t.Fatalf("%s: native: %v", name, err)
			}
			tNative += got.Wall
			tHighs += want.Wall
			if got.Status != want.Status {
				t.Errorf("%s: status %v, highs %v (%s)", name, got.Status, want.Status, got.Message)
				continue
			}
			if got.Status != solve.Optimal {
				continue
			}
			if d := math.Abs(got.Objective - want.Objective); d > crossTol*math.Max(1, math.Abs(want.Objective)) {
				t.Errorf("%s: objective %.10g, highs %.10g", name, got.Objective, want.Objective)
			}
			if ok, why := within(m, got.X); !ok {
				t.Errorf("%s: native point infeasible: %s", name, why)
			}
		}
	}
	t.Logf("total wall: native %v, highs %v", tNative, tHighs)
}
