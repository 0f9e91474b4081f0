package mrboundcli

import (
	"bytes"
	"io"
	"runtime/pprof"

	"github.com/urfave/cli/v2"

	"github.com/mrbound/mrbound/internal/atomicfile"
)

// cpuProfileFlag is the hidden global --cpuprofile=FILE: a CPU profile of
// the whole command (load, run, check, report), for finding where a large
// day's time goes as a user runs it (issue 30). It is hidden because it is
// for developers; it must be written with '=' before the command (a value
// after a space would be taken for the command by interspersed).
var cpuProfileFlag = &cli.StringFlag{Name: "cpuprofile", Hidden: true, Usage: "write a CPU profile of the command to this file"}

// startCPUProfile starts profiling when --cpuprofile is given and returns
// the function that stops it and writes the profile. The profile is held in
// memory and written atomically at the end, so that an interrupted run
// leaves no half-written file.
func startCPUProfile(c *cli.Context) (stop func() error, err error) {
	path := c.String(cpuProfileFlag.Name)
	if path == "" {
		return func() error { return nil }, nil
	}
	var buf bytes.Buffer
	if err := pprof.StartCPUProfile(&buf); err != nil {
		return nil, err
	}
	return func() error {
		pprof.StopCPUProfile()
		return atomicfile.Write(path, func(w io.Writer) error {
			_, err := w.Write(buf.Bytes())
			return err
		})
	}, nil
}

// profileActions wraps the action of every command and subcommand so that
// it starts the profile (when --cpuprofile is given) just before it runs,
// and leaves in *stop the function that writes it.
func profileActions(cmds []*cli.Command, stop *func() error) {
	for _, cmd := range cmds {
		profileActions(cmd.Subcommands, stop)
		if cmd.Action == nil {
			continue
		}
		act := cmd.Action
		cmd.Action = func(c *cli.Context) error {
			s, err := startCPUProfile(c)
			if err != nil {
				return err
			}
			*stop = s
			return act(c)
		}
	}
}
