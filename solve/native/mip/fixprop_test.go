package mip

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

// rootSearch builds a search on m and solves its root LP.
func rootSearch(t *testing.T, m *model.Model) (*search, []float64) {
	t.Helper()
	s, err := newSearch(context.Background(), m, solve.Options{Seed: 1}, config{}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if st := s.lp.Solve(context.Background()); st != solve.Optimal {
		t.Fatalf("root LP %v", st)
	}
	return s, s.lp.X()
}

// TestFixAndPropagateGAP: on the generalised assignment instance the
// heuristic turns the fractional root point into a feasible assignment.
func TestFixAndPropagateGAP(t *testing.T) {
	m := hardish()
	s, x := rootSearch(t, m)
	if len(s.fractional(x)) == 0 {
		t.Fatal("root LP integral: the test needs a fractional point")
	}
	if !s.fixAndPropagate(x) {
		t.Fatal("no point found")
	}
	if ok, why := check(m, append([]float64(nil), s.incumbent...)); !ok {
		t.Fatalf("incumbent infeasible: %s", why)
	}
}

// TestFixAndPropagateMakespan: three jobs (lengths 3, 2, 2) on two machines,
// minimise the makespan L ≥ load of each machine. The integers come from
// fixing and propagation, the continuous L from the final LP: the point's
// objective is its largest machine load.
func TestFixAndPropagateMakespan(t *testing.T) {
	b := model.NewBuilder("makespan")
	p := []float64{3, 2, 2}
	w := make([][2]model.Var, len(p))
	load := [2]model.Expr{model.NewExpr(4), model.NewExpr(4)}
	L := b.Continuous("L", 0, math.Inf(1))
	for i := range p {
		one := model.NewExpr(2)
		for k := 0; k < 2; k++ {
			w[i][k] = b.Binary("")
			one.Add(w[i][k], 1)
			load[k].Add(w[i][k], p[i])
		}
		b.Equal("", one, 1)
	}
	for k := 0; k < 2; k++ {
		load[k].Add(L, -1)
		b.LessEq("", load[k], 0)
	}
	obj := model.NewExpr(1)
	obj.Add(L, 1)
	b.Minimize(obj)
	m := mustBuild(b)
	s, x := rootSearch(t, m)
	if !s.fixAndPropagate(x) {
		t.Fatal("no point found")
	}
	y := s.incumbent
	var ld [2]float64
	for i := range p {
		for k := 0; k < 2; k++ {
			ld[k] += p[i] * y[w[i][k].Index()]
		}
	}
	if got, want := s.incObj, math.Max(ld[0], ld[1]); math.Abs(got-want) > 1e-9 {
		t.Fatalf("objective %v, want the largest load %v (loads %v)", got, want, ld)
	}
}
