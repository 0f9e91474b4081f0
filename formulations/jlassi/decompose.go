package jlassi

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/mrbound/mrbound/instances/jlassiscenario"
	"github.com/mrbound/mrbound/solve"
)

// boundTol is the slack under which a RealTime counts as reaching a bound
// (durations are whole seconds in generated instances; 1e-6 s is far below
// any difference between two schedules).
const boundTol = 1e-6

// CountOutcome is what the decomposition learned about schedules with K
// task intervals.
type CountOutcome struct {
	K int `json:"k"`
	// How: "waves" (the combinatorial bound sufficed), or the status of
	// R_K's solve ("optimal", "infeasible" = none below the cutoff,
	// "time_limit").
	How string `json:"how"`
	// Bound is a lower bound on the RealTime of every schedule with K task
	// intervals; Value is R_K's optimum when solved (NaN otherwise).
	Bound   float64 `json:"bound"`
	Value   float64 `json:"value"`
	Nodes   int64   `json:"nodes"`
	Seconds float64 `json:"seconds"`
	// Completed reports whether R_K's optimal placement was completed into
	// a checked schedule of the full model (migrations and bandwidth).
	Completed bool `json:"completed"`
}

// DecompositionReport is the interval-count decomposition's part of a run.
type DecompositionReport struct {
	// Bound is min over K of the per-K bounds: a lower bound on RealTime
	// at the run's horizon (the counts not reached count by their wave
	// bound).
	Bound    float64        `json:"bound"`
	Outcomes []CountOutcome `json:"counts"`
	Seconds  float64        `json:"seconds"`
	// Complete is false when the time limit or a failure stopped it before
	// every count was examined.
	Complete bool `json:"complete"`
	// Search is the local search on the heuristic's placement that runs
	// before the counts (nil when there was no heuristic schedule).
	Search *SearchReport `json:"local_search,omitempty"`
}

// SearchReport is what the local search (annealer) found: the RealTime of
// its best placement and whether that placement was completed into a
// checked schedule of the full model that beat the heuristic's.
type SearchReport struct {
	// Placement is the best annealed placement's RealTime; nil when the
	// search stopped before it had one (JSON has no NaN).
	Placement *float64 `json:"placement_realtime,omitempty"`
	Completed bool     `json:"completed"`
	Seconds   float64  `json:"seconds"`
	// Neighbourhood is the neighbourhood search run on the annealed
	// placement (nil when it solved no sub-MIP: too few positions, or no
	// time).
	Neighbourhood *NeighbourhoodReport `json:"neighbourhood,omitempty"`
}

// NeighbourhoodReport is what the interval neighbourhood search did: its
// sub-MIP solves, how many improved the placement, their nodes, the
// placement's RealTime at the end, and its wall time.
type NeighbourhoodReport struct {
	Solves       int     `json:"solves"`
	Improvements int     `json:"improvements"`
	Nodes        int64   `json:"nodes"`
	Placement    float64 `json:"placement_realtime"`
	Seconds      float64 `json:"seconds"`
}

func (d *DecompositionReport) String() string {
	var b strings.Builder
	for i, o := range d.Outcomes {
		if i > 0 {
			b.WriteString(", ")
		}
		switch {
		case math.IsInf(o.Bound, 1):
			fmt.Fprintf(&b, "K=%d none (%s)", o.K, o.How)
		case o.How == "waves":
			fmt.Fprintf(&b, "K=%d ≥ %s (waves)", o.K, solve.FormatValue(o.Bound))
		case !math.IsNaN(o.Value):
			fmt.Fprintf(&b, "K=%d = %s", o.K, solve.FormatValue(o.Value))
			if o.Completed {
				b.WriteString(" (completed)")
			}
		default:
			fmt.Fprintf(&b, "K=%d ≥ %s (%s)", o.K, solve.FormatValue(o.Bound), o.How)
		}
	}
	return b.String()
}

