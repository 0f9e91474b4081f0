package upperbound_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mrbound/mrbound/compare/simbridge"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/upperbound"
	"github.com/mrbound/mrbound/workload"
)

// BenchmarkBestFBDay runs Best at compare's defaults (DefaultEvaluations,
// the seed 1; no time limit, so that the result does not depend on the
// machine's load) on the FB-2009 SWIM day 0 with 2 map and 1 reduce slots
// per node, for each metric of issue 26 at 10 and 20 nodes. It reports the
// best verified value (value-s) and the simulator runs; run with -cpu 1
// -benchtime 1x and read CPU time with /usr/bin/time (docs/results.md).
// Skipped when the trace is not there (it lives outside the repository).
func BenchmarkBestFBDay(b *testing.B) {
	trace := filepath.Join("..", "..", "shared", "traces", "swim", "FB-2009_samples_24_times_1hr_0.tsv")
	if _, err := os.Stat(trace); err != nil {
		b.Skip("no FB-2009 trace:", err)
	}
	for _, nodes := range []int{10, 20} {
		o := workload.DefaultOptions()
		o.SWIMCluster.Nodes, o.SWIMCluster.MapSlots, o.SWIMCluster.ReduceSlots = nodes, 2, 1
		w, err := workload.Load(trace, o)
		if err != nil {
			b.Fatal(err)
		}
		opt := simbridge.IdealOptions()
		p, err := simbridge.Problem(w, opt, false)
		if err != nil {
			b.Fatal(err)
		}
		for _, m := range []lowerbound.Metric{lowerbound.MeanTurnaround, lowerbound.Makespan, lowerbound.MaxTurnaround} {
			b.Run(fmt.Sprintf("nodes=%d/%s", nodes, m), func(b *testing.B) {
				for b.Loop() {
					t0 := time.Now()
					r, err := upperbound.Best(context.Background(), w, p, upperbound.Options{Metric: m, Sim: opt, Seed: 1})
					if err != nil {
						b.Fatal(err)
					}
					if r.Best == nil {
						b.Fatal("nothing verified")
					}
					b.ReportMetric(r.Best.Value/1000, "value-s")
					b.ReportMetric(float64(r.Evaluations), "runs")
					b.Logf("%s by %s, %d runs, %v wall", m, r.Best.By, r.Evaluations, time.Since(t0).Round(time.Millisecond))
				}
			})
		}
	}
}
