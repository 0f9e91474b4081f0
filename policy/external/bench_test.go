package external

import (
	"os"
	"testing"
	"time"

	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/workload"
)

// BenchmarkFBDay replays the whole FB-2009 day (600 nodes) with the Python
// FIFO over the protocol and with the built-in FIFO, in ideal mode and with
// 3 s heartbeats, and reports task events per second of wall time for each
// and their ratio (docs/results.md, "Issue 27: protocol"):
//
//	nice go test ./policy/external -run '^$' -bench FBDay -benchtime 1x
func BenchmarkFBDay(b *testing.B) {
	needPython(b)
	if _, err := os.Stat(fbDay); err != nil {
		b.Skipf("%s is absent", fbDay)
	}
	w, err := workload.Load(fbDay, workload.DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	for _, mode := range []struct {
		name string
		h    sim.Time
	}{{"ideal", 0}, {"hadoop1", 3000}} {
		b.Run(mode.name, func(b *testing.B) {
			opt := sim.DefaultOptions()
			opt.Heartbeat = mode.h
			rate := func(p func() sim.Policy) (float64, int64) {
				var events int64
				start := time.Now()
				for range b.N {
					res, err := sim.Run(w, p(), opt)
					if err != nil {
						b.Fatal(err)
					}
					events += res.TaskEvents
				}
				return float64(events) / time.Since(start).Seconds(), events / int64(b.N)
			}
			builtin, _ := rate(func() sim.Policy { return fifo.New() })
			b.ResetTimer()
			python, events := rate(func() sim.Policy { return newExternal(b, pythonFIFO, time.Minute) })
			b.ReportMetric(python, "task-events/s")
			b.ReportMetric(builtin, "builtin-task-events/s")
			b.ReportMetric(python/builtin, "ratio")
			b.ReportMetric(float64(events), "task-events/run")
		})
	}
}
