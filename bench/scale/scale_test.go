package main

import (
	"context"
	"flag"
	"os"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/mrbound/mrbound/compare/simbridge"
	"github.com/mrbound/mrbound/internal/cputime"
	"github.com/mrbound/mrbound/internal/gcpace"
	"github.com/mrbound/mrbound/policy"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
	"github.com/mrbound/mrbound/workload"
)

var benchBlockMB = flag.Float64("block-mb", 4, "BenchmarkDay: MB of input per map (1 = the 25 M-task stand-in for a production day)")

const dayFile = "../../../shared/traces/swim/FB-2009_samples_24_times_1hr_0.tsv"

// BenchmarkDay simulates FB-2009 day 0 with FIFO on 600 nodes and verifies
// the run: task events per CPU second of the engine, CPU seconds of the
// checker, and bytes per task live after the run (workload and result) and
// allocated in all. Memory grows with -block-mb: 4 (6.4 M tasks) needs
// about 2 GB, 1 (25 M tasks) about 8 GB.
//
//	nice go test -run - -bench Day ./bench/scale -block-mb 4
func BenchmarkDay(b *testing.B) {
	w := loadDay(b)
	tasks := float64(w.NumTasks())
	for b.Loop() {
		p, err := policy.New("fifo", policy.Params{})
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		c0 := cputime.Now()
		res, err := sim.Run(w, p, sim.DefaultOptions())
		if err != nil {
			b.Fatal(err)
		}
		c1 := cputime.Now()
		if err := check.Verify(w, res); err != nil {
			b.Fatal(err)
		}
		c2 := cputime.Now()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(res.TaskEvents)/(c1-c0).Seconds(), "task-events/cpu-s")
		b.ReportMetric((c2 - c1).Seconds(), "check-cpu-s")
		reportBytes(b, before, after, tasks)
		runtime.KeepAlive(res)
	}
}

// BenchmarkDayStreamed is BenchmarkDay on `mrbound simulate`'s path: the
// checker (check.Stream) takes the trace as the run makes it and nothing
// holds it. Task events per CPU second of the run with its check, bytes
// per task allocated by both and live after them (the workload and the
// result without a trace).
//
//	nice go test -run - -bench DayStreamed -cpu 1 -benchtime 1x ./bench/scale -block-mb 4
func BenchmarkDayStreamed(b *testing.B) {
	w := loadDay(b)
	tasks := float64(w.NumTasks())
	for b.Loop() {
		p, err := policy.New("fifo", policy.Params{})
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		c0 := cputime.Now()
		opt := sim.DefaultOptions()
		st := check.NewStream(w, opt)
		opt.Sink = st
		res, err := sim.Run(w, p, opt)
		if err != nil {
			b.Fatal(err)
		}
		if err := st.Finish(res); err != nil {
			b.Fatal(err)
		}
		c1 := cputime.Now()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(res.TaskEvents)/(c1-c0).Seconds(), "task-events/cpu-s")
		reportBytes(b, before, after, tasks)
		runtime.KeepAlive(res)
	}
}

// BenchmarkDayEngine is the engine alone on `mrbound simulate`'s path: the
// run hands its records to a sink that counts them and keeps nothing, so
// neither a held trace nor the checker is in the figure (BenchmarkDay holds
// the trace, BenchmarkDayStreamed adds the check). Task events per CPU
// second of the run; the count of records the sink saw must be the trace's.
//
//	nice go test -run - -bench DayEngine -cpu 1 ./bench/scale -block-mb 64
func BenchmarkDayEngine(b *testing.B) {
	w := loadDay(b)
	for b.Loop() {
		p, err := policy.New("fifo", policy.Params{})
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		var sink countingSink
		opt := sim.DefaultOptions()
		opt.Sink = &sink
		c0 := cputime.Now()
		res, err := sim.Run(w, p, opt)
		if err != nil {
			b.Fatal(err)
		}
		c1 := cputime.Now()
		if sink.launched != sink.ended || sink.ended == 0 {
			b.Fatalf("the sink saw %d launches and %d ends", sink.launched, sink.ended)
		}
		b.ReportMetric(float64(res.TaskEvents)/(c1-c0).Seconds(), "task-events/cpu-s")
	}
}

// countingSink is a sim.TraceSink that counts the records and keeps none.
type countingSink struct{ launched, ended int }

func (c *countingSink) Begin(int, []int32)         {}
func (c *countingSink) Launched(int, *sim.Attempt) { c.launched++ }
func (c *countingSink) Ended(int, *sim.Attempt)    { c.ended++ }

// BenchmarkCompareDay runs simbridge.Compare on FB-2009 day 0 as `mrbound
// compare` does (ideal mode, the default metric, traces dropped once
// verified, the collector's pacing of package gcpace) with four policies,
// the bounds and the offline constructions (no local search, so that the
// work does not depend on a time limit): CPU seconds per million tasks, and
// the peak resident set per task over the comparison.
//
//	nice go test -run - -bench CompareDay -benchtime 1x ./bench/scale -block-mb 16
func BenchmarkCompareDay(b *testing.B) {
	w := loadDay(b)
	tasks := w.NumTasks()
	if _, changed := gcpace.ForTasks(tasks); changed {
		defer debug.SetGCPercent(100)
	}
	for b.Loop() {
		var pols []simbridge.Named
		for _, n := range []string{"fifo", "fair", "hfsp", "hfsp-aftermaps"} {
			pols = append(pols, simbridge.Named{Name: n, Policy: policy.MustNew(n)})
		}
		runtime.GC()
		resetPeak()
		c0 := cputime.Now()
		out, err := simbridge.Compare(context.Background(), "day0", w, pols,
			simbridge.Options{Sim: simbridge.IdealOptions(), DropTraces: true, UpperEvaluations: -1})
		if err != nil {
			b.Fatal(err)
		}
		cpu := (cputime.Now() - c0).Seconds()
		for _, row := range out.Report.Policies {
			if !row.Verified {
				b.Fatalf("%s: not verified: %s", row.Policy, row.CheckError)
			}
		}
		b.ReportMetric(cpu/float64(tasks)*1e6, "cpu-s/M-tasks")
		if hwm, ok := peakRSS(); ok {
			b.ReportMetric(float64(hwm)/float64(tasks), "peak-B/task")
		}
		b.ReportMetric(float64(tasks), "tasks")
	}
}

// loadDay loads the SWIM day at -block-mb, or skips the benchmark without it.
func loadDay(b *testing.B) *sim.Workload {
	if _, err := os.Stat(dayFile); err != nil {
		b.Skipf("no SWIM day: %v", err)
	}
	o := workload.DefaultOptions()
	o.SWIM.BlockBytes = int64(*benchBlockMB * (1 << 20))
	w, err := workload.Load(dayFile, o)
	if err != nil {
		b.Fatal(err)
	}
	return w
}

// reportBytes reports the bytes per task allocated between the before and
// after statistics and live after a collection (the caller keeps its result
// alive past the call), and the task count.
func reportBytes(b *testing.B, before, after runtime.MemStats, tasks float64) {
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/tasks, "alloc-B/task")
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc)/tasks, "live-B/task")
	b.ReportMetric(tasks, "tasks")
}
