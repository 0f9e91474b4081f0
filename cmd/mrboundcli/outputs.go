package mrboundcli

import (
	"os"
	"path/filepath"

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
	if err := outpath.Check(inputs, outputs); err != nil {
		return err
	}
	return checkOutputDirs(outputs)
}

// checkOutputDirs refuses an output whose directory does not exist. The
// writers create no directories (a typo in a path should not leave a new
// tree behind), so without this check such an output would fail only when
// written, after the solve or the simulation it reports had run for
// minutes, with a message naming the temporary file.
func checkOutputDirs(outputs []outpath.Output) error {
	for _, o := range outputs {
		if o.Path == "" || o.Path == "-" {
			continue
		}
		dir := filepath.Dir(o.Path)
		st, err := os.Stat(dir)
		switch {
		case err != nil:
			return badInputf("%s %s: directory %s does not exist (mrbound creates none: mkdir -p %s first)", o.Flag, o.Path, dir, dir)
		case !st.IsDir():
			return badInputf("%s %s: %s is not a directory", o.Flag, o.Path, dir)
		}
	}
	return nil
}
