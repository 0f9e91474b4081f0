package simplex

import (
	"context"
	"math"
	"path/filepath"
	"sort"
	"testing"

	"github.com/mrbound/mrbound/internal/cputime"
	"github.com/mrbound/mrbound/model/mps"
	"github.com/mrbound/mrbound/solve"
)

// BenchmarkNetlib solves every NETLIB LP of the test sets with the native
// simplex and with HiGHS (when it loads): compare the ns/op of
// BenchmarkNetlib/<name>/native and /highs.
func BenchmarkNetlib(b *testing.B) {
	opt := netlibOptima(b)
	names := make([]string, 0, len(opt))
	for n := range opt {
		names = append(names, n)
	}
	sort.Strings(names)
	h, herr := solve.Lookup("highs")
	for _, name := range names {
		m, err := mps.ReadFile(filepath.Join(testsetDir, "netlib", name+".mps"))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/native", func(b *testing.B) {
			cpu0 := cputime.Now()
			for i := 0; i < b.N; i++ {
				s, err := New(m, Options{})
				if err != nil {
					b.Fatal(err)
				}
				if st := s.Solve(context.Background()); st != solve.Optimal {
					b.Fatalf("status %v", st)
				}
				b.ReportMetric(float64(s.Iterations()), "iters")
			}
			cputime.ReportMS(b, cpu0)
		})
		b.Run(name+"/highs", func(b *testing.B) {
			if herr != nil {
				b.Skip(herr)
			}
			cpu0 := cputime.Now()
			for i := 0; i < b.N; i++ {
				res, err := h.Solve(context.Background(), m, solve.Options{})
				if err != nil {
					b.Skip(err)
				}
				if res.Status != solve.Optimal {
					b.Fatalf("HiGHS status %v", res.Status)
				}
				b.ReportMetric(float64(res.Iterations), "iters")
			}
			cputime.ReportMS(b, cpu0)
		})
	}
}

// BenchmarkHiGHSOverhead measures HiGHS on a one-column LP: the fixed cost of
// a WebAssembly solve (module instance, model transfer), to be kept in mind
// when reading BenchmarkNetlib ratios.
func BenchmarkHiGHSOverhead(b *testing.B) {
	h, err := solve.Lookup("highs")
	if err != nil {
		b.Skip(err)
	}
	m := lpSpec{obj: []float64{1}, colLo: []float64{0}, colUp: []float64{1}, a: [][]float64{}, rowLo: []float64{}, rowUp: []float64{}}.model()
	cpu0 := cputime.Now()
	for i := 0; i < b.N; i++ {
		if _, err := h.Solve(context.Background(), m, solve.Options{}); err != nil {
			b.Skip(err)
		}
	}
	cputime.ReportMS(b, cpu0)
}

// BenchmarkWarmBranching measures the warm-started dual simplex as a
// branch-and-bound uses it: on the LP relaxation of a MIPLIB problem, each
// operation tightens one fractional column's bound (down branch, to the
// floor of its root value), solves, restores the bound and solves again.
func BenchmarkWarmBranching(b *testing.B) {
	for _, name := range []string{"misc07", "pp08a", "bell5"} {
		b.Run(name, func(b *testing.B) {
			m, err := mps.ReadFile(filepath.Join(testsetDir, "miplib", name+".mps"))
			if err != nil {
				b.Skip(err)
			}
			s, err := New(m, Options{})
			if err != nil {
				b.Fatal(err)
			}
			if st := s.Solve(context.Background()); st != solve.Optimal {
				b.Fatalf("root status %v", st)
			}
			// The branching bounds come from the root solution, so that the
			// sequence of solves does not depend on which of several
			// optimal vertices a restored solve ends at.
			var frac []int
			var down []float64
			for j, v := range s.X() {
				if m.ColType[j].IsInteger() && math.Abs(v-math.Round(v)) > 1e-6 {
					frac = append(frac, j)
					down = append(down, math.Floor(v))
				}
			}
			if len(frac) == 0 {
				b.Skip("integral root")
			}
			it0 := s.Iterations()
			cpu0 := cputime.Now()
			for i := 0; i < b.N; i++ {
				j := frac[i%len(frac)]
				lo, up := s.ColBounds(j)
				if err := s.SetColBounds(j, lo, math.Max(lo, down[i%len(frac)])); err != nil {
					b.Fatal(err)
				}
				s.Solve(context.Background())
				if err := s.SetColBounds(j, lo, up); err != nil {
					b.Fatal(err)
				}
				if st := s.Solve(context.Background()); st != solve.Optimal {
					b.Fatalf("status %v after restoring the bound", st)
				}
			}
			cputime.ReportMS(b, cpu0)
			b.ReportMetric(float64(s.Iterations()-it0)/float64(2*b.N), "iters/solve")
		})
	}
}

// BenchmarkWarmFixedCost measures the fixed cost of a warm solve: after the
// root solve, each operation re-imposes a column's own bounds and solves
// again, which takes no iteration but every per-solve step (x_B and y
// recomputed, the final check).
func BenchmarkWarmFixedCost(b *testing.B) {
	for _, name := range []string{"miplib/misc07", "miplib/pp08a", "miplib/bell5", "netlib/scagr25", "netlib/e226"} {
		b.Run(filepath.Base(name), func(b *testing.B) {
			m, err := mps.ReadFile(filepath.Join(testsetDir, name+".mps"))
			if err != nil {
				b.Skip(err)
			}
			s, err := New(m, Options{})
			if err != nil {
				b.Fatal(err)
			}
			if st := s.Solve(context.Background()); st != solve.Optimal {
				b.Fatalf("root status %v", st)
			}
			it0 := s.Iterations()
			cpu0 := cputime.Now()
			for i := 0; i < b.N; i++ {
				j := i % m.NumCols()
				lo, up := s.ColBounds(j)
				if err := s.SetColBounds(j, lo, up); err != nil {
					b.Fatal(err)
				}
				if st := s.Solve(context.Background()); st != solve.Optimal {
					b.Fatalf("status %v", st)
				}
			}
			cputime.ReportMS(b, cpu0)
			b.ReportMetric(float64(s.Iterations()-it0)/float64(b.N), "iters/solve")
		})
	}
}
