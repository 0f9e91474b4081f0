package mrboundcli

import (
	"context"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/mrbound/mrbound/formulations"
	"github.com/mrbound/mrbound/formulations/coshh"
	"github.com/mrbound/mrbound/instances/coshhscenario"
)

func init() {
	registerKind(kindHandler{Name: coshhscenario.Kind, Run: runCOSHH, Generate: generateCOSHHCommand})
}

// runCOSHH runs the scenario; coshh reads none of the kind flags.
func runCOSHH(ctx context.Context, c *cli.Context, in solveInput) (formulations.Report, error) {
	return coshh.Run(ctx, in.Path, in.Data, coshh.Options{Solve: in.Opts})
}

var generateCOSHHCommand = &cli.Command{
	Name:  coshhscenario.Kind,
	Usage: "generate a COSHH job stream from the Facebook or Yahoo! 2009 trace categories (Rasooli & Down, Table 4)",
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "trace", Value: "facebook", Usage: "facebook or yahoo"},
		&cli.IntFlag{Name: "jobs", Value: coshhscenario.DefaultJobs, Usage: "number of jobs"},
		&cli.Int64Flag{Name: "seed", Value: 1, Usage: "random seed (stream and k-means)"},
		&cli.StringFlag{Name: "cluster", Value: "table3", Usage: "table3, table10 or table11"},
		&cli.IntFlag{Name: "resources", Usage: "number of resources (0: as published; any count for table10)"},
		&cli.Float64Flag{Name: "error", Usage: "maximum estimation error I: estimates are L·(1+E), E ~ U[-I, I] (§6.3)"},
		&cli.Float64Flag{Name: "interarrival", Value: coshhscenario.DefaultInterarrival, Usage: "mean seconds between job arrivals"},
		&cli.Float64Flag{Name: "rho", Usage: "offered load ρ: sets the arrival rate to ρ·C/E[work] instead of --interarrival (A-C14)"},
		&cli.BoolFlag{Name: "homogeneous", Usage: "homogeneous users: min share 0, priority 1 (§6.1)"},
		&cli.BoolFlag{Name: "tasks", Usage: "write the simulator fields (task counts, slot split, storage, blocks) for mrbound simulate"},
		&cli.BoolFlag{Name: "ignore-storage", Usage: "with --tasks: every resource can hold a block (A-C7 'ignore')"},
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the scenario to `FILE` (default: standard output)"},
	},
	Action: func(c *cli.Context) error {
		if c.NArg() != 0 {
			return badInputf("generate coshh: unexpected argument %q", c.Args().First())
		}
		if c.Int("jobs") <= 0 {
			return badInputf("--jobs: must be positive, got %d", c.Int("jobs"))
		}
		s, err := coshhscenario.Generate(coshhscenario.GenOptions{
			Trace: c.String("trace"), Jobs: c.Int("jobs"), Seed: c.Int64("seed"),
			Cluster: c.String("cluster"), Resources: c.Int("resources"),
			MaxError: c.Float64("error"), MeanInterarrival: c.Float64("interarrival"),
			Rho: c.Float64("rho"), Homogeneous: c.Bool("homogeneous"), Tasks: c.Bool("tasks"), IgnoreStorage: c.Bool("ignore-storage"),
		})
		if err != nil {
			return badInput(err)
		}
		b, err := s.Marshal()
		if err != nil {
			return err
		}
		write := func(w io.Writer) error { _, err := w.Write(b); return err }
		if p := c.String("output"); p != "" {
			return writeFileAtomic(p, write)
		}
		return write(c.App.Writer)
	},
}
