package mrboundcli

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mrbound/mrbound/badinput"

	"github.com/mrbound/mrbound/compare/simbridge"
	"github.com/mrbound/mrbound/internal/gcpace"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/policy"
	"github.com/mrbound/mrbound/policy/external"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/upperbound"
	"github.com/mrbound/mrbound/workload"
)

// swimCLIFlags are simulate's SWIM flags (cluster and bytes → tasks model),
// shared so that both commands read a trace the same way (workloadOptions).
func swimCLIFlags() []cli.Flag {
	var out []cli.Flag
	for _, f := range simulateCommand().Flags {
		if slices.Contains(swimFlags, f.Names()[0]) || f.Names()[0] == "nodes-file" {
			out = append(out, f)
		}
	}
	return out
}

func compareCommand() *cli.Command {
	return &cli.Command{
		Name:      "compare",
		Usage:     "run online policies in the simulator and compare each with the offline optimum or a certified lower bound",
		ArgsUsage: "FILE | --family NAME --lambdas L1,L2,… --table FILE.csv",
		Description: `FILE is a SWIM trace (.tsv), turned into tasks and a cluster by the SWIM flags as in simulate,
a JSON scenario of kind mrcp, coshh or jlassi (package workload), or a job trace (SLS JSON, Rumen,
SLS synthetic, job file; docs/traces.md). A trace that recorded what its cluster did (SLS JSON,
Rumen) adds a row "recorded": that schedule, checked like every run.

Every policy runs in ideal mode (offers at once, reduces after all maps, true durations) and its
trace is verified by the independent checker. The offline side is the exact optimum when the
instance is tiny enough to enumerate, or when it is an MRCP stream of at most --optimum-jobs jobs
(for mean and total turnaround a model of at most 1200 columns) whose optimum the MRCP solver proves within the
time limit and whose schedule passes the checker; else the best certified lower bound
(docs/bounds.md). A verified policy value below
the bound is a bug and exits with code 2. Times are in seconds in the text, Markdown and CSV
reports and in milliseconds in the JSON, whose "unit" says so; docs/compare.md explains every number.

The upper end of the bracket is the best known schedule: the least verified value of the
policies and of offline clairvoyant constructions (package upperbound: list scheduling by true
remaining work, relaxation α-points, critical paths, deadlines, then a seeded local search over job
orders, --upper-evals runs), each run in the same simulator and verified by the checker; one that
fails the checker is listed and never used. The report gives upper, upper_by and the bracket
upper/bound (OPT lies within it; 1 proves the optimum), and each policy's ratio to the upper.
--no-upper skips them.

Sweep form: with --family (mrcp-small, mrcp-medium, mrcp-large, mrcp-mixed) and no FILE, every
instance of the family (--jobs jobs, each λ of --lambdas, seeds 1..--seeds) is compared; one row
per policy and instance is appended to --table as soon as it is known, so a killed sweep resumes
where it stopped, and --svg plots the mean ratio to the bound per policy against the offered load.`,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "policies", Required: true, Usage: "comma-separated policies: " + strings.Join(policy.Names(), ", ")},
			&cli.DurationFlag{Name: "policy-timeout", Value: external.DefaultTimeout, Usage: "exec: policies: the deadline of each reply (docs/protocol.md)"},
			&cli.StringFlag{Name: "metric", Usage: "makespan, total-turnaround, mean-turnaround, max-turnaround, late-jobs or mrcp-product (default: makespan for a batch, mean-turnaround for a stream)"},
			&cli.StringFlag{Name: "solver", Value: solve.DefaultSolver, Usage: "backend for the LP and the MRCP windows: native or highs"},
			&cli.DurationFlag{Name: "time-limit", Usage: "time limit of each LP or window solve; 0 is no limit (the whole-stream optimum of --optimum-jobs then gets 60s, its branch and bound 10m as a safety net: its node budget decides)", DefaultText: "0, no limit"},
			&cli.BoolFlag{Name: "lp", Usage: "add the bucketed LP relaxation to the turnaround bounds"},
			&cli.IntFlag{Name: "windows", Usage: "jobs per MRCP window for late jobs and max turnaround (0: off)"},
			&cli.IntFlag{Name: "lagrange-iterations", Usage: "subgradient steps of the interval Lagrangian bound on total and mean turnaround (default: as many as a fixed budget of work allows, fewer once the bound stops rising, docs/bounds.md §4b; 0: off; deterministic either way: a wall limit, --time-limit or else 3m, is only a safety net, keeping its best valid value)"},
			&cli.IntFlag{Name: "optimum-jobs", Value: defaultOptimumJobs, Usage: "solve a stream of at most this many jobs whole as one MRCP instance, for every metric (mean and total turnaround: a model of at most 1200 columns), when it is one exactly (0: never; its time limit is --time-limit, else 60s for the MILP and 10m for the branch and bound)"},
			&cli.StringFlag{Name: "family", Usage: "sweep: generated family (mrcp-small, mrcp-medium, mrcp-large, mrcp-mixed)"},
			&cli.IntFlag{Name: "jobs", Value: 40, Usage: "sweep: jobs per instance"},
			&cli.StringFlag{Name: "lambdas", Usage: "sweep: arrival rates in jobs/s, comma-separated (1/40 is accepted)"},
			&cli.IntFlag{Name: "seeds", Value: 3, Usage: "sweep: instances per rate (seeds 1..N)"},
			&cli.StringFlag{Name: "table", Usage: "sweep: the CSV table to append to (resumed when it exists)"},
			&cli.StringFlag{Name: "sweep", Usage: "sweep: plan it as independent items in this folder instead (mrbound sweep submit/collect; Slurm, Kubernetes)"},
			&cli.Uint64Flag{Name: "seed", Usage: "seed of every random stream of the runs (block placement, tie-breaks, noise)"},
			&cli.Float64Flag{Name: "noise", Usage: "each launch's true duration is multiplied by U[1-noise, 1+noise] (the bounds use 1-noise)"},
			&cli.BoolFlag{Name: "no-upper", Usage: "skip the offline clairvoyant constructions that compete with the policies for the best known schedule (the upper end of the bracket)"},
			&cli.IntFlag{Name: "upper-evals", Value: upperbound.DefaultEvaluations, Usage: "simulator runs of the offline local search after its constructions (0: none); a seed fixes the result"},
			&cli.DurationFlag{Name: "upper-time-limit", Value: defaultUpperTimeLimit, Usage: "stop the offline constructions and search after this long (the report then says so; 0: no limit)"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object instead of the table"},
			&cli.StringFlag{Name: "svg", Usage: "write a bar chart of the ratios to this SVG file"},
			&cli.StringFlag{Name: "out", Usage: "also write the report to this file (.md or .csv)"},
		}, append(compareModeFlags(), swimCLIFlags()...)...),
		Action: compareAction,
	}
}

