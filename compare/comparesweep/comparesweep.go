package comparesweep

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/compare"
	"github.com/mrbound/mrbound/compare/simbridge"
	"github.com/mrbound/mrbound/internal/atomicfile"
	"github.com/mrbound/mrbound/internal/plural"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/sweep"
)

// Name is the sweep kind's name.
const Name = "compare"

func init() {
	sweep.Register(sweep.Kind{Name: Name, Run: runItem, Check: check, Collect: collect})
}

// Params are a family sweep's options as a manifest stores them.
type Params struct {
	Family     string            `json:"family"`
	Jobs       int               `json:"jobs"`
	Metric     lowerbound.Metric `json:"metric"`
	Policies   []string          `json:"policies"`
	Noise      float64           `json:"noise,omitempty"`
	LP         bool              `json:"lp,omitempty"`
	WindowJobs int               `json:"window_jobs,omitempty"`
	// OptimumJobs is simbridge.Options.OptimumJobs.
	OptimumJobs int            `json:"optimum_jobs,omitempty"`
	Solver      string         `json:"solver,omitempty"`
	TimeLimit   sweep.Duration `json:"time_limit,omitempty"`
}

type spec struct {
	Lambda float64 `json:"lambda"`
	Seed   uint64  `json:"seed"`
}

func paramsOf(o simbridge.SweepOptions) Params {
	return Params{Family: o.Family, Jobs: o.Jobs, Metric: o.Compare.Metric, Policies: o.Policies, Noise: o.Compare.Sim.Noise,
		LP: o.Compare.LP, WindowJobs: o.Compare.WindowJobs, OptimumJobs: o.Compare.OptimumJobs, Solver: o.Compare.Solve.Solver, TimeLimit: sweep.Duration(o.Compare.Solve.TimeLimit)}
}

func (p Params) options() simbridge.SweepOptions {
	o := simbridge.SweepOptions{Family: p.Family, Jobs: p.Jobs, Policies: p.Policies}
	o.Compare = simbridge.Options{Metric: p.Metric, Sim: simbridge.IdealOptions(), LP: p.LP, WindowJobs: p.WindowJobs, OptimumJobs: p.OptimumJobs,
		Solve: solve.Options{Solver: p.Solver, TimeLimit: time.Duration(p.TimeLimit)}}
	o.Compare.Sim.Noise = p.Noise
	return o
}

// Plan is the sweep o describes: one item per (λ, seed), λ-major as
// simbridge.Sweep goes.
func Plan(o simbridge.SweepOptions) (*sweep.Manifest, error) {
	if err := simbridge.CheckSweepSize(o); err != nil {
		return nil, err
	}
	params, err := json.Marshal(paramsOf(o))
	if err != nil {
		return nil, err
	}
	m := &sweep.Manifest{Sweep: Name, Params: params,
		Title: fmt.Sprintf("compare %s: %s, %s × %s, %s", o.Family, plural.Count(o.Jobs, "job"), plural.Count(len(o.Lambdas), "rate"), plural.Count(o.Seeds, "seed"), o.Compare.Metric)}
	for _, l := range o.Lambdas {
		for seed := uint64(1); seed <= uint64(o.Seeds); seed++ {
			s, _ := json.Marshal(spec{Lambda: l, Seed: seed})
			m.Items = append(m.Items, sweep.Item{ID: fmt.Sprintf("lambda%g-seed%d", l, seed), Spec: s})
		}
	}
	return m, nil
}

func check(params json.RawMessage, items []sweep.Item) error {
	var p Params
	if err := sweep.DecodeStrict(params, &p); err != nil {
		return fmt.Errorf("params: %v", err)
	}
	if p.Jobs < 1 || len(p.Policies) == 0 || p.Metric == lowerbound.MetricUnknown {
		return fmt.Errorf("params: need jobs ≥ 1, a metric and at least one policy")
	}
	for i, it := range items {
		var s spec
		if err := sweep.DecodeStrict(it.Spec, &s); err != nil || !(s.Lambda > 0) {
			return fmt.Errorf("items[%d].spec: want {\"lambda\": rate > 0, \"seed\": n}", i)
		}
	}
	return nil
}

// result is an item's records as CSV rows of compare.SweepRecords.
type result struct {
	Rows [][]string `json:"rows"`
}

func runItem(ctx context.Context, params, specJSON json.RawMessage, log io.Writer) (json.RawMessage, error) {
	p, s, err := sweep.DecodeItem[Params, spec](params, specJSON)
	if err != nil {
		return nil, err
	}
	recs, err := simbridge.SweepInstance(ctx, p.options(), s.Lambda, s.Seed)
	if err != nil {
		return nil, err
	}
	var res result
	for _, r := range recs {
		res.Rows = append(res.Rows, compare.SweepRecords.Fields(r))
		fmt.Fprintf(log, "λ %g seed %d load %g: %s %s %g %s, bound %g %s (%s), ratio %g, verified %t\n",
			r.Lambda, r.Seed, r.Load, r.Policy, r.Metric, r.Value, r.Unit, r.Bound, r.Unit, r.BoundStatus, r.Ratio, r.Verified)
	}
	return json.Marshal(res)
}

func collect(params json.RawMessage, results []json.RawMessage, out sweep.Output) error {
	var p Params
	if err := json.Unmarshal(params, &p); err != nil {
		return badinput.Errorf("params: %v", err)
	}
	var recs []compare.SweepRecord
	for i, raw := range results {
		if raw == nil {
			continue
		}
		var res result
		if err := json.Unmarshal(raw, &res); err != nil {
			return fmt.Errorf("item %d: %v", i, err)
		}
		for _, row := range res.Rows {
			r, err := compare.SweepRecords.Parse(row)
			if err != nil {
				return fmt.Errorf("item %d: %v", i, err)
			}
			recs = append(recs, r)
		}
	}
	pts := compare.SweepMeans(recs)
	if out.Path != "" {
		if err := atomicfile.Write(out.Path, func(w io.Writer) error { return compare.SweepRecords.WriteAll(w, recs) }); err != nil {
			return err
		}
		title := compare.SweepTitle(p.Family, p.Jobs, p.Metric)
		if err := atomicfile.Write(out.Path+".svg", func(w io.Writer) error { return compare.WriteSweepSVG(w, title, pts) }); err != nil {
			return err
		}
	}
	if out.Stdout != nil {
		return compare.WriteSweepSummary(out.Stdout, p.Family, p.Metric, pts, len(recs))
	}
	return nil
}
