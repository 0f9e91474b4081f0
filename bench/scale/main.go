// Command scale measures the simulator, its independent checker and the
// trace writer on one large SWIM day (issue 30): the CPU time and live heap
// of each phase, the engine's task events per CPU second, and the process's
// peak resident memory per task. The stand-in for a 16 M-task production day
// is FB-2009 day 0 with 1 MB blocks (about 25 M tasks):
//
//	nice go run ./bench/scale -block-mb 1
//	nice go run ./bench/scale -block-mb 4 -trace /tmp/day0.tsv
//	nice go run ./bench/scale -block-mb 4 -keep   # the trace kept, then checked
//
// By default the checker (check.Stream) and the trace writer
// (report.TraceWriter) take the trace as the run makes it, as `mrbound
// simulate` does; -keep keeps the whole trace in the result and checks it
// after the run (check.Verify), the path of before issue 30's streaming.
//
// The figures are for docs/results.md; the machine is often shared, so the
// phases are timed in CPU seconds (user + system) as well as wall seconds.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mrbound/mrbound/compare/simbridge"
	"github.com/mrbound/mrbound/internal/atomicfile"
	"github.com/mrbound/mrbound/internal/cputime"
	"github.com/mrbound/mrbound/internal/gcpace"
	"github.com/mrbound/mrbound/internal/plural"
	"github.com/mrbound/mrbound/policy"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
	"github.com/mrbound/mrbound/sim/report"
	"github.com/mrbound/mrbound/workload"
)

