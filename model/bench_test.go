package model

import (
	"runtime"
	"testing"
)

// jobSlot is the key of the benchmark's family: x[job, slot].
type jobSlot struct{ Job, Slot int }

// Shape of BenchmarkBuild1M: x[i,j] for 1000 jobs × 100 slots (100k
// columns, named x(i,j)); 1000 assignment rows Σ_j x[i,j] = 1 and 49,000
// capacity rows over windows of 19 jobs, all from row families with struct or
// int keys: 50,000 rows and 1,031,000 nonzeros.
const (
	benchJobs, benchSlots = 1000, 100
	benchCapRows          = 49000
	benchWindow           = 19
	benchNonzeros         = benchJobs*benchSlots + benchCapRows*benchWindow
)

// buildBenchModel builds the benchmark model. With fresh it makes a new Expr
// per row (so the expressions' own 16 bytes per term count too); otherwise it
// reuses one Expr, which is allowed because the builder copies the terms.
func buildBenchModel(fresh bool) (*Model, error) {
	b := NewBuilder("bench")
	x := NewFamily[jobSlot](b, "x")
	for i := 0; i < benchJobs; i++ {
		for j := 0; j < benchSlots; j++ {
			x.Add(jobSlot{i, j}, 0, 1, float64(i%7+j%5), Binary)
		}
	}
	var e Expr
	reset := func(n int) {
		if fresh || e.Terms == nil {
			e = NewExpr(n)
		}
		e.Terms, e.Constant = e.Terms[:0], 0
	}
	assign := NewRowFamily[int](b, "assign")
	for i := 0; i < benchJobs; i++ {
		reset(benchSlots)
		for j := 0; j < benchSlots; j++ {
			v, _ := x.Get(jobSlot{i, j})
			e.Add(v, 1)
		}
		assign.Equal(i, e, 1)
	}
	capRow := NewRowFamily[jobSlot](b, "cap")
	for r := 0; r < benchCapRows; r++ {
		j, t := r%benchSlots, r/benchSlots
		reset(benchWindow)
		for k := 0; k < benchWindow; k++ {
			v, _ := x.Get(jobSlot{(2*t + k) % benchJobs, j})
			e.Add(v, float64(1+k%3))
		}
		capRow.LessEq(jobSlot{t, j}, e, 4)
	}
	return b.Build()
}

func benchBuild(b *testing.B, fresh bool) {
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		m, err := buildBenchModel(fresh)
		if err != nil {
			b.Fatal(err)
		}
		if m.NumNonzeros() != benchNonzeros {
			b.Fatalf("%d nonzeros, want %d", m.NumNonzeros(), benchNonzeros)
		}
	}
	cpu := cpuTime() - cpu0
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/benchNonzeros, "B/nnz")
	// Process CPU time per build (GC workers included): unlike ns/op it
	// hardly depends on what else the machine is running.
	b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
}

// BenchmarkBuild1M builds a model with about one million nonzeros and
// reports the bytes allocated per nonzero by the builder and Build (the
// result included), reusing one Expr for all rows.
func BenchmarkBuild1M(b *testing.B) { benchBuild(b, false) }

// BenchmarkBuild1MFreshExpr is BenchmarkBuild1M with a new Expr per row.
func BenchmarkBuild1MFreshExpr(b *testing.B) { benchBuild(b, true) }
