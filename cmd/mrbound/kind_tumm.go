package main

import (
	"github.com/urfave/cli/v2"

	"github.com/mrbound/mrbound/formulations/tumm"
	"github.com/mrbound/mrbound/instances/tummscenario"
)

func init() {
	registerKind(kindHandler{Name: tummscenario.Kind, Solve: solveTuMM})
}

// solveTuMM runs Algorithm 1 and/or the per-node program. --objective
// (published, stage) overrides the file's; --formulation perspective adds
// the perspective rows.
func solveTuMM(c *cli.Context, in solveInput) error {
	var o tumm.Options
	if s := c.String("objective"); s != "" {
		if _, err := tumm.ParseObjective(s); err != nil {
			return badInputf("--objective: %v", err)
		}
		o.Objective = s
	}
	switch f := c.String("formulation"); f {
	case "", "default":
	case "perspective":
		o.Perspective = true
	default:
		return badInputf("--formulation: unknown formulation %q for tumm (default or perspective)", f)
	}
	ctx, stop := signalContext()
	defer stop()
	r, err := tumm.Run(ctx, in.Data, in.Opts, o)
	if err != nil {
		if tumm.IsBadInput(err) {
			return badInputf("%s: %v", in.Path, err)
		}
		return err
	}
	if in.JSON {
		return r.WriteJSON(in.Out)
	}
	return r.WriteText(in.Out)
}
