package mrboundcli

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

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
		&cli.Float64Flag{Name: "duration", Usage: "generate every arrival in the first `SECONDS` instead of --jobs (e.g. 18000 for the paper's 5 h)"},
		&cli.StringFlag{Name: "lambda", Value: "0.02", Usage: "Poisson arrival rate, jobs per second (a number or 1/GAP, e.g. 1/35)"},
		&cli.StringFlag{Name: "durations", Value: "per-size", Usage: "task durations: per-size (the published alone times exactly) or fit (12 s maps, 39 s reduces, A-M7)"},
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
		lambda, err := parseRate(c.String("lambda"))
		if err != nil {
			return badInputf("--lambda: %v", err)
		}
		durs, err := mrcpscenario.ParseDurations(c.String("durations"))
		if err != nil {
			return badInputf("--durations: %v", err)
		}
		jobs := c.Int("jobs")
		if c.IsSet("duration") {
			if c.IsSet("jobs") {
				return badInputf("generate mrcp: give --jobs or --duration, not both")
			}
			if !(c.Float64("duration") > 0) {
				return badInputf("--duration: must be a positive number of seconds")
			}
			jobs = 0
		}
		in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{
			Workload: w, Jobs: jobs, Duration: c.Float64("duration"), Durations: durs, Lambda: lambda, Seed: c.Uint64("seed"),
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

// parseRate reads a positive rate given as a number or as 1/GAP.
func parseRate(s string) (float64, error) {
	num, den, frac := strings.Cut(s, "/")
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err == nil && frac {
		var d float64
		d, err = strconv.ParseFloat(strings.TrimSpace(den), 64)
		if err == nil && d > 0 {
			v /= d
		} else if err == nil {
			err = fmt.Errorf("zero divisor")
		}
	}
	if err != nil || !(v > 0) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a positive rate (a number or 1/GAP)", s)
	}
	return v, nil
}
