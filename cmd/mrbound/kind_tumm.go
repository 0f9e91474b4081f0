package main

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/mrbound/mrbound/formulations"
	"github.com/mrbound/mrbound/formulations/tumm"
	"github.com/mrbound/mrbound/instances/tummscenario"
)

func init() {
	registerKind(kindHandler{Name: tummscenario.Kind, Run: runTuMM, Flags: []string{"objective", "formulation"}})
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
