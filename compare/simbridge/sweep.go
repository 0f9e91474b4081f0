package simbridge

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/compare"
	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/internal/sizelimit"
	"github.com/mrbound/mrbound/policy"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/workload"
)

// SweepOptions describe a generated family: workload × λ × seed.
type SweepOptions struct {
	// Family is "mrcp-small", "mrcp-medium", "mrcp-large" or "mrcp-mixed"
	// (instances/mrcpscenario's generator, Poisson arrivals).
	Family string
	// Jobs per instance; Lambdas the arrival rates (jobs/s); seeds 1..Seeds.
	Jobs    int
	Lambdas []float64
	Seeds   int
	// Policies are registry names (package policy).
	Policies []string
	// Compare configures each instance's comparison (Metric must be set).
	Compare Options
	// Done are records already written (resuming): an instance whose
	// records are all there is skipped; one with some of them is redone and
	// only its missing records are emitted.
	Done []compare.SweepRecord
	// Emit receives each new record as soon as it is known (append it to
	// the table file).
	Emit func(compare.SweepRecord) error
	// Progress, when set, is called with (instances settled, total).
	Progress func(done, total int)
}

// Sweep runs the comparison on every instance of the family and returns
// every record (the Done ones included), in instance order. A verified run
// below its bound stops the sweep with the error (compare.ErrBelowBound).
func Sweep(ctx context.Context, o SweepOptions) ([]compare.SweepRecord, error) {
	wl, err := mrcpFamily(o.Family)
	if err != nil {
		return nil, err
	}
	if o.Jobs < 1 || o.Seeds < 1 || len(o.Lambdas) == 0 || len(o.Policies) == 0 {
		return nil, badinput.Errorf("compare sweep: need jobs ≥ 1, seeds ≥ 1, at least one λ and one policy")
	}
	if err := CheckSweepSize(o); err != nil {
		return nil, err
	}
	if o.Compare.Metric == 0 {
		return nil, badinput.Errorf("compare sweep: a metric is required")
	}
	done := map[string]compare.SweepRecord{}
	for _, r := range o.Done {
		done[r.Key()] = r
	}
	var out []compare.SweepRecord
	total, settled := len(o.Lambdas)*o.Seeds, 0
	for _, lambda := range o.Lambdas {
		for seed := 1; seed <= o.Seeds; seed++ {
			if err := ctx.Err(); err != nil {
				return out, err
			}
			w, load, err := mrcpInstance(wl, o.Jobs, lambda, uint64(seed))
			if err != nil {
				return out, err
			}
			base := compare.SweepRecord{Workload: o.Family, Lambda: lambda, Load: load, Seed: uint64(seed), Metric: o.Compare.Metric}
			var have []compare.SweepRecord
			for _, name := range o.Policies {
				r := base
				r.Policy = name
				if d, ok := done[r.Key()]; ok {
					have = append(have, d)
				}
			}
			if len(have) == len(o.Policies) {
				out = append(out, have...)
			} else {
				// A sweep killed between two policies of an instance left
				// some of its rows: the instance is redone whole, but only
				// its missing rows are emitted (not a second copy of the
				// others).
				oi := o
				if emit := o.Emit; emit != nil && len(have) > 0 {
					oi.Emit = func(r compare.SweepRecord) error {
						if _, ok := done[r.Key()]; ok {
							return nil
						}
						return emit(r)
					}
				}
				recs, err := sweepOne(ctx, w, base, oi)
				if err != nil {
					return out, err
				}
				out = append(out, recs...)
			}
			settled++
			if o.Progress != nil {
				o.Progress(settled, total)
			}
		}
	}
	return out, nil
}

// SweepInstance compares one instance of the family, (λ, seed), and returns
// its records (one per policy), also passing each to o.Emit. It is one item
// of the distributed sweep (package compare/comparesweep).
func SweepInstance(ctx context.Context, o SweepOptions, lambda float64, seed uint64) ([]compare.SweepRecord, error) {
	wl, err := mrcpFamily(o.Family)
	if err != nil {
		return nil, err
	}
	w, load, err := mrcpInstance(wl, o.Jobs, lambda, seed)
	if err != nil {
		return nil, err
	}
	base := compare.SweepRecord{Workload: o.Family, Lambda: lambda, Load: load, Seed: seed, Metric: o.Compare.Metric}
	return sweepOne(ctx, w, base, o)
}

