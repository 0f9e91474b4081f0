package tummrepro

import (
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/mrbound/mrbound/instances/tummscenario"
	"github.com/mrbound/mrbound/sim"
)

var (
	write     = flag.String("write", "", "write the SVG figures under `DIR`/figures (docs)")
	decisions = flag.Bool("decisions", false, "measure the decision cost on the FB-2009 day (about 15 s)")
)

// TestReproduce runs every experiment: each run passes the checker and is
// not below the lower bound (Reproduce fails otherwise).
func TestReproduce(t *testing.T) {
	if testing.Short() {
		t.Skip("the full reproduction (about 60 runs) is not short")
	}
	r, err := Reproduce(DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	r.WriteMarkdown(os.Stdout)
	if *write != "" {
		if err := r.WriteSVG(filepath.Join(*write, "figures")); err != nil {
			t.Fatal(err)
		}
	}
}

// fbDay is the SWIM Facebook 2009 day (24 one-hour samples).
const fbDay = "../../../shared/traces/swim/FB-2009_samples_24_times_1hr_0.tsv"

// TestDecisionTimes measures the wall time per decision on the FB-2009 day
// (printed, never asserted; -args -decisions); every run passes the checker.
func TestDecisionTimes(t *testing.T) {
	if !*decisions {
		t.Skip("a measurement: go test -v ./bench/tummrepro -run TestDecisionTimes -args -decisions")
	}
	if _, err := os.Stat(fbDay); err != nil {
		t.Skip("the SWIM trace is absent")
	}
	ds, err := DecisionTimes(fbDay, []string{"tumm", "htumm", "static:2:2", "static:alg1"}, DefaultOptions().Sim)
	if err != nil {
		t.Fatal(err)
	}
	WriteDecisionTimes(os.Stdout, ds)
}

// TestLowerBoundFig6: seven maps of at best 1 s on 4 slots give
// LB = 7/4 = 1.75 s, below the toy's optimum of 2 s; with 20% noise 1.4 s.
func TestLowerBoundFig6(t *testing.T) {
	sc, err := tummscenario.Generate(tummscenario.GenOptions{Benchmark: "fig6", Cluster: "fig6c"})
	if err != nil {
		t.Fatal(err)
	}
	o := sim.DefaultOptions()
	if lb := LowerBound(sc.Batch, o); lb != 1.75 {
		t.Errorf("LB = %v, want 1.75", lb)
	}
	o.Noise = 0.2
	if lb := LowerBound(sc.Batch, o); math.Abs(lb-1.4) > 1e-12 {
		t.Errorf("LB with noise = %v, want 1.4", lb)
	}
}
