package mrboundcli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"

	"github.com/urfave/cli/v2"

	"github.com/mrbound/mrbound/formulations"
	"github.com/mrbound/mrbound/internal/strictjson"
	"github.com/mrbound/mrbound/solve"
)

// kindHandler serves one kind of scenario file (the top-level "kind" of its
// JSON). Each lives in kind_<name>.go and registers itself in init.
type kindHandler struct {
	// Name is the value of "kind" in the scenario's JSON.
	Name string
	// Flags names the kindFlags the kind reads; setting any other one is an
	// error, never silently ignored.
	Flags []string
	// Run turns the kind flags into the formulation's Options and calls its
	// Run (the front door, see package formulations).
	Run func(ctx context.Context, c *cli.Context, in solveInput) (formulations.Report, error)
	// Generate, when set, is the `mrbound generate <Name>` command.
	Generate *cli.Command
	// Table, when set, is the `mrbound table <Name>` command.
	Table *cli.Command
}

// solveInput is what `mrbound solve` hands a kind: the file and the solver
// options taken from the common flags.
type solveInput struct {
	Path string
	Data []byte
	Opts solve.Options
}

var kinds = map[string]kindHandler{}

func registerKind(k kindHandler) {
	if _, dup := kinds[k.Name]; dup {
		panic("mrbound: kind registered twice: " + k.Name)
	}
	kinds[k.Name] = k
}

func kindNames() []string {
	names := make([]string, 0, len(kinds))
	for n := range kinds {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// kindFlags are the `mrbound solve` flags that belong to scenario kinds. They
// are declared once here because several kinds share them.
var kindFlags = []cli.Flag{
	&cli.StringFlag{Name: "objective", Usage: "objective of the formulation (see the kind's docs), e.g. realtime, tst, trc, feasibility for jlassi; product, lexicographic, weighted, late-count, total-turnaround, makespan for mrcp"},
	&cli.StringFlag{Name: "formulation", Usage: "formulation variant, e.g. time-indexed or disjunctive for mrcp; strong or published for jlassi"},
	&cli.StringFlag{Name: "horizon", Usage: "time horizon: a number of intervals, or eq17, table5, search (jlassi)"},
	&cli.StringFlag{Name: "schedule", Usage: "write the decoded schedule as JSON to `FILE`"},
	&cli.StringFlag{Name: "svg", Usage: "draw the schedule as an SVG Gantt chart into `FILE`"},
}

// rejectKindFlags returns the error for the first kind flag that is set but
// not in accepted; kind names the file's kind in the message.
func rejectKindFlags(c *cli.Context, kind string, accepted []string) error {
	for _, f := range kindFlags {
		name := f.Names()[0]
		if c.IsSet(name) && !slices.Contains(accepted, name) {
			return badInputf("--%s: does not apply to %s", name, kind)
		}
	}
	return nil
}

// solveScenario solves a scenario of kind k through the formulation's front
// door: the report on stdout, then the files asked for.
func solveScenario(c *cli.Context, k kindHandler, in solveInput) error {
	if err := rejectKindFlags(c, "kind "+k.Name, k.Flags); err != nil {
		return err
	}
	ctx, stop := signalContext()
	defer stop()
	bar := solveProgress(c)
	rep, err := k.Run(ctx, c, in)
	bar.Finish()
	if err != nil {
		return err
	}
	if c.Bool("json") {
		err = rep.WriteJSON(c.App.Writer)
	} else {
		err = rep.WriteText(c.App.Writer)
	}
	if err != nil {
		return err
	}
	sr, ok := rep.(formulations.ScheduleReport)
	if !ok {
		return nil
	}
	// Files come after the report, which is printed whatever the solve found;
	// without a schedule there is nothing to write, and we say so.
	for _, f := range []struct {
		flag  string
		write func(io.Writer) error
	}{{"schedule", sr.WriteSchedule}, {"svg", sr.WriteSVG}} {
		p := c.String(f.flag)
		if p == "" {
			continue
		}
		if !sr.HasSchedule() {
			fmt.Fprintf(c.App.ErrWriter, "mrbound: --%s: no schedule to write (status %v)\n", f.flag, rep.Outcome().Status)
			continue
		}
		if err := writeFileAtomic(p, f.write); err != nil {
			return err
		}
	}
	return nil
}

// scenarioKind reads the top-level "kind" of a JSON scenario.
func scenarioKind(path string, data []byte) (string, error) {
	if err := strictjson.Check(path, data); err != nil {
		return "", strictjson.Explain(err, "not a JSON scenario")
	}
	var head struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return "", fmt.Errorf("%s: not a JSON scenario: %v", path, err)
	}
	if head.Kind == "" {
		return "", fmt.Errorf("%s: kind: missing (one of %v)", path, kindNames())
	}
	if _, ok := kinds[head.Kind]; !ok {
		return "", fmt.Errorf("%s: kind: unknown kind %q (one of %v)", path, head.Kind, kindNames())
	}
	return head.Kind, nil
}
