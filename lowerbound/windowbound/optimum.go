package windowbound

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/formulations/mrcp"
	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/solve"
)

// StreamOptimum is one metric of a whole stream solved as one MRCP instance.
type StreamOptimum struct {
	Metric lowerbound.Metric `json:"metric"`
	UnitMs int64             `json:"unitMs"`
	// Objective is the MRCP objective solved: late-count for late jobs,
	// product for the product and, with every deadline at the horizon, for
	// the max turnaround, total-turnaround for the total and mean
	// turnaround, makespan for the makespan.
	Objective string `json:"objective"`
	// Status is the solve's: Optimal means Value is the stream's optimum
	// (for the total and mean turnaround only when the dual bound proves
	// it: a stop within a gap the caller allowed is StatusUnknown).
	Status solve.Status `json:"status"`
	// Value is the metric of the best schedule found (jobs or ms; NaN when
	// none), Bound a proven lower bound on the metric's optimum (= Value
	// when Optimal).
	Value float64 `json:"value"`
	Bound float64 `json:"bound"`
	// LateJobs and MaxTurnaroundMs are the best schedule's.
	LateJobs        int   `json:"lateJobs"`
	MaxTurnaroundMs int64 `json:"maxTurnaroundMs"`
	// Verified: the schedule passed formulations/mrcp's checker.
	Verified bool          `json:"verified"`
	Wall     time.Duration `json:"wall"`
	// Parts, when > 1, is the number of parts the stream was solved in,
	// cut at idle gaps (gapParts; docs/bounds.md §10); UnitMs is then the
	// gcd of the parts' units.
	Parts int `json:"parts,omitempty"`
	// Placements is the verified schedule in the problem's terms (nil when
	// none), for a checker of the caller's own (compare's sim/check).
	Placements []Placement `json:"-"`
}

// Placement is one task of a stream's schedule: map (Reduce false) or
// reduce Index of Problem.Jobs[Job] on Problem.Nodes[Node] over
// [Start, End) ms.
type Placement struct {
	Job, Index, Node int
	Reduce           bool
	Start, End       int64
}

// incumbentSlack, in time units, is added to an incumbent's value before
// its floor is taken: a mean turnaround times n carries float rounding
// far below it, and the optimum is a whole number of units.
const incumbentSlack = 1e-6

// maxOptimumUnits bounds the horizon from the first arrival (spanMs), in
// time units, of a stream Optimum solves: the time-indexed model has a column per task and unit of its
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

