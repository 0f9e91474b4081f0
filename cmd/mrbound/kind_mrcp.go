package main

import (
	"context"
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/mrbound/mrbound/formulations"
	"github.com/mrbound/mrbound/formulations/mrcp"
	"github.com/mrbound/mrbound/instances/mrcpscenario"
)

func init() {
	registerKind(kindHandler{Name: mrcpscenario.Kind, Run: runMRCP,
		Flags:    []string{"objective", "formulation", "horizon", "schedule", "svg"},
		Generate: generateMRCPCommand})
}

// runMRCP turns the shared kind flags into mrcp.Options and runs the
// scenario.
func runMRCP(ctx context.Context, c *cli.Context, in solveInput) (formulations.Report, error) {
	o := mrcp.Options{Solve: in.Opts}
	if s := c.String("formulation"); s != "" {
		f, err := mrcp.ParseFormulation(s)
		if err != nil {
			return nil, badInputf("--formulation: %v", err)
		}
		o.Formulation = f
	}
	if s := c.String("objective"); s != "" {
		obj, err := mrcp.ParseObjective(s)
		if err != nil {
			return nil, badInputf("--objective: %v", err)
		}
		o.Objective = obj
	}
	if s := c.String("horizon"); s != "" {
		h, err := strconv.Atoi(s)
		if err != nil || h <= 0 {
			return nil, badInputf("--horizon: %q is not a positive number of time units", s)
		}
		o.Horizon = h
	}
	return mrcp.Run(ctx, in.Path, in.Data, o)
}

var generateMRCPCommand = &cli.Command{
	Name:  mrcpscenario.Kind,
	Usage: "generate a stream of WordCount MapReduce jobs (MRCP §5.1.2)",
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "workload", Value: "mixed", Usage: "small, medium, large or mixed"},
		&cli.IntFlag{Name: "jobs", Value: 20, Usage: "number of jobs"},
		&cli.Float64Flag{Name: "lambda", Value: 0.02, Usage: "Poisson arrival rate, jobs per second"},
		&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "random seed"},
		&cli.IntFlag{Name: "resources", Value: 4, Usage: "number of resources"},
		&cli.IntFlag{Name: "map-slots", Value: 1, Usage: "map slots per resource"},
		&cli.IntFlag{Name: "reduce-slots", Value: 1, Usage: "reduce slots per resource"},
		&cli.Float64Flag{Name: "time-unit", Value: 1, Usage: "seconds per time unit (coarser units give smaller time-indexed models)"},
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the scenario to `FILE` (default: standard output)"},
	},
	Action: func(c *cli.Context) error {
		if c.NArg() != 0 {
			return badInputf("generate mrcp: unexpected argument %q", c.Args().First())
		}
		w, err := mrcpscenario.ParseWorkload(c.String("workload"))
		if err != nil {
			return badInputf("--workload: %v", err)
		}
		for _, f := range []string{"jobs", "resources", "map-slots", "reduce-slots"} {
			if c.Int(f) < 0 || (f == "jobs" || f == "resources") && c.Int(f) == 0 {
				return badInputf("--%s: must be positive, got %d", f, c.Int(f))
			}
		}
		in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{
			Workload: w, Jobs: c.Int("jobs"), Lambda: c.Float64("lambda"), Seed: c.Uint64("seed"),
			Resources: c.Int("resources"), MapSlots: c.Int("map-slots"), ReduceSlots: c.Int("reduce-slots"),
			TimeUnit: c.Float64("time-unit"),
		})
		if err != nil {
			return badInput(err)
		}
		if in.Resources[0].MapSlots == 0 && in.Resources[0].ReduceSlots == 0 {
			return badInputf("generate mrcp: resources need slots")
		}
		if p := c.String("output"); p != "" {
			return writeFileAtomic(p, in.Write)
		}
		return in.Write(c.App.Writer)
	},
}
