package highs_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/highs"
	"github.com/mrbound/mrbound/solve/solvertest"
)

// randomModel builds a small feasible model from seed: columns with mixed
// bound kinds (integer in [−3, 3] when integer is true), rows of every kind
// around the activity of a known feasible point x0, a random sense and offset.
func randomModel(seed uint64, integer bool) *model.Model {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	b := model.NewBuilder(fmt.Sprintf("random_%d", seed))
	n, r := 2+rng.IntN(4), 1+rng.IntN(4)
	vars := make([]model.Var, n)
	x0 := make([]float64, n)
	inf := math.Inf(1)
	for j := range vars {
		name := fmt.Sprintf("x%d", j)
		if integer {
			vars[j] = b.Integer(name, -3, 3)
			x0[j] = float64(rng.IntN(7) - 3)
			continue
		}
		switch rng.IntN(4) {
		case 0:
			vars[j] = b.Continuous(name, 0, 10)
			x0[j] = 10 * rng.Float64()
		case 1:
			vars[j] = b.Continuous(name, -5, 5)
			x0[j] = 10*rng.Float64() - 5
		case 2:
			vars[j] = b.Continuous(name, -inf, inf)
			x0[j] = 10*rng.Float64() - 5
		default:
			vars[j] = b.Continuous(name, 0, inf)
			x0[j] = 5 * rng.Float64()
		}
	}
	for i := 0; i < r; i++ {
		e := model.NewExpr(n)
		act := 0.0
		for j, v := range vars {
			if rng.IntN(3) == 0 {
				continue
			}
			c := float64(rng.IntN(11) - 5)
			e.Add(v, c)
			act += c * x0[j]
		}
		slack := func() float64 { return math.Round(3 * rng.Float64()) }
		switch rng.IntN(4) {
		case 0:
			b.LessEq(fmt.Sprintf("r%d", i), e, math.Ceil(act)+slack())
		case 1:
			b.GreaterEq(fmt.Sprintf("r%d", i), e, math.Floor(act)-slack())
		case 2:
			b.AddConstr(fmt.Sprintf("r%d", i), e, math.Floor(act)-slack(), math.Ceil(act)+slack())
		default:
			b.Equal(fmt.Sprintf("r%d", i), e, act)
		}
	}
	obj := model.NewExpr(n)
	for _, v := range vars {
		obj.Add(v, float64(rng.IntN(11)-5))
	}
	obj.AddConst(float64(rng.IntN(21) - 10))
	if rng.IntN(2) == 0 {
		b.Maximize(obj)
	} else {
		b.Minimize(obj)
	}
	m, err := b.Build()
	if err != nil {
		panic(err)
	}
	return m
}

// TestRandomLPs solves seeded random LPs: each is feasible by construction,
// so the answer is optimal (point, duals and basis checked by the suite's
// checkers, and the dual objective equal to the primal one) or unbounded
// (with a checked ray).
func TestRandomLPs(t *testing.T) {
	requireHiGHS(t)
	s := highs.New("")
	for seed := uint64(1); seed <= 40; seed++ {
		m := randomModel(seed, false)
		t.Run(m.Name, func(t *testing.T) {
			res, err := s.Solve(context.Background(), m, solve.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%v, objective %v", res.Status, res.Objective)
			st := solvertest.Adapt(t)
			solvertest.CheckResult(st, m, res)
			switch res.Status {
			case solve.Optimal:
				solvertest.CheckDuals(st, m, res)
				solvertest.CheckBasis(st, m, res)
				if d := dualObjective(m, res); math.Abs(d-res.Objective) > 1e-6*math.Max(1, math.Abs(d)) {
					t.Errorf("dual objective %v, primal %v", d, res.Objective)
				}
			case solve.Unbounded:
				if res.Ray == nil {
					t.Error("unbounded without a ray")
				} else {
					solvertest.CheckRay(st, m, res.Ray)
				}
			default:
				t.Errorf("status %v for a feasible LP", res.Status)
			}
		})
	}
}

// TestRandomInfeasibleLPs makes random LPs infeasible (row 0 pushed above its
// own upper side by a contradicting copy) and checks HiGHS's Farkas
// certificates, for both senses.
func TestRandomInfeasibleLPs(t *testing.T) {
	requireHiGHS(t)
	s := highs.New("")
	n := 0
	for seed := uint64(1); seed <= 60; seed++ {
		m := randomModel(seed, false)
		m.Name += "_infeasible"
		// Row 0 asks for more than its own contradicting twin allows: add
		// the twin as a new row with the same coefficients.
		csr := m.RowMatrix()
		if csr.RowStart[1] == csr.RowStart[0] || math.IsInf(m.RowUpper[0], 1) {
			continue
		}
		b := model.NewBuilder(m.Name)
		vars := make([]model.Var, m.NumCols())
		for j := range vars {
			vars[j] = b.AddVar(model.Column{Lower: m.ColLower[j], Upper: m.ColUpper[j], Obj: m.Obj[j], Type: m.ColType[j]})
		}
		for i := 0; i < m.NumRows(); i++ {
			e := model.NewExpr(0)
			for k := csr.RowStart[i]; k < csr.RowStart[i+1]; k++ {
				e.Add(vars[csr.ColIndex[k]], csr.Value[k])
			}
			b.AddConstr("", e, m.RowLower[i], m.RowUpper[i])
			if i == 0 {
				b.GreaterEq("", e, m.RowUpper[0]+1)
			}
		}
		b.SetObjective(m.Sense, model.Expr{})
		inf, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		copy(inf.Obj, m.Obj)
		n++
		t.Run(m.Name, func(t *testing.T) {
			res, err := s.Solve(context.Background(), inf, solve.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != solve.Infeasible {
				t.Fatalf("status %v", res.Status)
			}
			if res.Ray == nil {
				t.Fatal("no dual ray")
			}
			solvertest.CheckDualRay(solvertest.Adapt(t), inf, res.Ray)
		})
	}
	if n < 20 {
		t.Errorf("only %d infeasible models made", n)
	}
}

// dualObjective is offset + Σ y_i·(row side the dual prices) + Σ d_j·(column
// bound the reduced cost prices).
func dualObjective(m *model.Model, res solve.Result) float64 {
	s := 1.0
	if m.Sense == model.Maximize {
		s = -1
	}
	side := func(v, lo, up float64) float64 {
		switch {
		case s*v > 0:
			return v * lo
		case s*v < 0:
			return v * up
		}
		return 0
	}
	d := m.ObjOffset
	for i, y := range res.RowDuals {
		d += side(y, m.RowLower[i], m.RowUpper[i])
	}
	for j, rc := range res.ReducedCosts {
		d += side(rc, m.ColLower[j], m.ColUpper[j])
	}
	return d
}

// TestRandomMIPs compares HiGHS with complete enumeration on seeded random
// pure-integer models (feasible by construction).
func TestRandomMIPs(t *testing.T) {
	requireHiGHS(t)
	s := highs.New("")
	for seed := uint64(1); seed <= 25; seed++ {
		m := randomModel(seed, true)
		t.Run(m.Name, func(t *testing.T) {
			want, _ := solvertest.Enumerate(m)
			res, err := s.Solve(context.Background(), m, solve.Options{})
			if err != nil {
				t.Fatal(err)
			}
			solvertest.CheckResult(solvertest.Adapt(t), m, res)
			if res.Status != solve.Optimal || math.Abs(res.Objective-want) > 1e-6 {
				t.Errorf("%v objective %v, enumeration %v", res.Status, res.Objective, want)
			}
		})
	}
}
