package cuts

import (
	"context"
	"math"
	"math/rand"
	"testing"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/native/simplex"
)

// integerPoints enumerates the feasible points of a pure integer model with
// small finite bounds.
func integerPoints(m *model.Model) [][]float64 {
	n := m.NumCols()
	x := make([]float64, n)
	var out [][]float64
	var rec func(j int)
	rec = func(j int) {
		if j == n {
			if m.Evaluate(x).Feasible(1e-9, true) {
				out = append(out, append([]float64(nil), x...))
			}
			return
		}
		for v := m.ColLower[j]; v <= m.ColUpper[j]; v++ {
			x[j] = v
			rec(j + 1)
		}
	}
	rec(0)
	return out
}

func randomModel(rng *rand.Rand) *model.Model {
	b := model.NewBuilder("rand")
	n := 3 + rng.Intn(5)
	vars := make([]model.Var, n)
	obj := model.NewExpr(n)
	for j := range vars {
		if rng.Intn(3) > 0 {
			vars[j] = b.Binary("")
		} else {
			vars[j] = b.Integer("", 0, float64(1+rng.Intn(3)))
		}
		obj.Add(vars[j], float64(rng.Intn(11)-3))
	}
	b.Maximize(obj)
	for i := 0; i < 1+rng.Intn(4); i++ {
		e := model.NewExpr(n)
		for j := range vars {
			if rng.Intn(3) > 0 {
				e.Add(vars[j], float64(rng.Intn(13)-4))
			}
		}
		if len(e.Terms) == 0 {
			e.Add(vars[0], 1)
		}
		if rng.Intn(4) == 0 {
			b.GreaterEq("", e, float64(rng.Intn(5)-4))
		} else {
			b.LessEq("", e, float64(2+rng.Intn(10)))
		}
	}
	m, err := b.Build()
	if err != nil {
		panic(err)
	}
	return m
}

// checkValid fails when cut c excludes a feasible integer point.
func checkValid(t *testing.T, what string, c Cut, pts [][]float64) {
	t.Helper()
	for _, p := range pts {
		if v := c.Violation(p); v > 1e-7 {
			t.Fatalf("%s cut %+v cuts off feasible point %v by %g", what, c, p, v)
		}
	}
}

