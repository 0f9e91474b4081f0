package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/formulations/jlassi"
	"github.com/mrbound/mrbound/instances/jlassiscenario"
)

func init() {
	registerKind(kindHandler{Name: jlassiscenario.Kind, Solve: solveJlassi, Generate: generateJlassiCommand, Table: tableJlassiCommand})
}

// jlassiOptions turns the shared kind flags into the formulation's options.
func jlassiOptions(c *cli.Context) (jlassi.RunOptions, error) {
	var o jlassi.RunOptions
	var err error
	if o.Objective, err = jlassi.ParseObjective(c.String("objective")); err != nil {
		return o, badInputf("--objective: %v", err)
	}
	if c.String("objective") == "" {
		o.Objective = jlassi.ObjectiveUnknown // the scenario's own
	}
	if o.Form, err = jlassi.ParseForm(c.String("formulation")); err != nil {
		return o, badInputf("--formulation: %v", err)
	}
	if o.Horizon, err = jlassi.ParseHorizon(c.String("horizon")); err != nil {
		return o, badInputf("--horizon: %v", err)
	}
	return o, nil
}

func solveJlassi(c *cli.Context, in solveInput) error {
	o, err := jlassiOptions(c)
	if err != nil {
		return err
	}
	o.Solve = in.Opts
	inst, err := jlassiscenario.Parse(in.Path, in.Data)
	if err != nil {
		return badInput(err)
	}
	ctx, stop := signalContext()
	defer stop()
	rep, err := jlassi.Run(ctx, inst, o)
	if err != nil {
		if errors.Is(err, jlassi.ErrHorizon) || errors.Is(err, badinput.Err) {
			return badInput(fmt.Errorf("%s: %w", in.Path, err))
		}
		return err
	}
	if in.JSON {
		err = rep.WriteJSON(in.Out)
	} else {
		err = rep.WriteText(in.Out)
	}
	if err != nil {
		return err
	}
	// Files come after the report, which is printed whatever the solve found;
	// without a schedule there is nothing to write, and we say so.
	for _, f := range []struct {
		flag  string
		write func(io.Writer) error
	}{{"schedule", func(w io.Writer) error { return rep.Schedule.WriteJSON(w) }}, {"svg", rep.WriteSVG}} {
		p := c.String(f.flag)
		if p == "" {
			continue
		}
		if rep.Schedule == nil {
			fmt.Fprintf(c.App.ErrWriter, "mrbound: --%s: no schedule to write (status %v)\n", f.flag, rep.Result.Status)
			continue
		}
		if err := writeFileAtomic(p, f.write); err != nil {
			return err
		}
	}
	return nil
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
	Description: `Each instance is solved at Table 5's horizon (or --horizon) with the RealTime objective (or
--objective; tst is eq 1, the paper's own), its LP relaxation too; the table gives the paper's columns plus
the LP bound, the best objective and RealTime, and the LP gap.
With --out, every finished instance is appended to OUT.instances.csv and OUT is rewritten, so an
interrupted run resumes where it stopped.`,
	Flags: append(append([]cli.Flag{}, solverFlags...),
		&cli.StringFlag{Name: "scenarios", Value: "1-7", Usage: "scenarios to run, e.g. 1-7 or 1,3,5"},
		&cli.IntFlag{Name: "instances", Value: 20, Usage: "instances (seeds 1..N) per scenario"},
		&cli.StringFlag{Name: "formulation", Usage: "strong (default) or published"},
		&cli.StringFlag{Name: "objective", Value: "realtime", Usage: "realtime, tst (eq 1, the paper's), trc or feasibility"},
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
	obj, err := jlassi.ParseObjective(c.String("objective"))
	if err != nil {
		return badInputf("--objective: %v", err)
	}
	out := c.String("out")
	format := jlassi.FormatText
	switch strings.ToLower(filepath.Ext(out)) {
	case ".csv":
		format = jlassi.FormatCSV
	case ".md":
		format = jlassi.FormatMarkdown
	}
	topts := jlassi.TableOptions{Scenarios: scs, Instances: c.Int("instances"), Solve: opts, Form: form, Objective: obj, Horizon: hz}
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
