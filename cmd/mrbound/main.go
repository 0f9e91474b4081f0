// Command mrbound computes reference lower bounds and offline optimal schedules
// for MapReduce/Hadoop clusters. See the README and docs/ for usage.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mrbound/mrbound/internal/sizelimit"
)

// version is set at link time (-ldflags "-X main.version=...").
var version = "dev"

func main() {
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}

// run executes mrbound with args and returns the exit code. Tests call it
// directly.
func run(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "mrbound: internal error: %v\n", r)
			code = exitInternal
		}
	}()
	args, budget, err := takeMaxMemory(args)
	if err != nil {
		fmt.Fprintf(stderr, "mrbound: %s\n", oneLine(err.Error()))
		return exitCode(err)
	}
	if budget > 0 {
		defer sizelimit.SetBudget(budget)()
	}
	app := newApp(stdout, stderr)
	if err := app.Run(interspersed(app, args)); err != nil {
		fmt.Fprintf(stderr, "mrbound: %s\n", oneLine(err.Error()))
		return exitCode(err)
	}
	return exitOK
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}

func newApp(stdout, stderr io.Writer) *cli.App {
	cli.VersionFlag = &cli.BoolFlag{Name: "version", Usage: "print the version"}
	app := &cli.App{
		Name:  "mrbound",
		Usage: "offline optima and lower bounds for MapReduce/Hadoop scheduling",
		Description: `mrbound turns published MapReduce scheduling models (Jlassi et al.'s time-indexed MILP,
Lim et al.'s MRCP, the COSHH capacity LPs, TuMM's slot models) into optimisation models, solves them
with HiGHS or the native Go solver, decodes the answer into a schedule and checks it against the instance.

Exit codes: 0 success, 1 bad input, 2 internal error.

--max-memory SIZE (anywhere on the line, e.g. 64GiB; or $MRBOUND_MAX_MEMORY) raises or lowers the memory
an input may imply before it is refused (default: the machine's memory; docs/reliability-limits.md).`,
		Version:         version,
		Writer:          stdout,
		ErrWriter:       stderr,
		HideHelpCommand: true,
		ExitErrHandler:  func(*cli.Context, error) {}, // run prints errors and picks exit codes
		Commands: []*cli.Command{
			solveCommand(),
			compareCommand(),
			statsCommand(),
			exportCommand(),
			generateCommand(),
			tableCommand(),
			simulateCommand(),
			sweepCommand(),
			versionCommand(),
		},
	}
	return app
}

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print mrbound's version and its solver backends",
		Action: func(c *cli.Context) error {
			return writeVersion(c.App.Writer)
		},
	}
}

func generateCommand() *cli.Command {
	cmd := &cli.Command{
		Name:      "generate",
		Usage:     "generate a scenario file from a published workload",
		ArgsUsage: "KIND",
	}
	for _, n := range kindNames() {
		if g := kinds[n].Generate; g != nil {
			cmd.Subcommands = append(cmd.Subcommands, g)
		}
	}
	return cmd
}

func tableCommand() *cli.Command {
	cmd := &cli.Command{
		Name:      "table",
		Usage:     "regenerate a published results table with our solvers",
		ArgsUsage: "KIND",
	}
	for _, n := range kindNames() {
		if t := kinds[n].Table; t != nil {
			cmd.Subcommands = append(cmd.Subcommands, t)
		}
	}
	return cmd
}