func sweepOne(ctx context.Context, w *sim.Workload, base compare.SweepRecord, o SweepOptions) ([]compare.SweepRecord, error) {
	pols := make([]Named, len(o.Policies))
	for i, n := range o.Policies {
		p, err := policy.New(n, policy.Params{})
		if err != nil {
			return nil, err
		}
		pols[i] = Named{n, p}
	}
	res, err := Compare(ctx, w.Name, w, pols, o.Compare)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", w.Name, err)
	}
	var out []compare.SweepRecord
	for _, row := range res.Report.Policies {
		r := base
		// the table's unit is the CSV report's (s for times); the ratio is
		// the report's, taken in its own unit
		unit := res.Report.Unit
		r.Policy, r.BoundStatus, r.Verified = row.Policy, res.Report.BoundStatus, row.Verified
		r.Unit, r.Value, r.Bound = compare.HumanUnit(unit), compare.InHumanUnit(unit, row.Value), compare.InHumanUnit(unit, res.Report.Bound)
		r.Ratio = math.NaN()
		if row.Ratio != nil {
			r.Ratio = *row.Ratio
		}
		if o.Emit != nil {
			if err := o.Emit(r); err != nil {
				return nil, err
			}
		}
		out = append(out, r)
	}
	return out, nil
}

func mrcpFamily(family string) (mrcpscenario.Workload, error) {
	name, ok := strings.CutPrefix(family, "mrcp-")
	if ok {
		if wl, err := mrcpscenario.ParseWorkload(name); err == nil {
			return wl, nil
		}
	}
	return 0, badinput.Errorf("compare sweep: unknown family %q (mrcp-small, mrcp-medium, mrcp-large or mrcp-mixed)", family)
}

// mrcpInstance generates one instance and its offered load: the busier
// slot kind's work over its capacity during the expected arrival span
// n/λ, max_k W_k / (S_k · n/λ).
func mrcpInstance(wl mrcpscenario.Workload, jobs int, lambda float64, seed uint64) (*sim.Workload, float64, error) {
	in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: wl, Jobs: jobs, Lambda: lambda, Seed: seed})
	if err != nil {
		return nil, 0, badinput.Errorf("compare sweep: %v", err)
	}
	w, err := workload.FromMRCP(in.Name, in)
	if err != nil {
		return nil, 0, err
	}
	var work, slots [2]float64
	for _, n := range w.Cluster.Nodes {
		slots[0] += float64(n.MapSlots)
		slots[1] += float64(n.ReduceSlots)
	}
	for _, j := range w.Jobs {
		for k, ts := range [2][]sim.TaskSpec{j.Maps, j.Reduces} {
			for _, t := range ts {
				work[k] += float64(t.Work)
			}
		}
	}
	span := float64(jobs) / lambda * 1000 // ms
	load := 0.0
	for k := range 2 {
		if slots[k] > 0 {
			load = math.Max(load, work[k]/(slots[k]*span))
		}
	}
	return w, math.Round(load*1e4) / 1e4, nil
}

// CheckSweepSize refuses a sweep whose items (rates × seeds, each a record
// per policy kept to the end) or whose instances (--jobs jobs of up to 21
// tasks each) would not fit the memory budget, before any is generated.
func CheckSweepSize(o SweepOptions) error {
	items := float64(len(o.Lambdas)) * float64(o.Seeds)
	if err := sizelimit.Check("--seeds, --lambdas", items, sizelimit.SweepItem*int64(max(1, len(o.Policies))), "sweep items"); err != nil {
		return err
	}
	return sizelimit.Check("--jobs", float64(o.Jobs)*21, sizelimit.ScenarioTask+sizelimit.SimTask, "tasks per instance")
}
