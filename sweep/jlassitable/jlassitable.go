package jlassitable

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/formulations/jlassi"
	"github.com/mrbound/mrbound/internal/plural"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/sweep"
	"github.com/mrbound/mrbound/sweep/record"
)

// Name is the sweep kind's name.
const Name = "jlassi-table"

// ItemOverhead is added to an item's solve time limits for generating,
// building, decoding and checking the instance (seconds on any instance of
// Table 5) and starting the process.
const ItemOverhead = time.Minute

// ItemMemoryMB is the memory asked per item: the largest scenario's model
// and HiGHS's WebAssembly heap stay well below it.
const ItemMemoryMB = 2048

func init() {
	sweep.Register(sweep.Kind{Name: Name, Run: runItem, Check: check, Collect: collect})
}

// FormatFor is the table format for a file name: .csv, .md, else text.
func FormatFor(path string) jlassi.TableFormat {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return jlassi.FormatCSV
	case ".md":
		return jlassi.FormatMarkdown
	}
	return jlassi.FormatText
}

func render(format jlassi.TableFormat) func(io.Writer, []jlassi.Record) error {
	return func(w io.Writer, recs []jlassi.Record) error {
		return jlassi.WriteTable(w, jlassi.Summarize(recs), format)
	}
}

// RunTable runs the table here. With out set, it resumes from out's records
// file and keeps it and out up to date after every instance. The table is
// written to stdout at the end, also when ctx stops the run early (the
// instances finished so far).
func RunTable(ctx context.Context, opts jlassi.TableOptions, out string, stdout io.Writer) error {
	s, err := record.Open(out, jlassi.Records, render(FormatFor(out)))
	if err != nil {
		return err
	}
	defer s.Close()
	opts.Done, opts.Emit = s.Done(), s.Add
	if _, err := jlassi.RunTable(ctx, opts); err != nil && ctx.Err() == nil {
		return err
	}
	return s.Finish(stdout)
}

// Params are the table's options as a manifest stores them.
type Params struct {
	Scenarios   []int          `json:"scenarios"`
	Instances   int            `json:"instances"`
	Formulation string         `json:"formulation,omitempty"`
	Objective   string         `json:"objective,omitempty"`
	Horizon     string         `json:"horizon,omitempty"`
	Solver      string         `json:"solver,omitempty"`
	TimeLimit   sweep.Duration `json:"time_limit,omitempty"`
	RelGap      float64        `json:"rel_gap,omitempty"`
	AbsGap      float64        `json:"abs_gap,omitempty"`
	NodeLimit   int64          `json:"node_limit,omitempty"`
	Threads     int            `json:"threads,omitempty"`
	Seed        int64          `json:"seed,omitempty"`
	// Verbosity > 0 writes the solver's log into each item's log.
	Verbosity int `json:"verbosity,omitempty"`
}

// spec is one item: an instance of the table.
type spec struct {
	Scenario int   `json:"scenario"`
	Seed     int64 `json:"seed"`
}

func paramsOf(o jlassi.TableOptions) Params {
	p := Params{Scenarios: o.Scenarios, Instances: o.Instances, Solver: o.Solve.Solver,
		TimeLimit: sweep.Duration(o.Solve.TimeLimit), RelGap: o.Solve.RelGap, AbsGap: o.Solve.AbsGap,
		NodeLimit: o.Solve.NodeLimit, Threads: o.Solve.Threads, Seed: o.Solve.Seed, Verbosity: o.Solve.Verbosity}
	if o.Form != jlassi.FormUnknown {
		p.Formulation = o.Form.String()
	}
	if o.Objective != jlassi.ObjectiveUnknown {
		p.Objective = o.Objective.String()
	}
	if o.Horizon.Mode != jlassi.HorizonUnknown {
		p.Horizon = o.Horizon.String()
	}
	return p
}

