package tumm_test

import (
	"reflect"
	"testing"

	"github.com/mrbound/mrbound/instances/tummscenario"
	"github.com/mrbound/mrbound/policy/tumm"
	"github.com/mrbound/mrbound/sim"
)

// TestLiteralHeartbeatsOnPaperWorkloads: on the mixed batch and the Heter1
// chains (hundreds of declined slots), parked nodes plus the policies'
// wakes give the same trace as literal heartbeats every 3 s.
func TestLiteralHeartbeatsOnPaperWorkloads(t *testing.T) {
	for _, g := range []tummscenario.GenOptions{{Benchmark: "mixed", Order: "random", Seed: 2}, {Benchmark: "tpch", Cluster: "heter1"}} {
		sc, err := tummscenario.Generate(g)
		if err != nil {
			t.Fatal(err)
		}
		w := sc.Batch.Workload(sc.Name, true)
		for _, name := range []string{"tumm", "htumm", "static:alg1"} {
			o := sim.DefaultOptions()
			p, _ := tumm.ByName(name)
			parked, err := sim.Run(w, p, o)
			if err != nil {
				t.Fatal(err)
			}
			o.LiteralHeartbeats = true
			p, _ = tumm.ByName(name)
			literal, err := sim.Run(w, p, o)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(parked.Trace, literal.Trace) {
				t.Errorf("%s on %s: literal heartbeats change the trace (makespan %.1f vs %.1f)", name, sc.Name, parked.Metrics.Makespan, literal.Metrics.Makespan)
			}
		}
	}
}
