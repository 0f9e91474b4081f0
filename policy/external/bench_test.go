package external

import (
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/workload"
)

// BenchmarkFBDay replays the whole FB-2009 day (600 nodes) with the Python
// FIFO over the protocol and with the built-in FIFO, in ideal mode and with
// 3 s heartbeats, and reports task events per second of wall time for each
// and their ratio (docs/results.md, "Issue 27: protocol"). Wall figures
// on a shared machine mostly measure the load (every message is a round
// trip between two processes that wait for a core), so it also reports the
// CPU time of both sides of the Python run: task-events/cpu-s is the task
// events per CPU-second of mrbound and Python together, which is what an
// idle machine would give apart from the pipe's latency:
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
			var cpu time.Duration // the Python processes' CPU time
			rate := func(p func() sim.Policy) (float64, int64, time.Duration) {
				var events int64
				start, self := time.Now(), selfCPU()
				for range b.N {
					pol := p()
					res, err := sim.Run(w, pol, opt)
					if err != nil {
						b.Fatal(err)
					}
					events += res.TaskEvents
					if e, ok := pol.(*Policy); ok {
						cpu += e.cpu
					}
				}
				return float64(events) / time.Since(start).Seconds(), events / int64(b.N), selfCPU() - self
			}
			builtin, _, _ := rate(func() sim.Policy { return fifo.New() })
			b.ResetTimer()
			python, events, goCPU := rate(func() sim.Policy { return newExternal(b, pythonFIFO, time.Minute) })
			b.ReportMetric(python, "task-events/s")
			b.ReportMetric(float64(events)*float64(b.N)/(goCPU+cpu).Seconds(), "task-events/cpu-s")
			b.ReportMetric(cpu.Seconds()/float64(b.N), "python-cpu-s/run")
			b.ReportMetric(goCPU.Seconds()/float64(b.N), "go-cpu-s/run")
			b.ReportMetric(builtin, "builtin-task-events/s")
			b.ReportMetric(python/builtin, "ratio")
			b.ReportMetric(float64(events), "task-events/run")
		})
	}
}

// selfCPU is this process's user + system CPU time so far.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