// waveBound is a lower bound on the RealTime of a schedule with K task
// intervals: sort the interval lengths L(1) ≥ … ≥ L(K); the r·S+1 tasks of
// a kind with the longest shortest times do not fit in r intervals of that
// kind's S slots, so L(r+1) ≥ the (r·S+1)-th longest of them; and every
// interval holds a task, so it is at least the shortest time of all. It
// returns the larger of that and levelBound.
func waveBound(in *jlassiscenario.Instance, K int) float64 {
	least := math.Inf(1)
	var byKind [2][]float64
	for i := range in.Tasks {
		task := &in.Tasks[i]
		p := shortest(in, i)
		if math.IsInf(p, 1) {
			continue
		}
		least = math.Min(least, p)
		x := kindIndex(task.Kind)
		byKind[x] = append(byKind[x], p)
	}
	if math.IsInf(least, 1) {
		return 0
	}
	slots := [2]int{in.TotalSlots(jlassiscenario.Map), in.TotalSlots(jlassiscenario.Reduce)}
	for x := range byKind {
		sort.Sort(sort.Reverse(sort.Float64Slice(byKind[x])))
	}
	total := 0.0
	for r := 0; r < K; r++ {
		l := least
		for x := range byKind {
			if slots[x] > 0 && r*slots[x] < len(byKind[x]) {
				l = math.Max(l, byKind[x][r*slots[x]])
			}
		}
		total += l
	}
	return math.Max(total, levelBound(in, K))
}

// integralDurations reports whether every processing time is a whole
// number, so that every RealTime is one and a bound may be rounded up.
func integralDurations(in *jlassiscenario.Instance) bool {
	for i := range in.Tasks {
		for _, ps := range in.Tasks[i].P {
			for _, p := range ps {
				if p != math.Trunc(p) {
					return false
				}
			}
		}
	}
	return true
}

// freeMachinesLimit bounds the completion that keeps R_K's intervals but
// lets the machines move (a MIP over the full model; the decomposition's
// own solves need the time more).
const freeMachinesLimit = 10 * time.Second

// decomposition is the result of decompose: the report and the best
// schedule it completed (nil when none beat the incumbent).
type decomposition struct {
	Report    *DecompositionReport
	Schedule  *Schedule
	X         []float64
	Objective float64
	// Nodes and Iterations add up the per-count solves; Version is their
	// backend's.
	Nodes, Iterations int64
	Version           string
}

