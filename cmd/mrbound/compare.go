package main

import (
	"path/filepath"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mrbound/mrbound/compare/simbridge"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/policy/fair"
	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/workload/swim"
)

// comparePolicies are the policies compare can run, by name. (To be replaced
// by the shared policy registry once it exists.)
var comparePolicies = map[string]func() sim.Policy{
	"fifo": func() sim.Policy { return fifo.New() },
	"edf":  func() sim.Policy { return fifo.NewEDF() },
	"fair": func() sim.Policy { return fair.New() },
	"fair-nodelay": func() sim.Policy {
		p := fair.New()
		p.NoDelay = true
		return p
	},
}

func comparePolicyNames() []string {
	var names []string
	for n := range comparePolicies {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func compareCommand() *cli.Command {
	return &cli.Command{
		Name:      "compare",
		Usage:     "run online policies in the simulator and compare each with the offline optimum or a certified lower bound",
		ArgsUsage: "FILE",
		Description: `FILE is a SWIM trace (.tsv: job id, submit s, gap, input, shuffle and output bytes), turned into
tasks by workload/swim's documented model on --nodes nodes with 2 map and 2 reduce slots.

Every policy runs in ideal mode (offers at once, reduces after all maps, true durations) and its
trace is verified by the independent checker. The offline side is the exact optimum when the
instance is tiny enough to enumerate, else the best certified lower bound (docs/bounds.md). A
verified policy value below the bound is a bug and exits with code 2.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "policies", Required: true, Usage: "comma-separated policies: " + strings.Join(comparePolicyNames(), ", ")},
			&cli.StringFlag{Name: "metric", Usage: "makespan, total-turnaround, mean-turnaround, max-turnaround, late-jobs or mrcp-product (default: makespan for a batch, mean-turnaround for a stream)"},
			&cli.StringFlag{Name: "solver", Value: solve.DefaultSolver, Usage: "backend for the LP and the MRCP windows: native or highs"},
			&cli.DurationFlag{Name: "time-limit", Usage: "time limit of each LP or window solve"},
			&cli.BoolFlag{Name: "lp", Usage: "add the bucketed LP relaxation to the turnaround bounds"},
			&cli.IntFlag{Name: "windows", Usage: "jobs per MRCP window for late jobs and max turnaround (0: off)"},
			&cli.IntFlag{Name: "nodes", Value: swim.DefaultCluster().Nodes, Usage: "cluster size for a SWIM trace"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object instead of the table"},
			&cli.StringFlag{Name: "svg", Usage: "write a bar chart of the ratios to this SVG file"},
			&cli.StringFlag{Name: "out", Usage: "also write the report to this file (.md or .csv)"},
		},
		Action: compareAction,
	}
}

// compareOptions are compareAction's flags, checked.
type compareOptions struct {
	path     string
	policies []string
	nodes    int
	run      simbridge.Options
	json     bool
	svg, out string
}

func parseCompareOptions(c *cli.Context) (compareOptions, error) {
	var o compareOptions
	var err error
	if o.path, err = oneArg(c, "FILE"); err != nil {
		return o, err
	}
	for _, name := range strings.Split(c.String("policies"), ",") {
		name = strings.TrimSpace(name)
		if _, ok := comparePolicies[name]; !ok {
			return o, badInputf("--policies: unknown policy %q (known: %s)", name, strings.Join(comparePolicyNames(), ", "))
		}
		o.policies = append(o.policies, name)
	}
	o.run.Sim = simbridge.IdealOptions()
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
	if o.nodes = c.Int("nodes"); o.nodes < 1 {
		return o, badInputf("--nodes: must be ≥ 1, got %d", o.nodes)
	}
	o.json, o.svg, o.out = c.Bool("json"), c.String("svg"), c.String("out")
	if o.out != "" {
		if ext := filepath.Ext(o.out); ext != ".md" && ext != ".csv" {
			return o, badInputf("--out: %s: the report is written as .md or .csv, not %q", o.out, ext)
		}
	}
	return o, nil
}

// loadCompareWorkload reads FILE as a simulator workload.
func loadCompareWorkload(o compareOptions) (*sim.Workload, error) {
	if filepath.Ext(o.path) != ".tsv" {
		return nil, badInputf("%s: compare reads SWIM traces (.tsv); scenario files are not supported yet", o.path)
	}
	cl := swim.DefaultCluster()
	cl.Nodes = o.nodes
	return swim.Load(o.path, swim.DefaultModel(), cl)
}

func compareAction(c *cli.Context) error {
	o, err := parseCompareOptions(c)
	if err != nil {
		return err
	}
	w, err := loadCompareWorkload(o)
	if err != nil {
		return err
	}
	pols := make([]simbridge.Named, len(o.policies))
	for i, n := range o.policies {
		pols[i] = simbridge.Named{Name: n, Policy: comparePolicies[n]()}
	}
	ctx, stop := signalContext()
	defer stop()
	out, err := simbridge.Compare(ctx, filepath.Base(o.path), w, pols, o.run)
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
