package mrcp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/internal/sizelimit"
	"github.com/mrbound/mrbound/solve"
)

// boundTol is how far below an integer a solver's dual bound on the integer
// Z may be and still count as that integer (solvers meet rows to ~1e-6).
const boundTol = 1e-6

// SubSolve is one late-count subproblem of the decomposition.
type SubSolve struct {
	// MaxLate is K: at most K jobs late. ZCap is the largest Z allowed,
	// ⌊(U − 1)/(K + 1)⌋ for the incumbent U at the time.
	MaxLate, ZCap int
	// Status: Optimal (Z*_K found, or none within the cap: Infeasible), or
	// the limit that stopped it; "bounds" when the windows alone were empty.
	Status solve.Status
	// Z is the best Z found (−1 if none); ZBound the proven lower bound on Z.
	Z, ZBound int
	Cols      int
	Nodes     int64
	Wall      time.Duration
	// Search reports that the deadline search (no MILP) settled it; Nodes
	// are then search nodes and Cols is 0.
	Search bool
	// Jobs is, for a MILP on part of the instance (coreMILP), how many jobs
	// it had; Z is then the part's optimum, a bound, not a schedule's. 0:
	// the whole instance.
	Jobs int
	// LateSet, for a MILP on one late set (setMILPMax), is that set: those
	// jobs may end by s_j + ZCap, every other by its deadline; Z is then a
	// bound, not a schedule's.
	LateSet []int
}

// Budgets of the combinatorial phase (search nodes; one node costs a few
// tens of microseconds at 20 jobs): proveBudget for proving or solving one
// late count, findBudget and findPerSet for looking for an incumbent before
// a late count goes to the MILP.
const (
	proveBudget   = 400000
	proveSetShare = 8 // one late set may use 1/proveSetShare of proveBudget
	findBudget    = 60000
	findPerSet    = 2000
	findTries     = 4  // per late set in the incumbent pass
	stallTries    = 12 // per late set once a late count's proof stalls
)

// lateTurn is what the decomposition needs of an objective: value(K, Z),
// non-decreasing in the late count K and the maximum turnaround Z, and
// zcap(K, U), the largest Z with value(K, Z) < U for an integral U (−1 when
// none). The late count ignores Z: every K < U gets the cap S and one
// MILP at it, and the loop ends at the incumbent's K.
type lateTurn struct {
	kind ObjectiveKind
	// span is the lexicographic weight less one: the monolithic model's
	// Zmax, H − min_j s_j, which no compacted schedule's Z exceeds.
	span int
}

func newLateTurn(in *mrcpscenario.Instance, obj Objective) lateTurn {
	return lateTurn{kind: obj.Kind, span: LexicographicSpan(in)}
}

// LexicographicSpan is the Zmax that weighs the lexicographic objective
// K·(Zmax + 1) + Z when Run is given no --horizon: HorizonBound(in) less the
// earliest release. Every schedule worth reporting (compacted: no idle
// instant after the last release) has Z ≤ it.
func LexicographicSpan(in *mrcpscenario.Instance) int {
	first := math.MaxInt
	for _, job := range in.Jobs {
		first = min(first, job.Release)
	}
	if first == math.MaxInt {
		return 0
	}
	return HorizonBound(in) - first
}

func (lt lateTurn) value(k, z int) float64 {
	switch lt.kind {
	case Lexicographic:
		return float64(k)*float64(lt.span+1) + float64(z)
	case LateCount:
		return float64(k)
	}
	return float64(k+1) * float64(z)
}

func (lt lateTurn) zcap(k int, u float64) int {
	switch lt.kind {
	case Lexicographic:
		return min(lt.span, int(math.Floor(u-1+boundTol))-k*(lt.span+1))
	case LateCount:
		if float64(k) <= u-1+boundTol {
			return lt.span
		}
		return -1
	}
	return int(math.Floor((u - 1 + boundTol) / float64(k+1)))
}