// decompose bounds RealTime at m's horizon by the interval-count
// decomposition and completes the optimal placements of R_K into schedules
// of the full model. best is the RealTime of the incumbent (+Inf when
// none); the per-K solves use so (its TimeLimit is the whole budget).
func decompose(ctx context.Context, in *jlassiscenario.Instance, m *Model, so solve.Options, start *Schedule) (*decomposition, error) {
	t0 := time.Now()
	rep := &DecompositionReport{Bound: math.Inf(-1)}
	d := &decomposition{Report: rep, Objective: math.Inf(1)}
	defer func() { rep.Seconds = time.Since(t0).Seconds() }()
	first := max(1, in.MinHorizon())
	// waves[K] is waveBound(in, K), computed once per K: each call runs the
	// level matchings.
	waves := make([]float64, m.T+1)
	floor := math.Inf(1)
	for K := first; K <= m.T; K++ {
		waves[K] = waveBound(in, K)
		floor = math.Min(floor, waves[K])
	}
	best := math.Inf(1)
	if start != nil {
		best = start.RealTime
		if s := d.search(ctx, in, m, so, t0, start, floor); s != nil {
			best = s.RealTime
		}
	}
	integral := integralDurations(in)
	// improve is the cutoff asking for a RealTime strictly below best.
	improve := func() float64 {
		if math.IsInf(best, 1) {
			return best
		}
		if integral {
			return best - 1
		}
		return best - 10*boundTol*math.Max(1, best)
	}
	roundUp := func(v float64) float64 {
		if integral && !math.IsInf(v, 0) {
			return math.Ceil(v - boundTol)
		}
		return v
	}
	bound := math.Inf(1)
	// finish bounds the counts not reached by their wave bound, which
	// holds without a solve.
	finish := func(from int) {
		for K := from; K <= m.T; K++ {
			bound = math.Min(bound, waves[K])
		}
		rep.Bound = bound
	}
	for K := first; K <= m.T; K++ {
		o := CountOutcome{K: K, Value: math.NaN(), Bound: math.Inf(-1)}
		if wb := waves[K]; wb >= best-boundTol {
			o.How, o.Bound = "waves", wb
			rep.Outcomes = append(rep.Outcomes, o)
			bound = math.Min(bound, wb)
			continue
		}
		// First R_K without the network (small, quick); when its optimum
		// cannot be completed (the shuffle bandwidth binds), R_K with it,
		// from the first one's bound up.
		stopped := false
		for _, network := range []bool{false, true} {
			if network && (o.Completed || math.IsNaN(o.Value) || len(in.Shuffles) == 0) {
				break
			}
			opts := so
			opts.Start = nil
			if so.TimeLimit > 0 {
				left := so.TimeLimit - time.Since(t0)
				if left <= 0 {
					stopped = true
					break
				}
				// Keep time to complete a placement R_K finds before
				// the limit stops it.
				if reserve := completionReserve(so.TimeLimit); left > 2*reserve {
					left -= reserve
				}
				opts.TimeLimit = left
			}
			// R_K's optimum decides the bound exactly: ask for the tightest
			// gap the backends accept.
			opts.RelGap, opts.AbsGap = 1e-9, boundTol
			ks := time.Now()
			cutoff := improve()
			floor := 0.0
			if network {
				floor = o.Bound
			}
			cm, err := buildCount(in, countOptions{K: K, T: m.T, Cutoff: cutoff, Floor: floor, Network: network})
			if err != nil {
				stopped = true
				break
			}
			res, err := solve.Solve(ctx, cm.Model, opts)
			if err != nil && ctx.Err() == nil {
				return nil, err // the backend's call failed: not a finding about R_K
			}
			if err != nil || ctx.Err() != nil {
				// A cancelled solve's status proves nothing.
				stopped = true
				break
			}
			o.Seconds += time.Since(ks).Seconds()
			o.Nodes += res.Nodes
			o.How = res.Status.String()
			if network {
				o.How += " with the network"
			}
			d.Nodes += res.Nodes
			d.Iterations += res.Iterations
			d.Version = res.SolverVersion
			o.Value = math.NaN()
			switch res.Status {
			case solve.Infeasible:
				// Every K-interval RealTime exceeds the cutoff (none exists
				// when there is no incumbent): with whole durations it is
				// then at least best.
				o.Bound = math.Max(o.Bound, cutoff)
				if integral {
					o.Bound = best
				}
			case solve.Optimal:
				o.Value, o.Bound = res.Objective, math.Max(o.Bound, roundUp(res.Bound))
			case solve.TimeLimit, solve.NodeLimit:
				o.Bound = math.Max(o.Bound, roundUp(math.Max(res.Bound, waves[K])))
				stopped = ctx.Err() != nil || (so.TimeLimit > 0 && time.Since(t0) >= so.TimeLimit)
			default:
				stopped = true
			}
			if res.HasSolution {
				s, x := completeCount(ctx, in, m, cm, res.X, so, t0, false, 0)
				if s == nil && !network {
					// The placement does not fit the network: keep its
					// intervals, let the machines move.
					s, x = completeCount(ctx, in, m, cm, res.X, so, t0, true, freeMachinesLimit)
				}
				if s != nil && s.RealTime < best-boundTol {
					o.Completed = math.Abs(s.RealTime-res.Objective) <= boundTol*math.Max(1, s.RealTime)
					best = s.RealTime
					d.Schedule, d.X, d.Objective = s, x, s.RealTime
				}
			}
			if stopped {
				break
			}
		}
		if o.How == "" { // stopped before any solve
			finish(K)
			return d, nil
		}
		o.Bound = math.Max(o.Bound, waves[K])
		rep.Outcomes = append(rep.Outcomes, o)
		bound = math.Min(bound, o.Bound)
		if stopped {
			finish(K + 1)
			return d, nil
		}
	}
	rep.Complete = true
	finish(m.T + 1)
	return d, nil
}

