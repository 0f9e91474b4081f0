package mrboundcli

import (
	"os"

	"github.com/urfave/cli/v2"

	"github.com/mrbound/mrbound/internal/progress"
)

// quietFlag is the global --quiet: no progress on standard error. It may be
// written anywhere on the command line (interspersed moves it first).
var quietFlag = &cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print no progress lines or bars on standard error"}

// startProgress reports a long command's progress on standard error: a bar
// on a terminal, a line every 10 s otherwise, nothing with --quiet. Only a
// real file gets progress, so that tests, which pass buffers to run, never
// see it in their stderr goldens.
func startProgress(c *cli.Context, desc string, total int, unit string) *progress.Reporter {
	f, ok := c.App.ErrWriter.(*os.File)
	if !ok || c.Bool("quiet") {
		return nil
	}
	return progress.New(f, desc, total, progress.Options{Unit: unit})
}
