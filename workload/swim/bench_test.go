package swim_test

import (
	"os"
	"testing"

	"github.com/mrbound/mrbound/internal/cputime"
	"github.com/mrbound/mrbound/policy/fair"
	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
	"github.com/mrbound/mrbound/workload/swim"
)

const fbDay = "../../../shared/traces/swim/FB-2009_samples_24_times_1hr_0.tsv"

func loadDay(b testing.TB) *sim.Workload {
	if _, err := os.Stat(fbDay); err != nil {
		b.Skip("../shared/traces/swim is absent")
	}
	w, err := swim.Load(fbDay, swim.DefaultModel(), swim.DefaultCluster())
	if err != nil {
		b.Fatal(err)
	}
	return w
}

// BenchmarkFB2009Day simulates the whole FB-2009 day (5,894 jobs, ~432k
// tasks) on 600 nodes × (2 map + 2 reduce) under FIFO, in ideal mode and
// with 3 s heartbeats; it reports task events per second.
func BenchmarkFB2009Day(b *testing.B) {
	w := loadDay(b)
	for _, mode := range []struct {
		name string
		h    sim.Time
	}{{"ideal", 0}, {"hadoop1", 3000}} {
		for _, pol := range []struct {
			name string
			new  func() sim.Policy
		}{{"fifo", func() sim.Policy { return fifo.New() }}, {"fair", func() sim.Policy { return fair.New() }}} {
			b.Run(mode.name+"/"+pol.name, func(b *testing.B) {
				opt := sim.DefaultOptions()
				opt.Heartbeat = mode.h
				var res *sim.Result
				b.ReportAllocs()
				cpu := cputime.Now()
				for b.Loop() {
					var err error
					if res, err = sim.Run(w, pol.new(), opt); err != nil {
						b.Fatal(err)
					}
				}
				cputime.ReportMS(b, cpu)
				perRun := (cputime.Now() - cpu).Seconds() / float64(b.N)
				b.ReportMetric(float64(res.TaskEvents)/(b.Elapsed().Seconds()/float64(b.N)), "task-events/s")
				if perRun > 0 {
					b.ReportMetric(float64(res.TaskEvents)/perRun, "task-events/cpu-s")
				}
				b.ReportMetric(float64(res.Events), "events")
				b.ReportMetric(float64(res.Metrics.CompletedJobs), "jobs")
			})
		}
	}
}

// TestFB2009DayVerified: the whole day under FIFO completes every job and
// passes the checker (skipped under -short).
func TestFB2009DayVerified(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole day takes seconds")
	}
	w := loadDay(t)
	opt := sim.DefaultOptions()
	res, err := sim.Run(w, fifo.New(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := check.Verify(w, res); err != nil {
		t.Fatal(err)
	}
	if res.Metrics.CompletedJobs != len(w.Jobs) {
		t.Errorf("%d of %d jobs completed", res.Metrics.CompletedJobs, len(w.Jobs))
	}
	t.Logf("%s; %d task events, %d events, wall %v", res, res.TaskEvents, res.Events, res.Wall)
}
