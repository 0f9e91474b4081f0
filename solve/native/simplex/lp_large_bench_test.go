package simplex

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/mrbound/mrbound/internal/cputime"
	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

// csrModel assembles a model from columns given as (rows, values) lists.
type colBuilder struct {
	mod *model.Model
}

func newColBuilder(m int, rowLo, rowUp []float64) *colBuilder {
	return &colBuilder{mod: &model.Model{Sense: model.Minimize, ColStart: []int{0}, RowLower: rowLo[:m], RowUpper: rowUp[:m]}}
}

func (c *colBuilder) add(obj, lo, up float64, rows []int, vals []float64) {
	mod := c.mod
	mod.Obj = append(mod.Obj, obj)
	mod.ColLower = append(mod.ColLower, lo)
	mod.ColUpper = append(mod.ColUpper, up)
	mod.ColType = append(mod.ColType, model.Continuous)
	mod.RowIndex = append(mod.RowIndex, rows...)
	mod.Value = append(mod.Value, vals...)
	mod.ColStart = append(mod.ColStart, len(mod.RowIndex))
}

// flowLP is a time-expanded production–distribution LP: F facilities over T
// periods, one flow-conservation row per (facility, period) meeting a
// demand, with bounded production, inventory to the next period and
// transport to three random neighbours. Its bases are nearly triangular and
// very sparse: the case hyper-sparse solves are for. Feasible by
// construction (every node can produce its own demand).
func flowLP(F, T int, seed int64) *model.Model {
	rng := rand.New(rand.NewSource(seed))
	m := F * T
	node := func(f, t int) int { return t*F + f }
	lo := make([]float64, m)
	up := make([]float64, m)
	for i := range lo {
		d := float64(1 + rng.Intn(20))
		lo[i], up[i] = d, d
	}
	c := newColBuilder(m, lo, up)
	nb := make([][3]int, F)
	for f := range nb {
		for k := range nb[f] {
			nb[f][k] = rng.Intn(F)
		}
	}
	base := make([]float64, F)
	for f := range base {
		base[f] = 5 + 10*rng.Float64()
	}
	for t := 0; t < T; t++ {
		for f := 0; f < F; f++ {
			i := node(f, t)
			// Production.
			c.add(base[f]*(0.8+0.4*rng.Float64()), 0, lo[i]*(1+2*rng.Float64()), []int{i}, []float64{1})
			// Inventory to the next period.
			if t+1 < T {
				c.add(0.1+0.4*rng.Float64(), 0, 200, []int{i, node(f, t+1)}, []float64{-1, 1})
			}
			for _, g := range nb[f] {
				switch k := node(g, t); {
				case k > i:
					c.add(0.5+3*rng.Float64(), 0, 50, []int{i, k}, []float64{-1, 1})
				case k < i:
					c.add(0.5+3*rng.Float64(), 0, 50, []int{k, i}, []float64{1, -1})
				}
			}
		}
	}
	return c.mod
}

// timeIndexedLP is the LP relaxation of a time-indexed parallel-machine
// scheduling model: J jobs with processing times 1..pmax, start-time
// variables x_jt ∈ [0, 1] over T periods, one row per job (Σ_t x_jt = 1) and
// one capacity row per period (jobs running at t ≤ M), minimising weighted
// completion time. J·T columns.
func timeIndexedLP(J, T, M, pmax int, seed int64) *model.Model {
	rng := rand.New(rand.NewSource(seed))
	m := J + T
	lo := make([]float64, m)
	up := make([]float64, m)
	for j := 0; j < J; j++ {
		lo[j], up[j] = 1, 1
	}
	for t := 0; t < T; t++ {
		lo[J+t], up[J+t] = negInf, float64(M)
	}
	c := newColBuilder(m, lo, up)
	var rows []int
	var vals []float64
	for j := 0; j < J; j++ {
		p := 1 + rng.Intn(pmax)
		w := float64(1 + rng.Intn(10))
		for s := 0; s+p <= T; s++ {
			rows, vals = append(rows[:0], j), append(vals[:0], 1)
			for t := s; t < s+p; t++ {
				rows, vals = append(rows, J+t), append(vals, 1)
			}
			c.add(w*float64(s+p), 0, 1, rows, vals)
		}
	}
	return c.mod
}

// BenchmarkLargeSparse solves large generated LPs (cold) and reports CPU
// time, iterations and CPU µs per iteration.
func BenchmarkLargeSparse(b *testing.B) {
	cases := []struct {
		name string
		mod  *model.Model
	}{
		{"flow-60x150", flowLP(60, 150, 1)},
		{"timeidx-300x180", timeIndexedLP(300, 180, 10, 8, 1)},
		{"timeidx-300x180-seed2", timeIndexedLP(300, 180, 10, 8, 2)},
		{"flow-60x150-seed2", flowLP(60, 150, 2)},
	}
	for _, c := range cases {
		b.Run(fmt.Sprintf("%s-%dx%d", c.name, c.mod.NumRows(), c.mod.NumCols()), func(b *testing.B) {
			var iters int64
			cpu0 := cputime.Now()
			for i := 0; i < b.N; i++ {
				s, err := New(c.mod, Options{})
				if err != nil {
					b.Fatal(err)
				}
				if st := s.Solve(context.Background()); st != solve.Optimal {
					b.Fatalf("status %v", st)
				}
				iters += s.Iterations()
				b.ReportMetric(s.Objective(), "obj")
			}
			cpu := cputime.Now() - cpu0
			cputime.ReportMS(b, cpu0)
			b.ReportMetric(float64(iters)/float64(b.N), "iters")
			b.ReportMetric(float64(cpu.Microseconds())/float64(iters), "cpu-µs/iter")
		})
	}
}
