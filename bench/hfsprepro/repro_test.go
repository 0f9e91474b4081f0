package hfsprepro

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/workload/swim"
)

var write = flag.String("write", "", "directory (docs/) to write figures/hfsp-*.svg into")

const fbDay = "../../../shared/traces/swim/FB-2009_samples_24_times_1hr_0.tsv"

// Policies are the compared policies; the first is the dominance
// reference (PS: Fair, equal weights, no min shares).
var Policies = []string{"fair", "fair-nodelay", "fifo", "hfsp", "hfsp-kill", "hfsp-suspend"}

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
	if rows[0].Dominance != 1 {
		t.Errorf("the reference dominates itself on %v of jobs", rows[0].Dominance)
	}
}

// TestFB2009Day is the reproduction (a few minutes; skipped under -short):
// the day on the original 600 nodes (about 2 % busy) and on policies.md
// §3.4's 20 nodes × (2+2) (about 55 % busy), where sizes matter.
func TestFB2009Day(t *testing.T) {
	if testing.Short() {
		t.Skip("the FB-2009 day takes minutes")
	}
	for _, nodes := range []int{600, 20} {
		w := load(t, fbDay)
		w.Cluster.Nodes = w.Cluster.Nodes[:nodes]
		rows, err := Run(w, Policies, sim.DefaultOptions(), BySize)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WriteMarkdown(&b, rows); err != nil {
			t.Fatal(err)
		}
		t.Logf("%d nodes\n%s", nodes, b.String())
		if *write != "" {
			var svg bytes.Buffer
			title := fmt.Sprintf("FB-2009 SWIM day, %d nodes × (2+2): mean sojourn by job size", nodes)
			if err := WriteSVG(&svg, title, rows); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(*write, "figures", fmt.Sprintf("hfsp-fb2009-%dn.svg", nodes)), svg.Bytes())
		}
	}
}

// writeFile writes atomically (temp + rename).
func writeFile(t *testing.T, path string, data []byte) {
	if err := os.WriteFile(path+".tmp", data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		t.Fatal(err)
	}
}

// TestCategories is policies.md §3.4's stream: 100 jobs of the FB-2009
// categories on 20 nodes × (2+2) at ρ ∈ {0.5, 0.7, 0.9}, hadoop1 mode
// (skipped under -short).
func TestCategories(t *testing.T) {
	if testing.Short() {
		t.Skip("the category streams take a minute")
	}
	for _, rho := range []float64{0.5, 0.7, 0.9} {
		w, cl, err := CategoryStream(rho, 100, 20, 1)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := Run(w, Policies, sim.DefaultOptions(), cl)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WriteMarkdown(&b, rows); err != nil {
			t.Fatal(err)
		}
		t.Logf("ρ = %g\n%s", rho, b.String())
		if *write != "" && rho == 0.9 {
			var svg bytes.Buffer
			if err := WriteSVG(&svg, "FB-2009 categories, 20 nodes × (2+2), ρ = 0.9: mean sojourn by job size", rows); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(*write, "figures", "hfsp-categories.svg"), svg.Bytes())
		}
	}
}
