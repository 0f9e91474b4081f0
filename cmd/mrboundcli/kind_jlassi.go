package mrboundcli

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mrbound/mrbound/formulations"
	"github.com/mrbound/mrbound/formulations/jlassi"
	"github.com/mrbound/mrbound/instances/jlassiscenario"
	"github.com/mrbound/mrbound/internal/sizelimit"
	"github.com/mrbound/mrbound/sweep/jlassitable"
)

func init() {
	registerKind(kindHandler{Name: jlassiscenario.Kind, Run: runJlassi,
		Flags:    []string{"objective", "formulation", "horizon", "schedule", "svg"},
		Generate: generateJlassiCommand, Table: tableJlassiCommand})
}

// runJlassi turns the shared kind flags into jlassi.Options and runs the
// scenario.
func runJlassi(ctx context.Context, c *cli.Context, in solveInput) (formulations.Report, error) {
	o := jlassi.Options{Solve: in.Opts}
	var err error
	if s := c.String("objective"); s != "" { // else the scenario's own
		if o.Objective, err = jlassi.ParseObjective(s); err != nil {
			return nil, badInputf("--objective: %v", err)
		}
	}
	if o.Form, err = jlassi.ParseForm(c.String("formulation")); err != nil {
		return nil, badInputf("--formulation: %v", err)
	}
	if o.Horizon, err = jlassi.ParseHorizon(c.String("horizon")); err != nil {
		return nil, badInputf("--horizon: %v", err)
	}
	return jlassi.Run(ctx, in.Path, in.Data, o)
}

var generateJlassiCommand = &cli.Command{
	Name:  jlassiscenario.Kind,
	Usage: "generate an instance of one of Jlassi et al.'s Table 5 scenarios (Tables 2-4, eq 16)",
	Flags: []cli.Flag{
		&cli.IntFlag{Name: "scenario", Value: 1, Usage: "Table 5 scenario, 1..7"},
		&cli.Int64Flag{Name: "seed", Value: 1, Usage: "random seed; (scenario, seed) fixes the instance"},
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the scenario to `FILE` (default: standard output)"},
	},
	Action: func(c *cli.Context) error {
		if c.NArg() != 0 {
			return badInputf("generate jlassi: unexpected argument %q", c.Args().First())
		}
		sc, err := jlassiscenario.Generate(c.Int("scenario"), c.Int64("seed"))
		if err != nil {
			return badInputf("--scenario: %v", err)
		}
		data, err := sc.Marshal()
		if err != nil {
			return err
		}
		write := func(w io.Writer) error { _, err := w.Write(data); return err }
		if p := c.String("output"); p != "" {
			return writeFileAtomic(p, write)
		}
		return write(c.App.Writer)
	},
}

var tableJlassiCommand = &cli.Command{
	Name:  jlassiscenario.Kind,
	Usage: "the Table 6 analogue: solve 20 generated instances per scenario, with the published row beside ours",
	Description: `Each instance is solved at Table 5's horizon (or --horizon) with the RealTime objective (or
--objective; tst is eq 1, the paper's own), its LP relaxation too; the table gives the paper's columns plus
the LP bound, the best objective and RealTime, and the LP gap.
With --out, every finished instance is appended to OUT.instances.csv and OUT is rewritten, so an
interrupted run resumes where it stopped. With --sweep DIR, the table is planned as a sweep instead
(one item per instance) to run with mrbound sweep submit on this machine, Slurm or Kubernetes.`,
	Flags: append(append([]cli.Flag{}, solverFlags...),
		&cli.StringFlag{Name: "scenarios", Value: "1-7", Usage: "scenarios to run, e.g. 1-7 or 1,3,5"},
		&cli.IntFlag{Name: "instances", Value: 20, Usage: "instances (seeds 1..N) per scenario"},
		&cli.StringFlag{Name: "formulation", Usage: "strong (default) or published"},
		&cli.StringFlag{Name: "objective", Value: "realtime", Usage: "realtime, tst (eq 1, the paper's), trc or feasibility"},
		&cli.StringFlag{Name: "horizon", Value: "table5", Usage: "a number of intervals, eq17, table5 or search"},
		&cli.StringFlag{Name: "out", Usage: "write the table to `FILE` (.csv, .md, anything else as text)"},
		&cli.StringFlag{Name: "sweep", Usage: "do not run: plan the table as a sweep in `DIR` (see mrbound sweep)"},
	),
	Action: tableJlassi,
}

// parseScenarios reads "1-7", "2", "1,3,5-6".
func parseScenarios(s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err1 := strconv.Atoi(lo)
		b := a
		var err2 error
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a < 1 || b > 7 || a > b {
			return nil, fmt.Errorf("%q: want scenarios 1..7 such as 1-7 or 1,3,5", s)
		}
		for x := a; x <= b; x++ {
			out = append(out, x)
		}
	}
	return out, nil
}

func tableJlassi(c *cli.Context) error {
	if c.NArg() != 0 {
		return badInputf("table jlassi: unexpected argument %q", c.Args().First())
	}
	opts, err := solverOptions(c)
	if err != nil {
		return err
	}
	scs, err := parseScenarios(c.String("scenarios"))
	if err != nil {
		return badInputf("--scenarios: %v", err)
	}
	if c.Int("instances") < 1 {
		return badInputf("--instances: must be positive, got %d", c.Int("instances"))
	}
	// Every instance becomes a record (or a planned sweep item) held until
	// the table is written: refuse a count that cannot be meant before the
	// first is generated.
	if err := sizelimit.Check("--scenarios, --instances", float64(len(scs))*float64(c.Int("instances")), sizelimit.SweepItem, "table instances"); err != nil {
		return err
	}
	form, err := jlassi.ParseForm(c.String("formulation"))
	if err != nil {
		return badInputf("--formulation: %v", err)
	}
	hz, err := jlassi.ParseHorizon(c.String("horizon"))
	if err != nil {
		return badInputf("--horizon: %v", err)
	}
	obj, err := jlassi.ParseObjective(c.String("objective"))
	if err != nil {
		return badInputf("--objective: %v", err)
	}
	topts := jlassi.TableOptions{Scenarios: scs, Instances: c.Int("instances"), Solve: opts, Form: form, Objective: obj, Horizon: hz}
	if dir := c.String("sweep"); dir != "" {
		if c.IsSet("out") {
			return badInputf("--out: does not apply with --sweep (give it to mrbound sweep collect)")
		}
		m, err := jlassitable.Plan(topts)
		if err != nil {
			return err
		}
		return planSweep(c, dir, m)
	}
	bar := progressBar(c, len(scs)*c.Int("instances"), "jlassi table")
	topts.Progress = bar.set
	defer bar.finish()
	ctx, stop := signalContext()
	defer stop()
	return jlassitable.RunTable(ctx, topts, c.String("out"), c.App.Writer)
}
