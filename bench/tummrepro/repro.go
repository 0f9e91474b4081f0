package tummrepro

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/mrbound/mrbound/instances/tummscenario"
	"github.com/mrbound/mrbound/internal/plural"
	"github.com/mrbound/mrbound/policy/tumm"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
)

// Options choose the simulation parameters shared by every run.
type Options struct {
	// Sim are the run options (default: sim.DefaultOptions, hadoop1
	// heartbeats of 3 s, slow-start 0.05, as Hadoop 0.20.2).
	Sim sim.Options
	// Seed of the mixed batch's draw and random order.
	Seed uint64
}

// DefaultOptions are the paper-reproducing settings with seed 1.
func DefaultOptions() Options { return Options{Sim: sim.DefaultOptions(), Seed: 1} }

// Run is one simulation's figures.
type Run struct {
	Experiment, Workload, Policy string
	Makespan                     float64 // s
	Utilisation                  float64 // busy slot-time / (S · makespan)
	Bound                        float64 // LB (s)
	// QueryMakespan: per chain (TPC-H), last completion − 0.
	QueryMakespan map[string]float64
	Wall          time.Duration
	Decisions     int64 // offers
	Overhead      time.Duration
}

// Report is every run.
type Report struct {
	Options Options
	Runs    []Run
	// Ratio is TuMM's slot-ratio trace on the mixed batch in Johnson's order
	// (Fig 8): its target s_m and the running maps and reduces over time.
	Ratio RatioTrace
}

// RatioTrace is a target history and the running counts of a run.
type RatioTrace struct {
	Targets []tumm.TargetPoint
	// Steps are (time, running maps, running reduces) after every change.
	Steps []CountStep
}

// CountStep is the running task counts from At on.
type CountStep struct {
	At            sim.Time
	Maps, Reduces int
}

// countSteps turns a trace into running counts over time (slot-holding
// intervals [Launch, End)).
func countSteps(trace []sim.Attempt) []CountStep {
	type ev struct {
		at   sim.Time
		kind sim.Kind
		d    int
	}
	var evs []ev
	for _, a := range trace {
		evs = append(evs, ev{a.Launch, a.Kind, 1}, ev{a.End, a.Kind, -1})
	}
	slices.SortStableFunc(evs, func(a, b ev) int { return cmp.Compare(a.at, b.at) })
	var out []CountStep
	var m, r int
	for i, e := range evs {
		if e.kind == sim.Map {
			m += e.d
		} else {
			r += e.d
		}
		if i+1 == len(evs) || evs[i+1].at != e.at {
			out = append(out, CountStep{e.at, m, r})
		}
	}
	return out
}

// Policy sets of the experiments: tumm-literal is TuMM with eq 6 read as
// policies.md §2.6 writes it (ρ_prev = the previous evaluation's share).
var (
	SimplePolicies = []string{"static:1:3", "static:2:2", "static:3:1", "static:alg1", "tumm", "tumm-literal"}
	ChainPolicies  = []string{"static:nodes", "htumm"}
	Orders         = []string{"johnson", "reverse", "random"}
)

func policyByName(name string) (sim.Policy, error) { return tumm.ByName(name) }

// ErrBelowBound is returned when a run's makespan is below the lower bound.
var ErrBelowBound = errors.New("tummrepro: makespan below the lower bound")

// Reproduce runs every experiment.
func Reproduce(o Options) (*Report, error) {
	r := &Report{Options: o}
	for _, bm := range tummscenario.Benchmarks {
		if err := r.experiment("simple", tummscenario.GenOptions{Benchmark: bm.Name}, SimplePolicies); err != nil {
			return nil, err
		}
	}
	for _, ord := range Orders {
		if err := r.experiment("mixed", tummscenario.GenOptions{Benchmark: "mixed", Order: ord, Seed: o.Seed}, SimplePolicies); err != nil {
			return nil, err
		}
	}
	for _, c := range []string{"heter1", "heter2"} {
		if err := r.experiment("tpch", tummscenario.GenOptions{Benchmark: "tpch", Cluster: c}, ChainPolicies); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func (r *Report) experiment(name string, g tummscenario.GenOptions, policies []string) error {
	sc, err := tummscenario.Generate(g)
	if err != nil {
		return err
	}
	w := sc.Batch.Workload(sc.Name, true)
	lb := LowerBound(sc.Batch, r.Options.Sim)
	label := g.Benchmark
	switch name {
	case "mixed":
		label = g.Order
	case "tpch":
		label = g.Cluster
	}
	for _, pn := range policies {
		p, err := policyByName(pn)
		if err != nil {
			return err
		}
		res, err := sim.Run(w, p, r.Options.Sim)
		if err != nil {
			return fmt.Errorf("%s %s: %w", sc.Name, pn, err)
		}
		if err := check.Verify(w, res); err != nil {
			return fmt.Errorf("%s %s: checker: %w", sc.Name, pn, err)
		}
		if res.Rejected > 0 || res.Metrics.CompletedJobs != len(w.Jobs) {
			return fmt.Errorf("%s %s: %s, %d of %s done", sc.Name, pn, plural.Count(res.Rejected, "rejected action"), res.Metrics.CompletedJobs, plural.Count(len(w.Jobs), "job"))
		}
		run := Run{Experiment: name, Workload: label, Policy: pn, Makespan: res.Metrics.Makespan,
			Utilisation: res.Metrics.Utilisation, Bound: lb, Wall: res.Wall, Decisions: res.Offers, Overhead: res.Overhead}
		if run.Makespan < lb*(1-boundTol) {
			return fmt.Errorf("%w: %s %s: %.3f s < %.3f s", ErrBelowBound, sc.Name, pn, run.Makespan, lb)
		}
		if name == "tpch" {
			run.QueryMakespan = map[string]float64{}
			for j, job := range w.Jobs {
				q := sc.Batch.Jobs[j].Benchmark
				run.QueryMakespan[q] = math.Max(run.QueryMakespan[q], res.Jobs[j].Completion.Seconds())
				_ = job
			}
		}
		if tp, ok := p.(*tumm.TuMM); ok && name == "mixed" && label == "johnson" && pn == "tumm" {
			r.Ratio = RatioTrace{Targets: tp.Targets, Steps: countSteps(res.Trace)}
		}
		r.Runs = append(r.Runs, run)
	}
	return nil
}

// boundTol absorbs the whole-millisecond rounding of task times.
const boundTol = 1e-6

// LowerBound is max(Σ_i W_i/S, max over chains of Σ CP_i) with every task
// at its fastest group's time (package doc), each shortened by the largest
// noise factor 1 − o.Noise and a reduce's critical part by the overlap
// 1 − o.Overlap; contention only lengthens tasks.
func LowerBound(b *tummscenario.Batch, o sim.Options) float64 {
	S := 0
	for _, n := range b.Cluster.Nodes {
		S += n.Slots
	}
	fastest := func(ts []float64) float64 {
		m := math.Inf(1)
		for _, t := range ts {
			m = math.Min(m, t)
		}
		return m
	}
	work, cp := 0.0, 0.0
	chain := map[string]float64{}
	for _, j := range b.Jobs {
		tm, tr := fastest(j.MapTime)*(1-o.Noise), fastest(j.ReduceTime)*(1-o.Noise)
		work += float64(j.Maps)*tm + float64(j.Reduces)*tr
		c := 0.0
		if j.Maps > 0 {
			c += tm
		}
		if j.Reduces > 0 {
			c += tr * (1 - o.Overlap)
		}
		c += chain[j.Parent]
		chain[j.Name] = c
		cp = math.Max(cp, c)
	}
	return math.Max(work/float64(S), cp)
}