func main() {
	file := flag.String("file", "../shared/traces/swim/FB-2009_samples_24_times_1hr_0.tsv", "SWIM trace")
	blockMB := flag.Float64("block-mb", 1, "MB of input per map (64 = the default model)")
	nodes := flag.Int("nodes", 600, "nodes")
	pol := flag.String("policy", "fifo", "policy")
	heartbeat := flag.Duration("heartbeat", 3*time.Second, "heartbeat (0 = ideal mode)")
	trace := flag.String("trace", "", "also write the TSV trace to this file")
	keep := flag.Bool("keep", false, "keep the whole trace and check it after the run, instead of streaming it to the checker and the writer")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the simulation phase (with -compare: of the comparison) to this file")
	policies := flag.String("compare", "", "instead: run `mrbound compare` on the day with these comma-separated policies (ideal mode, the bounds, each trace verified)")
	memProfile := flag.String("memprofile", "", "with -compare: write an allocation profile to this file")
	flag.IntVar(&upperEvals, "upper-evaluations", 0, "with -compare: the upper side's local-search runs (0: its default, -1: none)")
	flag.DurationVar(&upperLimit, "upper-time-limit", 30*time.Second, "with -compare: the upper side's time limit, as compare's --upper-time-limit (0: none)")
	flag.Parse()
	profile = *cpuProfile
	if *policies != "" {
		if err := runCompare(os.Stdout, *file, *blockMB, *nodes, strings.Split(*policies, ","), *memProfile); err != nil {
			fmt.Fprintln(os.Stderr, "scale:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(os.Stdout, *file, *blockMB, *nodes, *pol, sim.Time(heartbeat.Milliseconds()), *trace, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "scale:", err)
		os.Exit(1)
	}
}

// phase times one step in wall and CPU seconds and reports the live heap
// after it (after a collection, so it is what the step left behind).
type phase struct {
	out  io.Writer
	wall time.Time
	cpu0 time.Duration
}

func start(out io.Writer) *phase {
	return &phase{out: out, wall: time.Now(), cpu0: cputime.Now()}
}

func (p *phase) done(name string, tasks int) {
	wall := time.Since(p.wall).Seconds()
	cpu := (cputime.Now() - p.cpu0).Seconds()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Fprintf(p.out, "%-10s wall %7.2f s  cpu %7.2f s  live heap %7.0f MB (%5.1f B/task)\n",
		name, wall, cpu, float64(ms.HeapAlloc)/1e6, float64(ms.HeapAlloc)/float64(tasks))
	p.wall, p.cpu0 = time.Now(), cputime.Now()
}

// profile, when set, receives a CPU profile of the simulation phase (of
// the whole comparison with -compare).
var profile string

// upperEvals is simbridge.Options.UpperEvaluations for -compare.
var upperEvals int

// upperLimit is simbridge.Options.UpperTimeLimit for -compare.
var upperLimit time.Duration

func run(out io.Writer, file string, blockMB float64, nodes int, polName string, heartbeat sim.Time, tracePath string, keep bool) error {
	o := workload.DefaultOptions()
	o.SWIM.BlockBytes = int64(blockMB * (1 << 20))
	o.SWIMCluster.Nodes = nodes
	fmt.Fprintf(out, "file %s, --block-mb %g, %s, policy %s, heartbeat %d ms, %s, %s\n",
		file, blockMB, plural.Count(nodes, "node"), polName, heartbeat, runtime.Version(), plural.Count(runtime.NumCPU(), "CPU"))
	p := start(out)
	w, err := workload.Load(file, o)
	if err != nil {
		return err
	}
	tasks := w.NumTasks()
	fmt.Fprintf(out, "workload   %s, %s\n", plural.Count(len(w.Jobs), "job"), plural.Count(tasks, "task"))
	p.done("load", tasks)
	pol, err := policy.New(polName, policy.Params{})
	if err != nil {
		return err
	}
	opt := sim.DefaultOptions()
	opt.Heartbeat = heartbeat
	stopProfile, err := startProfile(profile)
	if err != nil {
		return err
	}
	defer stopProfile()
	if !keep {
		return runStreamed(out, p, w, pol, opt, tracePath, stopProfile)
	}
	c0 := cputime.Now()
	res, err := sim.Run(w, pol, opt)
	if err != nil {
		return err
	}
	stopProfile()
	simCPU := (cputime.Now() - c0).Seconds()
	p.done("simulate", tasks)
	if err := check.Verify(w, res); err != nil {
		return fmt.Errorf("the checker rejects the run: %w", err)
	}
	p.done("check", tasks)
	if tracePath != "" {
		rep := &report.Report{File: file, Workload: w, Result: res}
		if err := atomicfile.Write(tracePath, func(f io.Writer) error {
			b := bufio.NewWriterSize(f, 1<<20)
			if err := rep.WriteTrace(b); err != nil {
				return err
			}
			return b.Flush()
		}); err != nil {
			return err
		}
		p.done("trace", tasks)
	}
	printEngine(out, res, simCPU, tasks, "")
	runtime.KeepAlive(w)
	return nil
}

// printEngine prints the run's task events per CPU second of simCPU (what
// else that CPU holds in note) and the process's peak resident set.
func printEngine(out io.Writer, res *sim.Result, simCPU float64, tasks int, note string) {
	fmt.Fprintf(out, "engine     %s, %s, %.2f M task events per CPU second%s\n",
		plural.Count(int(res.TaskEvents), "task event"), plural.Count(int(res.Events), "event"), float64(res.TaskEvents)/simCPU/1e6, note)
	if hwm, ok := peakRSS(); ok {
		fmt.Fprintf(out, "peak RSS   %.0f MB, %.0f B/task\n", float64(hwm)/1e6, float64(hwm)/float64(tasks))
	}
}

// runStreamed is run's default path, `mrbound simulate`'s: the checker and
// the trace writer take the trace as the run makes it, so the phase
// "simulate" includes the check (and the trace, when written).
func runStreamed(out io.Writer, p *phase, w *sim.Workload, pol sim.Policy, opt sim.Options, tracePath string, stopProfile func()) error {
	tasks := w.NumTasks()
	st := check.NewStream(w, opt)
	var res *sim.Result
	var simCPU float64
	simulate := func(tw *report.TraceWriter) error {
		opt.Sink = st
		if tw != nil {
			opt.Sink = sim.Tee(st, tw)
		}
		c0 := cputime.Now()
		var err error
		if res, err = sim.Run(w, pol, opt); err != nil {
			return err
		}
		stopProfile()
		simCPU = (cputime.Now() - c0).Seconds()
		if tw != nil {
			return tw.Close()
		}
		return nil
	}
	var err error
	if tracePath != "" {
		err = atomicfile.Write(tracePath, func(f io.Writer) error { return simulate(report.NewTraceWriter(f)) })
	} else {
		err = simulate(nil)
	}
	if err != nil {
		return err
	}
	if err := st.Finish(res); err != nil {
		return fmt.Errorf("the checker rejects the run: %w", err)
	}
	p.done("sim+check", tasks)
	printEngine(out, res, simCPU, tasks, " (the check and the trace included)")
	runtime.KeepAlive(w)
	return nil
}

// runCompare runs simbridge.Compare as `mrbound compare` does (ideal mode,
// the default metric, traces dropped once verified) and reports its CPU time
// and peak RSS per task.
func runCompare(out io.Writer, file string, blockMB float64, nodes int, names []string, memProfile string) error {
	if memProfile != "" {
		runtime.MemProfileRate = 64 << 10
	}
	o := workload.DefaultOptions()
	o.SWIM.BlockBytes = int64(blockMB * (1 << 20))
	o.SWIMCluster.Nodes = nodes
	w, err := workload.Load(file, o)
	if err != nil {
		return err
	}
	tasks := w.NumTasks()
	gcpace.ForTasks(tasks) // as mrbound compare does (GOGC=100 in the environment: the default pacing)
	fmt.Fprintf(out, "compare %s, --block-mb %g, %s, %s, %s, policies %v\n", file, blockMB, plural.Count(nodes, "node"),
		plural.Count(len(w.Jobs), "job"), plural.Count(tasks, "task"), names)
	var pols []simbridge.Named
	for _, n := range names {
		p, err := policy.New(n, policy.Params{})
		if err != nil {
			return err
		}
		pols = append(pols, simbridge.Named{Name: n, Policy: p})
	}
	stopProfile, err := startProfile(profile)
	if err != nil {
		return err
	}
	defer stopProfile()
	// Each step's CPU time and the peak resident set over it (the kernel's
	// high-water mark, reset at each step when it can be): the peak of
	// the whole run is the largest of them. The reset also resets what
	// getrusage (and so /usr/bin/time) reports as the maximum resident set.
	resetPeak()
	c0 := cputime.Now()
	last, wall := c0, time.Now()
	var maxHWM int64
	step := func(name string) {
		now := cputime.Now()
		hwm, _ := peakRSS()
		maxHWM = max(maxHWM, hwm)
		fmt.Fprintf(out, "  step %-16s cpu %7.2f s  wall %7.2f s  peak RSS %6.0f MB (%4.0f B/task)\n",
			name, (now - last).Seconds(), time.Since(wall).Seconds(), float64(hwm)/1e6, float64(hwm)/float64(tasks))
		last, wall = cputime.Now(), time.Now()
		resetPeak()
	}
	nSteps := len(names) + 1
	co := simbridge.Options{Sim: simbridge.IdealOptions(), DropTraces: true, UpperEvaluations: upperEvals, UpperTimeLimit: upperLimit}
	co.Progress = func(done, total int) {
		if done <= len(names) {
			step("policy " + names[done-1])
		} else if done == nSteps {
			step("offline bounds")
		}
	}
	res, err := simbridge.Compare(context.Background(), file, w, pols, co)
	if err != nil {
		return err
	}
	step("offline upper")
	stopProfile()
	fmt.Fprintf(out, "cpu %.2f s (offline side %.2f s wall), bound %.6g by %s\n", (cputime.Now() - c0).Seconds(), res.BoundWall.Seconds(), res.Report.Bound, res.Report.By)
	if res.Upper != nil && res.Report.Upper != nil {
		fmt.Fprintf(out, "upper side: %s, upper %.6g by %s\n", plural.Count(res.Upper.Evaluations, "simulator run"), *res.Report.Upper, res.Report.UpperBy)
	}
	for _, row := range res.Report.Policies {
		fmt.Fprintf(out, "  %-8s %.6g verified %v\n", row.Policy, row.Value, row.Verified)
	}
	if maxHWM > 0 {
		fmt.Fprintf(out, "peak RSS %.0f MB, %.0f B/task (the largest step's)\n", float64(maxHWM)/1e6, float64(maxHWM)/float64(tasks))
	}
	if memProfile != "" {
		f, err := os.Create(memProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		runtime.GC() // the profile shows allocations up to the last collection
		return pprof.Lookup("allocs").WriteTo(f, 0)
	}
	return nil
}

// resetPeak resets the process's peak resident set to its current one
// (Linux ≥ 4.0; elsewhere the peaks are the whole run's so far).
func resetPeak() {
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

// peakRSS is the process's peak resident set (VmHWM) in bytes, on Linux.
func peakRSS() (int64, bool) {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(rest)
			if len(f) == 2 && f[1] == "kB" {
				if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					return kb * 1024, true
				}
			}
		}
	}
	return 0, false
}

// startProfile starts a CPU profile into path ("" for none); stop ends it
// and closes the file (it may be called more than once).
func startProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return sync.OnceFunc(func() { pprof.StopCPUProfile(); f.Close() }), nil
}
