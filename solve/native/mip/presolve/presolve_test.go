package presolve

import (
	"math"
	"math/rand"
	"testing"

	"github.com/mrbound/mrbound/model"
)

// bruteForce enumerates the integer points of a pure integer model with finite
// bounds and returns the best objective (minimisation) and whether any point
// is feasible.
func bruteForce(m *model.Model) (float64, bool) {
	n := m.NumCols()
	x := make([]float64, n)
	best, found := math.Inf(1), false
	sign := 1.0
	if m.Sense == model.Maximize {
		sign = -1
	}
	var rec func(j int)
	rec = func(j int) {
		if j == n {
			ev := m.Evaluate(x)
			if ev.Feasible(1e-9, true) && sign*ev.Objective < best {
				best, found = sign*ev.Objective, true
			}
			return
		}
		for v := m.ColLower[j]; v <= m.ColUpper[j]; v++ {
			x[j] = v
			rec(j + 1)
		}
	}
	rec(0)
	return best, found
}

func randomIntModel(rng *rand.Rand) *model.Model {
	b := model.NewBuilder("rand")
	n := 2 + rng.Intn(4)
	vars := make([]model.Var, n)
	obj := model.NewExpr(n)
	for j := range vars {
		if rng.Intn(2) == 0 {
			vars[j] = b.Binary("")
		} else {
			lo := float64(rng.Intn(2))
			vars[j] = b.Integer("", lo, lo+float64(rng.Intn(4)))
		}
		obj.Add(vars[j], float64(rng.Intn(11)-5))
	}
	if rng.Intn(2) == 0 {
		b.Maximize(obj)
	} else {
		b.Minimize(obj)
	}
	nr := 1 + rng.Intn(4)
	for i := 0; i < nr; i++ {
		e := model.NewExpr(n)
		for j := range vars {
			if rng.Intn(3) > 0 {
				e.Add(vars[j], float64(rng.Intn(9)-3))
			}
		}
		if len(e.Terms) == 0 {
			e.Add(vars[rng.Intn(n)], 1)
		}
		rhs := float64(rng.Intn(10) - 2)
		switch rng.Intn(4) {
		case 0:
			b.GreaterEq("", e, rhs)
		case 1:
			b.Equal("", e, rhs)
		default:
			b.LessEq("", e, rhs)
		}
	}
	m, err := b.Build()
	if err != nil {
		panic(err)
	}
	return m
}

// TestRandomAgainstBruteForce checks on 500 seeded random pure integer models
// that presolve keeps the integer optimum and that postsolved optima are
// feasible for the original model.
func TestRandomAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for c := 0; c < 500; c++ {
		m := randomIntModel(rng)
		want, wantOK := bruteForce(m)
		res := Run(m)
		if res.Status == Infeasible {
			if wantOK {
				t.Fatalf("case %d: presolve says infeasible (%s), brute force finds %v", c, res.Reason, want)
			}
			continue
		}
		if err := res.Model.Validate(); err != nil {
			t.Fatalf("case %d: reduced model invalid: %v", c, err)
		}
		got, gotOK := bruteForce(res.Model)
		if gotOK != wantOK || (wantOK && math.Abs(got-want) > 1e-9) {
			t.Fatalf("case %d: reduced optimum %v (%v), original %v (%v)", c, got, gotOK, want, wantOK)
		}
		if gotOK {
			// Postsolve the reduced optimum found by brute force.
			xr := argBest(res.Model)
			x := res.Post.Primal(xr)
			ev := m.Evaluate(x)
			sign := 1.0
			if m.Sense == model.Maximize {
				sign = -1
			}
			if !ev.Feasible(1e-9, true) || math.Abs(sign*ev.Objective-want) > 1e-9 {
				t.Fatalf("case %d: postsolved point infeasible or wrong objective %v (want %v)", c, ev.Objective, want)
			}
		}
	}
}

