package workload

import (
	"strings"
	"testing"

	"github.com/mrbound/mrbound/policy"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
)

// TestLoadTuMM: a TuMM batch becomes a fungible workload; Fig 6's toy under
// its configured 3+1 split takes exactly 2 s, and TuMM's run on the mixed
// batch verifies.
func TestLoadTuMM(t *testing.T) {
	o := sim.DefaultOptions()
	o.Heartbeat = 0
	for _, c := range []struct {
		file, policy string
		makespan     float64
	}{{"../examples/tumm-fig6.json", "static:nodes", 2}, {"../examples/tumm-mixed.json", "tumm", 0}} {
		w, err := Load(c.file, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		if !w.Cluster.Fungible {
			t.Fatalf("%s: not fungible", c.file)
		}
		res, err := sim.Run(w, policy.MustNew(c.policy), o)
		if err != nil {
			t.Fatal(err)
		}
		if err := check.Verify(w, res); err != nil {
			t.Errorf("%s: %v", c.file, err)
		}
		if res.Metrics.CompletedJobs != len(w.Jobs) || c.makespan > 0 && res.Metrics.Makespan != c.makespan {
			t.Errorf("%s: %s", c.file, res)
		}
	}
	if _, err := Load("../examples/tumm-static.json", DefaultOptions()); err == nil || !strings.Contains(err.Error(), "batch: missing") {
		t.Errorf("a TuMM scenario without a batch: %v", err)
	}
}
