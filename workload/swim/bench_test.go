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

// BenchmarkExpandDay builds the FB-2009 day's workload from its parsed
// records at 1.55-MB blocks on 3,000 nodes (16,573,984 tasks, the size of
// the FB-2010 day of issue 30): the expansion of jobs to tasks alone, with
// its first touch of the task specs. It reports CPU per build and tasks.
func BenchmarkExpandDay(b *testing.B) {
	f, err := os.Open(fbDay)
	if err != nil {
		b.Skip("../shared/traces/swim is absent")
	}
	recs, err := swim.Read(f, fbDay)
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	m, c := swim.DefaultModel(), swim.DefaultCluster()
	blockMB := 1.55 // as mrbound simulate --block-mb 1.55 turns it into bytes
	m.BlockBytes, c.Nodes = int64(blockMB*(1<<20)), 3000
	tasks := 0
	cpu := cputime.Now()
	for b.Loop() {
		w, err := m.Workload(recs, c, fbDay)
		if err != nil {
			b.Fatal(err)
		}
		tasks = w.NumTasks()
	}
	cputime.ReportMS(b, cpu)
	b.ReportMetric(float64(tasks), "tasks")
}
