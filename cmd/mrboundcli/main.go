package mrboundcli

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/sizelimit"
)

// version is set at link time (-ldflags "-X
// github.com/mrbound/mrbound/cmd/mrboundcli.version=...").
var version = "dev"

// Main runs mrbound on the process's arguments, stdout and stderr and
// returns the exit code (0 success, 1 bad input, 2 internal error), for
// os.Exit.
func Main() int {
	stop := watchSignals(os.Stderr)
	code := run(os.Args, os.Stdout, os.Stderr)
	stop()
	return code
}

// Run runs mrbound with args (args[0] is the program's name) and returns
// the exit code; it never calls os.Exit.
func Run(args []string, stdout, stderr io.Writer) int { return run(args, stdout, stderr) }

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
	var notFound string
	guardUsage(app, &notFound)
	err = app.Run(interspersed(app, args))
	if err == nil && notFound != "" {
		err = badinput.Errorf("%s", notFound)
	}
	if err != nil {
		fmt.Fprintf(stderr, "mrbound: %s\n", oneLine(err.Error()))
		return exitCode(err)
	}
	return exitOK
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}

// urfaveFlagString is urfave/cli's own flag line, which flagString trims.
var urfaveFlagString = cli.FlagStringer

// flagString is urfave/cli's help line of a flag without the "(default: …)"
// it appends when the usage already states the default in words ("(default
// 1001)", "(0: its default)") or the flag is a switch (false is a switch's
// only default): one default per line, the one that says what it means.
func flagString(f cli.Flag) string {
	s := urfaveFlagString(f)
	df, ok := f.(cli.DocGenerationFlag)
	if !ok {
		return s
	}
	_, isBool := f.(*cli.BoolFlag)
	if u := df.GetUsage(); isBool || strings.Contains(u, "default") {
		if i := strings.LastIndex(s, " (default: "); i >= 0 && strings.HasSuffix(s, ")") {
			s = s[:i]
		}
	}
	return s
}

func newApp(stdout, stderr io.Writer) *cli.App {
	cli.FlagStringer = flagString
	cli.VersionFlag = &cli.BoolFlag{Name: "version", Usage: "print the version"}
	app := &cli.App{
		Name:  "mrbound",
		Usage: "offline optima and lower bounds for MapReduce/Hadoop scheduling",
		Description: `mrbound turns published MapReduce scheduling models (Jlassi et al.'s time-indexed MILP,
Lim et al.'s MRCP, the COSHH capacity LPs, TuMM's slot models) into optimisation models, solves them
with HiGHS or the native Go solver, decodes the answer into a schedule and checks it against the instance.

Exit codes: 0 success, 1 bad input (usage errors too), 2 internal error, 128+n when stopped by signal n.

--max-memory SIZE (anywhere on the line, e.g. 64GiB; or $MRBOUND_MAX_MEMORY) raises or lowers the memory
an input may imply before it is refused (default: the machine's memory; docs/reliability.md).`,
		Version:         version,
		Writer:          stdout,
		ErrWriter:       stderr,
		HideHelpCommand: true,
		ExitErrHandler:  func(*cli.Context, error) {}, // run prints errors and picks exit codes
		Flags:           []cli.Flag{quietFlag, cpuProfileFlag},
		Commands: []*cli.Command{
			solveCommand(),
			compareCommand(),
			statsCommand(),
			exportCommand(),
			generateCommand(),
			tableCommand(),
			simulateCommand(),
			convertCommand(),
			sweepCommand(),
			versionCommand(),
		},
	}
	stopProfile := func() error { return nil }
	// profiled inside the output guard: a refused command writes no profile
	profileActions(app.Commands, &stopProfile)
	guardOutputs(app.Commands)
	app.After = func(*cli.Context) error { return stopProfile() }
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