// search anneals the placement of start (annealer), improves the result by
// the neighbourhood search and completes the best placement found (the
// annealer's when the neighbourhood search's does not complete); it returns
// the checked schedule and its vector when it beats start, and records it
// in d. floor is the least wave bound over the counts K.
func (d *decomposition) search(ctx context.Context, in *jlassiscenario.Instance, m *Model, so solve.Options, t0 time.Time, start *Schedule, floor float64) *Schedule {
	ls := time.Now()
	sr := &SearchReport{}
	d.Report.Search = sr
	defer func() { sr.Seconds = time.Since(ls).Seconds() }()
	stop := func() bool {
		return ctx.Err() != nil || (so.TimeLimit > 0 && time.Since(t0) >= so.TimeLimit)
	}
	if start.RealTime <= floor+boundTol {
		return nil // the heuristic's schedule meets the wave bounds
	}
	a, v := annealBest(in, m.T, start, floor, stop)
	if a == nil {
		return nil
	}
	annealed := v
	sr.Placement = &annealed
	place, K := a.placements()
	fallback := place
	if v > floor+boundTol {
		ns := time.Now()
		var st neighbourhoodStats
		place, v, st = neighbourhood(ctx, in, m.T, place, K, v, so, stop)
		if st.Solves > 0 {
			sr.Neighbourhood = &NeighbourhoodReport{Solves: st.Solves, Improvements: st.Improvements, Nodes: st.Nodes,
				Placement: v, Seconds: time.Since(ns).Seconds()}
		}
	}
	if v >= start.RealTime-boundTol {
		return nil
	}
	s, x := completePlacement(ctx, in, m, place, K, so, t0, false, 0)
	if s == nil && v < annealed-boundTol && annealed < start.RealTime-boundTol {
		// The neighbourhood search keeps R_K's rows and the shuffle
		// pairs' bandwidth, not the migrations: its placement may not
		// complete where the annealer's does.
		s, x = completePlacement(ctx, in, m, fallback, K, so, t0, false, 0)
	}
	if s == nil || s.RealTime >= start.RealTime-boundTol {
		return nil
	}
	sr.Completed = true
	d.Schedule, d.X, d.Objective = s, x, s.RealTime
	return s
}

// completionReserve is the time kept after an R_K solve stopped by the
// limit, to complete the placement it found (the full model with every w
// fixed takes well under a second on Table 5's scenarios): without it a
// better R_K solution found late was dropped.
func completionReserve(limit time.Duration) time.Duration {
	return min(2*time.Second, limit/20)
}

// completeCount turns R_K's placement into a schedule of the full model m:
// the tasks keep their machines, slot classes and order, in intervals 1..K
// when T leaves room for a leading interval of migrations, else 0..K−1; the
// model, with every w fixed, then only chooses migrations and bandwidth
// bookings. It returns the checked schedule and its vector, or nil.
//
// With freeMachines only the tasks' intervals are kept: the model chooses
// machines and slots as well (a MIP, stopped after at most limit).
func completeCount(ctx context.Context, in *jlassiscenario.Instance, m *Model, cm *countModel, x []float64, so solve.Options, t0 time.Time, freeMachines bool, limit time.Duration) (*Schedule, []float64) {
	return completePlacement(ctx, in, m, cm.placements(x), cm.K, so, t0, freeMachines, limit)
}

