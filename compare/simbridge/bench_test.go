package simbridge

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/policy"
	"github.com/mrbound/mrbound/workload"
)

// BenchmarkCompare10k: an MRCP mixed stream of 900 jobs (≈ 10,000 tasks) on
// 100 nodes with one map and one reduce slot each, λ = 0.44 jobs/s (map
// load ≈ 0.9): every registered policy against the certified mean-turnaround
// bound. It logs the bound's time and each policy's ratio.
func BenchmarkCompare10k(b *testing.B) {
	in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: mrcpscenario.Mixed, Jobs: 900, Lambda: 0.44, Seed: 1, Resources: 100})
	if err != nil {
		b.Fatal(err)
	}
	w, err := workload.FromMRCP("mixed-900", in)
	if err != nil {
		b.Fatal(err)
	}
	var pols []Named
	for _, n := range policy.Names() {
		pols = append(pols, Named{n, policy.MustNew(n)})
	}
	var out *Outcome
	for b.Loop() {
		if out, err = Compare(context.Background(), "mixed-900", w, pols, Options{Metric: lowerbound.MeanTurnaround, Sim: IdealOptions()}); err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("%d tasks; offline side %v (bound %.6g by %s)", w.NumTasks(), out.BoundWall.Round(time.Millisecond), out.Report.Bound, out.Report.By)
	for i, row := range out.Report.Policies {
		b.Logf("%-14s %.6g ms, ratio %.3f, verified %v, run %v", row.Policy, row.Value, *row.Ratio, row.Verified, out.Results[i].Wall.Round(time.Millisecond))
	}
}

// BenchmarkBoundsSWIMDay: every certified bound of the FB-2009 SWIM day
// (../shared/traces/swim, or $MRBOUND_SWIM) on 600 nodes, workload/swim's
// default model: the conversion and lowerbound.Compute.
func BenchmarkBoundsSWIMDay(b *testing.B) {
	path := os.Getenv("MRBOUND_SWIM")
	if path == "" {
		path = filepath.Join("..", "..", "..", "shared", "traces", "swim", "FB-2009_samples_24_times_1hr_0.tsv")
	}
	w, err := workload.Load(path, workload.DefaultOptions())
	if err != nil {
		b.Skipf("SWIM trace: %v", err)
	}
	var bd *lowerbound.Bounds
	for b.Loop() {
		p, err := Problem(w, IdealOptions(), false)
		if err != nil {
			b.Fatal(err)
		}
		if bd, err = lowerbound.Compute(p); err != nil {
			b.Fatal(err)
		}
	}
	for _, m := range lowerbound.Metrics() {
		b.Logf("%d tasks: %-16s %.6g (by %s)", bd.Tasks, m, bd.Get(m).Certified, bd.Get(m).By)
	}
}
