package mrboundcli

import (
	"context"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mrbound/mrbound/formulations"
	"github.com/mrbound/mrbound/formulations/tumm"
	"github.com/mrbound/mrbound/instances/tummscenario"
)

func init() {
	registerKind(kindHandler{Name: tummscenario.Kind, Run: runTuMM, Flags: []string{"objective", "formulation"}, Generate: generateTuMMCommand})
}

var generateTuMMCommand = &cli.Command{
	Name:  tummscenario.Kind,
	Usage: "generate a TuMM batch for the simulator (Yao et al. §6: Purdue benchmarks, Table 3 clusters, TPC-H-like chains, Fig 6's toy)",
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "benchmark", Required: true, Usage: "mixed, tpch, fig6 or a benchmark: " + benchmarkNames()},
		&cli.StringFlag{Name: "order", Value: "johnson", Usage: "order of a mixed batch: johnson, reverse or random"},
		&cli.StringFlag{Name: "cluster", Value: "homogeneous", Usage: strings.Join(tummscenario.ClusterNames, ", ")},
		&cli.IntFlag{Name: "jobs", Usage: "number of jobs of a simple (default 3) or mixed (default 10) batch"},
		&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "random seed (mixed draw and random order)"},
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the scenario to `FILE` (default: standard output)"},
	},
	Action: func(c *cli.Context) error {
		if c.NArg() != 0 {
			return badInputf("generate tumm: unexpected argument %q", c.Args().First())
		}
		if c.IsSet("order") && c.String("benchmark") != "mixed" {
			return badInputf("--order: only a mixed batch has an order")
		}
		if c.Int("jobs") < 0 {
			return badInputf("--jobs: must not be negative, got %d", c.Int("jobs"))
		}
		s, err := tummscenario.Generate(tummscenario.GenOptions{Benchmark: c.String("benchmark"), Order: c.String("order"),
			Cluster: c.String("cluster"), Jobs: c.Int("jobs"), Seed: c.Uint64("seed")})
		if err != nil {
			return badInput(err)
		}
		b, err := s.Marshal()
		if err != nil {
			return err
		}
		return writeGenerated(c, b)
	},
}

// writeGenerated writes a generated scenario to --output (atomically) or
// to standard output.
func writeGenerated(c *cli.Context, b []byte) error {
	write := func(w io.Writer) error { _, err := w.Write(b); return err }
	if p := c.String("output"); p != "" {
		return writeFileAtomic(p, write)
	}
	return write(c.App.Writer)
}

func benchmarkNames() string {
	var names []string
	for _, b := range tummscenario.Benchmarks {
		names = append(names, b.Name)
	}
	return strings.Join(names, ", ")
}

// runTuMM runs Algorithm 1 and/or the per-node program. --objective
// (published, stage) overrides the file's; --formulation perspective adds
// the perspective rows.
func runTuMM(ctx context.Context, c *cli.Context, in solveInput) (formulations.Report, error) {
	o := tumm.Options{Solve: in.Opts}
	if s := c.String("objective"); s != "" {
		if _, err := tumm.ParseObjective(s); err != nil {
			return nil, badInputf("--objective: %v", err)
		}
		o.Objective = s
	}
	switch f := c.String("formulation"); f {
	case "", "default":
	case "perspective":
		o.Perspective = true
	default:
		return nil, badInputf("--formulation: unknown formulation %q for tumm (default or perspective)", f)
	}
	return tumm.Run(ctx, in.Path, in.Data, o)
}