// completePlacement is completeCount for a placement over K positions.
func completePlacement(ctx context.Context, in *jlassiscenario.Instance, m *Model, place []wKey, K int, so solve.Options, t0 time.Time, freeMachines bool, limit time.Duration) (*Schedule, []float64) {
	for _, shift := range []int{1, 0} {
		if K+shift > m.T {
			continue
		}
		fixed := m.Model.Clone()
		want := map[wKey]bool{}
		interval := map[int]int{} // task → interval
		ok := true
		for _, k := range place {
			k.T += shift
			interval[k.I] = k.T
			if _, has := m.w.Get(k); !has && !freeMachines {
				ok = false
				break
			}
			want[k] = true
		}
		if !ok {
			continue
		}
		for _, k := range m.w.Keys() {
			v, _ := m.w.Get(k)
			switch {
			case freeMachines && interval[k.I] != k.T:
				fixed.ColUpper[v.Index()] = 0
			case freeMachines:
			case want[k]:
				fixed.ColLower[v.Index()] = 1
			default:
				fixed.ColUpper[v.Index()] = 0
			}
		}
		opts := so
		opts.Start = nil
		if so.TimeLimit > 0 {
			left := so.TimeLimit - time.Since(t0)
			if left <= 0 {
				return nil, nil
			}
			opts.TimeLimit = left
		}
		if limit > 0 && (opts.TimeLimit == 0 || opts.TimeLimit > limit) {
			opts.TimeLimit = limit
		}
		res, err := solve.Solve(ctx, fixed, opts)
		if err != nil || !res.HasSolution {
			continue
		}
		s, err := m.Decode(res.X)
		if err != nil {
			continue
		}
		if v := Check(in, s, m.Objective, m.Model.Evaluate(res.X).Objective); !v.OK {
			continue
		}
		return s, res.X
	}
	return nil, nil
}

// incumbent is the RealTime of the best schedule known: the decomposition's
// or best (the heuristic's).
func (d *decomposition) incumbent(best float64) float64 {
	return math.Min(best, d.Objective)
}

// settled reports whether the decomposition's bound meets the best
// schedule known (or proves that there is none).
func settled(d *decomposition, best float64) bool {
	inc := d.incumbent(best)
	return inc <= d.Report.Bound+boundTol*math.Max(1, math.Abs(inc))
}

// result is the solve result of a run the decomposition settled: optimal
// with the best schedule (x, its vector) or infeasible.
func (d *decomposition) result(solver string, best float64, x []float64, wall time.Duration) solve.Result {
	inc := d.incumbent(best)
	r := solve.Result{Solver: solver, SolverVersion: d.Version, Nodes: d.Nodes, Iterations: d.Iterations, Wall: wall,
		Message: "settled by the interval-count decomposition (its bound meets the best schedule)"}
	if math.IsInf(inc, 1) {
		r.Status, r.Objective, r.Bound = solve.Infeasible, math.Inf(1), math.Inf(1)
		return r
	}
	r.Status, r.HasSolution, r.X, r.Objective, r.Bound = solve.Optimal, true, x, inc, math.Min(d.Report.Bound, inc)
	return r
}

// merge folds the decomposition into the MIP's result: the larger bound,
// the better schedule, and optimality when they meet.
func (d *decomposition) merge(r *solve.Result, m *Model) {
	r.Bound = math.Max(r.Bound, d.Report.Bound)
	if d.Schedule != nil && (!r.HasSolution || d.Objective < r.Objective-boundTol) {
		r.HasSolution, r.X, r.Objective = true, d.X, d.Objective
	}
	if r.HasSolution {
		r.Bound = math.Min(r.Bound, r.Objective)
		if r.Objective <= d.Report.Bound+boundTol*math.Max(1, math.Abs(r.Objective)) {
			r.Status = solve.Optimal
			r.Message = strings.TrimPrefix(r.Message+"; optimal by the interval-count decomposition's bound", "; ")
		}
	}
}

// MarshalJSON writes non-finite bounds and values as null.
func (o CountOutcome) MarshalJSON() ([]byte, error) {
	type plain CountOutcome
	return json.Marshal(struct {
		plain
		Bound solve.Number `json:"bound"`
		Value solve.Number `json:"value"`
	}{plain(o), solve.Number(o.Bound), solve.Number(o.Value)})
}

// MarshalJSON writes a non-finite bound as null.
func (d DecompositionReport) MarshalJSON() ([]byte, error) {
	type plain DecompositionReport
	return json.Marshal(struct {
		plain
		Bound solve.Number `json:"bound"`
	}{plain(d), solve.Number(d.Bound)})
}