// parsePolicies reads --policies: registered names, comma-separated. The
// error does not list the registry (it grows as policies register); the
// flag's help does.
func parsePolicies(s string) ([]string, error) {
	var out []string
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if _, err := policy.New(name, policy.Params{}); err != nil {
			if strings.HasPrefix(name, external.Prefix) {
				return nil, err // its own message: the command's quoting
			}
			return nil, badInputf("--policies: unknown policy %q (mrbound compare --help lists them)", name)
		}
		out = append(out, name)
	}
	return out, nil
}

// policyTimeout reads --policy-timeout, which, as in simulate, applies
// only when some policy is an exec: one.
func policyTimeout(c *cli.Context, policies []string) (time.Duration, error) {
	d := c.Duration("policy-timeout")
	if d <= 0 {
		return 0, badInputf("--policy-timeout: %v is not positive", d)
	}
	if c.IsSet("policy-timeout") && !slices.ContainsFunc(policies, func(n string) bool { return strings.HasPrefix(n, external.Prefix) }) {
		return 0, badInputf("--policy-timeout applies to exec: policies only")
	}
	return d, nil
}

// defaultOptimumJobs: streams up to this size are solved whole by the MRCP
// decomposition (20-job mixed streams take 2–15 s; 40 jobs rarely finish in
// a minute).
const defaultOptimumJobs = 30

// defaultUpperTimeLimit stops the offline side on big traces (the FB-2009
// day takes about a second a run at 10 nodes); small instances finish their
// evaluation budget long before it, so their result is fixed by the seed.
const defaultUpperTimeLimit = 30 * time.Second

// compareOptions are compareAction's flags, checked.
type compareOptions struct {
	path          string
	policies      []string
	policyTimeout time.Duration // exec: policies' per-message deadline
	workload      workload.Options
	run           simbridge.Options
	json          bool
	svg, out      string
}