func argBest(m *model.Model) []float64 {
	n := m.NumCols()
	x := make([]float64, n)
	var best []float64
	bestObj := math.Inf(1)
	sign := 1.0
	if m.Sense == model.Maximize {
		sign = -1
	}
	var rec func(j int)
	rec = func(j int) {
		if j == n {
			ev := m.Evaluate(x)
			if ev.Feasible(1e-9, true) && sign*ev.Objective < bestObj {
				bestObj, best = sign*ev.Objective, append(make([]float64, 0, n), x...)
			}
			return
		}
		for v := m.ColLower[j]; v <= m.ColUpper[j]; v++ {
			x[j] = v
			rec(j + 1)
		}
	}
	rec(0)
	return best
}

// TestPresolveEmpties: singleton rows fix every column, after which all rows
// become empty; the reduced model has no rows or columns and the postsolved
// point is the optimum.
//
//	min x + 2y + 3z  s.t.  x ≥ 1 (singleton), y ≤ 0 (singleton), x + y + z ≥ 1,
//	x + z ≤ 1, x, y, z binary.   Optimum 1 at (1, 0, 0).
func TestPresolveEmpties(t *testing.T) {
	b := model.NewBuilder("empties")
	x, y, z := b.Binary("x"), b.Binary("y"), b.Binary("z")
	b.Minimize(*(&model.Expr{}).Add(x, 1).Add(y, 2).Add(z, 3))
	b.GreaterEq("sx", model.Sum(x), 1)
	b.LessEq("sy", model.Sum(y), 0)
	b.GreaterEq("cover", model.Sum(x, y, z), 1)
	b.LessEq("pack", model.Sum(x, z), 1)
	_, res := presolved(t, b)
	if res.Model.NumCols() != 0 || res.Model.NumRows() != 0 {
		t.Fatalf("reduced model has %d cols, %d rows; want empty (%v)", res.Model.NumCols(), res.Model.NumRows(), res.Stats)
	}
	if res.Model.ObjOffset != 1 {
		t.Fatalf("offset %v, want 1", res.Model.ObjOffset)
	}
	xs := res.Post.Primal(nil)
	if xs[0] != 1 || xs[1] != 0 || xs[2] != 0 {
		t.Fatalf("postsolved %v, want [1 0 0]", xs)
	}
}

// TestCoefficientTightening: 3x + 2y ≤ 4 over binaries tightens to
// x + y ≤ 1 plus ... (3x+2y≤4 → coefficients lowered so that the LP relaxation
// is the convex hull): the point (1, 0.5) must be cut off.
func TestCoefficientTightening(t *testing.T) {
	b := model.NewBuilder("coef")
	x, y := b.Binary("x"), b.Binary("y")
	b.Maximize(model.Sum(x, y))
	b.LessEq("r", *(&model.Expr{}).Add(x, 3).Add(y, 2), 4)
	m, _ := b.Build()
	res := Run(m)
	r := res.Model
	if r.NumRows() != 1 {
		t.Fatalf("rows %d", r.NumRows())
	}
	// Activity of (1, 0.5) in the reduced row must exceed the upper bound.
	act := 0.0
	for j := 0; j < 2; j++ {
		for k := r.ColStart[j]; k < r.ColStart[j+1]; k++ {
			act += r.Value[k] * []float64{1, 0.5}[j]
		}
	}
	if act <= r.RowUpper[0]+1e-9 {
		t.Fatalf("(1, 0.5) not cut off: activity %v ≤ %v", act, r.RowUpper[0])
	}
}

func TestInfeasibleDetected(t *testing.T) {
	b := model.NewBuilder("inf")
	x, y := b.Binary("x"), b.Binary("y")
	b.GreaterEq("r", model.Sum(x, y), 3)
	m, _ := b.Build()
	if res := Run(m); res.Status != Infeasible {
		t.Fatalf("status %v, want infeasible", res.Status)
	}
}