// TestSeparatorsValid: on 400 seeded random pure integer models, every cover,
// clique, MIR and Gomory cut separated from the LP optimum (and covers, cliques
// and MIR also from a random fractional point) is satisfied by every feasible
// integer point, found by enumeration.
func TestSeparatorsValid(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	counts := map[string]int{}
	for c := 0; c < 400; c++ {
		m := randomModel(rng)
		pts := integerPoints(m)
		p := NewProblem(m)
		ct := NewCliqueTable(p)
		vub, has := FindVUBs(p)
		xs := [][]float64{}
		rnd := make([]float64, m.NumCols())
		for j := range rnd {
			rnd[j] = m.ColLower[j] + rng.Float64()*(m.ColUpper[j]-m.ColLower[j])
		}
		xs = append(xs, rnd)
		lp, err := simplex.New(m, simplex.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if lp.Solve(context.Background()) == solve.Optimal {
			xs = append(xs, lp.X())
			// Gomory cuts from every fractional basic integer column.
			x := lp.X()
			for pos := 0; pos < lp.NumRows(); pos++ {
				k := lp.BasicVar(pos)
				if k >= m.NumCols() || math.Abs(x[k]-math.Round(x[k])) < 1e-6 {
					continue
				}
				row := lp.TableauRow(pos, nil)
				tr := TableauRow{BasicValue: x[k]}
				ok := true
				for v, a := range row {
					if a == 0 || v == k {
						continue
					}
					switch lp.VarStatus(v) {
					case solve.AtLower, solve.NonbasicFixed:
						tr.AtUpper = append(tr.AtUpper, false)
					case solve.AtUpper:
						tr.AtUpper = append(tr.AtUpper, true)
					case solve.Basic:
						continue
					default:
						ok = false
					}
					tr.Ind = append(tr.Ind, v)
					tr.Alpha = append(tr.Alpha, a)
				}
				if !ok {
					continue
				}
				if cut, good := GMI(p, tr); good {
					counts["gmi"]++
					checkValid(t, "GMI", cut, pts)
					if cut.Violation(x) < 1e-6 {
						t.Fatalf("GMI cut %+v does not cut off the LP point %v", cut, x)
					}
				}
			}
		}
		for _, x := range xs {
			for _, cut := range Cover(p, x) {
				counts["cover"]++
				checkValid(t, "cover", cut, pts)
			}
			for _, cut := range ct.Separate(p, x) {
				counts["clique"]++
				checkValid(t, "clique", cut, pts)
			}
			for _, cut := range MIR(p, x, vub, has) {
				counts["mir"]++
				checkValid(t, "MIR", cut, pts)
			}
		}
	}
	for _, k := range []string{"gmi", "cover", "clique", "mir"} {
		if counts[k] < 20 {
			t.Errorf("only %d %s cuts separated: the test exercises too little", counts[k], k)
		}
	}
	t.Logf("cuts checked: %v", counts)
}

// TestCoverClosesKnapsack: max Σx s.t. 5x1+…+5x6 ≤ 12, x binary. The LP
// optimum is 2.4 (all x = 0.4); the extended cover Σx ≤ 2 is separated and is
// the IP optimum's bound.
func TestCoverClosesKnapsack(t *testing.T) {
	b := model.NewBuilder("knap")
	e := model.NewExpr(6)
	for j := 0; j < 6; j++ {
		e.Add(b.Binary(""), 5)
	}
	b.Maximize(model.Sum())
	b.LessEq("cap", e, 12)
	m, _ := b.Build()
	p := NewProblem(m)
	x := []float64{0.4, 0.4, 0.4, 0.4, 0.4, 0.4}
	cs := Cover(p, x)
	if len(cs) != 1 {
		t.Fatalf("%d cuts, want 1", len(cs))
	}
	c := cs[0]
	if len(c.Ind) != 6 || c.Rhs != 2 {
		t.Fatalf("cut %+v, want Σ_{all 6} x ≤ 2", c)
	}
}

// TestCliqueFromEdges: the pairwise rows x_i + x_j ≤ 1 of a complete graph on
// five nodes give, at x = 0.5, the clique cut Σx ≤ 1 over all five.
func TestCliqueFromEdges(t *testing.T) {
	b := model.NewBuilder("k5")
	v := make([]model.Var, 5)
	for i := range v {
		v[i] = b.Binary("")
	}
	for i := range v {
		for j := i + 1; j < len(v); j++ {
			b.LessEq("", model.Sum(v[i], v[j]), 1)
		}
	}
	m, _ := b.Build()
	p := NewProblem(m)
	ct := NewCliqueTable(p)
	cs := ct.Separate(p, []float64{0.5, 0.5, 0.5, 0.5, 0.5})
	if len(cs) == 0 {
		t.Fatal("no clique cut")
	}
	for _, c := range cs {
		if len(c.Ind) != 5 || c.Rhs != 1 {
			t.Fatalf("cut %+v, want Σ_{all 5} x ≤ 1", c)
		}
	}
}

// TestPoolFilters: duplicates (up to scaling) are rejected and a cut nearly
// parallel to a better one is not selected.
func TestPoolFilters(t *testing.T) {
	p := NewPool()
	a := Cut{Ind: []int{0, 1}, Coef: []float64{1, 1}, Rhs: 1}
	if p.Add(a) != 0 {
		t.Fatal("first cut not added")
	}
	if p.Add(Cut{Ind: []int{0, 1}, Coef: []float64{2, 2}, Rhs: 2}) != -1 {
		t.Fatal("scaled duplicate added")
	}
	k := p.Add(Cut{Ind: []int{0, 1}, Coef: []float64{1, 1.01}, Rhs: 1})
	o := p.Add(Cut{Ind: []int{1, 2}, Coef: []float64{1, 1}, Rhs: 1})
	sel := p.Select([]int{0, k, o}, nil, []float64{0.9, 0.9, 0.9}, 10)
	if len(sel) != 2 || sel[0] == sel[1] {
		t.Fatalf("selected %v, want two non-parallel cuts", sel)
	}
	for _, s := range sel {
		if s == 0 && contains(sel, k) {
			t.Fatalf("parallel cuts both selected: %v", sel)
		}
	}
}

func contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