// runDecomposed minimises the product objective (K + 1)·Z — or the
// lexicographic K·(S + 1) + Z, S = LexicographicSpan, with the caps of
// lateTurn.zcap in place of the product's — by one solve per
// late count K = 0, 1, …: minimise Z subject to Σ_j N_j ≤ K and
// Z ≤ ⌊(U − 1)/(K + 1)⌋, U the incumbent (first the heuristic's). A schedule
// with exactly K late jobs beating U lies in subproblem K, so when every
// subproblem is solved the incumbent is optimal. K stops once
// (K + 1)·Zmin ≥ U. Within one K the cap rises from Zmin (zlo, zlo + 1,
// zlo + 3, …; unless the Method is SerialDecomposition, and not for K = 0 whose windows end at the
// deadlines): a cap without a schedule proves Z*_K above it, the first cap
// with one gives Z*_K. The caps shrink every task window to
// [s_j, s_j + cap], far smaller than the monolithic model's
// [s_j, s_j + U − 1]. Every subproblem schedule is decoded and checked
// before it becomes the incumbent. Unless o.NoSearch (and only with unit
// demands), a combinatorial phase runs first: Zmin from the preemptive
// relaxation, incumbents by findSchedule for every K, then per K
// settleLateCount; a K it settles needs no MILP, one it cannot settle goes to
// the MILP from the lower bound it proved.
//
// The context and o.Solve.TimeLimit stop every phase (stopper): the run
// then reports the best checked schedule so far and the least over the
// late counts not settled of value(K, the bound proven on Z_K), with the
// status Interrupted or TimeLimit unless that bound already proves the
// incumbent.
func runDecomposed(ctx context.Context, path string, in *mrcpscenario.Instance, o Options) (*Report, error) {
	t0 := time.Now()
	stop := newRunStopper(ctx, t0, o)
	bo := o
	bo.cutoff = false
	bo.stop = stop // every Build below stops with the run
	lt := newLateTurn(in, o.Objective)
	heur := stoppableHeuristic(in, bo.Objective, stop)
	best := heur
	u := lt.value(heur.LateJobs, heur.MaxTurnaround)
	zmin := TurnaroundLowerBound(in)
	rx := newRelaxation(in)
	rx.stop = stop
	zmin = rx.minTurnaround(zmin)
	searchable := unitDemands(in) && !o.NoSearch
	// zk[k] is a lower bound on Z with at most k late jobs: the relaxation's
	// least Z over the late sets (zmin when not computed).
	zk := make([]int, len(in.Jobs)+1)
	for k := range zk {
		zk[k] = zmin
	}
	if !o.NoSearch {
		for k := 0; k <= len(in.Jobs) && zmin <= lt.zcap(k, u) && !stop.poll(); k++ {
			zk[k] = relaxLateBound(in, rx, k, zmin, lt.zcap(k, u))
		}
	}
	// classBound(k, z) bounds the schedules with exactly k late jobs when
	// z bounds the Z of those with at most k: value(k, z), or U when
	// z > zcap(k, U) (none of them beats U; for the late count, whose value
	// ignores Z, there is then no compacted one at all).
	classBound := func(k, z int) float64 {
		if z > lt.zcap(k, u) {
			return u
		}
		return lt.value(k, z)
	}
	// rest(k) bounds every late count above k: min over K > k of
	// classBound(K, zk[K]).
	rest := func(k int) float64 {
		b := math.Inf(1)
		for kk := k + 1; kk <= len(in.Jobs); kk++ {
			b = math.Min(b, classBound(kk, zk[kk]))
		}
		return b
	}
	bound := math.Inf(1) // min over the unfinished subproblems' bounds
	var nodes int64
	var first, bestBuilt *Built
	var subs []SubSolve
	limited := solve.StatusUnknown
	backend := ""
	outOfTime := false
	// stopAt ends the run at late count k, whose Z is proven ≥ zlo: k
	// and every later late count stay open in the bound.
	stopAt := func(k, zlo int) {
		bound = math.Min(bound, math.Min(classBound(k, zlo), rest(k)))
		limited, outOfTime = stop.status, true
	}
	if searchable {
		// Incumbents first: for each late count, bisect the cap with the
		// deadline search (no proof is drawn from this pass).
		for k := 0; k <= len(in.Jobs) && zmin <= lt.zcap(k, u) && !stop.poll(); k++ {
			if zk[k] > lt.zcap(k, u) {
				continue
			}
			if s := findSchedule(in, rx, k, zk[k], lt.zcap(k, u), findTries); s != nil {
				if err := Check(in, s); err != nil {
					return nil, fmt.Errorf("mrcp: deadline search: %w", err)
				}
				if v := lt.value(s.LateJobs, s.MaxTurnaround); v < u {
					u, best = v, s
				}
			}
		}
	}
	for k := 0; k <= len(in.Jobs) && !outOfTime; k++ {
		if zmin > lt.zcap(k, u) {
			break
		}
		if zk[k] > lt.zcap(k, u) {
			// The relaxation leaves no room for this late count.
			zcapU := lt.zcap(k, u)
			subs = append(subs, SubSolve{MaxLate: k, ZCap: zcapU, Status: solve.Infeasible, Z: -1, ZBound: zk[k], Search: true})
			continue
		}
		// Caps rise from Zmin: zlo + 1 − 1, + 2 − 1, + 4 − 1, … up to the
		// incumbent's; a cap without a schedule proves Z*_K above it.
		zlo, step := zk[k], 1
		if stop.poll() {
			stopAt(k, zlo)
			break
		}
		if searchable {
			// The combinatorial phase: relaxation and deadline search.
			zcapU := lt.zcap(k, u)
			ts := time.Now()
			empty, topNodes := topCapEmpty(in, rx, k, zcapU)
			if empty {
				subs = append(subs, SubSolve{MaxLate: k, ZCap: zcapU, Status: solve.Infeasible, Z: -1, ZBound: zcapU + 1,
					Nodes: int64(topNodes), Search: true, Wall: time.Since(ts)})
				continue
			}
			budget := proveBudget
			st, z, s, core := searchLateCount(in, rx, k, zlo, zcapU, &budget, 0, proveBudget/proveSetShare)
			sub := SubSolve{MaxLate: k, ZCap: zcapU, Z: -1, ZBound: z, Nodes: int64(proveBudget - budget + topNodes), Search: true}
			if st == lateUnknown && stop.stopped() {
				// Z*_K ≥ z was proven before the stop.
				sub.Status, sub.Wall = stop.status, time.Since(ts)
				subs = append(subs, sub)
				stopAt(k, z)
				break
			}
			if st == lateUnknown {
				// Z*_K ≥ z is proven; look for a (better) schedule to lower
				// the cap before the MILP proves the rest.
				hi := zcapU
				if s != nil {
					hi = s.MaxTurnaround - 1
				}
				if f := findSchedule(in, rx, k, z, hi, stallTries); f != nil {
					s = f
				}
				sub.Status = solve.NodeLimit
			} else {
				sub.Status = solve.Optimal
				if st == lateEmpty {
					sub.Status = solve.Infeasible
				}
			}
			if s != nil {
				if err := Check(in, s); err != nil {
					return nil, fmt.Errorf("mrcp: deadline search: %w", err)
				}
				sub.Z = s.MaxTurnaround
				if st == lateSolved {
					sub.ZBound = s.MaxTurnaround
				}
				if v := lt.value(s.LateJobs, s.MaxTurnaround); v < u {
					u, best = v, s
				}
			}
			sub.Wall = time.Since(ts)
			subs = append(subs, sub)
			if st != lateUnknown {
				continue
			}
			zlo = z
			if zcapU := lt.zcap(k, u); zlo <= zcapU {
				if sets := passingSets(in, rx, k, zcapU); sets != nil {
					// Few late sets pass at the cap: each alone by the MILP.
					left := time.Duration(0)
					if o.Solve.TimeLimit > 0 {
						left = o.Solve.TimeLimit - time.Since(t0)
					}
					if o.Solve.TimeLimit <= 0 || left > 0 {
						zb := zcapU + 1
						for i, set := range sets {
							if stop.poll() {
								zb = zlo // the sets left are open
								break
							}
							per := time.Duration(0)
							if left > 0 {
								per = (o.Solve.TimeLimit - time.Since(t0)) / time.Duration(len(sets)-i)
								if per <= 0 {
									zb = zlo
									break
								}
							}
							cs, solver, err := coreMILP(ctx, lateSetInstance(in, set, zcapU), allJobs(in), 0, zcapU, bo, o.Solve, per)
							if err != nil {
								return nil, err
							}
							if solver != "" {
								backend = solver
							}
							cs.Jobs, cs.MaxLate, cs.LateSet = 0, k, set
							nodes += cs.Nodes
							subs = append(subs, cs)
							zb = min(zb, max(zlo, cs.ZBound))
						}
						if zb > zcapU {
							continue // no late set can meet the cap
						}
						zlo = zb
					}
				}
			}
			if stop.poll() {
				stopAt(k, zlo)
				break
			}
			if zcapU := lt.zcap(k, u); core != nil && zlo <= zcapU &&
				len(core) <= len(in.Jobs)/coreMaxShare {
				// The jobs the search left undecided, alone, by the MILP.
				left := time.Duration(0)
				if o.Solve.TimeLimit > 0 {
					left = (o.Solve.TimeLimit - time.Since(t0)) / coreTimeShare
				}
				if o.Solve.TimeLimit <= 0 || left > 0 {
					cs, solver, err := coreMILP(ctx, in, core, k, zcapU, bo, o.Solve, left)
					if err != nil {
						return nil, err
					}
					if solver != "" {
						backend = solver
					}
					nodes += cs.Nodes
					subs = append(subs, cs)
					if cs.Status == solve.Infeasible {
						continue
					}
					zlo = max(zlo, cs.ZBound)
				}
			}
		}
		for !outOfTime {
			zcapU := lt.zcap(k, u)
			if zlo > zcapU {
				break
			}
			zcap := min(zcapU, zlo+step-1)
			step *= 2
			if o.Method == SerialDecomposition || k == 0 || (searchable && best.LateJobs == k) || lt.kind == LateCount {
				// K = 0 windows end at the deadlines whatever the cap; an
				// incumbent with K late jobs makes the cap its Z − 1, tight.
				zcap = zcapU
			}
			if stop.poll() {
				// Out of time or interrupted: this K keeps value(K, zlo),
				// every later K its relaxation bound.
				stopAt(k, zlo)
				break
			}
			sub := SubSolve{MaxLate: k, ZCap: zcap, Z: -1, ZBound: zcap + 1}
			bo.sub = &subproblem{maxLate: k, zCap: zcap, heuristic: heur}
			ts := time.Now()
			bt, err := Build(in, bo)
			if errors.Is(err, errBuildStopped) {
				// Stopped inside the build: as a stop before it.
				stopAt(k, zlo)
				break
			}
			if errors.Is(err, ErrHorizon) {
				// Some window is empty: no schedule with Z ≤ zcap and ≤ k late.
				sub.Status, sub.Wall = solve.Infeasible, time.Since(ts)
				subs = append(subs, sub)
				zlo = zcap + 1
				continue
			}
			if err != nil {
				return nil, err
			}
			if first == nil {
				first = bt
			}
			opts := o.Solve
			if opts.RelGap == 0 && opts.AbsGap == 0 {
				opts.RelGap, opts.AbsGap = 1e-9, integralAbsGap
			}
			if o.Solve.TimeLimit > 0 {
				// At least a nanosecond: 0 would mean no limit.
				opts.TimeLimit = max(o.Solve.TimeLimit-time.Since(t0), time.Nanosecond)
			}
			res, err := solve.Solve(ctx, bt.Model, opts)
			if err != nil {
				return nil, err
			}
			backend = res.Solver
			nodes += res.Nodes
			sub.Cols, sub.Nodes, sub.Status, sub.Wall = bt.Model.NumCols(), res.Nodes, res.Status, time.Since(ts)
			if res.HasSolution {
				s, err := bt.Decode(res.X)
				if err != nil {
					return &Report{Path: path, Instance: in, Built: bt, Result: res, CheckErr: err, Subproblems: subs}, nil
				}
				if err := Check(in, s); err != nil {
					out := &Report{Path: path, Instance: in, Built: bt, Result: res, Subproblems: subs}
					out.finish(s)
					return out, nil
				}
				sub.Z = s.MaxTurnaround
				if v := lt.value(s.LateJobs, s.MaxTurnaround); v < u {
					u, best, bestBuilt = v, s, bt
				}
			}
			subs = append(subs, sub)
			if res.Status == solve.Infeasible {
				zlo = zcap + 1
				continue
			}
			if res.Status == solve.Optimal {
				// Z*_K found within the gap tolerance: the dual bound says
				// how far below the schedule's Z it may still lie, and that
				// is what this K contributes to the bound.
				zb := sub.Z
				if b := res.Bound; !math.IsInf(b, 0) && !math.IsNaN(b) {
					zb = min(zb, max(zlo, int(math.Ceil(b-boundTol))))
				}
				subs[len(subs)-1].ZBound = zb
				if zb < sub.Z {
					bound = math.Min(bound, lt.value(k, zb))
				}
				break
			}
			// A limit: the bound on Z holds for this K.
			zb := zlo
			if !math.IsInf(res.Bound, 0) && !math.IsNaN(res.Bound) {
				zb = max(zb, int(math.Ceil(res.Bound-boundTol)))
			}
			subs[len(subs)-1].ZBound = zb
			bound = math.Min(bound, lt.value(k, zb))
			limited = res.Status
			if stop.poll() {
				limited, outOfTime = stop.status, true
				bound = math.Min(bound, rest(k))
			}
			break
		}
	}
	if first == nil {
		// Nothing to solve: build the plain model for the report.
		// A stopped run or a model over the memory budget gets the
		// model-less Built: the report's numbers do not depend on it.
		bo.sub = &subproblem{maxLate: len(in.Jobs), zCap: heur.MaxTurnaround, heuristic: heur}
		bt, err := Build(in, bo)
		if err != nil && !errors.Is(err, errBuildStopped) && !errors.Is(err, sizelimit.ErrTooLarge) {
			return nil, err
		}
		first = bt
	}
	if bestBuilt == nil {
		bestBuilt = first
	}
	// A subproblem's own Zmax is its cap: score the reported schedule with
	// the whole instance's span, as the monolithic model does.
	bestBuilt.span = lt.span
	res := solve.Result{Solver: backend, HasSolution: true, Objective: u, Bound: math.Min(u, bound), Nodes: nodes,
		Wall: time.Since(t0)}
	if backend == "" {
		res.Solver = "bounds"
		for _, sub := range subs {
			if sub.Search {
				res.Solver = "search" // the deadline search settled it, no MILP
			}
		}
	}
	plural := "s"
	if len(subs) == 1 {
		plural = ""
	}
	res.Message = fmt.Sprintf("late-count decomposition, %d subproblem%s", len(subs), plural)
	switch stop.status {
	case solve.Interrupted:
		res.Message += "; interrupted (the context is done)"
	case solve.TimeLimit:
		res.Message += "; stopped at the time limit"
	case solve.NodeLimit:
		res.Message += "; stopped at the search node limit"
	}
	// Optimal unless a limit left a bound more than a unit below U; a
	// bound within a unit of U proves U (values are integers). A late count
	// solved within a loose gap tolerance keeps its bound: Optimal, as the
	// tolerance allowed, with the bound it proved.
	res.Status = solve.Optimal
	if res.Bound >= u-integralAbsGap {
		res.Bound = u
	} else if limited != solve.StatusUnknown {
		res.Status = limited
	}
	out := &Report{Path: path, Instance: in, Built: bestBuilt, Result: res, FromHeuristic: best == heur, Subproblems: subs}
	out.finish(best)
	return out, nil
}

