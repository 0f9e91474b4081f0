package windowbound

import (
	"context"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/formulations/mrcp"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/solve"
)

// StreamOptimum is one metric of a whole stream solved as one MRCP instance.
type StreamOptimum struct {
	Metric lowerbound.Metric `json:"metric"`
	UnitMs int64             `json:"unitMs"`
	// Objective is the MRCP objective solved: late-count for late jobs,
	// product for the product and, with every deadline at the horizon, for
	// the max turnaround.
	Objective string `json:"objective"`
	// Status is the solve's: Optimal means Value is the stream's optimum.
	Status solve.Status `json:"status"`
	// Value is the metric of the best schedule found (jobs or ms; NaN when
	// none), Bound a proven lower bound on it (= Value when Optimal).
	Value float64 `json:"value"`
	Bound float64 `json:"bound"`
	// LateJobs and MaxTurnaroundMs are the best schedule's.
	LateJobs        int   `json:"lateJobs"`
	MaxTurnaroundMs int64 `json:"maxTurnaroundMs"`
	// Verified: the schedule passed formulations/mrcp's checker.
	Verified bool          `json:"verified"`
	Wall     time.Duration `json:"wall"`
}

// maxOptimumUnits bounds the horizon, in time units, of a stream Optimum
// solves: the time-indexed model has a column per task and unit of its
// window (20-job mixed streams in 1 s units: about 5,500).
const maxOptimumUnits = 50000

// exactUnit is the greatest common divisor (ms) of every duration, arrival
// and deadline of p: the largest unit in which nothing is rounded.
func exactUnit(p *lowerbound.Problem) int64 {
	var g int64
	for j := range p.Jobs {
		job := &p.Jobs[j]
		g = gcd(g, job.Arrival)
		if job.HasDeadline {
			g = gcd(g, job.Deadline)
		}
		for _, ts := range [][]lowerbound.Task{job.Maps, job.Reduces} {
			for _, t := range ts {
				for _, d := range t.Dur {
					g = gcd(g, d)
				}
			}
		}
	}
	return g
}

// horizonMs is the latest arrival plus every task's longest duration: no
// compacted schedule ends later.
func horizonMs(p *lowerbound.Problem) int64 {
	var h int64
	for j := range p.Jobs {
		job := &p.Jobs[j]
		h = max(h, job.Arrival)
	}
	for j := range p.Jobs {
		for _, ts := range [][]lowerbound.Task{p.Jobs[j].Maps, p.Jobs[j].Reduces} {
			for _, t := range ts {
				longest := int64(0)
				for _, d := range t.Dur {
					longest = max(longest, d)
				}
				h += longest
			}
		}
	}
	return h
}

// Optimum solves the whole of p as one MRCP instance for metric m (late
// jobs, max turnaround or the MRCP product) when p is exactly an MRCP
// instance: fixed slots, no preemption, every time a multiple of the unit
// (o.UnitMs, or exactUnit, the gcd of all times; at most maxOptimumUnits
// in the horizon), one duration per task on every node group,
// every job with maps and reduces and, but for the max turnaround, a
// deadline. It returns nil when p is not (the windows' rounding would make
// the answer a bound, which Bound gives). With integer data the MILP's
// integer-time optimum is the continuous-time one (an active schedule
// starts every task at a sum of data), so an Optimal status gives the
// optimum of the problem the simulator runs. o.WindowJobs is not read.
func Optimum(ctx context.Context, p *lowerbound.Problem, m lowerbound.Metric, o Options) (*StreamOptimum, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	kind := mrcp.Product
	switch m {
	case lowerbound.LateJobs:
		kind = mrcp.LateCount
	case lowerbound.MaxTurnaround, lowerbound.MRCPProduct:
	default:
		return nil, badinput.Errorf("windowbound: MRCP has no objective for %v", m)
	}
	if p.Preemptive || p.Mode != lowerbound.Fixed || len(p.Jobs) == 0 {
		return nil, nil
	}
	unit := o.UnitMs
	if unit <= 0 {
		unit = exactUnit(p)
	}
	if unit < 1 || horizonMs(p)/unit > maxOptimumUnits {
		return nil, nil
	}
	jobs := make([]int, len(p.Jobs))
	for i := range jobs {
		jobs[i] = i
	}
	sort.SliceStable(jobs, func(x, y int) bool { return p.Jobs[jobs[x]].Arrival < p.Jobs[jobs[y]].Arrival })
	allLate := m == lowerbound.MaxTurnaround
	in, exact, err := toMRCP(p, jobs, unit, allLate)
	if err != nil || !exact {
		return nil, nil // a task shorter than the unit, or something rounded or dropped
	}
	if allLate {
		// Every deadline at the horizon: no compacted schedule has a late
		// job, so the product's optimum is the least maximum turnaround (and
		// the decomposition stops at K = 0 once 2·Zmin reaches it; deadlines
		// at the releases made every K < n a subproblem of its own).
		h := mrcp.HorizonBound(in)
		for j := range in.Jobs {
			in.Jobs[j].Deadline = max(in.Jobs[j].Release, h)
		}
	}
	t0 := time.Now()
	out, err := mrcp.RunInstance(ctx, "stream", in, mrcp.Options{Solve: o.Solve, Objective: mrcp.Objective{Kind: kind}})
	if err != nil {
		return nil, fmt.Errorf("windowbound: %w", err)
	}
	so := &StreamOptimum{Metric: m, UnitMs: unit, Objective: kind.String(), Status: out.Result.Status,
		Value: math.NaN(), Verified: out.Verified, Wall: time.Since(t0)}
	b := out.Result.Bound - boundSlack
	if math.IsInf(b, 0) || math.IsNaN(b) {
		b = 0
	}
	// The dual bound B on the solved objective, in the metric: the late
	// count itself; the product, or with no job late the maximum
	// turnaround, in units.
	so.Bound = math.Max(0, math.Ceil(b))
	if m != lowerbound.LateJobs {
		so.Bound *= float64(unit)
	}
	if s := out.Schedule; s != nil && out.Verified {
		so.LateJobs, so.MaxTurnaroundMs = s.LateJobs, int64(s.MaxTurnaround)*unit
		switch m {
		case lowerbound.LateJobs:
			so.Value = float64(s.LateJobs)
		case lowerbound.MaxTurnaround:
			so.Value = float64(so.MaxTurnaroundMs)
		case lowerbound.MRCPProduct:
			so.Value = float64(s.LateJobs+1) * float64(so.MaxTurnaroundMs)
		}
		if so.Status == solve.Optimal {
			so.Bound = so.Value
		}
	}
	if out.Schedule != nil && !out.Verified {
		// A schedule the checker rejects: a bug somewhere; claim nothing.
		so.Status, so.Bound = solve.StatusUnknown, 0
	}
	return so, nil
}
