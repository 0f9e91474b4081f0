package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/urfave/cli/v2"

	"github.com/mrbound/mrbound/solve"
)

// kindHandler serves one kind of scenario file (the top-level "kind" of its
// JSON). Each lives in kind_<name>.go and registers itself in init.
type kindHandler struct {
	// Name is the value of "kind" in the scenario's JSON.
	Name string
	// Solve loads, solves, checks and reports the scenario in.
	Solve func(c *cli.Context, in solveInput) error
	// Generate, when set, is the `mrbound generate <Name>` command.
	Generate *cli.Command
	// Table, when set, is the `mrbound table <Name>` command.
	Table *cli.Command
}

// solveInput is what `mrbound solve` hands a kind: the file, the solver
// options taken from the common flags, and where to write.
type solveInput struct {
	Path string
	Data []byte
	Opts solve.Options
	// JSON asks for one JSON object instead of the human report.
	JSON bool
	Out  io.Writer
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
	&cli.StringFlag{Name: "objective", Usage: "objective of the formulation (see the kind's docs), e.g. realtime, tst, trc, feasibility for jlassi; product, lexicographic, weighted for mrcp"},
	&cli.StringFlag{Name: "formulation", Usage: "formulation variant, e.g. time-indexed or disjunctive for mrcp; strong or published for jlassi"},
	&cli.StringFlag{Name: "horizon", Usage: "time horizon: a number of intervals, or eq17, table5, search (jlassi)"},
	&cli.StringFlag{Name: "schedule", Usage: "write the decoded schedule as JSON to `FILE`"},
	&cli.StringFlag{Name: "svg", Usage: "draw the schedule as an SVG Gantt chart into `FILE`"},
}

// scenarioKind reads the top-level "kind" of a JSON scenario.
func scenarioKind(path string, data []byte) (string, error) {
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