// coreTimeShare: the MILP on the jobs the search left undecided gets
// 1/coreTimeShare of the time left; coreMaxShare: only when they are at
// most 1/coreMaxShare of the jobs (a MILP on more is hardly cheaper than
// the whole one, which it would delay: 12–14 of 20 jobs on seeds 5, 7, 8
// and 10 gave nothing in 10 s).
const (
	coreTimeShare = 3
	coreMaxShare  = 2
)

// coreMILP solves subproblem (k, zcap) — minimise Z with at most k late jobs
// and Z ≤ zcap — on the jobs core of in alone, within limit (0: none). A
// schedule of in with at most k late jobs and Z ≤ zcap, restricted to core,
// is one of the core with at most as many late jobs and no larger Z, so the
// core's optimum, or its proven bound, bounds Z*_k from below, and an
// infeasible core proves that no schedule with at most k late jobs has
// Z ≤ zcap. The returned SubSolve has Status Infeasible then, and ZBound
// the bound on Z*_k otherwise; the string is the backend's name ("" when
// the windows alone were empty).
func coreMILP(ctx context.Context, in *mrcpscenario.Instance, core []int, k, zcap int, bo Options, so solve.Options, limit time.Duration) (SubSolve, string, error) {
	sub := *in
	sub.Jobs = make([]mrcpscenario.Job, len(core))
	order := make([]int, len(core))
	for i, j := range core {
		sub.Jobs[i] = in.Jobs[j]
		order[i] = i
	}
	ss := SubSolve{MaxLate: k, ZCap: zcap, Z: -1, ZBound: 0, Jobs: len(core)}
	ts := time.Now()
	bo.sub = &subproblem{maxLate: k, zCap: zcap, heuristic: Greedy(&sub, order)}
	bt, err := Build(&sub, bo)
	if errors.Is(err, ErrHorizon) {
		ss.Status, ss.ZBound, ss.Wall = solve.Infeasible, zcap+1, time.Since(ts)
		return ss, "", nil
	}
	if errors.Is(err, errBuildStopped) {
		// Nothing proven about the core: ZBound 0 raises no bound.
		ss.Status, ss.Wall = bo.stop.status, time.Since(ts)
		return ss, "", nil
	}
	if err != nil {
		return ss, "", err
	}
	opts := so
	opts.TimeLimit = limit
	if opts.RelGap == 0 && opts.AbsGap == 0 {
		opts.RelGap, opts.AbsGap = 1e-9, integralAbsGap
	}
	res, err := solve.Solve(ctx, bt.Model, opts)
	if err != nil {
		return ss, "", err
	}
	ss.Cols, ss.Nodes, ss.Status, ss.Wall = bt.Model.NumCols(), res.Nodes, res.Status, time.Since(ts)
	switch {
	case res.Status == solve.Infeasible:
		ss.ZBound = zcap + 1
	case res.Status == solve.Optimal && res.HasSolution:
		// Optimal within the gap tolerance: the part's Z is the
		// incumbent's, its bound the solver's dual bound (issue #14:
		// ceil(Objective) with RelGap 0.3 claimed Z*_k ≥ 11 where Z*_k = 9).
		ss.Z = int(math.Ceil(res.Objective - boundTol))
		ss.ZBound = ss.Z
		if b := res.Bound; !math.IsInf(b, 0) && !math.IsNaN(b) {
			ss.ZBound = min(ss.Z, int(math.Ceil(b-boundTol)))
		}
	case (res.Status == solve.TimeLimit || res.Status == solve.NodeLimit || res.Status == solve.IterationLimit ||
		res.Status == solve.Interrupted) && !math.IsInf(res.Bound, 0) && !math.IsNaN(res.Bound):
		// A limit stopped it: its dual bound holds (no other status's does).
		ss.ZBound = int(math.Ceil(res.Bound - boundTol))
	}
	return ss, res.Solver, nil
}

