package check_test

import (
	"flag"
	"math"
	"os"
	"runtime"
	"testing"

	"github.com/mrbound/mrbound/internal/cputime"
	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
	"github.com/mrbound/mrbound/workload"
)

var streamBlockMB = flag.Float64("stream-block-mb", 16, "BenchmarkStreamDay: MB of input per map (4: 6.4 M tasks, 1: 25.7 M)")

// recorder keeps the calls an engine makes on its sink, so that the
// checker's share of a streamed run can be timed apart from the engine's.
type recorder struct {
	rep   int
	reps  []int32
	calls []call
}

type call struct {
	i   int32
	end bool
	a   sim.Attempt
}

func (r *recorder) Begin(rep int, replicas []int32) { r.rep, r.reps = rep, replicas }
func (r *recorder) Launched(i int, a *sim.Attempt) {
	r.calls = append(r.calls, call{int32(i), false, *a})
}
func (r *recorder) Ended(i int, a *sim.Attempt) { r.calls = append(r.calls, call{int32(i), true, *a}) }

// BenchmarkStreamDay times check.Stream alone on FB-2009 day 0 under FIFO
// (600 nodes, 3 s heartbeats): the run's sink calls are recorded once, then
// each iteration replays them into a new Stream and finishes it, which
// must accept the run. It reports the checker's nanoseconds per task event
// (a launch or an end handed over) and the bytes it allocates per task.
//
//	go test -run - -bench StreamDay -cpu 1 ./sim/check -stream-block-mb 4
func BenchmarkStreamDay(b *testing.B) {
	w := loadStreamDay(b)
	opt := sim.DefaultOptions()
	rec := &recorder{}
	opt.Sink = rec
	res, err := sim.Run(w, fifo.New(), opt)
	if err != nil {
		b.Fatal(err)
	}
	tasks := float64(w.NumTasks())
	cpu := math.Inf(1) // the least over the iterations, as in BenchmarkStreamedRunDay
	var alloc uint64
	runtime.GC()
	b.ResetTimer()
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		c0 := cputime.Now()
		s := check.NewStream(w, opt)
		s.Begin(rec.rep, rec.reps)
		for k := range rec.calls {
			c := &rec.calls[k]
			a := c.a
			if c.end {
				s.Ended(int(c.i), &a)
			} else {
				s.Launched(int(c.i), &a)
			}
		}
		if err := s.Finish(res); err != nil {
			b.Fatal(err)
		}
		cpu = min(cpu, (cputime.Now() - c0).Seconds())
		runtime.ReadMemStats(&after)
		alloc += after.TotalAlloc - before.TotalAlloc
	}
	n := float64(b.N)
	b.ReportMetric(cpu/float64(len(rec.calls))*1e9, "cpu-ns/event")
	b.ReportMetric(cpu, "cpu-s/op")
	b.ReportMetric(float64(alloc)/n/tasks, "alloc-B/task")
	b.ReportMetric(tasks, "tasks")
}

// nopSink takes a run's records and does nothing with them: a streamed
// run without a checker.
type nopSink struct{}

func (nopSink) Begin(int, []int32)         {}
func (nopSink) Launched(int, *sim.Attempt) {}
func (nopSink) Ended(int, *sim.Attempt)    {}

// BenchmarkStreamedRunDay times check.Stream where it runs, inside the
// engine's run on FB-2009 day 0 under FIFO (600 nodes, 3 s heartbeats):
// each iteration runs the day twice, streamed to a sink that does nothing
// and streamed to a Stream (then finished, which must accept the run), and
// the difference of their CPU times is the checker's. Unlike the replay of
// BenchmarkStreamDay, the checker then finds in cache what the engine has
// just read (a launched task's spec and replicas).
//
//	go test -run - -bench StreamedRunDay -cpu 1 ./sim/check -stream-block-mb 4
func BenchmarkStreamedRunDay(b *testing.B) {
	w := loadStreamDay(b)
	// the least of each over the iterations: at a high load the least is
	// the least disturbed by the neighbours
	bare, checked := math.Inf(1), math.Inf(1)
	var events int64
	for b.Loop() {
		opt := sim.DefaultOptions()
		opt.Sink = nopSink{}
		runtime.GC()
		c0 := cputime.Now()
		res, err := sim.Run(w, fifo.New(), opt)
		if err != nil {
			b.Fatal(err)
		}
		bare = min(bare, (cputime.Now() - c0).Seconds())
		events = res.TaskEvents
		runtime.GC()
		c0 = cputime.Now()
		st := check.NewStream(w, opt)
		opt.Sink = st
		if res, err = sim.Run(w, fifo.New(), opt); err != nil {
			b.Fatal(err)
		}
		if err := st.Finish(res); err != nil {
			b.Fatal(err)
		}
		checked = min(checked, (cputime.Now() - c0).Seconds())
	}
	b.ReportMetric(bare, "run-cpu-s")
	b.ReportMetric(checked, "run+check-cpu-s")
	b.ReportMetric((checked-bare)/float64(2*events)*1e9, "check-cpu-ns/event")
}

// loadStreamDay loads the SWIM day at -stream-block-mb, or skips b when the
// trace is not there.
func loadStreamDay(b *testing.B) *sim.Workload {
	const day = "../../../shared/traces/swim/FB-2009_samples_24_times_1hr_0.tsv"
	if _, err := os.Stat(day); err != nil {
		b.Skipf("no SWIM day: %v", err)
	}
	o := workload.DefaultOptions()
	o.SWIM.BlockBytes = int64(*streamBlockMB * (1 << 20))
	w, err := workload.Load(day, o)
	if err != nil {
		b.Fatal(err)
	}
	return w
}