// spanMs is the latest arrival plus every task's longest duration, less the
// earliest arrival: no compacted schedule ends later than that after the
// first arrival, where the MRCP instance starts (toMRCP).
func spanMs(p *lowerbound.Problem) int64 {
	var h int64
	first := int64(math.MaxInt64)
	for j := range p.Jobs {
		job := &p.Jobs[j]
		h = max(h, job.Arrival)
		first = min(first, job.Arrival)
	}
	h -= first
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
// jobs, max, total or mean turnaround, makespan or the MRCP product) when p
// is exactly an MRCP instance: fixed slots, no preemption, every time a
// multiple of the unit (o.UnitMs, or exactUnit, the gcd of all times; at
// most maxOptimumUnits from the first arrival to the horizon), one duration per task on every node
// group, every job with maps and reduces and, for late jobs and the
// product, a deadline. o.Incumbent, a verified schedule's value, narrows
// the turnaround and makespan models (formulations/mrcp keeps every
// schedule no worse than it, so still an optimal one). It returns nil when p is not (the windows' rounding would make
// the answer a bound, which Bound gives). With integer data the MILP's
// integer-time optimum is the continuous-time one (an active schedule
// starts every task at a sum of data), so an Optimal status gives the
// optimum of the problem the simulator runs. o.WindowJobs is not read; with
// o.MaxColumns, nil is also returned for a total or mean turnaround model
// of more columns. A stream with idle gaps (gapParts) is solved in parts,
// each within its own unit and span limit, for every metric but the
// product (optimumInParts).
func Optimum(ctx context.Context, p *lowerbound.Problem, m lowerbound.Metric, o Options) (*StreamOptimum, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if _, err := objectiveKind(m); err != nil {
		return nil, err
	}
	// The MRCP product of a union is not a function of its parts' optimal
	// products (optimumInParts): it is solved whole or not at all.
	if !p.Preemptive && p.Mode == lowerbound.Fixed && len(p.Jobs) > 0 && m != lowerbound.MRCPProduct {
		if parts := gapParts(p, byArrival(p)); len(parts) > 1 {
			return optimumInParts(ctx, p, m, o, parts)
		}
	}
	st, err := prepare(p, m, o)
	if st == nil || err != nil || tooManyColumns(st, o) {
		return nil, err
	}
	return solvePrepared(ctx, p, m, o, st)
}

// tooManyColumns reports that st is a total or mean turnaround model of
// more than o.MaxColumns start columns: the model as RunInstance builds it
// but for the cutoff's one unit, refused from its windows before a column
// is made; another failure is left to RunInstance to report.
func tooManyColumns(st *streamInstance, o Options) bool {
	if st.mo.Objective.Kind != mrcp.TotalTurnaround || o.MaxColumns <= 0 {
		return false
	}
	gate := st.mo
	gate.MaxStartColumns = o.MaxColumns
	_, err := mrcp.Build(st.in, gate)
	return errors.Is(err, mrcp.ErrTooManyColumns)
}

// solvePrepared is Optimum's solve of p, prepared as st, for m.
func solvePrepared(ctx context.Context, p *lowerbound.Problem, m lowerbound.Metric, o Options, st *streamInstance) (*StreamOptimum, error) {
	in, jobs, unit, kind, mo := st.in, st.jobs, st.unit, st.mo.Objective.Kind, st.mo
	inMetric := func(units float64) float64 { return units * float64(unit) / st.n }
	if kind == mrcp.Makespan {
		return makespanByDecisions(ctx, p, in, jobs, unit, st.origin, mo.Incumbent, o.Solve)
	}
	t0 := time.Now()
	out, err := mrcp.RunInstance(ctx, "stream", in, mo)
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
		so.Bound = inMetric(so.Bound)
	}
	if s := out.Schedule; s != nil && out.Verified {
		so.LateJobs, so.MaxTurnaroundMs = s.LateJobs, int64(s.MaxTurnaround)*unit
		switch m {
		case lowerbound.TotalTurnaround, lowerbound.MeanTurnaround, lowerbound.Makespan:
			v := mo.Objective.ScheduleValue(s, 0)
			so.Value = inMetric(v)
			if so.Status == solve.Optimal && math.Ceil(b) < v {
				// "Optimal" within a gap the caller allowed (Solve.RelGap,
				// AbsGap), not proven: keep the dual bound, claim no optimum.
				so.Status = solve.StatusUnknown
			}
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
		so.Placements = placements(s, jobs, unit, st.origin)
	}
	if out.Schedule != nil && !out.Verified {
		// A schedule the checker rejects: a bug somewhere; claim nothing.
		so.Status, so.Bound = solve.StatusUnknown, 0
	}
	return so, nil
}

// objectiveKind is the MRCP objective Optimum solves for m.
func objectiveKind(m lowerbound.Metric) (mrcp.ObjectiveKind, error) {
	switch m {
	case lowerbound.LateJobs:
		return mrcp.LateCount, nil
	case lowerbound.MaxTurnaround, lowerbound.MRCPProduct:
		return mrcp.Product, nil
	case lowerbound.TotalTurnaround, lowerbound.MeanTurnaround:
		return mrcp.TotalTurnaround, nil
	case lowerbound.Makespan:
		return mrcp.Makespan, nil
	}
	return 0, badinput.Errorf("windowbound: MRCP has no objective for %v", m)
}

// byArrival is p's job indices by arrival (ties in index order).
func byArrival(p *lowerbound.Problem) []int {
	jobs := make([]int, len(p.Jobs))
	for i := range jobs {
		jobs[i] = i
	}
	sort.SliceStable(jobs, func(x, y int) bool { return p.Jobs[jobs[x]].Arrival < p.Jobs[jobs[y]].Arrival })
	return jobs
}

// streamInstance is p as the MRCP instance Optimum solves for one metric.
type streamInstance struct {
	in *mrcpscenario.Instance
	// jobs[i] is the problem's job of in's job i; unit the time unit (ms);
	// in's time 0 is origin units (toMRCP).
	jobs         []int
	unit, origin int64
	// mo are the MRCP options (objective, incumbent in units, the others'
	// floors of the total turnaround); n divides the total for the mean.
	mo mrcp.Options
	n  float64
}

// prepare is Optimum up to the solve: p as an MRCP instance for m with its
// options, or nil when p is not one exactly.
func prepare(p *lowerbound.Problem, m lowerbound.Metric, o Options) (*streamInstance, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	kind, err := objectiveKind(m)
	if err != nil {
		return nil, err
	}
	if p.Preemptive || p.Mode != lowerbound.Fixed || len(p.Jobs) == 0 {
		return nil, nil
	}
	unit := o.UnitMs
	if unit <= 0 {
		unit = exactUnit(p)
	}
	if unit < 1 || spanMs(p)/unit > maxOptimumUnits {
		return nil, nil
	}
	jobs := byArrival(p)
	// Only the late count and the product read deadlines; the other
	// metrics take every job, with or without one.
	allLate := m != lowerbound.LateJobs && m != lowerbound.MRCPProduct
	in, origin, exact, _, err := toMRCP(p, jobs, unit, allLate)
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
	// The caller's node limit holds for the combinatorial phase as well as
	// for the MILP (a decision at 1-ms units ran 9 minutes at node limit 1).
	mo := mrcp.Options{Solve: o.Solve, SearchNodeLimit: o.Solve.NodeLimit, Objective: mrcp.Objective{Kind: kind}}
	// The metric of a schedule is (value in units)·unit ms, or that over n
	// for the mean; the optimum in units is an integer at most the
	// incumbent's, so its floor keeps it (incumbentSlack absorbs the
	// rounding of a mean times n).
	n := 1.0
	if m == lowerbound.MeanTurnaround {
		n = float64(len(p.Jobs))
	}
	if o.Incumbent > 0 && kind != mrcp.Product && kind != mrcp.LateCount {
		mo.Incumbent = int(math.Floor(o.Incumbent*n/float64(unit) + incumbentSlack))
	}
	if kind == mrcp.TotalTurnaround {
		if mo.OthersFloor, err = othersFloors(p, jobs, unit); err != nil {
			return nil, err
		}
	}
	return &streamInstance{in: in, jobs: jobs, unit: unit, origin: origin, mo: mo, n: n}, nil
}

// TurnaroundModel is the total (and mean) turnaround MILP Optimum solves
// for p with o (o.Incumbent, o.Solve), as built before the solve but for
// the cutoff's one unit — for measuring its size and LP (bench/mrcpexact);
// nil when Optimum would not solve one (p not an MRCP instance exactly).
func TurnaroundModel(p *lowerbound.Problem, m lowerbound.Metric, o Options) (*mrcp.Built, error) {
	if m != lowerbound.TotalTurnaround && m != lowerbound.MeanTurnaround {
		return nil, badinput.Errorf("windowbound: %v is not solved by the turnaround MILP", m)
	}
	st, err := prepare(p, m, o)
	if st == nil || err != nil {
		return nil, err
	}
	return mrcp.Build(st.in, st.mo)
}

// othersFloors is, per job jobs[i], a lower bound in units on the total
// turnaround of the other jobs: lowerbound.Compute's certified total
// turnaround of p without that job (any schedule of p, restricted to the
// other jobs, is a schedule of them), rounded up to a whole unit (every
// turnaround is a whole number of units).
func othersFloors(p *lowerbound.Problem, jobs []int, unit int64) ([]int, error) {
	out := make([]int, len(jobs))
	for i, j := range jobs {
		q := *p
		q.Jobs = make([]lowerbound.Job, 0, len(p.Jobs)-1)
		q.Jobs = append(append(q.Jobs, p.Jobs[:j]...), p.Jobs[j+1:]...)
		if len(q.Jobs) == 0 {
			continue
		}
		b, err := lowerbound.Compute(&q)
		if err != nil {
			return nil, fmt.Errorf("windowbound: the jobs but %d: %w", j, err)
		}
		ms := int64(math.Max(0, b.Get(lowerbound.TotalTurnaround).Certified))
		out[i] = int((ms + unit - 1) / unit)
	}
	return out, nil
}

// makespanByDecisions finds the least makespan of in (the stream in units
// from origin, jobs[i] the problem's job of in's job i) by deciding "can every job end
// by min_j s_j + T?" — formulations/mrcp's late-count objective with every
// deadline there, whose combinatorial phase settles such questions fast —
// in a binary search of T between a certified lower bound lo and the best
// schedule found:
//
//	a schedule with no late job    ⇒ makespan ≤ its own (≤ T): new upper end
//	a proven late count ≥ 1        ⇒ makespan > T: lo = T + 1
//
// until lo meets the schedule's makespan (proven optimal) or the time
// limit (o.TimeLimit, shared by the decisions) or ctx stops it, leaving lo
// as the bound. incumbent (> 0, units) is a verified schedule's makespan
// from elsewhere: T ≤ incumbent is feasible, so the search starts below it.
func makespanByDecisions(ctx context.Context, p *lowerbound.Problem, in *mrcpscenario.Instance, jobs []int, unit, origin int64, incumbent int, o solve.Options) (*StreamOptimum, error) {
	t0 := time.Now()
	so := &StreamOptimum{Metric: lowerbound.Makespan, UnitMs: unit, Objective: "makespan (late-count decisions)",
		Status: solve.StatusUnknown, Value: math.NaN()}
	first := math.MaxInt
	for _, job := range in.Jobs {
		first = min(first, job.Release)
	}
	b, err := lowerbound.Compute(p)
	if err != nil {
		return nil, err
	}
	lo := int((int64(math.Max(0, b.Get(lowerbound.Makespan).Certified)) + unit - 1) / unit)
	var best *mrcp.Schedule
	have := math.MaxInt // makespan of best, in units
	ub, ubBy := mrcp.HorizonBound(in)-first, "the horizon allows"
	if incumbent > 0 && incumbent < ub {
		ub, ubBy = incumbent, "a verified schedule has"
	}
	// accept takes a verified schedule as the best so far (each one the
	// search finds is better than the last); one below the proven bound is
	// a bug, never a result.
	accept := func(s *mrcp.Schedule, what string) error {
		mk := 0
		for _, jo := range s.Jobs {
			mk = max(mk, jo.Completion-first)
		}
		if mk < lo {
			return fmt.Errorf("windowbound: %s has a makespan of %d units, below the proven %d", what, mk, lo)
		}
		best, have = s, mk
		if mk < ub {
			ub, ubBy = mk, "a verified schedule has"
		}
		return nil
	}
	// The greedy schedule in arrival order, checked, is the first upper
	// end: the search then starts near the optimum rather than at the
	// horizon (fewer decisions, and a schedule to report however soon a
	// limit stops it).
	order := make([]int, len(in.Jobs))
	for i := range order {
		order[i] = i
	}
	if g := mrcp.Greedy(in, order); mrcp.Check(in, g) == nil {
		if err := accept(g, "the greedy schedule"); err != nil {
			return nil, err
		}
	}
	status := solve.Optimal
	for lo < have {
		top := min(ub, have-1)
		if top < lo {
			return nil, fmt.Errorf("windowbound: a makespan of %d units is proven impossible, yet %s %d", lo-1, ubBy, ub)
		}
		T := lo + (top-lo)/2
		dec := *in
		dec.Jobs = append([]mrcpscenario.Job(nil), in.Jobs...)
		for j := range dec.Jobs {
			dec.Jobs[j].Deadline = first + T
		}
		sub := o
		if o.TimeLimit > 0 {
			left := o.TimeLimit - time.Since(t0)
			if left <= 0 {
				status = solve.TimeLimit
				break
			}
			sub.TimeLimit = left
		}
		out, err := mrcp.RunInstance(ctx, "stream", &dec, mrcp.Options{Solve: sub, SearchNodeLimit: sub.NodeLimit,
			Objective: mrcp.Objective{Kind: mrcp.LateCount}})
		if err != nil {
			return nil, fmt.Errorf("windowbound: %w", err)
		}
		if out.Schedule != nil && !out.Verified {
			// A schedule the checker rejects: a bug somewhere; claim nothing.
			so.Status, so.Bound, so.Wall = solve.StatusUnknown, 0, time.Since(t0)
			return so, nil
		}
		switch {
		case out.Schedule != nil && out.Schedule.LateJobs == 0:
			if err := accept(out.Schedule, "a verified schedule"); err != nil {
				return nil, err
			}
		case math.Ceil(out.Result.Bound-boundSlack) >= 1:
			lo = T + 1 // at least one job late in every schedule
		default:
			status = out.Result.Status
			if status == solve.Optimal {
				status = solve.StatusUnknown // no schedule and no proof: cannot happen
			}
		}
		if status != solve.Optimal {
			break
		}
	}
	so.Wall = time.Since(t0)
	so.Status = status // Optimal only when the loop closed the gap (lo ≥ have)
	so.Bound = float64(int64(lo) * unit)
	if best != nil {
		so.Verified = true
		so.Value = float64(int64(have) * unit)
		so.LateJobs, so.MaxTurnaroundMs = 0, int64(best.MaxTurnaround)*unit
		if so.Status == solve.Optimal {
			so.Bound = so.Value
		}
		so.Placements = placements(best, jobs, unit, origin)
	}
	return so, nil
}

// placements is s in the problem's terms (s's time 0 at origin units).
func placements(s *mrcp.Schedule, jobs []int, unit, origin int64) []Placement {
	var out []Placement
	for _, a := range s.Tasks {
		out = append(out, Placement{Job: jobs[a.Task.Job], Index: a.Task.Index, Node: a.Resource,
			Reduce: a.Task.Kind == mrcpscenario.Reduce, Start: (origin + int64(a.Start)) * unit, End: (origin + int64(a.End)) * unit})
	}
	return out
}
