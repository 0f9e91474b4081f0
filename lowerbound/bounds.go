package lowerbound

import (
	"cmp"
	"context"
	"math"
	"slices"
	"sort"
)

// Limits on the work spent on the quadratic components. Any subset of release
// points or arrival windows gives a valid bound, so these trade strength for
// time, never validity.
const (
	// maxReleasePoints caps the release times t tried by the map-load-plus-tail
	// and Moore–Hodgson components.
	maxReleasePoints = 2000
	// maxLatePoints caps the release times of the Moore–Hodgson components
	// (each costs O(n log n)).
	maxLatePoints = 200
	// maxWavePoints caps the release times of the instance-wide wave bound
	// (each sorts the released tasks).
	maxWavePoints = 32
	// maxWindowPairs caps the arrival windows of the max-turnaround bound.
	maxWindowPairs = 40_000_000
)

// Bounds holds the best lower bound of every metric.
type Bounds struct {
	// Jobs and Tasks size the problem.
	Jobs  int `json:"jobs"`
	Tasks int `json:"tasks"`
	// ByMetric has one entry per metric of Metrics().
	ByMetric map[Metric]Bound `json:"-"`
	// CriticalPath[j] is CP_j ≤ C_j − a_j in every schedule (ms).
	CriticalPath []float64 `json:"-"`
	// Lagrange is the interval Lagrangian's dual point when it ran and
	// found one (nil otherwise): LagrangePrimal at it gives the per-job
	// waits that guide the offline search (upperbound.Options.Waits).
	Lagrange *LagrangeCertificate `json:"-"`
}

// Get returns the bound for m (the zero Bound for an unknown metric).
func (b *Bounds) Get(m Metric) Bound { return b.ByMetric[m] }

// Compute validates p and returns a lower bound on the optimum of every
// metric. Every component is a valid lower bound for the continuous-time
// problem (docs/bounds.md), so their maximum is.
func Compute(p *Problem) (*Bounds, error) {
	return ComputeWith(context.Background(), p, Options{})
}

// Options selects the optional (solver-based) components.
type Options struct {
	// LP, when not nil, adds the bucketed LP relaxation (BucketLP) to the
	// total and mean turnaround bounds.
	LP *LPOptions
	// Lagrange, when not nil, adds the interval-indexed Lagrangian bound
	// (IntervalLagrangian) to the total and mean turnaround bounds.
	Lagrange *LagrangeOptions
	// LagrangeCG, when not nil with Lagrange, continues the Lagrangian's
	// subgradient steps by column generation (IntervalLagrangianCG,
	// docs/bounds.md §4f): the same bound at better multipliers, for
	// master LP solves that cost far more than the steps (opt-in).
	LagrangeCG *CGOptions
	// TimeIndexed, when not nil, adds the time-indexed LP relaxation
	// (TimeIndexedLP, docs/bounds.md §4g; component TimeIndexedComponent)
	// to the total and mean turnaround bounds: one column per task group and
	// time unit, so for small instances only (opt-in). A preemptive problem
	// is refused (ErrTimeIndexedPreemptive).
	TimeIndexed *TimeIndexedOptions
}

// TimeIndexedComponent names TimeIndexedLP's value among the components.
const TimeIndexedComponent = "time-indexed-lp"