// TestSlackAndDualFixing: min −x − y s.t. x + 2y + s = 4 and x + y + q ≤ 3,
// with s, q ≥ 0 continuous without cost and x, y integer in [0, 3]. q only
// makes its row harder, so dual fixing sets it to 0; s is a slack column
// singleton, so its row becomes x + 2y ≤ 4. The reduced model is pure
// integer; the postsolved optimum (2, 1, s = 0, q = 0) or any other optimum
// must satisfy the original rows with s computed back.
func TestSlackAndDualFixing(t *testing.T) {
	b := model.NewBuilder("slack")
	x, y := b.Integer("x", 0, 3), b.Integer("y", 0, 3)
	s, q := b.Continuous("s", 0, math.Inf(1)), b.Continuous("q", 0, math.Inf(1))
	b.Minimize(*(&model.Expr{}).Add(x, -1).Add(y, -1))
	b.Equal("eq", *(&model.Expr{}).Add(x, 1).Add(y, 2).Add(s, 1), 4)
	b.LessEq("le", *(&model.Expr{}).Add(x, 1).Add(y, 1).Add(q, 1), 3)
	res, xo, ev := postsolvedBest(t, b)
	if res.Stats.SlackCols != 1 || res.Stats.DualFixed != 1 {
		t.Fatalf("stats %v: want one slack column and one dual fixing", res.Stats)
	}
	for j, ty := range res.Model.ColType {
		if !ty.IsInteger() {
			t.Fatalf("continuous column %s kept", res.Model.ColName(j))
		}
	}
	if !ev.Feasible(1e-9, true) || ev.Objective != -3 {
		t.Fatalf("postsolved %v: feasible %v objective %v, want a feasible optimum −3", xo, ev.Feasible(1e-9, true), ev.Objective)
	}
}

// TestSlackAloneInItsRow: a slack column whose row has lost every other
// column by the time it is removed (here x is fixed by its bounds in the same
// pass) must still be postsolved from the row, not read as fixed at 0. Found
// by a time-indexed MRCP subproblem whose incumbent failed the final check.
func TestSlackAloneInItsRow(t *testing.T) {
	b := model.NewBuilder("lone slack")
	x, y := b.Integer("x", 1, 1), b.Integer("y", 0, 3)
	v := b.Continuous("v", 0, 5)
	b.Minimize(*(&model.Expr{}).Add(y, 1))
	b.Equal("def", *(&model.Expr{}).Add(v, 1).Add(x, -1), 1)
	b.GreaterEq("cover", *(&model.Expr{}).Add(y, 1).Add(x, 1), 2)
	res, xo, ev := postsolvedBest(t, b)
	if res.Stats.SlackCols != 1 {
		t.Fatalf("stats %v: want v removed as a slack", res.Stats)
	}
	if !ev.Feasible(1e-9, true) || ev.Objective != 1 || xo[v.Index()] != 2 {
		t.Fatalf("postsolved %v: feasible %v objective %v, want v = 2 and the optimum 1", xo, ev.Feasible(1e-9, true), ev.Objective)
	}
}

// postsolvedBest builds b's model, presolves it, finds the reduced model's
// best integer point by enumeration and returns the presolve result, that
// point postsolved and its evaluation on the original model.
func postsolvedBest(t *testing.T, b *model.Builder) (Result, []float64, model.Evaluation) {
	t.Helper()
	m, res := presolved(t, b)
	xr := argBest(res.Model)
	if xr == nil {
		t.Fatal("reduced model infeasible")
	}
	xo := res.Post.Primal(xr)
	return res, xo, m.Evaluate(xo)
}

// presolved builds b's model and presolves it, which must reduce it.
func presolved(t *testing.T, b *model.Builder) (*model.Model, Result) {
	t.Helper()
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	res := Run(m)
	if res.Status != Reduced {
		t.Fatalf("status %v", res.Status)
	}
	return m, res
}
