package highs

import (
	"context"
	"io"
	"os"
	"testing"
	"time"

	"github.com/mrbound/mrbound/internal/cputime"
	"github.com/mrbound/mrbound/model/mps"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/solvertest"
)

// BenchmarkHiGHS solves each test-set problem with default options (MIP gap
// 1e-4). Hard problems run only with MRBOUND_BENCH_HARD=1, under a 60 s limit.
func BenchmarkHiGHS(b *testing.B) {
	dir := solvertest.TestsetDir()
	if dir == "" {
		b.Skip("no ../shared/testsets")
	}
	if _, err := Locate(); err != nil {
		b.Skip(err)
	}
	ps, err := solvertest.Problems(dir)
	if err != nil {
		b.Fatal(err)
	}
	s := New("")
	if err := s.Warm(); err != nil {
		b.Fatal(err)
	}
	for _, p := range ps {
		b.Run(p.Name, func(b *testing.B) {
			opts := solve.Options{}
			if p.Difficulty == "hard" {
				if os.Getenv("MRBOUND_BENCH_HARD") == "" {
					b.Skip("hard: set MRBOUND_BENCH_HARD=1")
				}
				opts.TimeLimit = 60 * time.Second
			}
			m, err := mps.ReadFile(p.Path)
			if err != nil {
				b.Fatal(err)
			}
			var res solve.Result
			cpu0 := cputime.Now()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if res, err = s.Solve(context.Background(), m, opts); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			// CPU seconds are steadier than wall time on a shared machine.
			b.ReportMetric((cputime.Now()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
			if res.Status == solve.Optimal && solve.RelativeGap(res.Objective, p.Optimum) > 1e-4 {
				b.Errorf("objective %v, optimum %v", res.Objective, p.Optimum)
			}
			b.ReportMetric(float64(res.Nodes), "nodes")
			b.ReportMetric(float64(res.Iterations), "lp-iters")
			if res.Status != solve.Optimal {
				b.ReportMetric(res.Gap(), "gap")
				b.Logf("%s: %v, objective %v, bound %v, gap %.3g", p.Name, res.Status, res.Objective, res.Bound, res.Gap())
			}
		})
	}
}

// BenchmarkStartup measures compiling highs.wasm with an empty compilation
// cache (cold), with a populated one (cached), and creating one module
// instance from the compiled module (the per-solve overhead).
func BenchmarkStartup(b *testing.B) {
	dir, err := Locate()
	if err != nil {
		b.Skip(err)
	}
	ctx := context.Background()
	b.Run("cold", func(b *testing.B) {
		cpu0 := cputime.Now()
		for i := 0; i < b.N; i++ {
			e, err := compile(ctx, dir, b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			e.rt.Close(ctx)
		}
		b.ReportMetric((cputime.Now()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
	})
	b.Run("cached", func(b *testing.B) {
		cache := b.TempDir()
		e, err := compile(ctx, dir, cache)
		if err != nil {
			b.Fatal(err)
		}
		e.rt.Close(ctx)
		cpu0 := cputime.Now()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			e, err := compile(ctx, dir, cache)
			if err != nil {
				b.Fatal(err)
			}
			e.rt.Close(ctx)
		}
		b.ReportMetric((cputime.Now()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
	})
	b.Run("instance", func(b *testing.B) {
		e, err := getEngine(dir)
		if err != nil {
			b.Fatal(err)
		}
		sctx := context.WithValue(ctx, stateKey{}, &callState{log: io.Discard})
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			in, err := e.newInstance(sctx)
			if err != nil {
				b.Fatal(err)
			}
			in.close()
		}
	})
}

// BenchmarkSolveTiny is the whole per-solve overhead on a 4-variable knapsack.
func BenchmarkSolveTiny(b *testing.B) {
	if _, err := Locate(); err != nil {
		b.Skip(err)
	}
	var m = solvertest.Cases()[0].Model
	for _, c := range solvertest.Cases() {
		if c.Name == "mip/knapsack" {
			m = c.Model
		}
	}
	s := New("")
	if err := s.Warm(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Solve(context.Background(), m, solve.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
