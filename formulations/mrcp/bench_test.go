package mrcp

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/solve"
)

// BenchmarkSolve solves mixed WordCount streams (λ = 0.02/s, seed 1,
// $MRCP_BENCH_UNIT s time units (default 10), 4 resources × 1 + 1 slots) of
// growing length with each formulation, method (decomposed: one solve per
// late count with aggregated map counts, the default; monolithic: the
// linearised product with one binary per task, as before the decomposition)
// and backend,
// through Run (heuristic cutoff on), with a time limit of $MRCP_BENCH_LIMIT
// seconds (default 30). Metrics: optimal (1 when proven), gap, nodes, late
// jobs, max turnaround, columns (of the largest model solved). Run with
// -benchtime=1x; $MRCP_BENCH_JOBS (e.g. "5,10,20") picks the sizes and
// -bench filters formulations, methods and backends by name.
func BenchmarkSolve(b *testing.B) {
	limit := 30 * time.Second
	if s := os.Getenv("MRCP_BENCH_LIMIT"); s != "" {
		if v, err := strconv.Atoi(s); err == nil && v > 0 {
			limit = time.Duration(v) * time.Second
		}
	}
	unit := 10.0
	if s := os.Getenv("MRCP_BENCH_UNIT"); s != "" {
		if v, err := strconv.ParseFloat(s, 64); err == nil && v > 0 {
			unit = v
		}
	}
	sizes := []int{2, 5, 10, 20}
	if s := os.Getenv("MRCP_BENCH_JOBS"); s != "" {
		sizes = nil
		for _, f := range splitComma(s) {
			if v, err := strconv.Atoi(f); err == nil && v > 0 {
				sizes = append(sizes, v)
			}
		}
	}
	for _, n := range sizes {
		in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: mrcpscenario.Mixed, Jobs: n, Lambda: 0.02, Seed: 1, TimeUnit: unit})
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range []Formulation{TimeIndexed, Disjunctive} {
			for _, method := range []string{"decomposed", "monolithic"} {
				for _, backend := range backends {
					b.Run(fmt.Sprintf("jobs=%d/%v/%s/%s", n, f, method, backend), func(b *testing.B) {
						o := Options{Formulation: f, Solve: solve.Options{Solver: backend, TimeLimit: limit}}
						if method == "monolithic" {
							o.Method, o.Disaggregated = Monolithic, true
						}
						out := benchRun(b, in, o)
						b.ReportMetric(out.Result.Gap(), "gap")
						b.ReportMetric(float64(out.Result.Nodes), "nodes")
						cols := out.Built.Model.NumCols()
						for _, sub := range out.Subproblems {
							cols = max(cols, sub.Cols)
						}
						b.ReportMetric(float64(cols), "cols")
						b.ReportMetric(float64(len(out.Subproblems)), "subs")
						if out.Schedule != nil {
							b.ReportMetric(float64(out.Schedule.LateJobs), "late")
							b.ReportMetric(float64(out.Schedule.MaxTurnaround), "maxturn")
						}
						if !out.Verified {
							b.Errorf("not verified: %v", out.CheckErr)
						}
					})
				}
			}
		}
	}
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}

// BenchmarkSeeds solves the 1-s 20-job mixed streams of seeds 1–5
// ($MRCP_BENCH_SEEDS, e.g. "6,7,8", picks others; λ = 0.02/s, the
// `mrbound generate mrcp` defaults) by the default method (late-count
// decomposition with its combinatorial phase, time-indexed model) on each
// backend, with a time limit of $MRCP_BENCH_LIMIT seconds (default 30), and
// logs every subproblem (b.Log; run with -v). Metrics: optimal, objective,
// bound, subproblems, late jobs and max turnaround of the schedule.
func BenchmarkSeeds(b *testing.B) {
	limit := 30 * time.Second
	if s := os.Getenv("MRCP_BENCH_LIMIT"); s != "" {
		if v, err := strconv.Atoi(s); err == nil && v > 0 {
			limit = time.Duration(v) * time.Second
		}
	}
	seeds := []uint64{1, 2, 3, 4, 5}
	if s := os.Getenv("MRCP_BENCH_SEEDS"); s != "" {
		seeds = nil
		for _, f := range splitComma(s) {
			if v, err := strconv.ParseUint(f, 10, 64); err == nil && v > 0 {
				seeds = append(seeds, v)
			}
		}
	}
	for _, seed := range seeds {
		in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: mrcpscenario.Mixed, Jobs: 20, Lambda: 0.02, Seed: seed, TimeUnit: 1})
		if err != nil {
			b.Fatal(err)
		}
		for _, backend := range backends {
			b.Run(fmt.Sprintf("seed=%d/%s", seed, backend), func(b *testing.B) {
				out := benchRun(b, in, Options{Solve: solve.Options{Solver: backend, TimeLimit: limit}})
				b.ReportMetric(out.Result.Objective, "objective")
				b.ReportMetric(out.Result.Bound, "bound")
				b.ReportMetric(float64(len(out.Subproblems)), "subs")
				if out.Schedule != nil {
					b.ReportMetric(float64(out.Schedule.LateJobs), "late")
					b.ReportMetric(float64(out.Schedule.MaxTurnaround), "maxturn")
				}
				for _, s := range out.Subproblems {
					how := "milp"
					if s.Search {
						how = "search"
					}
					if s.LateSet != nil {
						how = fmt.Sprintf("milp on late set %v", s.LateSet)
					}
					if s.Jobs > 0 {
						how = fmt.Sprintf("milp on %d jobs", s.Jobs)
					}
					b.Logf("K=%d cap %d %s %v Z %d Z≥%d cols %d nodes %d %.2fs", s.MaxLate, s.ZCap, how, s.Status,
						s.Z, s.ZBound, s.Cols, s.Nodes, s.Wall.Seconds())
				}
				if !out.Verified {
					b.Errorf("not verified: %v", out.CheckErr)
				}
			})
		}
	}
}

// benchRun runs in b.N times with o (skipping when o's backend is not
// usable), reports whether the last run was optimal and returns it.
func benchRun(b *testing.B, in *mrcpscenario.Instance, o Options) *Report {
	b.Helper()
	if _, err := solve.Lookup(o.Solve.Solver); err != nil {
		b.Skip(err)
	}
	var out *Report
	for i := 0; i < b.N; i++ {
		var err error
		if out, err = RunInstance(context.Background(), "bench", in, o); err != nil {
			b.Fatal(err)
		}
	}
	opt := 0.0
	if out.Result.Status == solve.Optimal {
		opt = 1
	}
	b.ReportMetric(opt, "optimal")
	return out
}
