package mrboundcli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mrbound/mrbound/internal/plural"
	"github.com/mrbound/mrbound/internal/progress"
	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

var solverFlags = []cli.Flag{
	&cli.StringFlag{Name: "solver", Value: solve.DefaultSolver, Usage: "backend: native (embedded, pure Go) or highs (HiGHS through WebAssembly)"},
	&cli.DurationFlag{Name: "time-limit", Usage: "stop after this wall time (e.g. 30s, 5m) and report the best solution and bound found; 0 is no limit", DefaultText: "0, no limit"},
	&cli.Float64Flag{Name: "gap", Usage: "relative MIP gap at which to stop", DefaultText: "1e-4"},
	&cli.Float64Flag{Name: "abs-gap", Usage: "absolute MIP gap at which to stop", DefaultText: "1e-6"},
	&cli.Int64Flag{Name: "node-limit", Usage: "stop after this many branch-and-bound nodes"},
	&cli.IntFlag{Name: "threads", Usage: "threads the backend may use (0: its default)"},
	&cli.Int64Flag{Name: "seed", Usage: "random seed for the solver"},
	&cli.BoolFlag{Name: "json", Usage: "print one JSON object instead of the human report"},
	&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "print the solver's log on stderr"},
}

func solveCommand() *cli.Command {
	return &cli.Command{
		Name:      "solve",
		Usage:     "solve a model (.mps, .lp) or a scenario (.json) and report the checked answer",
		ArgsUsage: "FILE",
		Description: `FILE is an MPS or CPLEX LP model, or a JSON scenario whose "kind" names its formulation
(` + strings.Join(kindNames(), ", ") + `). A scenario's answer is decoded into a schedule and checked
against the instance; the verdict is always printed with the result.`,
		Flags:  append(append([]cli.Flag{}, solverFlags...), kindFlags...),
		Action: solveAction,
	}
}

// solverOptions turns the common flags into solve.Options.
func solverOptions(c *cli.Context) (solve.Options, error) {
	opts := solve.Options{
		Solver:    c.String("solver"),
		TimeLimit: c.Duration("time-limit"),
		RelGap:    c.Float64("gap"),
		AbsGap:    c.Float64("abs-gap"),
		NodeLimit: c.Int64("node-limit"),
		Threads:   c.Int("threads"),
		Seed:      c.Int64("seed"),
	}
	if opts.TimeLimit < 0 {
		return opts, badInputf("--time-limit: %v is negative (0 is no limit)", opts.TimeLimit)
	}
	if c.Bool("verbose") {
		opts.Log = c.App.ErrWriter
		opts.Verbosity = 1
	}
	if err := opts.Validate(); err != nil {
		return opts, badInput(err)
	}
	if _, err := solve.Lookup(opts.Solver); err != nil {
		return opts, badInput(err)
	}
	return opts, nil
}

func solveAction(c *cli.Context) error {
	path, err := oneArg(c, "FILE")
	if err != nil {
		return err
	}
	opts, err := solverOptions(c)
	if err != nil {
		return err
	}
	if isModelFile(path) {
		if err := rejectKindFlags(c, "a model file", nil); err != nil {
			return err
		}
		m, err := readModelFile(path)
		if err != nil {
			return err
		}
		return solveModel(c, m, opts)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return badInput(err)
	}
	k, err := scenarioKind(path, data)
	if err != nil {
		return badInput(err)
	}
	return solveScenario(c, kinds[k], solveInput{Path: path, Data: data, Opts: opts})
}

// signalContext is cancelled by Ctrl-C, so that a long solve stops with its
// incumbent and an honest gap instead of dying.
func signalContext() (context.Context, context.CancelFunc) {
	return notifyContext(os.Interrupt)
}

// solveProgress says on standard error that a solve is still running (its
// length is unknown); not with -v, whose solver log says more.
func solveProgress(c *cli.Context) *progress.Reporter {
	if c.Bool("verbose") {
		return nil
	}
	return startProgress(c, "solve "+filepath.Base(c.Args().First()), 0, "")
}

// modelReport is the JSON printed by `mrbound solve FILE.mps --json`.
type modelReport struct {
	File string `json:"file"`
	// Unit is "model units": a bare .mps/.lp model carries no unit, so the
	// objective and bounds are in whatever its author meant; saying so keeps
	// every JSON report's unit explicit.
	Unit string `json:"unit"`
	solve.Summary
	Verified     bool    `json:"verified"`
	MaxViolation float64 `json:"max_violation"`
}

func solveModel(c *cli.Context, m *model.Model, opts solve.Options) error {
	ctx, stop := signalContext()
	defer stop()
	start := time.Now()
	bar := solveProgress(c)
	res, err := solve.Solve(ctx, m, opts)
	bar.Finish()
	if err != nil {
		return err
	}
	if res.Wall == 0 {
		res.Wall = time.Since(start)
	}
	rep := modelReport{File: c.Args().First(), Unit: "model units", Summary: res.Summarize()}
	// Check the solver's point against the model itself.
	if res.HasSolution {
		ev := m.Evaluate(res.X)
		rep.MaxViolation = ev.MaxViolation()
		rep.Verified = ev.Feasible(checkTolerance, m.IsMIP())
	}
	w := c.App.Writer
	if c.Bool("json") {
		return writeJSON(w, rep)
	}
	fmt.Fprintf(w, "model        %s (%s, %s, %s)\n", filepath.Base(rep.File), plural.Count(m.NumRows(), "row"), plural.Count(m.NumCols(), "column"), plural.Count(m.NumNonzeros(), "nonzero"))
	if err := rep.Summary.WriteText(w); err != nil {
		return err
	}
	switch {
	case !res.HasSolution:
		fmt.Fprintln(w, "check        no solution to check")
	case rep.Verified:
		fmt.Fprintf(w, "check        feasible (max violation %.2g)\n", rep.MaxViolation)
	default:
		fmt.Fprintf(w, "check        FAILED: max violation %.2g\n", rep.MaxViolation)
	}
	return nil
}

// checkTolerance is the largest bound, row or integrality violation a solver's
// point may have and still be reported as verified.
const checkTolerance = 1e-6

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func oneArg(c *cli.Context, what string) (string, error) {
	if c.NArg() != 1 {
		return "", badInputf("%s: expected exactly one %s argument, got %d (see --help)", c.Command.FullName(), what, c.NArg())
	}
	return c.Args().First(), nil
}
