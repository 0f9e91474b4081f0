package bench

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mrbound/mrbound/compare"
	"github.com/mrbound/mrbound/compare/simbridge"
	"github.com/mrbound/mrbound/instances/coshhscenario"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/policy"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/workload"
)

// fb2009Day0 is the SWIM trace of issue 26's measurements.
const fb2009Day0 = "../../shared/traces/swim/FB-2009_samples_24_times_1hr_0.tsv"

// lowerSidePolicies are the policies whose best value is the upper end the
// bounds are read against (the best of them per metric).
var lowerSidePolicies = []string{"fair", "fifo", "hfsp-aftermaps", "edf"}

// lowerSideMetrics are the metrics of issue 26's targets.
var lowerSideMetrics = []lowerbound.Metric{lowerbound.MeanTurnaround, lowerbound.Makespan, lowerbound.MaxTurnaround}

// BenchmarkIssue26LowerSide measures the lower side of issue 26 (docs/results.md,
// "Issue 26: lower side"): on FB-2009 day 0 (2 map + 1 reduce slots per node)
// at each node count of MRBOUND_NODES (default 10,20,40,100,600), and on
// 100-job COSHH Facebook and Yahoo streams, it prints per metric the
// combinatorial bound (old), the bound with the interval Lagrangian (new),
// the best verified policy value and the bound's time. Ideal mode, as compare.
func BenchmarkIssue26LowerSide(b *testing.B) {
	nodes := envNodes(b, 10, 20, 40, 100, 600)
	for range b.N {
		if _, err := os.Stat(fb2009Day0); err == nil {
			for _, n := range nodes {
				w := fbDay0(b, n)
				lowerSideRow(b, fmt.Sprintf("FB-2009 day 0, %d nodes", n), w)
			}
		}
		for _, trace := range []string{"facebook", "yahoo"} {
			sc, err := coshhscenario.Generate(coshhscenario.GenOptions{Trace: trace, Jobs: 100, Seed: 1, Tasks: true})
			if err != nil {
				b.Fatal(err)
			}
			w, err := workload.FromCOSHH(trace, sc)
			if err != nil {
				b.Fatal(err)
			}
			lowerSideRow(b, "COSHH "+trace+" 100 jobs", w)
		}
	}
}

// lowerSideRow runs the policies once and prints one line per metric.
func lowerSideRow(b *testing.B, name string, w *sim.Workload) {
	b.Helper()
	opt := simbridge.IdealOptions()
	best := map[lowerbound.Metric]float64{}
	bestBy := map[lowerbound.Metric]string{}
	preemptive := false
	var runs [][]int64
	var names []string
	for _, name := range lowerSidePolicies {
		pol, err := policy.New(name, policy.Params{})
		if err != nil {
			b.Fatal(err)
		}
		res, err := sim.Run(w, pol, opt)
		if err != nil {
			b.Logf("%s: %s: %v", name, name, err)
			continue
		}
		c, err := simbridge.Completions(res)
		if err != nil {
			continue
		}
		preemptive = preemptive || simbridge.Suspends(res)
		runs, names = append(runs, c), append(names, name)
	}
	p, err := simbridge.Problem(w, opt, preemptive)
	if err != nil {
		b.Fatal(err)
	}
	for i, c := range runs {
		for _, m := range lowerSideMetrics {
			v, err := compare.Value(p, m, c)
			if err != nil {
				b.Fatal(err)
			}
			if cur, ok := best[m]; !ok || v < cur {
				best[m], bestBy[m] = v, names[i]
			}
		}
	}
	t0 := time.Now()
	old, err := lowerbound.Compute(p)
	if err != nil {
		b.Fatal(err)
	}
	tOld := time.Since(t0)
	t0 = time.Now()
	lg, err := lowerbound.ComputeWith(context.Background(), p, lowerbound.Options{Lagrange: &lowerbound.LagrangeOptions{}})
	if err != nil {
		b.Fatal(err)
	}
	tNew := time.Since(t0)
	for _, m := range lowerSideMetrics {
		o, n := old.Get(m), lg.Get(m)
		fmt.Printf("%-28s %-16s old %12.1f s (%-24s) new %12.1f s (%-24s) best %-15s %12.1f s  best/new %7.3f  old %.2fs new %.2fs\n",
			name, m, o.Certified/1000, o.By, n.Certified/1000, n.By, bestBy[m], best[m]/1000, best[m]/n.Certified, tOld.Seconds(), tNew.Seconds())
	}
}

// envNodes is the node counts of $MRBOUND_NODES (comma-separated), else def.
func envNodes(b *testing.B, def ...int) []int {
	s := os.Getenv("MRBOUND_NODES")
	if s == "" {
		return def
	}
	var nodes []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(f)
		if err != nil {
			b.Fatal(err)
		}
		nodes = append(nodes, n)
	}
	return nodes
}

// fbDay0 is FB-2009 day 0 on n nodes of 2 map and 1 reduce slots (issue 26's
// loaded cluster).
func fbDay0(b *testing.B, n int) *sim.Workload {
	o := workload.DefaultOptions()
	o.SWIMCluster.Nodes, o.SWIMCluster.MapSlots, o.SWIMCluster.ReduceSlots = n, 2, 1
	w, err := workload.Load(fb2009Day0, o)
	if err != nil {
		b.Fatal(err)
	}
	return w
}
