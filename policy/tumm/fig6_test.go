package tumm_test

import (
	"testing"

	"github.com/mrbound/mrbound/instances/tummscenario"
	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/policy/tumm"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
)

// TestFig6 is TuMM's Fig 6: seven 1 s / 2 s maps on two nodes with four map
// slots finish in 3 s with 2+2 slots and in 2 s with 3+1, both as FIFO on
// fixed slots and as the static:nodes split on fungible slots. Fig 6(b),
// 1+3, takes 4 s here: at 2 s node 1 takes the sixth map and slow node 2
// the seventh.
func TestFig6(t *testing.T) {
	for _, c := range []struct {
		cluster string
		want    sim.Time
	}{{"fig6a", 3000}, {"fig6b", 4000}, {"fig6c", 2000}} {
		sc, err := tummscenario.Generate(tummscenario.GenOptions{Benchmark: "fig6", Cluster: c.cluster})
		if err != nil {
			t.Fatal(err)
		}
		for _, fungible := range []bool{false, true} {
			w := sc.Batch.Workload(sc.Name, fungible)
			var p sim.Policy = fifo.New()
			if fungible {
				p = tumm.NewStaticNodes()
			}
			o := sim.DefaultOptions()
			o.Heartbeat = 0 // ideal offers: the toy's times are exact
			res, err := sim.Run(w, p, o)
			if err != nil {
				t.Fatal(err)
			}
			if err := check.Verify(w, res); err != nil {
				t.Errorf("%s: checker: %v", c.cluster, err)
			}
			if got := sim.FromSeconds(res.Metrics.Makespan); got != c.want {
				t.Errorf("%s %s (fungible %v): makespan %d ms, want %d", c.cluster, p.Name(), fungible, got, c.want)
			}
		}
	}
}
