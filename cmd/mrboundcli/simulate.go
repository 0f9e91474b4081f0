package mrboundcli

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mrbound/mrbound/policy"
	"github.com/mrbound/mrbound/policy/external"
	"github.com/mrbound/mrbound/policy/mrcpsched"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
	"github.com/mrbound/mrbound/sim/report"
	"github.com/mrbound/mrbound/workload"
	"github.com/mrbound/mrbound/workload/swim"
)

// swimFlags apply only to SWIM traces (.tsv).
var swimFlags = []string{"nodes", "map-slots", "reduce-slots", "block-mb", "reduce-gb", "map-rate", "reduce-rate", "task-overhead", "replicas", "non-local-penalty", "reduces-need-shuffle"}

func simulateCommand() *cli.Command {
	dm, dc := swim.DefaultModel(), swim.DefaultCluster()
	return &cli.Command{
		Name:      "simulate",
		Usage:     "run an online policy on a workload in the discrete-event Hadoop simulator and verify the trace",
		ArgsUsage: "FILE",
		Description: `FILE is a SWIM trace (.tsv, e.g. ../shared/traces/swim), a JSON scenario of kind mrcp,
coshh (a job stream), jlassi or tumm (a scenario with a "batch": mrbound generate tumm writes one;
examples/tumm-mixed.json, not tumm-static.json or tumm-heterogeneous.json, which state only slots), or a
job trace told by its content: an SLS JSON job trace, a Rumen trace, an SLS synthetic workload or a
job file (JSON Lines; docs/traces.md), whose cluster --nodes, --nodes-file, --map-slots and
--reduce-slots override.
For a SWIM trace the cluster comes from --nodes/--map-slots/--reduce-slots and the bytes -> tasks
model from the other SWIM flags (docs/simulator.md). Every run's trace is re-verified by an
independent checker; the report says "verified" only when it passes.

A run that leaves jobs unfinished says how it ended on a "status" line: stopped at --horizon
(exit 0), stalled (no event left) or stuck (nothing but the policy's timers and offers left and
nothing changed for --stuck-after); a stalled or stuck run exits with code 2.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "policy", Value: "fifo", Usage: "online policy: " + strings.Join(policy.Names(), ", ") + ", or 'exec:COMMAND ARGS' for your own in any language (docs/own-policy.md)"},
			&cli.DurationFlag{Name: "policy-timeout", Value: external.DefaultTimeout, Usage: "exec: policies: the deadline of each reply (docs/protocol.md)"},
			&cli.DurationFlag{Name: "heartbeat", Value: 3 * time.Second, Usage: "heartbeat interval H; 0 = ideal mode (offers at every state change)"},
			&cli.BoolFlag{Name: "oob", Usage: "a task end triggers an immediate out-of-band heartbeat"},
			&cli.BoolFlag{Name: "h1caps", Usage: "Hadoop 1 per-heartbeat assignment caps (FIFO, EDF, Fair)"},
			&cli.Float64Flag{Name: "slowstart", Value: 0.05, Usage: "reduces may launch once this fraction of the job's maps completed"},
			&cli.Uint64Flag{Name: "seed", Usage: "seed of every random stream (block placement, noise, estimates, tie-breaks)"},
			&cli.StringFlag{Name: "estimates", Value: "exact", Usage: "what policies see: exact, given, mean, noisy, none"},
			&cli.Float64Flag{Name: "estimate-error", Usage: "I of --estimates noisy: estimate = truth x U[1-I, 1+I]"},
			&cli.Float64Flag{Name: "noise", Usage: "each launch's true duration is multiplied by U[1-noise, 1+noise]"},
			&cli.StringFlag{Name: "solver", Usage: "mrcp, coshh: the MILP/LP backend (native or highs)"},
			&cli.DurationFlag{Name: "solve-limit", Usage: "mrcp, coshh: wall-clock limit of one re-solve (mrcp default 60s, a safety net)"},
			&cli.DurationFlag{Name: "horizon", Usage: "stop the run at this simulated time (0 = none); jobs left then are reported, exit 0"},
			&cli.DurationFlag{Name: "stuck-after", Value: time.Duration(sim.DefaultStuckAfter) * time.Millisecond, Usage: "end a run as stuck once no job is to arrive, no running task can end and nothing changed for this long (0 = never; docs/simulator.md)"},
			&cli.StringFlag{Name: "mrcp-options", Usage: "mrcp: policies.md §2.4 options, comma-separated: skiphol, strict-times, latency=model, blocking-jt"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object instead of the human report"},
			&cli.StringFlag{Name: "trace", Usage: "write the per-task trace (TSV, times in s) to this file"},
			&cli.StringFlag{Name: "svg", Usage: "write the schedule as an SVG timeline to this file (one bar per task, colour per job)"},
			&cli.IntFlag{Name: "svg-max-tasks", Value: defaultSVGMaxTasks, Usage: "--svg refuses a workload of more tasks than this (its chart would be too large to open); raise it to force"},
			&cli.IntFlag{Name: "nodes", Value: dc.Nodes, Usage: "SWIM: number of nodes; traces: overrides the trace's nodes (docs/traces.md)"},
			&cli.IntFlag{Name: "map-slots", Value: dc.MapSlots, Usage: "SWIM: map slots per node; traces: overrides the slots from the trace or its record"},
			&cli.IntFlag{Name: "reduce-slots", Value: dc.ReduceSlots, Usage: "SWIM: reduce slots per node; traces: likewise"},
			&cli.StringFlag{Name: "nodes-file", Usage: "traces: an SLS nodes file giving the cluster's nodes (slots from --map-slots/--reduce-slots or the record)"},
			&cli.IntFlag{Name: "replicas", Value: dc.Replicas, Usage: "SWIM: replicas per block"},
			&cli.DurationFlag{Name: "non-local-penalty", Value: time.Duration(dc.NonLocalPenalty) * time.Millisecond, Usage: "SWIM: extra time of a map run away from its block"},
			&cli.Float64Flag{Name: "block-mb", Value: float64(dm.BlockBytes >> 20), Usage: "SWIM: MB of input per map"},
			&cli.Float64Flag{Name: "reduce-gb", Value: float64(dm.ReduceBytes >> 30), Usage: "SWIM: GB of shuffle per reduce"},
			&cli.Float64Flag{Name: "map-rate", Value: dm.MapRate / (1 << 20), Usage: "SWIM: MB/s a map processes"},
			&cli.Float64Flag{Name: "reduce-rate", Value: dm.ReduceRate / (1 << 20), Usage: "SWIM: MB/s a reduce processes"},
			&cli.DurationFlag{Name: "task-overhead", Value: time.Duration(dm.TaskOverhead) * time.Millisecond, Usage: "SWIM: fixed time added to every task"},
			&cli.BoolFlag{Name: "reduces-need-shuffle", Usage: "SWIM: a job without shuffle bytes is map-only"},
		},
		Action: simulateAction,
	}
}

func simulateAction(c *cli.Context) error {
	path, err := oneArg(c, "FILE")
	if err != nil {
		return err
	}
	wopts, err := workloadOptions(c, path)
	if err != nil {
		return err
	}
	if solves := c.String("policy") == "mrcp" || strings.HasPrefix(c.String("policy"), "coshh"); !solves && (c.IsSet("solver") || c.IsSet("solve-limit")) {
		return badInputf("--solver and --solve-limit apply to the policies that solve models (mrcp, coshh, coshh-fallback)")
	}
	if c.IsSet("mrcp-options") {
		if c.String("policy") != "mrcp" {
			return badInputf("--mrcp-options applies to the mrcp policy only")
		}
		if err := mrcpsched.ParseOptions(c.String("mrcp-options"), &mrcpsched.Options{}); err != nil {
			return badInputf("--mrcp-options: %v", err)
		}
	}
	if c.IsSet("policy-timeout") && !strings.HasPrefix(c.String("policy"), external.Prefix) {
		return badInputf("--policy-timeout applies to exec: policies only")
	}
	if c.Duration("policy-timeout") <= 0 {
		return badInputf("--policy-timeout: %v is not positive", c.Duration("policy-timeout"))
	}
	if c.Duration("solve-limit") < 0 {
		return badInputf("--solve-limit: %v is negative", c.Duration("solve-limit"))
	}
	pol, err := policy.New(c.String("policy"), policy.Params{H1Caps: c.Bool("h1caps"), Solver: c.String("solver"), SolveLimit: c.Duration("solve-limit"),
		MRCPOptions: c.String("mrcp-options"), PolicyTimeout: c.Duration("policy-timeout")})
	if err != nil {
		return err
	}
	opt, err := simOptions(c)
	if err != nil {
		return err
	}
	w, err := workload.Load(path, wopts)
	if err != nil {
		return badInput(err)
	}
	if err := svgSizeGuard(c, w.NumTasks()); err != nil {
		return err
	}
	bar := startProgress(c, "simulate", w.NumTasks(), "tasks")
	if bar != nil {
		opt.Progress = bar.Set
		// The engine's default (every 65 536 events) suits the fast
		// policies; a policy that re-solves a model at each arrival (mrcp)
		// or an exec: policy runs a few thousand events a second, and its
		// progress line would stay at 0 % to the end. A call under a mutex
		// every 1 024 events costs nothing measurable.
		opt.ProgressEvery = 1 << 10
	}
	ctx, stop := signalContext()
	defer stop()
	opt.Stop = func() bool { return ctx.Err() != nil }
	// Unless an output needs the whole trace (a chart, the user metrics),
	// the checker and the trace writer take it as the run makes it, and
	// nothing holds it: a day of tens of millions of tasks then costs what
	// the engine holds, not a trace besides (issue 30). The trace file is
	// then written during the run, to a temporary file renamed at the end.
	streaming := !report.NeedsTrace(w, !c.Bool("json"), c.String("svg") != "")
	var st *check.Stream
	var res *sim.Result
	simulate := func(tw *report.TraceWriter) error {
		if streaming {
			st = check.NewStream(w, opt)
			opt.Sink = st
			if tw != nil {
				opt.Sink = sim.Tee(st, tw)
			}
		}
		res, err = sim.Run(w, pol, opt)
		bar.Finish()
		// From here on a signal is the watcher's (signals.go): the outputs
		// are written whole or removed, never left half-written.
		stop()
		if err != nil {
			return badInput(err)
		}
		if tw != nil {
			return tw.Close()
		}
		return nil
	}
	if out := c.String("trace"); out != "" && streaming {
		err = writeFileAtomic(out, func(f io.Writer) error { return simulate(report.NewTraceWriter(f)) })
	} else {
		err = simulate(nil)
	}
	if err != nil {
		return err
	}
	var rep *report.Report
	if streaming {
		rep = report.Checked(path, w, res, st.Finish(res))
	} else {
		// The engine's per-task state is garbage now: collect it before
		// the checker allocates its own, or a large day holds both at its
		// peak.
		runtime.GC()
		rep = report.New(path, w, res)
		if out := c.String("trace"); out != "" {
			if err := writeFileAtomic(out, rep.WriteTrace); err != nil {
				return err
			}
		}
	}
	if out := c.String("svg"); out != "" {
		if err := writeFileAtomic(out, rep.WriteSVG); err != nil {
			return err
		}
	}
	if c.Bool("json") {
		if js, ok := pol.(policy.JSONSummarizer); ok {
			rep.PolicySummary = js.SummaryJSON(res)
		}
		err = rep.WriteJSON(c.App.Writer)
	} else {
		err = rep.WriteText(c.App.Writer)
		if sp, ok := pol.(policy.Summarizer); ok && err == nil {
			for _, line := range sp.Summary(res) {
				if _, err = fmt.Fprintln(c.App.Writer, line); err != nil {
					break
				}
			}
		}
	}
	if err != nil {
		return err
	}
	if !rep.Verified {
		return fmt.Errorf("simulate: the trace failed the independent check: %s", oneLine(rep.CheckError))
	}
	if res.Status == sim.Interrupted { // by signalContext's Ctrl-C
		return &stoppedBySignal{fmt.Errorf("simulate: %s: %s", res.Policy, res.Incomplete()), int(syscall.SIGINT)}
	}
	if res.Status == sim.Stuck || res.Status == sim.Stalled {
		return fmt.Errorf("simulate: %s: %s", res.Policy, res.Incomplete())
	}
	return nil
}

// defaultSVGMaxTasks: a chart of 20 000 task bars is about 4 MB of SVG,
// which browsers still open; a 40-node FB-2009 day (432 291 tasks) made
// 91 MB that nothing would.
const defaultSVGMaxTasks = 20000

// svgBytesPerTask is the SVG size of one task bar with its outline and
// label, measured on that FB day (91 MB / 432 291 tasks).
const svgBytesPerTask = 210

// svgSizeGuard refuses --svg for a workload whose chart would be too large,
// before the run, naming the size and the flag that forces it.
func svgSizeGuard(c *cli.Context, tasks int) error {
	limit := c.Int("svg-max-tasks")
	if c.String("svg") == "" || tasks <= limit {
		return nil
	}
	size := fmt.Sprintf("%d kB", (tasks*svgBytesPerTask+500)/1000)
	if mb := (tasks*svgBytesPerTask + 500_000) / 1_000_000; mb >= 1 {
		size = fmt.Sprintf("%d MB", mb)
	}
	return badInputf("--svg: the workload has %d tasks, more than --svg-max-tasks %d; its chart (one bar per task) would be about %s of SVG; "+
		"give --svg-max-tasks %d to write it anyway, or --trace FILE for the per-task trace as TSV",
		tasks, limit, size, tasks)
}

func simOptions(c *cli.Context) (sim.Options, error) {
	opt := sim.DefaultOptions()
	h := c.Duration("heartbeat")
	if h < 0 {
		return opt, badInputf("--heartbeat: %v is negative", h)
	}
	opt.Heartbeat = sim.Time(h / time.Millisecond)
	if h > 0 && opt.Heartbeat == 0 {
		return opt, badInputf("--heartbeat: %v is below 1 ms", h)
	}
	if c.Bool("oob") && opt.Heartbeat == 0 {
		return opt, badInputf("--oob needs heartbeats (--heartbeat > 0)")
	}
	if c.Bool("h1caps") && opt.Heartbeat == 0 {
		return opt, badInputf("--h1caps needs heartbeats (--heartbeat > 0)")
	}
	opt.OOB = c.Bool("oob")
	for _, f := range []string{"horizon", "stuck-after"} {
		if c.Duration(f) < 0 {
			return opt, badInputf("--%s: %v is negative", f, c.Duration(f))
		}
	}
	opt.Horizon = sim.Time(c.Duration("horizon") / time.Millisecond)
	if opt.StuckAfter = sim.Time(c.Duration("stuck-after") / time.Millisecond); opt.StuckAfter == 0 {
		opt.StuckAfter = -1 // never
	}
	opt.SlowStart = c.Float64("slowstart")
	opt.Seed = c.Uint64("seed")
	opt.Noise = c.Float64("noise")
	mode, ok := sim.ParseEstimateMode(c.String("estimates"))
	if !ok {
		return opt, badInputf("--estimates: unknown mode %q (exact, given, mean, noisy, none)", c.String("estimates"))
	}
	opt.Estimates = mode
	opt.EstimateError = c.Float64("estimate-error")
	if c.IsSet("estimate-error") && mode != sim.EstimateNoisy {
		return opt, badInputf("--estimate-error applies to --estimates noisy only")
	}
	// the engine validates the ranges; its messages name the option
	probe := sim.Workload{Cluster: sim.Cluster{Nodes: []sim.Node{{MapSlots: 1}}}, Jobs: []sim.Job{{Parent: -1, Deadline: sim.NoDeadline, Maps: []sim.TaskSpec{{}}}}}
	if _, err := sim.Run(&probe, policy.MustNew("fifo"), opt); err != nil {
		return opt, badInputf("%v", err)
	}
	return opt, nil
}

// workloadOptions reads the SWIM flags for a trace and refuses them for a
// scenario (simulate and compare).
func workloadOptions(c *cli.Context, path string) (workload.Options, error) {
	if workload.IsSWIM(path) {
		if c.IsSet("nodes-file") {
			return workload.Options{}, badInputf("--nodes-file applies to job traces (SLS, Rumen, job files, synthetic workloads); %s is a SWIM trace: give --nodes", path)
		}
		return swimOptions(c)
	}
	if f := detectFormat(path); f.IsTrace() {
		return traceOptions(c, path, f)
	}
	if c.IsSet("nodes-file") {
		return workload.Options{}, badInputf("--nodes-file applies to job traces (SLS, Rumen, job files, synthetic workloads); %s is not one", path)
	}
	for _, f := range swimFlags {
		if c.IsSet(f) {
			return workload.Options{}, badInputf("--%s applies to SWIM traces (.tsv) only; %s is a scenario", f, path)
		}
	}
	return workload.DefaultOptions(), nil
}

func swimOptions(c *cli.Context) (workload.Options, error) {
	o := workload.DefaultOptions()
	mb := func(name string, scale float64) (float64, error) {
		v := c.Float64(name)
		if !(v > 0) || math.IsInf(v, 0) {
			return 0, badInputf("--%s: %v must be positive", name, v)
		}
		return v * scale, nil
	}
	block, err := mb("block-mb", 1<<20)
	if err != nil {
		return o, err
	}
	red, err := mb("reduce-gb", 1<<30)
	if err != nil {
		return o, err
	}
	if o.SWIM.MapRate, err = mb("map-rate", 1<<20); err != nil {
		return o, err
	}
	if o.SWIM.ReduceRate, err = mb("reduce-rate", 1<<20); err != nil {
		return o, err
	}
	o.SWIM.BlockBytes, o.SWIM.ReduceBytes = int64(block), int64(red)
	if d := c.Duration("task-overhead"); d < 0 {
		return o, badInputf("--task-overhead: %v is negative", d)
	} else {
		o.SWIM.TaskOverhead = sim.Time(d / time.Millisecond)
	}
	o.SWIM.ReducesNeedShuffle = c.Bool("reduces-need-shuffle")
	o.SWIMCluster = swim.ClusterSpec{Nodes: c.Int("nodes"), MapSlots: c.Int("map-slots"), ReduceSlots: c.Int("reduce-slots"), Replicas: c.Int("replicas")}
	if d := c.Duration("non-local-penalty"); d < 0 {
		return o, badInputf("--non-local-penalty: %v is negative", d)
	} else {
		o.SWIMCluster.NonLocalPenalty = sim.Time(d / time.Millisecond)
	}
	return o, nil
}
