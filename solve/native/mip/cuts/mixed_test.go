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

// fixedCharge is a small single-item lot-sizing model: production x_t ≤ U·y_t
// (binary setup y_t), stock s_t, balance s_{t−1} + x_t − s_t = d_t; minimise
// setup plus holding cost.
func fixedCharge(rng *rand.Rand) *model.Model {
	b := model.NewBuilder("lotsizing")
	T := 3 + rng.Intn(3)
	obj := model.NewExpr(3 * T)
	var prev model.Var
	for t := 0; t < T; t++ {
		x := b.Continuous("", 0, math.Inf(1))
		y := b.Binary("")
		s := b.Continuous("", 0, math.Inf(1))
		obj.Add(y, float64(20+rng.Intn(40)))
		obj.Add(s, float64(1+rng.Intn(3)))
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
	b.Minimize(obj)
	m, err := b.Build()
	if err != nil {
		panic(err)
	}
	return m
}

// maxOverContinuous is the largest activity of cut c over the points of m
// whose integer columns take the values of y (continuous columns free in
// their bounds); ok is false when that slice is empty.
func maxOverContinuous(t *testing.T, m *model.Model, y []float64, c Cut) (float64, bool) {
	f := m.Clone()
	for j := range f.Obj {
		f.Obj[j] = 0
		if f.ColType[j].IsInteger() {
			f.ColLower[j], f.ColUpper[j] = y[j], y[j]
		}
	}
	for k, j := range c.Ind {
		f.Obj[j] = c.Coef[k]
	}
	f.Sense = model.Maximize
	lp, err := simplex.New(f, simplex.Options{})
	if err != nil {
		t.Fatal(err)
	}
	switch st := lp.Solve(context.Background()); st {
	case solve.Optimal:
		return lp.Objective(), true
	case solve.Infeasible:
		return 0, false
	case solve.Unbounded:
		return math.Inf(1), true
	default:
		t.Fatalf("LP status %v", st)
	}
	return 0, false
}

// TestMIRValidMixed: on 60 seeded lot-sizing models, every aggregated c-MIR
// cut separated from the LP optimum holds for every setup vector, over all
// continuous completions (checked by maximising the cut's activity by LP).
func TestMIRValidMixed(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	total := 0
	for c := 0; c < 60; c++ {
		m := fixedCharge(rng)
		p := NewProblem(m)
		vub, has := FindVUBs(p)
		lp, err := simplex.New(m, simplex.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if lp.Solve(context.Background()) != solve.Optimal {
			continue
		}
		x := lp.X()
		cs := MIR(p, x, vub, has)
		total += len(cs)
		var ints []int
		for j, typ := range m.ColType {
			if typ.IsInteger() {
				ints = append(ints, j)
			}
		}
		y := make([]float64, m.NumCols())
		for mask := 0; mask < 1<<len(ints); mask++ {
			for q, j := range ints {
				y[j] = float64(mask >> q & 1)
			}
			for _, cut := range cs {
				if v, ok := maxOverContinuous(t, m, y, cut); ok && v > cut.Rhs+1e-6*math.Max(1, math.Abs(cut.Rhs)) {
					t.Fatalf("case %d: MIR cut %+v exceeds its rhs (%v) at setups %v", c, cut, v, y)
				}
			}
		}
	}
	if total < 30 {
		t.Fatalf("only %d MIR cuts: too few to test", total)
	}
	t.Logf("%d MIR cuts checked", total)
}
