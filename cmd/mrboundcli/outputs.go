package mrboundcli

import (
	"github.com/urfave/cli/v2"

	"github.com/mrbound/mrbound/internal/outpath"
)

// outputFlags are the flags that name a file mrbound writes, in every
// command that has them. A flag of that name that is not a file (coshh
// generate's --trace facebook) names nothing that exists and passes.
var outputFlags = map[string]bool{"output": true, "out": true, "svg": true, "schedule": true, "trace": true, "table": true}

// guardOutputs wraps the action of cmd and of every subcommand so that it
// first refuses outputs that would destroy an input or are not files
// (outpath.Check): the inputs are the positional arguments and the other
// string flags' values, the outputs the outputFlags set on the command
// line. One guard covers every command, present and future.
func guardOutputs(cmds []*cli.Command) {
	for _, cmd := range cmds {
		guardOutputs(cmd.Subcommands)
		if cmd.Action == nil {
			continue
		}
		act := cmd.Action
		cmd.Action = func(c *cli.Context) error {
			if err := checkOutputs(c); err != nil {
				return err
			}
			return act(c)
		}
	}
}

func checkOutputs(c *cli.Context) error {
	inputs := c.Args().Slice()
	var outputs []outpath.Output
	for _, f := range c.Command.Flags {
		names := f.Names()
		if !c.IsSet(names[0]) {
			continue
		}
		var values []string
		switch f.(type) {
		case *cli.StringFlag, *cli.PathFlag:
			values = []string{c.String(names[0])}
		case *cli.StringSliceFlag:
			values = c.StringSlice(names[0])
		default:
			continue
		}
		for _, v := range values {
			if outputFlags[names[0]] {
				outputs = append(outputs, outpath.Output{Flag: "--" + names[0], Path: v})
			} else {
				inputs = append(inputs, v)
			}
		}
	}
	// the global --cpuprofile (read through the lineage) writes a file too
	if path := c.String(cpuProfileFlag.Name); path != "" {
		outputs = append(outputs, outpath.Output{Flag: "--" + cpuProfileFlag.Name, Path: path})
	}
	return outpath.Check(inputs, outputs)
}
