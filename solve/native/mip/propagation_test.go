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
)

// coloring builds min Σ w_c over k identical colours: Σ_c x_vc = 1 per
// vertex, x_uc + x_vc ≤ w_c per edge and colour.
func coloring(n int, edges [][2]int, k int) *model.Model {
	b := model.NewBuilder("color")
	w := make([]model.Var, k)
	obj := model.NewExpr(k)
	for c := range w {
		w[c] = b.Binary(fmt.Sprintf("w%d", c))
		obj.Add(w[c], 1)
	}
	x := make([][]model.Var, n)
	for v := range x {
		x[v] = make([]model.Var, k)
		for c := range x[v] {
			x[v][c] = b.Binary(fmt.Sprintf("x%d_%d", v, c))
		}
		b.Equal("", model.Sum(x[v]...), 1)
	}
	for _, e := range edges {
		for c := 0; c < k; c++ {
			r := model.Sum(x[e[0]][c], x[e[1]][c])
			r.Add(w[c], -1)
			b.LessEq("", r, 0)
		}
	}
	b.Minimize(obj)
	return mustBuild(b)
}

// mycielski returns the edges of the Mycielskian of the graph (n, edges).
func mycielski(n int, edges [][2]int) (int, [][2]int) {
	out := append([][2]int(nil), edges...)
	for _, e := range edges {
		out = append(out, [2]int{e[0], n + e[1]}, [2]int{e[1], n + e[0]})
	}
	for v := 0; v < n; v++ {
		out = append(out, [2]int{n + v, 2 * n})
	}
	return 2*n + 1, out
}

// TestSymmetryColoring: colouring the Grötzsch graph (11 vertices,
// triangle-free, chromatic number 4) with 6 identical colours. Detection
// finds the 15 colour transpositions (and automorphisms of the graph); the
// lexicographic constraints must keep the optimum 4 and cut the tree.
func TestSymmetryColoring(t *testing.T) {
	n, edges := mycielski(5, [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}})
	m := coloring(n, edges, 6)
	var nodes [2]int64
	for q, cfg := range []config{{}, {noSym: true}} {
		s, err := newSearch(context.Background(), m, solve.Options{RelGap: 1e-9, AbsGap: 1e-9}, cfg, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		s.run()
		if s.status != solve.Optimal || s.incObj != 4 {
			t.Fatalf("config %+v: status %v objective %v, want optimal 4", cfg, s.status, s.incObj)
		}
		if q == 0 && (len(s.lex) < 15 || s.symFixed == 0) {
			t.Fatalf("%d lexicographic constraints, %d fixings; want at least the 15 colour swaps, used", len(s.lex), s.symFixed)
		}
		if q == 1 && len(s.lex) != 0 {
			t.Fatal("symmetry handled with noSym")
		}
		nodes[q] = s.nodes
	}
	t.Logf("nodes with symmetry handling %d, without %d", nodes[0], nodes[1])
	if nodes[0] >= nodes[1] {
		t.Fatalf("symmetry handling did not cut the tree: %d nodes against %d", nodes[0], nodes[1])
	}
}

// disjunctiveMachine is a one-machine model shaped like MIPLIB's noswot:
// integer batch counts X_i of products with fractional processing times
// p_i, continuous start times S_i, and big-M order binaries T_ik; maximise
// the weighted batches within the horizon H. Its LP relaxation is weak
// (fractional T relaxes both orders); the bounds of the S columns chain
// through the order rows once T is fixed.
func disjunctiveMachine(rng *rand.Rand) *model.Model {
	b := model.NewBuilder("disjunctive")
	n := 3 + rng.Intn(2)
	H := float64(10 + rng.Intn(5))
	const setup = 0.5
	M := H + setup
	x := make([]model.Var, n)
	st := make([]model.Var, n)
	p := make([]float64, n)
	obj := model.NewExpr(n)
	for i := range x {
		p[i] = 1.5 + 0.25*float64(rng.Intn(9))
		x[i] = b.Integer(fmt.Sprintf("X%d", i), 0, 10)
		st[i] = b.Continuous(fmt.Sprintf("S%d", i), 0, math.Inf(1))
		obj.Add(x[i], float64(2+rng.Intn(3)))
		b.LessEq("", *(&model.Expr{}).Add(st[i], 1).Add(x[i], p[i]), H)
	}
	for i := 0; i < n; i++ {
		for k := i + 1; k < n; k++ {
			tk := b.Binary(fmt.Sprintf("T%d%d", i, k))
			// T = 0: k before i; T = 1: i before k.
			b.LessEq("", *(&model.Expr{}).Add(st[k], 1).Add(x[k], p[k]).Add(st[i], -1).Add(tk, -M), -setup)
			b.LessEq("", *(&model.Expr{}).Add(st[i], 1).Add(x[i], p[i]).Add(st[k], -1).Add(tk, M), M-setup)
		}
	}
	b.Maximize(obj)
	return mustBuild(b)
}

// compareConfigs solves each model with cfg and with off, checks that the
// optima agree, and returns the node totals and the finished searches, one
// per model, with cfg and with off.
func compareConfigs(t *testing.T, models []*model.Model, cfg, off config) (with, without int64, searches, offSearches []*search) {
	t.Helper()
	for c, m := range models {
		var obj [2]float64
		for q, cf := range []config{cfg, off} {
			s, err := newSearch(context.Background(), m, solve.Options{RelGap: 1e-9, AbsGap: 1e-9, Seed: 1}, cf, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			s.run()
			if s.status != solve.Optimal {
				t.Fatalf("model %d config %+v: status %v", c, cf, s.status)
			}
			obj[q] = s.incObj
			if q == 0 {
				with += s.nodes
				searches = append(searches, s)
			} else {
				without += s.nodes
				offSearches = append(offSearches, s)
			}
		}
		if math.Abs(obj[0]-obj[1]) > 1e-9*math.Max(1, math.Abs(obj[1])) {
			t.Fatalf("model %d: optimum %v with %+v, %v with %+v", c, obj[0], cfg, obj[1], off)
		}
	}
	return with, without, searches, offSearches
}

func disjunctiveSet() []*model.Model {
	var ms []*model.Model
	for seed := int64(1); seed <= 8; seed++ {
		ms = append(ms, disjunctiveMachine(rand.New(rand.NewSource(seed))))
	}
	return ms
}

// TestNodeProofs: on 8 seeded disjunctive one-machine models the stored
// Farkas and cutoff proofs must prune nodes before their LP and, over the
// set, not cost nodes; the optima must not move.
func TestNodeProofs(t *testing.T) {
	with, without, ss, _ := compareConfigs(t, disjunctiveSet(), config{}, config{noProofs: true})
	var added, pruned int64
	for _, s := range ss {
		added += s.proofs.added
		pruned += s.proofs.pruned
	}
	t.Logf("nodes with proofs %d, without %d; %d proofs stored, %d nodes pruned by them", with, without, added, pruned)
	if added == 0 || pruned == 0 {
		t.Fatal("no proof stored or used")
	}
	if with > without {
		t.Fatalf("proofs cost nodes: %d against %d", with, without)
	}
}