// ComputeWith is Compute with the optional components of o. The error is
// non-nil for an invalid problem or a failed solver call; an LP that stops
// at a limit still gives its dual-certified value.
func ComputeWith(ctx context.Context, p *Problem, o Options) (*Bounds, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	pr := newPrep(p)
	out := &Bounds{Jobs: len(p.Jobs), Tasks: p.NumTasks(), ByMetric: map[Metric]Bound{}}
	out.CriticalPath = make([]float64, len(pr.jobs))
	for j := range pr.jobs {
		out.CriticalPath[j] = pr.jobs[j].cp
	}
	minA := float64(pr.minArrival)
	var mk []Component
	for _, c := range pr.maxCompletion() {
		mk = append(mk, Component{c.Name, math.Max(0, c.Value-minA)})
	}
	out.ByMetric[Makespan] = newBound(Makespan, mk)
	totalComps := pr.totalTurnaround()
	if o.LP != nil && len(pr.jobs) > 0 {
		res, err := pr.bucketLP(ctx, *o.LP)
		if err != nil {
			return nil, err
		}
		totalComps = append(totalComps, Component{"bucketed-lp", res.Value})
	}
	if o.Lagrange != nil && len(pr.jobs) > 0 {
		var res LagrangeResult
		if o.LagrangeCG != nil {
			var err error
			if res, _, err = pr.intervalLagrangianCG(ctx, *o.Lagrange, *o.LagrangeCG); err != nil {
				return nil, err
			}
		} else {
			res = pr.intervalLagrangian(ctx, *o.Lagrange)
		}
		totalComps = append(totalComps, Component{LagrangeComponent, res.Value})
		out.Lagrange = res.Certificate
	}
	if o.TimeIndexed != nil && len(pr.jobs) > 0 {
		if p.Preemptive {
			return nil, ErrTimeIndexedPreemptive
		}
		m, err := pr.timeIndexedModel(*o.TimeIndexed)
		if err != nil {
			return nil, err
		}
		res, err := solveLP(ctx, m, o.TimeIndexed.Solve)
		if err != nil {
			return nil, err
		}
		totalComps = append(totalComps, Component{TimeIndexedComponent, o.TimeIndexed.atMostIncumbent(res).Value})
	}
	total := newBound(TotalTurnaround, totalComps)
	out.ByMetric[TotalTurnaround] = total
	mean := Bound{Metric: MeanTurnaround, By: total.By}
	if n := float64(len(p.Jobs)); n > 0 {
		mean.Value, mean.Certified = total.Value/n, total.Certified/n
		for _, c := range total.Components {
			mean.Components = append(mean.Components, Component{c.Name, c.Value / n})
		}
	}
	out.ByMetric[MeanTurnaround] = mean
	maxT := newBound(MaxTurnaround, pr.maxTurnaround())
	out.ByMetric[MaxTurnaround] = maxT
	late := newBound(LateJobs, pr.lateJobs())
	out.ByMetric[LateJobs] = late
	// (N + 1)·Z ≥ (N_lb + 1)·Z_lb since both factors are ≥ their bounds ≥ 0.
	prod := (late.Certified + 1) * maxT.Certified
	out.ByMetric[MRCPProduct] = newBound(MRCPProduct, []Component{{"late-bound-times-max-turnaround-bound", prod}})
	return out, nil
}

// ---------------------------------------------------------------- makespan

// maxCompletion returns lower bounds on max_j C_j.
func (pr *prep) maxCompletion() []Component {
	if len(pr.jobs) == 0 {
		return nil
	}
	cp := 0.0
	for _, j := range pr.jobs {
		cp = math.Max(cp, j.a+j.cp)
	}
	comps := []Component{{"critical-path", cp}}
	comps = append(comps, Component{"map-load-plus-tail", pr.mapLoadPlusTail()})
	comps = append(comps, Component{"release-load", pr.releaseLoad()})
	if !pr.p.Preemptive {
		comps = append(comps, Component{"release-waves", pr.releaseWaves()})
	}
	return comps
}

// mapLoadPlusTail: for a release t and a tail ρ, the maps of
// J' = {j : a_j ≥ t, R_j ≥ ρ} run after t at total speed ≤ rate, so the last
// of them ends at E ≥ t + W^m(J')/rate, and its job still needs ≥ ρ after E.
func (pr *prep) mapLoadPlusTail() float64 {
	n := len(pr.jobs)
	byTail := make([]int, n)
	for i := range byTail {
		byTail[i] = i
	}
	sort.Slice(byTail, func(x, y int) bool { return pr.jobs[byTail[x]].tail > pr.jobs[byTail[y]].tail })
	best := 0.0
	for _, t := range pr.releasePoints(maxReleasePoints) {
		for v := range pr.weights {
			w := 0.0
			for _, j := range byTail {
				ji := &pr.jobs[j]
				if ji.a < t {
					continue
				}
				w += ji.work[v][kMap]
				best = math.Max(best, t+div(w, pr.rate[v][kMap])+ji.tail)
			}
		}
	}
	return best
}

// div is w/r with 0/0 = 0 (a kind without slots has no work either, which
// Validate guarantees).
func div(w, r float64) float64 {
	if w == 0 {
		return 0
	}
	return w / r
}

// releasedWork is work that cannot start before release.
type releasedWork struct {
	release float64
	work    float64
}

// loadBound is max_t t + Σ_{release ≥ t} work / rate: the work released at or
// after t is all done after t at speed ≤ rate.
func loadBound(items []releasedWork, rate float64) float64 {
	sort.Slice(items, func(x, y int) bool { return items[x].release > items[y].release })
	best, cum := 0.0, 0.0
	for _, it := range items {
		cum += it.work
		best = math.Max(best, it.release+div(cum, rate))
	}
	return best
}

