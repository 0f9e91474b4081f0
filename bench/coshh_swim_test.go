package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/policy/coshh"
	"github.com/mrbound/mrbound/policy/fair"
	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
	"github.com/mrbound/mrbound/workload/swim"
)

const swimDay = "../../shared/traces/swim/FB-2009_samples_24_times_1hr_0.tsv"

// TestCOSHHSWIMDecisions times every decision of FIFO, Fair and COSHH on the
// FB-2009 SWIM day (5,894 jobs, 600 nodes × (2 + 2) slots, H = 3 s) and
// counts COSHH's LP solves; it runs only with MRBOUND_COSHH_OUT set, and
// writes coshh-swim.md there.
func TestCOSHHSWIMDecisions(t *testing.T) {
	out := os.Getenv("MRBOUND_COSHH_OUT")
	if out == "" || os.Getenv("MRBOUND_COSHH_PART") != "swim" {
		t.Skip("set MRBOUND_COSHH_OUT=folder and MRBOUND_COSHH_PART=swim")
	}
	if _, err := os.Stat(swimDay); err != nil {
		t.Skip("../shared/traces/swim is absent")
	}
	w, err := swim.Load(swimDay, swim.DefaultModel(), swim.DefaultCluster())
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("| policy | offers | offer mean (µs) | offer worst (ms) | arrivals | arrival mean (µs) | arrival worst (ms) | classifications | LP solves | LP wall total / worst (ms) | mean turnaround (s) | sim wall (s) |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, name := range []string{"fifo", "fair", "coshh", "coshh-fallback"} {
		var p sim.Policy
		switch name {
		case "fifo":
			p = fifo.New()
		case "fair":
			p = fair.New()
		default:
			c := coshh.New()
			c.Fallback = name == "coshh-fallback"
			p = c
		}
		wp, tm := wrap(p)
		res, err := sim.Run(w, wp, sim.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		if err := check.Verify(w, res); err != nil {
			t.Fatalf("%s: checker: %v", name, err)
		}
		var st coshh.Stats
		if c, ok := p.(*coshh.Policy); ok {
			st = c.Stats
		}
		fmt.Fprintf(&b, "| %s | %d | %.2f | %.2f | %d | %.1f | %.2f | %d | %d | %.1f / %.2f | %.0f | %.1f |\n", name,
			tm.offers.n, float64(tm.offers.mean().Nanoseconds())/1e3, float64(tm.offers.max.Nanoseconds())/1e6,
			tm.arrivals.n, float64(tm.arrivals.mean().Nanoseconds())/1e3, float64(tm.arrivals.max.Nanoseconds())/1e6,
			st.Classifications, st.LPSolves, float64(st.LPWall.Nanoseconds())/1e6, float64(st.LPMaxWall.Nanoseconds())/1e6,
			res.Metrics.MeanTurnaround, res.Wall.Seconds())
		t.Logf("%s done %d/%d", name, res.Metrics.CompletedJobs, len(w.Jobs))
	}
	if err := os.WriteFile(filepath.Join(out, "coshh-swim.md"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
