package hfsprepro

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/workload/swim"
)

var (
	write    = flag.String("write", "", "directory (docs/) to write figures/hfsp-*.svg into")
	nodeList = flag.String("nodes", "600,20", "cluster sizes (nodes) for TestFB2009Day")
	only     = flag.String("policies", "", "comma-separated policies instead of Policies (the first is the reference)")
	repro    = flag.Bool("repro", false, "run the reproductions (TestFB2009Day, TestCategories: minutes; not part of make test)")
)

const fbDay = "../../../shared/traces/swim/FB-2009_samples_24_times_1hr_0.tsv"

// Policies are the compared policies; the first is the dominance
// reference (PS: Fair, equal weights, no min shares).
var Policies = []string{"fair", "fair-nodelay", "fifo", "hfsp", "hfsp-kill", "hfsp-suspend", "hfsp-aftermaps"}

func load(t *testing.T, path string) *sim.Workload {
	if _, err := os.Stat(path); err != nil {
		t.Skip("../shared/traces/swim is absent")
	}
	w, err := swim.Load(path, swim.DefaultModel(), swim.DefaultCluster())
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestSample: the 20-job sample on 4 nodes × (1 + 1) — every policy's run
// verified, complete and no job below its alone time (Run's checks).
func TestSample(t *testing.T) {
	w := load(t, "../../workload/swim/testdata/fb2009-first20.tsv")
	w.Cluster.Nodes = w.Cluster.Nodes[:4]
	for i := range w.Cluster.Nodes {
		w.Cluster.Nodes[i].MapSlots, w.Cluster.Nodes[i].ReduceSlots = 1, 1
	}
	rows, err := Run(w, Policies, sim.DefaultOptions(), BySize)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, rows); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + b.String())
	if rows[0].Dominance != 1 || rows[0].DominanceJobs != len(w.Jobs) {
		t.Errorf("the reference dominates itself on %v of jobs (%d)", rows[0].Dominance, rows[0].DominanceJobs)
	}
	for _, r := range rows {
		sum := 0
		for _, n := range r.ClassDominance {
			sum += n
		}
		if sum != r.DominanceJobs || (r.DominanceJobs == r.Jobs) != (r.LateMax == 0) {
			t.Errorf("%s: %d dominated jobs, %d by class, latest %v s later", r.Policy, r.DominanceJobs, sum, r.LateMax)
		}
		if !(1 <= r.SlowP50 && r.SlowP50 <= r.SlowP95 && r.SlowP95 <= r.SlowP99 && r.SlowP99 <= r.SlowMax) {
			t.Errorf("%s: slowdown percentiles %v / %v / %v / max %v are not ordered from 1", r.Policy, r.SlowP50, r.SlowP95, r.SlowP99, r.SlowMax)
		}
	}
}

// TestFB2009Day is the reproduction (a few minutes; only with -args -repro):
// the day on the original 600 nodes (about 2 % busy) and on policies.md
// §3.4's 20 nodes × (2+2) (about 55 % busy), where sizes matter.
func TestFB2009Day(t *testing.T) {
	if !*repro {
		t.Skip("the FB-2009 day takes minutes: run with -args -repro")
	}
	for _, f := range strings.Split(*nodeList, ",") {
		nodes, err := strconv.Atoi(f)
		if err != nil || nodes < 1 || nodes > 600 {
			t.Fatalf("-nodes: %q is not a node count in [1, 600]", f)
		}
		w := load(t, fbDay)
		w.Cluster.Nodes = w.Cluster.Nodes[:nodes]
		report(t, w, BySize, fmt.Sprintf("FB-2009 SWIM day, %d nodes × (2+2): mean sojourn by job size", nodes),
			fmt.Sprintf("hfsp-fb2009-%dn.svg", nodes))
	}
}

// report runs Policies on w, logs the table and with -write writes the
// figure svg (atomically) under figures/; svg "" writes none.
func report(t *testing.T, w *sim.Workload, cl Classes, title, svg string) {
	names := Policies
	if *only != "" {
		names = strings.Split(*only, ",")
	}
	rows, err := Run(w, names, sim.DefaultOptions(), cl)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, rows); err != nil {
		t.Fatal(err)
	}
	b.WriteString("\nFSP dominance check per class:\n\n")
	if err := WriteDominance(&b, rows); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s\n%s", title, b.String())
	if *write == "" || svg == "" {
		return
	}
	b.Reset()
	if err := WriteSVG(&b, title, rows); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(*write, "figures", svg)
	if err := os.WriteFile(path+".tmp", b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		t.Fatal(err)
	}
}

// TestCategories is policies.md §3.4's stream: 100 jobs of the FB-2009
// categories on 20 nodes × (2+2) at ρ ∈ {0.5, 0.7, 0.9}, hadoop1 mode
// (only with -args -repro).
func TestCategories(t *testing.T) {
	if !*repro {
		t.Skip("the category streams take a minute: run with -args -repro")
	}
	for _, rho := range []float64{0.5, 0.7, 0.9} {
		w, cl, err := CategoryStream(rho, 100, 20, 1)
		if err != nil {
			t.Fatal(err)
		}
		svg := ""
		if rho == 0.9 {
			svg = "hfsp-categories.svg"
		}
		report(t, w, cl, fmt.Sprintf("FB-2009 categories, 20 nodes × (2+2), ρ = %g: mean sojourn by category", rho), svg)
	}
}