// releaseLoad: maps are released at a_j, reduces at a_j + M_j (they start
// after the last map, which ends no earlier). Fixed slots: one load bound per
// kind; fungible: one over both kinds.
func (pr *prep) releaseLoad() float64 {
	best := 0.0
	for v := range pr.weights {
		var maps, reds []releasedWork
		for _, j := range pr.jobs {
			maps = append(maps, releasedWork{j.a, j.work[v][kMap]})
			reds = append(reds, releasedWork{j.a + j.head, j.work[v][kRed]})
		}
		if pr.fungible {
			best = math.Max(best, loadBound(append(maps, reds...), pr.rate[v][kMap]))
		} else {
			best = math.Max(best, loadBound(maps, pr.rate[v][kMap]))
			best = math.Max(best, loadBound(reds, pr.rate[v][kRed]))
		}
	}
	return best
}

// releaseWaves: the wave bound (waves) over the tasks released at or after t,
// all of which run after t on the slots of their kind (both kinds together
// when fungible).
func (pr *prep) releaseWaves() float64 {
	type rt struct{ release, p float64 }
	var sets [2][]rt
	var counts [2]int
	for j := range pr.p.Jobs {
		counts[kMap] += len(pr.p.Jobs[j].Maps)
		counts[kRed] += len(pr.p.Jobs[j].Reduces)
	}
	room := counts[kMap]
	if pr.fungible {
		room += counts[kRed] // the reduces join the maps
	}
	sets[kMap] = make([]rt, 0, room)
	sets[kRed] = make([]rt, 0, counts[kRed])
	for j := range pr.p.Jobs {
		job, ji := &pr.p.Jobs[j], &pr.jobs[j]
		for i := range job.Maps {
			sets[kMap] = append(sets[kMap], rt{ji.a, pr.pmin(&job.Maps[i], kMap)})
		}
		for i := range job.Reduces {
			sets[kRed] = append(sets[kRed], rt{ji.a + ji.head, pr.pmin(&job.Reduces[i], kRed)})
		}
	}
	if pr.fungible {
		sets[kMap] = append(sets[kMap], sets[kRed]...)
		sets[kRed] = nil
	}
	best := 0.0
	var buf, prefix []float64
	for k, set := range sets {
		if len(set) == 0 {
			continue
		}
		rel := make([]float64, len(set))
		for i, x := range set {
			rel[i] = x.release
		}
		// longest first once: each point's tasks, taken in this order, are
		// already in the decreasing order waves needs (a sort per point was
		// most of compare's bound time on a day of millions of tasks)
		slices.SortFunc(set, func(a, b rt) int { return cmp.Compare(b.p, a.p) })
		for _, t := range samplePoints(rel, maxWavePoints) {
			buf = buf[:0]
			for _, x := range set {
				if x.release >= t {
					buf = append(buf, x.p)
				}
			}
			var w float64
			w, prefix = wavesWith(buf, pr.slots[k], prefix)
			best = math.Max(best, t+w)
		}
	}
	return best
}

// releasePoints returns at most max distinct arrival times, the earliest
// always among them.
func (pr *prep) releasePoints(max int) []float64 {
	rel := make([]float64, len(pr.jobs))
	for j := range pr.jobs {
		rel[j] = pr.jobs[j].a
	}
	return samplePoints(rel, max)
}

// samplePoints returns at most max of the distinct values, evenly spread in
// sorted order, the smallest always included.
func samplePoints(vals []float64, max int) []float64 {
	s := append([]float64(nil), vals...)
	sort.Float64s(s)
	d := s[:0]
	for i, x := range s {
		if i == 0 || x != d[len(d)-1] {
			d = append(d, x)
		}
	}
	if len(d) <= max {
		return d
	}
	out := make([]float64, 0, max)
	for i := range max {
		out = append(out, d[i*len(d)/max])
	}
	return out
}

// CriticalPaths validates p and returns CP_j ≤ C_j − a_j for every job, in
// every schedule (docs/bounds.md §2); it does not depend on arrivals.
func CriticalPaths(p *Problem) ([]float64, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	pr := newPrep(p)
	out := make([]float64, len(pr.jobs))
	for j := range pr.jobs {
		out[j] = pr.jobs[j].cp
	}
	return out, nil
}
