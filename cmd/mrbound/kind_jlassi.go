package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/mrbound/mrbound/formulations"
	"github.com/mrbound/mrbound/formulations/jlassi"
	"github.com/mrbound/mrbound/instances/jlassiscenario"
)

func init() {
	registerKind(kindHandler{Name: jlassiscenario.Kind, Run: runJlassi,
		Flags:    []string{"objective", "formulation", "horizon", "schedule", "svg"},
		Generate: generateJlassiCommand, Table: tableJlassiCommand})
}

// runJlassi turns the shared kind flags into jlassi.Options and runs the
// scenario.
func runJlassi(ctx context.Context, c *cli.Context, in solveInput) (formulations.Report, error) {
	o := jlassi.Options{Solve: in.Opts}
	var err error
	if s := c.String("objective"); s != "" { // else the scenario's own
		if o.Objective, err = jlassi.ParseObjective(s); err != nil {
			return nil, badInputf("--objective: %v", err)
		}
	}
	if o.Form, err = jlassi.ParseForm(c.String("formulation")); err != nil {
		return nil, badInputf("--formulation: %v", err)
	}
	if o.Horizon, err = jlassi.ParseHorizon(c.String("horizon")); err != nil {
		return nil, badInputf("--horizon: %v", err)
	}
	return jlassi.Run(ctx, in.Path, in.Data, o)
}

var generateJlassiCommand = &cli.Command{
	Name:  jlassiscenario.Kind,
	Usage: "generate an instance of one of Jlassi et al.'s Table 5 scenarios (Tables 2-4, eq 16)",
	Flags: []cli.Flag{
		&cli.IntFlag{Name: "scenario", Value: 1, Usage: "Table 5 scenario, 1..7"},
		&cli.Int64Flag{Name: "seed", Value: 1, Usage: "random seed; (scenario, seed) fixes the instance"},
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the scenario to `FILE` (default: standard output)"},
	},
	Action: func(c *cli.Context) error {
		if c.NArg() != 0 {
			return badInputf("generate jlassi: unexpected argument %q", c.Args().First())
		}
		sc, err := jlassiscenario.Generate(c.Int("scenario"), c.Int64("seed"))
		if err != nil {
			return badInputf("--scenario: %v", err)
		}
		data, err := sc.Marshal()
		if err != nil {
			return err
		}
		write := func(w io.Writer) error { _, err := w.Write(data); return err }
		if p := c.String("output"); p != "" {
			return writeFileAtomic(p, write)
		}
		return write(c.App.Writer)
	},
}

var tableJlassiCommand = &cli.Command{
	Name:  jlassiscenario.Kind,
	Usage: "the Table 6 analogue: solve 20 generated instances per scenario, with the published row beside ours",
	Description: `Each instance is solved at Table 5's horizon (or --horizon) with the RealTime objective, its LP
relaxation too; the table gives the paper's columns plus the LP bound, the optimal RealTime and the LP gap.
With --out, every finished instance is appended to OUT.instances.csv and OUT is rewritten, so an
interrupted run resumes where it stopped.`,
	Flags: append(append([]cli.Flag{}, solverFlags...),
		&cli.StringFlag{Name: "scenarios", Value: "1-7", Usage: "scenarios to run, e.g. 1-7 or 1,3,5"},
		&cli.IntFlag{Name: "instances", Value: 20, Usage: "instances (seeds 1..N) per scenario"},
		&cli.StringFlag{Name: "formulation", Usage: "strong (default) or published"},
		&cli.StringFlag{Name: "horizon", Value: "table5", Usage: "a number of intervals, eq17, table5 or search"},
		&cli.StringFlag{Name: "out", Usage: "write the table to `FILE` (.csv, .md, anything else as text)"},
	),
	Action: tableJlassi,
}

// parseScenarios reads "1-7", "2", "1,3,5-6".
func parseScenarios(s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err1 := strconv.Atoi(lo)
		b := a
		var err2 error
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a < 1 || b > 7 || a > b {
			return nil, fmt.Errorf("%q: want scenarios 1..7 such as 1-7 or 1,3,5", s)
		}
		for x := a; x <= b; x++ {
			out = append(out, x)
		}
	}
	return out, nil
}

func tableJlassi(c *cli.Context) error {
	if c.NArg() != 0 {
		return badInputf("table jlassi: unexpected argument %q", c.Args().First())
	}
	opts, err := solverOptions(c)
	if err != nil {
		return err
	}
	scs, err := parseScenarios(c.String("scenarios"))
	if err != nil {
		return badInputf("--scenarios: %v", err)
	}
	if c.Int("instances") < 1 {
		return badInputf("--instances: must be positive, got %d", c.Int("instances"))
	}
	form, err := jlassi.ParseForm(c.String("formulation"))
	if err != nil {
		return badInputf("--formulation: %v", err)
	}
	hz, err := jlassi.ParseHorizon(c.String("horizon"))
	if err != nil {
		return badInputf("--horizon: %v", err)
	}
	out := c.String("out")
	format := jlassi.FormatText
	switch strings.ToLower(filepath.Ext(out)) {
	case ".csv":
		format = jlassi.FormatCSV
	case ".md":
		format = jlassi.FormatMarkdown
	}
	topts := jlassi.TableOptions{Scenarios: scs, Instances: c.Int("instances"), Solve: opts, Form: form, Horizon: hz}
	var recFile *os.File
	if out != "" {
		recPath := out + ".instances.csv"
		if data, err := os.ReadFile(recPath); err == nil {
			if topts.Done, err = jlassi.ReadRecords(recPath, strings.NewReader(string(data))); err != nil {
				return badInput(err)
			}
		} else if !os.IsNotExist(err) {
			return badInput(err)
		}
		recFile, err = os.OpenFile(recPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return badInput(err)
		}
		defer recFile.Close()
		if st, err := recFile.Stat(); err == nil && st.Size() == 0 {
			if err := jlassi.WriteRecordHeader(recFile); err != nil {
				return err
			}
		}
	}
	var recs []jlassi.Record
	recs = append(recs, topts.Done...)
	writeTable := func(w io.Writer) error { return jlassi.WriteTable(w, jlassi.Summarize(recs), format) }
	topts.Emit = func(r jlassi.Record) error {
		recs = append(recs, r)
		if recFile == nil {
			return nil
		}
		if err := jlassi.WriteRecord(recFile, r); err != nil {
			return err
		}
		return writeFileAtomic(out, writeTable)
	}
	if f, ok := c.App.ErrWriter.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		bar := progressbar.NewOptions(len(scs)*c.Int("instances"), progressbar.OptionSetWriter(f),
			progressbar.OptionSetDescription("jlassi table"), progressbar.OptionShowCount(), progressbar.OptionClearOnFinish())
		topts.Progress = func(done, total int) { bar.Set(done) }
		defer bar.Finish()
	}
	ctx, stop := signalContext()
	defer stop()
	if _, err := jlassi.RunTable(ctx, topts); err != nil && ctx.Err() == nil {
		return err
	}
	if out != "" {
		if err := writeFileAtomic(out, writeTable); err != nil {
			return err
		}
	}
	return writeTable(c.App.Writer)
}