// maxBoundSets bounds the late sets relaxLateBound tries per cap; with more
// it counts the cap as possible (weaker, still a valid bound).
const maxBoundSets = 300

// relaxLateBound is the least z in [zlo, zcap] at which some late set of
// searchLateCount (|L| = min(k, |R_z|), L ⊆ R_z) passes the relaxation, or
// zcap + 1 if none does: no schedule with at most k late jobs has Z below it.
// The predicate is monotone in z (R_z only grows, and every deadline of a
// passing set only grows with z), so bisection finds it. A stop (rx.stop)
// counts every z not yet decided as passing: the result is then one more
// than the largest z proven to fail (or zlo), weaker but valid.
func relaxLateBound(in *mrcpscenario.Instance, rx *relaxation, k, zlo, zcap int) int {
	d := make([]int, len(in.Jobs))
	ok := func(z int) bool {
		if rx.stop.tick() {
			return true
		}
		r := capDeadlines(in, z, d)
		if !rx.feasible(d) {
			return false // even with every job of R_z late
		}
		if rx.lateLowerBound(z, r) > k {
			return false
		}
		size := min(k, len(r))
		if binomial(len(r), size) > maxBoundSets {
			return rx.lateSetPasses(z, r, size)
		}
		pick := make([]int, size)
		for i := range pick {
			pick[i] = i
		}
		for {
			if rx.stop.tick() {
				return true
			}
			lateSetDeadlines(in, r, pick, z, d)
			if rx.feasible(d) {
				return true
			}
			if !nextCombination(pick, len(r)) {
				return false
			}
		}
	}
	lo, hi := zlo, zcap+1 // ok(hi) is taken as true
	for lo < hi {
		m := lo + (hi-lo)/2
		if ok(m) {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// findSchedule looks for a schedule with at most k late jobs and Z ≤ zcap by
// bisection on the cap between zlo and zcap with the deadline search,
// passing over late sets whose search runs out of budget: a heuristic (no
// proof is drawn from it), nil when it finds nothing. A stop (rx.stop) ends
// it with what it found.
func findSchedule(in *mrcpscenario.Instance, rx *relaxation, k, zlo, zcap, tries int) *Schedule {
	var s *Schedule
	fb := findBudget
	// The bound first, on a budget of its own: it is tight when few late
	// sets pass there (seeds 7 and 8: Z*_K is the relaxation's Z_K).
	pb := findBudget / 2
	if _, _, f, _ := searchLateCount(in, rx, k, zlo, zlo, &pb, tries, findPerSet); f != nil {
		return f
	}
	for lo, hi := zlo, zcap; lo <= hi && fb > 0 && !rx.stop.stopped(); {
		mid := (lo + hi) / 2
		if _, _, f, _ := searchLateCount(in, rx, k, mid, mid, &fb, tries, findPerSet); f != nil {
			s, hi = f, f.MaxTurnaround-1
		} else {
			lo = mid + 1
		}
	}
	return s
}

// capDeadlines sets d[j] = s_j + z, each job's completion deadline when the
// maximum turnaround is z and the job may be late, and returns R_z, the jobs
// whose own deadline d_j falls before it: only they can be late under cap z.
func capDeadlines(in *mrcpscenario.Instance, z int, d []int) []int {
	var r []int
	for j, job := range in.Jobs {
		d[j] = job.Release + z
		if job.Deadline < d[j] {
			r = append(r, j)
		}
	}
	return r
}

// lateSetDeadlines sets the deadlines of the jobs in r for the late set
// {r[i] : i ∈ pick} under cap z: s_j + z for the late ones, d_j for the
// others (the rest of d is capDeadlines's).
func lateSetDeadlines(in *mrcpscenario.Instance, r, pick []int, z int, d []int) {
	for _, j := range r {
		d[j] = in.Jobs[j].Deadline
	}
	for _, i := range pick {
		d[r[i]] = in.Jobs[r[i]].Release + z
	}
}

// setMILPMax: when at most this many late sets pass the relaxation at a late
// count's cap, the decomposition solves each alone by the MILP (its jobs may
// end by s_j + cap, the others by their deadlines: a K = 0 model, far
// smaller than the late count's) before the late count's own MILP (seed 7,
// K = 3: one set, {j2, j8, j9}, 27 621 columns against 77 781).
const setMILPMax = 4

// passingSets returns the late sets of searchLateCount (|L| = min(k, |R_z|),
// L ⊆ R_z) that pass the relaxation at cap z, or nil when there are more
// than setMILPMax or too many to enumerate. A schedule with at most k late
// jobs and Z ≤ z has its late set inside one of them (a set passing at its
// own Z passes at z, and so does every superset). A stop (rx.stop) returns
// nil.
func passingSets(in *mrcpscenario.Instance, rx *relaxation, k, z int) [][]int {
	d := make([]int, len(in.Jobs))
	r := capDeadlines(in, z, d)
	size := min(k, len(r))
	if size == 0 || binomial(len(r), size) > maxLateSets {
		return nil
	}
	pick := make([]int, size)
	for i := range pick {
		pick[i] = i
	}
	out := [][]int{}
	for {
		if rx.stop.tick() {
			return nil
		}
		capDeadlines(in, z, d)
		lateSetDeadlines(in, r, pick, z, d)
		if rx.feasible(d) {
			if len(out) == setMILPMax {
				return nil
			}
			out = append(out, lateJobs(r, pick))
		}
		if !nextCombination(pick, len(r)) {
			return out
		}
	}
}

// lateSetInstance is in with the deadline of each job of set moved to
// s_j + z when later: its schedules with no late job and Z ≤ z are those of
// in with Z ≤ z whose late jobs lie in set.
func lateSetInstance(in *mrcpscenario.Instance, set []int, z int) *mrcpscenario.Instance {
	out := *in
	out.Jobs = append([]mrcpscenario.Job(nil), in.Jobs...)
	for _, j := range set {
		out.Jobs[j].Deadline = max(out.Jobs[j].Deadline, out.Jobs[j].Release+z)
	}
	return &out
}

// allJobs is 0, 1, …, |J| − 1.
func allJobs(in *mrcpscenario.Instance) []int {
	js := make([]int, len(in.Jobs))
	for j := range js {
		js[j] = j
	}
	return js
}

// topSetBudget is the deadline search's budget per late set and direction
// in topCapEmpty (one run each: restarts with doubling budgets would spend
// several times the nodes of the run that decides).
const topSetBudget = 60000

// topCapEmpty tries to prove late count k empty at once: when at most
// setMILPMax late sets pass the relaxation at the cap (passingSets), every
// schedule with at most k late jobs and Z ≤ zcap meets the deadlines of
// one of them at zcap, so if the deadline search (decideDeadlines) proves
// each infeasible there, no such schedule exists. It returns whether it
// did, and the search nodes spent. Each set gets one forward and one
// reversed search. (Seed 7, K = 3: one set, {j2, j8, j9},
// proven infeasible at cap 1186 in about 36 000 nodes forward, where the
// caps from 1032 up stall one by one.) A stop (rx.stop) returns false.
func topCapEmpty(in *mrcpscenario.Instance, rx *relaxation, k, zcap int) (bool, int) {
	sets := passingSets(in, rx, k, zcap)
	if sets == nil {
		return false, 0
	}
	d := make([]int, len(in.Jobs))
	nodes := 0
	for _, set := range sets {
		r := capDeadlines(in, zcap, d)
		for _, j := range r {
			d[j] = in.Jobs[j].Deadline
		}
		for _, j := range set {
			d[j] = in.Jobs[j].Release + zcap
		}
		proven := false
		for _, rev := range []bool{false, true} {
			_, res, n := searchDeadlinesDir(in, d, topSetBudget, 0, rev, rx.stop)
			nodes += min(n, topSetBudget)
			if rx.stop.stopped() {
				return false, nodes
			}
			if res == searchFound {
				return false, nodes
			}
			if res == searchInfeasible {
				proven = true
				break
			}
		}
		if !proven {
			return false, nodes
		}
	}
	return true, nodes
}