func parseCompareOptions(c *cli.Context) (compareOptions, error) {
	var o compareOptions
	var err error
	if o.path, err = oneArg(c, "FILE"); err != nil {
		return o, err
	}
	if o.policies, err = parsePolicies(c.String("policies")); err != nil {
		return o, err
	}
	if o.policyTimeout, err = policyTimeout(c, o.policies); err != nil {
		return o, err
	}
	o.run.Sim = simbridge.IdealOptions()
	if err := applyCompareModes(c, &o.run.Sim); err != nil {
		return o, err
	}

	o.run.DropTraces = true // the report needs each run's verdict and completions, not its trace
	o.run.Sim.Seed = c.Uint64("seed")
	if o.run.Sim.Noise = c.Float64("noise"); !(o.run.Sim.Noise >= 0 && o.run.Sim.Noise < 1) {
		return o, badInputf("--noise: %v is not in [0, 1)", o.run.Sim.Noise)
	}
	if s := c.String("metric"); s != "" {
		if o.run.Metric, err = lowerbound.ParseMetric(s); err != nil {
			return o, badInputf("--metric: %v", err)
		}
	}
	if o.run.Solve, err = solverOptions(c); err != nil {
		return o, err
	}
	o.run.LP = c.Bool("lp")
	if o.run.WindowJobs = c.Int("windows"); o.run.WindowJobs < 0 {
		return o, badInputf("--windows: must be ≥ 0, got %d", o.run.WindowJobs)
	}
	switch n := c.Int("lagrange-iterations"); {
	case n < 0:
		return o, badInputf("--lagrange-iterations: must be ≥ 0, got %d", n)
	case !c.IsSet("lagrange-iterations"):
		// The default: lowerbound's work budget (a count of the scans,
		// not a clock) decides the steps, so that each instance takes
		// what fits in its share of the minute (docs/bounds.md §4b).
		o.run.Lagrange = &lowerbound.LagrangeOptions{TimeLimit: o.run.Solve.TimeLimit}
	case n > 0:
		// The step count decides the bound; the wall limit is a safety
		// net (--time-limit when given, else simbridge's default), never
		// the default stop, so that the value does not depend on the
		// machine's load.
		o.run.Lagrange = &lowerbound.LagrangeOptions{Iterations: n, TimeLimit: o.run.Solve.TimeLimit}
	}
	if o.run.OptimumJobs = c.Int("optimum-jobs"); o.run.OptimumJobs < 0 {
		return o, badInputf("--optimum-jobs: must be ≥ 0, got %d", o.run.OptimumJobs)
	}
	o.run.NoUpper = c.Bool("no-upper")
	if o.run.UpperEvaluations = c.Int("upper-evals"); o.run.UpperEvaluations < 0 {
		return o, badInputf("--upper-evals: must be ≥ 0, got %d", o.run.UpperEvaluations)
	} else if o.run.UpperEvaluations == 0 {
		o.run.UpperEvaluations = -1 // upperbound: negative turns the search off
	}
	if o.run.UpperTimeLimit = c.Duration("upper-time-limit"); o.run.UpperTimeLimit < 0 {
		return o, badInputf("--upper-time-limit: must be ≥ 0, got %v", o.run.UpperTimeLimit)
	}
	if o.workload, err = workloadOptions(c, o.path); err != nil {
		return o, err
	}
	o.json, o.svg, o.out = c.Bool("json"), c.String("svg"), c.String("out")
	if o.out != "" {
		if ext := filepath.Ext(o.out); ext != ".md" && ext != ".csv" {
			return o, badInputf("--out: %s: the report is written as .md or .csv, not %q", o.out, ext)
		}
	}
	return o, nil
}

func compareAction(c *cli.Context) error {
	if c.IsSet("family") {
		return compareSweepAction(c)
	}
	o, err := parseCompareOptions(c)
	if err != nil {
		return err
	}
	in, err := workload.LoadAll(o.path, o.workload)
	if err != nil {
		return err
	}
	w := in.Workload
	// On a day of millions of tasks the heap's growth, not its live data,
	// sets the peak (package gcpace).
	gcpace.ForTasks(w.NumTasks())
	o.run.Recorded = in.Recorded // a trace's own schedule: the "recorded" row
	pols := make([]simbridge.Named, len(o.policies))
	for i, n := range o.policies {
		p, err := policy.New(n, policy.Params{PolicyTimeout: o.policyTimeout})
		if err != nil {
			return err
		}
		pols[i] = simbridge.Named{Name: n, Policy: p}
	}
	ctx, stop := signalContext()
	defer stop()
	bar := startProgress(c, "compare "+filepath.Base(o.path)+" (policies, then the bound)", len(pols)+1, "steps")
	o.run.Progress = bar.Set
	out, err := simbridge.Compare(ctx, filepath.Base(o.path), w, pols, o.run)
	bar.Finish()
	stopped := ctx.Err() != nil
	stop() // a signal while the outputs are written is the watcher's (signals.go)
	if err != nil && stopped && !errors.Is(err, badinput.Err) {
		return &stoppedBySignal{err, int(syscall.SIGINT)} // Ctrl-C: no report, exit 130
	}
	if err != nil {
		return err
	}
	r := out.Report
	if o.svg != "" {
		if err := writeFileAtomic(o.svg, r.WriteSVG); err != nil {
			return err
		}
	}
	if o.out != "" {
		write := r.WriteMarkdown
		if filepath.Ext(o.out) == ".csv" {
			write = r.WriteCSV
		}
		if err := writeFileAtomic(o.out, write); err != nil {
			return err
		}
	}
	if o.json {
		return r.WriteJSON(c.App.Writer)
	}
	return r.WriteText(c.App.Writer)
}