func (p Params) options() (jlassi.TableOptions, error) {
	o := jlassi.TableOptions{Scenarios: p.Scenarios, Instances: p.Instances, Solve: solve.Options{Solver: p.Solver,
		TimeLimit: time.Duration(p.TimeLimit), RelGap: p.RelGap, AbsGap: p.AbsGap, NodeLimit: p.NodeLimit,
		Threads: p.Threads, Seed: p.Seed, Verbosity: p.Verbosity}}
	var err error
	if o.Form, err = jlassi.ParseForm(p.Formulation); err != nil {
		return o, badinput.Errorf("params.formulation: %v", err)
	}
	if p.Objective != "" {
		if o.Objective, err = jlassi.ParseObjective(p.Objective); err != nil {
			return o, badinput.Errorf("params.objective: %v", err)
		}
	}
	if p.Horizon != "" {
		if o.Horizon, err = jlassi.ParseHorizon(p.Horizon); err != nil {
			return o, badinput.Errorf("params.horizon: %v", err)
		}
	}
	if err := o.Solve.Validate(); err != nil {
		return o, badinput.Errorf("params: %v", err)
	}
	return o, nil
}

// Plan is the sweep of the table opts describes: one item per (scenario,
// seed), scenario-major as RunTable goes.
func Plan(opts jlassi.TableOptions) (*sweep.Manifest, error) {
	params, err := json.Marshal(paramsOf(opts))
	if err != nil {
		return nil, err
	}
	m := &sweep.Manifest{Sweep: Name, Params: params, Limits: sweep.Limits{MemoryMB: ItemMemoryMB},
		Title: fmt.Sprintf("Jlassi Table 6 analogue: scenarios %v, %s each", opts.Scenarios, plural.Count(opts.Instances, "instance"))}
	if opts.Solve.TimeLimit > 0 {
		m.Limits.Time = sweep.Duration(2*opts.Solve.TimeLimit + ItemOverhead)
	}
	for _, sc := range opts.Scenarios {
		for seed := int64(1); seed <= int64(opts.Instances); seed++ {
			s, _ := json.Marshal(spec{Scenario: sc, Seed: seed})
			m.Items = append(m.Items, sweep.Item{ID: fmt.Sprintf("sc%d-seed%d", sc, seed), Spec: s})
		}
	}
	return m, nil
}

// result is an item's record: the records file's row by column name, so that
// Collect writes exactly the row RunTable writes.
type result map[string]string

func check(params json.RawMessage, items []sweep.Item) error {
	var p Params
	if err := sweep.DecodeStrict(params, &p); err != nil {
		return fmt.Errorf("params: %v", strings.TrimPrefix(err.Error(), "json: "))
	}
	if _, err := p.options(); err != nil {
		return err
	}
	for i, it := range items {
		var s spec
		if err := sweep.DecodeStrict(it.Spec, &s); err != nil {
			return fmt.Errorf("items[%d].spec: %v", i, strings.TrimPrefix(err.Error(), "json: "))
		}
	}
	return nil
}

func runItem(ctx context.Context, params, specJSON json.RawMessage, log io.Writer) (json.RawMessage, error) {
	p, s, err := sweep.DecodeItem[Params, spec](params, specJSON)
	if err != nil {
		return nil, err
	}
	o, err := p.options()
	if err != nil {
		return nil, err
	}
	if o.Solve.Verbosity > 0 {
		o.Solve.Log = log
	}
	r, err := jlassi.TableInstance(ctx, o, s.Scenario, s.Seed)
	if err != nil {
		return nil, err
	}
	fields := jlassi.Records.Fields(r)
	res := result{}
	for i, h := range jlassi.Records.Header {
		res[h] = fields[i]
	}
	fmt.Fprintf(log, "scenario %d seed %d: %s, T %d, RealTime %s, bound %s, LP bound %s, verified %t\n",
		r.Scenario, r.Seed, r.Status, r.T, res["realtime"], res["bound"], res["lp_bound"], r.Verified)
	return json.Marshal(res)
}

func collect(params json.RawMessage, results []json.RawMessage, out sweep.Output) error {
	var recs []jlassi.Record
	for i, raw := range results {
		if raw == nil {
			continue
		}
		var res result
		if err := json.Unmarshal(raw, &res); err != nil {
			return fmt.Errorf("item %d: %v", i, err)
		}
		row := make([]string, len(jlassi.Records.Header))
		for j, h := range jlassi.Records.Header {
			v, ok := res[h]
			if !ok {
				return fmt.Errorf("item %d: result lacks %q", i, h)
			}
			row[j] = v
		}
		r, err := jlassi.Records.Parse(row)
		if err != nil {
			return fmt.Errorf("item %d: %v", i, err)
		}
		recs = append(recs, r)
	}
	return record.WriteOutputs(out.Path, jlassi.Records, recs, render(FormatFor(out.Path)), out.Stdout)
}
