package mrcp

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"sort"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/internal/sizelimit"
	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

// Options configure Run: the model (the fields Build reads) and how it is
// solved (Method, NoSearch, Solve, which Build ignores).
type Options struct {
	Formulation Formulation // default TimeIndexed
	Objective   Objective   // default Product
	// Horizon, when > 0, caps every completion time at Horizon. The derived
	// bound (see HorizonBound) is used otherwise; a Horizon below it may cut
	// off optimal schedules, and the answer is then optimal within Horizon only.
	Horizon int
	// PerResource makes the time-indexed model index starts by resource,
	// x[t,r,τ], as published, even when all demands are 1 and the pooled form
	// (one lane per slot kind) has the same schedules.
	PerResource bool
	// Disaggregated keeps one binary per task and start time even where
	// identical maps of a job could share an integer count (pooled lanes).
	Disaggregated bool
	// Method says how Run solves the model; zero means Decomposition for the
	// product and lexicographic objectives and Monolithic for the weighted one.
	Method Method
	// NoSearch skips the decomposition's combinatorial phase (relaxation
	// bounds and deadline search), leaving every late count to the MILP.
	NoSearch bool
	// SearchNodeLimit, when > 0, bounds the combinatorial phase too: the
	// run stops with status NodeLimit after that many of its units of work
	// (search nodes, late sets, relaxation checks; stopper.tick). Zero
	// leaves the phase to its own fixed budgets, Solve.NodeLimit bounding
	// the MILP sub-solves only. Callers whose node limit must hold for the
	// whole run (lowerbound/windowbound) set both.
	SearchNodeLimit int64
	// Solve is passed to solve.Solve.
	Solve solve.Options

	// cutoff, set by Run for every Method but Plain, asks for a schedule
	// strictly better than the greedy heuristic's (value U): the objective
	// is bounded by U − 1 when all objective values are integers (by
	// U − cutoffEps otherwise), which also tightens every window. Build
	// returns ErrNoImprovement when the bounds alone show that no better
	// schedule exists; the heuristic is then optimal.
	cutoff bool

	// sub, when not nil, makes Build emit one subproblem of the late-count
	// decomposition (see RunInstance): minimise Z subject to at most
	// sub.maxLate late jobs and Z ≤ sub.zCap.
	sub *subproblem

	// Incumbent, when > 0, is the value (in time units) of a schedule
	// known elsewhere — one verified by another checker, e.g. the
	// simulator's — for TotalTurnaround and Makespan: Build keeps only the
	// schedules of value at most Incumbent (the row obj ≤ Incumbent and the
	// windows it implies, see Build), so the model still holds an optimal
	// schedule and the solver finds one no worse than the incumbent. Other
	// objectives ignore it.
	Incumbent int
	// OthersFloor, when not nil, holds per job j a lower bound, in time
	// units and valid for every schedule, on Σ_{k≠j} (C_k − s_k) — e.g. a
	// total-turnaround bound of the instance without job j, as every
	// schedule restricted to the other jobs is one of them — which narrows
	// TotalTurnaround's windows (see completionWindows). Other objectives
	// ignore it.
	OthersFloor []int

	// MaxStartColumns, when > 0, makes Build refuse a time-indexed model
	// with more start columns (F, and x in the x form; the job columns C,
	// N, Z are not counted) with ErrTooManyColumns, counted from the
	// windows before any variable is made: a caller that would not solve
	// a larger model (compare's turnaround gate) need not build it.
	MaxStartColumns int

	// xForm keeps the x columns of the pooled time-indexed model (the form
	// before the step form, which has the same LP): the tests compare the
	// two.
	xForm bool

	// stop, when not nil, is polled by Build's loops: once it reports a
	// stop, Build returns the model-less Built with errBuildStopped.
	stop *stopper
}

// subproblem is one late count of the decomposition of the product
// objective.
type subproblem struct {
	maxLate int
	zCap    int
	// heuristic is reused instead of recomputed.
	heuristic *Schedule
}

// cutoffEps is the improvement demanded by a cutoff when objective values
// need not be integers (a non-integral late weight).
const cutoffEps = 1e-6

// ErrNoImprovement is returned by Build with the cutoff when no schedule can beat
// the heuristic: it is optimal.
var ErrNoImprovement = errors.New("mrcp: the greedy schedule is optimal")

// ErrTooManyColumns is returned by Build when the time-indexed model would
// have more start columns than Options.MaxStartColumns.
var ErrTooManyColumns = errors.New("mrcp: more start columns than the limit")

// ErrUnsupported is returned for an instance a formulation cannot express.
var ErrUnsupported = badinput.Errorf("mrcp: not supported by this formulation")

// ErrHorizon is returned when a job cannot complete within the horizon.
var ErrHorizon = badinput.Errorf("mrcp: horizon too short")

// taskInfo is a task with its time window: it may start in [est, lst].
type taskInfo struct {
	ref      mrcpscenario.TaskRef
	dur, q   int
	est, lst int
}

// Built is a model with what is needed to decode its solutions.
type Built struct {
	Model       *model.Model
	Instance    *mrcpscenario.Instance
	Formulation Formulation
	Objective   Objective
	// Pooled reports whether the time-indexed model has one lane per slot
	// kind instead of one per resource.
	Pooled bool
	// Horizon is the largest completion time allowed; HorizonSource says
	// where it came from.
	Horizon       int
	HorizonSource string
	// ModelSkipped reports that Model is empty because the build was
	// stopped (a time limit or a cancelled context) before it was done.
	ModelSkipped bool
	// Zmin and Zmax bound the maximum turnaround in the model (Zmin is
	// TurnaroundLowerBound or better; the lexicographic weight is Zmax + 1).
	Zmin, Zmax int
	// Heuristic is the greedy schedule whose objective bounded the horizon.
	Heuristic *Schedule
	// Cut is the largest objective value the model allows (+Inf: no cut):
	// the heuristic's value less one with the cutoff, or Options.Incumbent
	// when that is lower (TotalTurnaround and Makespan).
	Cut float64
	// CutByIncumbent reports that Cut is Options.Incumbent: the model then
	// still holds a schedule as good as the incumbent, and no schedule in it
	// would be a contradiction, not a proof that the heuristic is optimal.
	CutByIncumbent bool

	// span, when > 0, replaces Zmax in the lexicographic weight: a
	// decomposition subproblem's Zmax is its cap (see runDecomposed).
	span int

	tasks []taskInfo
	index map[mrcpscenario.TaskRef]int
	ubC   []int

	// time-indexed
	lanes [3][]lane
	xs    [][]startVar // per task: its start variables (nil when aggregated)
	// groupOf[i] is the group of task i; groups[g] its tasks and start
	// variables (counts when it has several tasks).
	groupOf []int
	groups  []taskGroup
	// step: the model has no x columns, F_g is the integer variable (one
	// lane per kind, see timeIndexed).
	step bool
	// disjunctive
	machines [3][]unitSlot
	start    []model.Var
	assign   [][]model.Var // per task, per machine of its kind (may be short)

	jv jobVars
}

type taskGroup struct {
	tasks []int
	xs    []startVar
	// fs, in step form, is F_g(τ) for τ = est, …, lst − 1.
	fs []model.Var
}

type lane struct {
	resource int // −1 for a pooled lane
	cap      int
}

type unitSlot struct{ resource, slot int }

type startVar struct {
	lane, tau int
	v         model.Var
}

// HorizonBound is the derived bound on completion times, sound for every
// objective:
//
//	H = max_j s_j + Σ_t e_t
//
// Take an optimal schedule; after the last release, cut out every interval in
// which no task runs by shifting everything later to the left. Releases,
// precedence and capacity still hold and no completion grows, so the
// objective (non-decreasing in every C_j) does not worsen. In the result each
// instant after max_j s_j up to the last completion has a task running, so the
// last completion is at most max_j s_j + Σ_t e_t.
func HorizonBound(in *mrcpscenario.Instance) int {
	h := 0
	for _, j := range in.Jobs {
		h = max(h, j.Release)
	}
	for _, t := range in.Tasks() {
		h += in.Task(t).Duration
	}
	return h
}

// heuristicBudget bounds the greedy schedules the local search evaluates.
const heuristicBudget = 3000

// heuristic returns the best, for obj, of greedy schedules in four job
// orders — release (FIFO), deadline (EDF), least slack d_j − s_j − alone_j,
// shortest alone first — improved by moving single jobs to other positions
// of the order, or exchanging two, while that helps (at most heuristicBudget
// schedules).
func heuristic(in *mrcpscenario.Instance, obj Objective) *Schedule {
	return stoppableHeuristic(in, obj, nil)
}

// stoppableHeuristic is heuristic ending its local search early, with the
// best schedule so far, when stop (may be nil) says so.
func stoppableHeuristic(in *mrcpscenario.Instance, obj Objective, stop *stopper) *Schedule {
	keys := []func(j int) int{
		func(j int) int { return in.Jobs[j].Release },
		func(j int) int { return in.Jobs[j].Deadline },
		func(j int) int {
			return in.Jobs[j].Deadline - in.Jobs[j].Release - mrcpscenario.AloneTime(in.Jobs[j], in.Resources)
		},
		func(j int) int { return mrcpscenario.AloneTime(in.Jobs[j], in.Resources) },
	}
	var best *Schedule
	var bestOrder []int
	for _, key := range keys {
		order := make([]int, len(in.Jobs))
		for j := range order {
			order[j] = j
		}
		sort.SliceStable(order, func(a, b int) bool { return key(order[a]) < key(order[b]) })
		if s := Greedy(in, order); best == nil || better(obj, s, best) {
			best, bestOrder = s, order
		}
	}
	n, evals := len(bestOrder), 0
	// Phase 1 moves single jobs; phase 2 also exchanges pairs.
	for phase := 1; phase <= 2; phase++ {
		for improved := true; improved && evals < heuristicBudget; {
			improved = false
			for from := 0; from < n && evals < heuristicBudget; from++ {
				for to := 0; to < n && evals < heuristicBudget; to++ {
					if to == from {
						continue
					}
					orders := [][]int{moveJob(bestOrder, from, to)}
					if phase == 2 && to > from {
						swapped := append([]int(nil), bestOrder...)
						swapped[from], swapped[to] = swapped[to], swapped[from]
						orders = append(orders, swapped)
					}
					for _, order := range orders {
						evals++
						if stop.tick() {
							return best
						}
						if s := Greedy(in, order); better(obj, s, best) {
							best, bestOrder, improved = s, order, true
							break
						}
					}
				}
			}
		}
	}
	return best
}

// moveJob returns a copy of order with the entry at from moved to index to.
func moveJob(order []int, from, to int) []int {
	out := make([]int, 0, len(order))
	v := order[from]
	for i, x := range order {
		if i == from {
			continue
		}
		out = append(out, x)
	}
	out = append(out[:to], append([]int{v}, out[to:]...)...)
	return out
}

func better(obj Objective, a, b *Schedule) bool {
	if obj.Kind.scheduleScored() {
		return obj.ScheduleValue(a, 0) < obj.ScheduleValue(b, 0)
	}
	if obj.Kind == Lexicographic || obj.Kind == LateCount {
		return a.LateJobs < b.LateJobs || (a.LateJobs == b.LateJobs && a.MaxTurnaround < b.MaxTurnaround)
	}
	return obj.Value(a.LateJobs, a.MaxTurnaround, 0) < obj.Value(b.LateJobs, b.MaxTurnaround, 0)
}

// slotTotals returns the total map and reduce capacity.
func slotTotals(in *mrcpscenario.Instance) (mapCap, redCap int) {
	for _, r := range in.Resources {
		mapCap += r.MapSlots
		redCap += r.ReduceSlots
	}
	return mapCap, redCap
}

// work is Σ e_t·q_t over ts.
func work(ts []mrcpscenario.Task) int {
	w := 0
	for _, t := range ts {
		w += t.Duration * t.Demand
	}
	return w
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// mapPhaseBound is a lower bound on how long after its release the last map
// of job ends: the longest map, and the map work spread over every map slot,
// max(max_t e_t, ⌈Σ_t e_t·q_t / Σ_r c^mp_r⌉).
func mapPhaseBound(in *mrcpscenario.Instance, job mrcpscenario.Job) int {
	mapCap, _ := slotTotals(in)
	b := ceilDiv(work(job.Maps), mapCap)
	for _, m := range job.Maps {
		b = max(b, m.Duration)
	}
	return b
}

// TurnaroundLowerBound is a lower bound on max_j (C_j − s_j) valid for every
// schedule. For each pair of releases a ≤ c, the jobs J released in [a, c]
// need their map work W done on the map slots from a on, so some job of J
// has its last map end at or after a + ⌈W / Σ c^mp⌉ and completes at least
// its shortest reduce later; its turnaround is at least that minus c.
// Likewise for the reduce work alone. Each job alone gives mapPhaseBound +
// its longest reduce.
func TurnaroundLowerBound(in *mrcpscenario.Instance) int {
	mapCap, redCap := slotTotals(in)
	lb := 0
	for _, job := range in.Jobs {
		maxRed := 0
		for _, r := range job.Reduces {
			maxRed = max(maxRed, r.Duration)
		}
		lb = max(lb, mapPhaseBound(in, job)+maxRed)
	}
	for _, ja := range in.Jobs {
		for _, jb := range in.Jobs {
			a, c := ja.Release, jb.Release
			if c < a {
				continue
			}
			wm, wr, minRed := 0, 0, math.MaxInt
			for _, job := range in.Jobs {
				if job.Release < a || job.Release > c {
					continue
				}
				wm += work(job.Maps)
				wr += work(job.Reduces)
				for _, r := range job.Reduces {
					minRed = min(minRed, r.Duration)
				}
			}
			lb = max(lb, a+ceilDiv(wm, mapCap)+minRed-c)
			if redCap > 0 {
				lb = max(lb, a+ceilDiv(wr, redCap)-c)
			}
		}
	}
	return lb
}

// Build emits the MILP of in.
//
// Completion bounds: C_j ≤ min(H, s_j + U) where H is HorizonBound and, for
// the product and weighted objectives, U is the objective of the greedy
// heuristic: (K+1)·Z ≤ U and w·K + Z ≤ U both imply Z ≤ U, so every schedule
// at least as good as the heuristic has C_j − s_j ≤ U. From these, each map
// may start in [s_j, ubC_j − max reduce duration − e_t] and each reduce in
// [s_j + max map duration, ubC_j − e_t].
func Build(in *mrcpscenario.Instance, o Options) (*Built, error) {
	if o.Formulation == FormulationUnknown {
		o.Formulation = TimeIndexed
	}
	if o.Objective.Kind == ObjectiveUnknown {
		o.Objective.Kind = Product
	}
	if err := checkHorizon(in); err != nil {
		return nil, err
	}
	bt := &Built{Instance: in, Formulation: o.Formulation, Objective: o.Objective, index: map[mrcpscenario.TaskRef]int{}}
	if o.sub != nil {
		bt.Heuristic = o.sub.heuristic
	} else {
		bt.Heuristic = heuristic(in, o.Objective)
	}
	H := HorizonBound(in)
	bt.Horizon, bt.HorizonSource = H, "max release + total duration"
	if o.Horizon > 0 && o.Horizon < H {
		bt.Horizon, bt.HorizonSource = o.Horizon, "--horizon"
	}
	u := math.MaxInt
	bt.Cut = math.Inf(1)
	if o.Objective.Kind.scheduleScored() {
		return bt.completionWindows(in, o)
	}
	if o.Objective.Kind != Lexicographic && o.Objective.Kind != LateCount {
		// (K + 1)·Z ≤ U and w·K + Z ≤ U imply Z ≤ U; the other two bound K only.
		u = int(math.Floor(o.Objective.Value(bt.Heuristic.LateJobs, bt.Heuristic.MaxTurnaround, 0) + 1e-9))
		if o.cutoff && bt.integral() {
			u-- // Z ≤ objective ≤ U − 1
		}
	}
	if o.sub != nil {
		u = o.sub.zCap
	}
	bt.ubC = make([]int, len(in.Jobs))
	for j, job := range in.Jobs {
		bt.ubC[j] = bt.Horizon
		if u != math.MaxInt {
			bt.ubC[j] = min(bt.ubC[j], job.Release+u)
		}
		if o.sub != nil && o.sub.maxLate == 0 {
			// No job may be late: each completes by its deadline.
			bt.ubC[j] = min(bt.ubC[j], job.Deadline)
		}
	}
	return bt.emit(in, o)
}

// scheduleFloor is a lower bound on the TotalTurnaround or Makespan
// objective of every schedule of in: Σ_j f_j, or max_j (s_j + f_j) −
// min_j s_j, with f_j = turnaroundFloor.
func scheduleFloor(in *mrcpscenario.Instance, kind ObjectiveKind) float64 {
	sum, last, first := 0, math.MinInt, math.MaxInt
	for _, job := range in.Jobs {
		f := turnaroundFloor(in, job)
		sum, last, first = sum+f, max(last, job.Release+f), min(first, job.Release)
	}
	if kind == Makespan {
		return float64(last - first)
	}
	return float64(sum)
}

// turnaroundFloor is a lower bound on C_j − s_j valid for every schedule:
// the job's map phase (mapPhaseBound) then its longest reduce, which starts
// after the last map ends.
func turnaroundFloor(in *mrcpscenario.Instance, job mrcpscenario.Job) int {
	maxRed := 0
	for _, r := range job.Reduces {
		maxRed = max(maxRed, r.Duration)
	}
	return mapPhaseBound(in, job) + maxRed
}

// completionWindows sets the completion bounds of TotalTurnaround and
// Makespan, then emits the model. Let U be the least known value: the
// heuristic's (less one with the cutoff, which asks for a better schedule)
// or Options.Incumbent. A schedule of value at most U has
//
//	total:     C_j − s_j ≤ U − Σ_{k≠j} (C_k − s_k) ≤ U − F_j
//	           with F_j = max(Σ_{k≠j} f_k, Options.OthersFloor[j]), every
//	           other job k having C_k − s_k ≥ f_k (turnaroundFloor)
//	makespan:  C_j ≤ min_k s_k + U
//
// so these windows (and H, HorizonBound) keep every schedule of value ≤ U,
// among them an optimal one whenever one of value ≤ U exists: always with
// the incumbent (a schedule of value U exists) and, with the cutoff alone,
// unless the heuristic is optimal (ErrNoImprovement or an infeasible
// model then say so).
func (bt *Built) completionWindows(in *mrcpscenario.Instance, o Options) (*Built, error) {
	u := bt.ObjectiveValue(bt.Heuristic)
	if o.cutoff {
		u--
		bt.Cut = u
	}
	if o.Incumbent > 0 && float64(o.Incumbent) < u {
		u, bt.Cut, bt.CutByIncumbent = float64(o.Incumbent), float64(o.Incumbent), true
	}
	floors, first := 0, math.MaxInt
	for _, job := range in.Jobs {
		floors += turnaroundFloor(in, job)
		first = min(first, job.Release)
	}
	bt.ubC = make([]int, len(in.Jobs))
	if o.OthersFloor != nil && len(o.OthersFloor) != len(in.Jobs) {
		return nil, fmt.Errorf("%w: %d others' floors for %d jobs", errBadOption, len(o.OthersFloor), len(in.Jobs))
	}
	for j, job := range in.Jobs {
		others := floors - turnaroundFloor(in, job)
		if o.OthersFloor != nil {
			others = max(others, o.OthersFloor[j])
		}
		c := job.Release + int(u) - others
		if bt.Objective.Kind == Makespan {
			c = first + int(u)
		}
		bt.ubC[j] = min(bt.Horizon, c)
	}
	return bt.emit(in, o)
}

// emit sets the task windows from bt.ubC and emits the model (Build's
// second half).
func (bt *Built) emit(in *mrcpscenario.Instance, o Options) (*Built, error) {
	for j, job := range in.Jobs {
		bt.Zmax = max(bt.Zmax, bt.ubC[j]-job.Release)
	}
	for _, t := range in.Tasks() {
		job := in.Jobs[t.Job]
		mapPhase, maxRed := mapPhaseBound(in, job), 0
		for _, r := range job.Reduces {
			maxRed = max(maxRed, r.Duration)
		}
		task := in.Task(t)
		ti := taskInfo{ref: t, dur: task.Duration, q: task.Demand}
		if t.Kind == mrcpscenario.Map {
			ti.est, ti.lst = job.Release, bt.ubC[t.Job]-maxRed-task.Duration
		} else {
			ti.est, ti.lst = job.Release+mapPhase, bt.ubC[t.Job]-task.Duration
		}
		if ti.lst < ti.est && o.cutoff {
			return nil, ErrNoImprovement
		}
		if ti.lst < ti.est {
			return nil, fmt.Errorf("%w: %s of %s cannot complete by %d", ErrHorizon, t, job.Name, bt.ubC[t.Job])
		}
		bt.index[t] = len(bt.tasks)
		bt.tasks = append(bt.tasks, ti)
	}
	b := model.NewBuilder(fmt.Sprintf("mrcp-%s-%s", o.Formulation, o.Objective.Kind))
	var err error
	switch o.Formulation {
	case TimeIndexed:
		err = bt.timeIndexed(b, o)
	case Disjunctive:
		err = bt.disjunctive(b, o.stop)
	default:
		err = fmt.Errorf("mrcp: unknown formulation %v", o.Formulation)
	}
	if errors.Is(err, ErrHorizon) && o.cutoff {
		return nil, ErrNoImprovement
	}
	if errors.Is(err, errBuildStopped) || errors.Is(err, sizelimit.ErrTooLarge) {
		return bt.withoutModel(), err
	}
	if err != nil {
		return nil, err
	}
	var obj model.Expr
	if o.sub != nil {
		obj = bt.subObjective(b, o.sub.maxLate)
	} else {
		obj = bt.objective(b)
	}
	if o.cutoff && o.sub == nil {
		u := bt.ObjectiveValue(bt.Heuristic)
		if bt.integral() {
			u--
		} else {
			u -= cutoffEps * math.Max(1, math.Abs(u))
		}
		bt.Cut = min(bt.Cut, u)
	}
	if !math.IsInf(bt.Cut, 1) {
		b.LessEq("cutoff", obj, bt.Cut)
	}
	var stop func() bool
	if o.stop != nil {
		stop = o.stop.poll
	}
	m, err := b.BuildStop(stop)
	if errors.Is(err, model.ErrStopped) {
		return bt.withoutModel(), errBuildStopped
	}
	if err != nil {
		return nil, fmt.Errorf("mrcp: building the model: %w", err)
	}
	bt.Model = m
	return bt, nil
}

// common variables: completion C_j, lateness N_j, max turnaround Z.
type jobVars struct {
	c, n []model.Var
	z    model.Var
}

// jobs adds C_j, N_j, Z and the rows (4'), (5) and Z ≥ C_j − s_j. ends(j)
// returns, per reduce of job j, its end time as an expression.
func (bt *Built) jobs(b *model.Builder, ends func(j int) []model.Expr) (jobVars, error) {
	in := bt.Instance
	jv := jobVars{}
	cf := model.NewFamily[int](b, "C")
	nf := model.NewFamily[int](b, "N")
	zmin := 0
	for j, job := range in.Jobs {
		estC := job.Release
		for i, r := range job.Reduces {
			estC = max(estC, bt.tasks[bt.index[mrcpscenario.TaskRef{Job: j, Kind: mrcpscenario.Reduce, Index: i}]].est+r.Duration)
		}
		zmin = max(zmin, estC-job.Release)
		jv.c = append(jv.c, cf.Add(j, float64(estC), float64(bt.ubC[j]), 0, model.Continuous))
		nlo, nup := 0.0, 1.0
		if bt.ubC[j] <= job.Deadline {
			nup = 0
		}
		if estC > job.Deadline {
			nlo = 1
		}
		jv.n = append(jv.n, nf.Add(j, nlo, nup, 0, model.Binary))
	}
	bt.Zmin = max(zmin, TurnaroundLowerBound(in))
	if bt.Zmin > bt.Zmax {
		return jv, fmt.Errorf("%w: the maximum turnaround is at least %d but the horizon allows %d", ErrHorizon, bt.Zmin, bt.Zmax)
	}
	jv.z = b.Continuous("Z", float64(bt.Zmin), float64(bt.Zmax))
	comp := model.NewRowFamily[struct{ J, R int }](b, "completion")
	late := model.NewRowFamily[int](b, "late")
	turn := model.NewRowFamily[int](b, "turnaround")
	for j, job := range in.Jobs {
		for r, e := range ends(j) {
			row := model.Expr{}
			row.Add(jv.c[j], 1)
			row.AddExpr(e, -1)
			comp.GreaterEq(struct{ J, R int }{j, r}, row, 0)
		}
		// C_j − (ubC_j − d_j)·N_j ≤ d_j: N_j = 0 forces C_j ≤ d_j.
		if m := bt.ubC[j] - job.Deadline; m > 0 {
			row := model.Expr{}
			row.Add(jv.c[j], 1).Add(jv.n[j], -float64(m))
			late.LessEq(j, row, float64(job.Deadline))
		}
		row := model.Expr{}
		row.Add(jv.z, 1).Add(jv.c[j], -1)
		turn.GreaterEq(j, row, -float64(job.Release))
	}
	return jv, nil
}

// objective sets the chosen objective over jobVars stored by the formulation.
func (bt *Built) objective(b *model.Builder) model.Expr {
	jv := bt.jv
	k := model.Sum(jv.n...)
	switch bt.Objective.Kind {
	case Product:
		// K = Σ_b 2^b y_b; w_b = y_b·Z by w_b ≥ Z − Zmax·(1 − y_b), w_b ≥ 0,
		// exact at a minimum; (K + 1)·Z = Z + Σ_b 2^b w_b.
		nb := bits.Len(uint(len(jv.n)))
		obj := model.Expr{}
		obj.Add(jv.z, 1)
		kdef := model.Expr{}
		kdef.AddExpr(k, 1)
		yf := model.NewFamily[int](b, "Kbit")
		wf := model.NewFamily[int](b, "KbitZ")
		mc := model.NewRowFamily[int](b, "mccormick")
		mcLo := model.NewRowFamily[int](b, "mccormicklo")
		zmax := float64(bt.Zmax)
		for i := 0; i < nb; i++ {
			y := yf.Add(i, 0, 1, 0, model.Binary)
			w := wf.Add(i, 0, zmax, 0, model.Continuous)
			kdef.Add(y, -float64(uint(1)<<i))
			row := model.Expr{}
			row.Add(w, 1).Add(jv.z, -1).Add(y, -zmax)
			mc.GreaterEq(i, row, -zmax)
			// w_b ≥ Zmin·y_b: valid since Z ≥ Zmin, and it makes late jobs
			// cost in the LP relaxation.
			if bt.Zmin > 0 {
				lo := model.Expr{}
				lo.Add(w, 1).Add(y, -float64(bt.Zmin))
				mcLo.GreaterEq(i, lo, 0)
			}
			obj.Add(w, float64(uint(1)<<i))
		}
		b.Equal("latecount", kdef, 0)
		b.Minimize(obj)
		return obj
	case Lexicographic:
		obj := model.Expr{}
		obj.AddExpr(k, float64(bt.Zmax+1))
		obj.Add(jv.z, 1)
		b.Minimize(obj)
		return obj
	case Weighted:
		obj := model.Expr{}
		obj.AddExpr(k, bt.Objective.weight())
		obj.Add(jv.z, 1)
		b.Minimize(obj)
		return obj
	case LateCount:
		b.Minimize(k)
		return k
	case TotalTurnaround:
		// Σ_j C_j − Σ_j s_j.
		obj := model.Sum(jv.c...)
		for _, job := range bt.Instance.Jobs {
			obj.AddConst(-float64(job.Release))
		}
		b.Minimize(obj)
		return obj
	case Makespan:
		// Cmax ≥ C_j for every j; Cmax − min_j s_j.
		lo, hi, first := 0.0, 0.0, math.MaxInt
		for j, job := range bt.Instance.Jobs {
			lo = max(lo, float64(job.Release+turnaroundFloor(bt.Instance, job)))
			hi = max(hi, float64(bt.ubC[j]))
			first = min(first, job.Release)
		}
		cmax := b.Continuous("Cmax", lo, hi)
		rows := model.NewRowFamily[int](b, "cmax")
		for j := range bt.Instance.Jobs {
			row := model.Expr{}
			row.Add(cmax, 1).Add(jv.c[j], -1)
			rows.GreaterEq(j, row, 0)
		}
		obj := model.Sum(cmax)
		obj.AddConst(-float64(first))
		b.Minimize(obj)
		return obj
	}
	return model.Expr{}
}

// subObjective minimises Z subject to Σ_j N_j ≤ maxLate.
func (bt *Built) subObjective(b *model.Builder, maxLate int) model.Expr {
	if maxLate < len(bt.jv.n) {
		b.LessEq("latecap", model.Sum(bt.jv.n...), float64(maxLate))
	}
	obj := model.Sum(bt.jv.z)
	b.Minimize(obj)
	return obj
}

// ObjectiveValue is the objective of s as this model scores it.
func (bt *Built) ObjectiveValue(s *Schedule) float64 {
	return bt.Objective.ScheduleValue(s, bt.ObjectiveSpan())
}

// ObjectiveSpan is the Zmax the lexicographic objective K·(Zmax + 1) + Z is
// weighed with: the model's own, or for a decomposition's report the whole
// instance's (LexicographicSpan), not the subproblem's cap.
func (bt *Built) ObjectiveSpan() int {
	if bt.span > 0 {
		return bt.span
	}
	return bt.Zmax
}

// identicalPairs lists consecutive identical tasks (same job, kind, duration
// and demand): relabelling them so that their starts are sorted keeps any
// schedule feasible, so S_t ≤ S_{t'} may be imposed.
func (bt *Built) identicalPairs() [][2]int {
	var out [][2]int
	for i := 1; i < len(bt.tasks); i++ {
		a, c := bt.tasks[i-1], bt.tasks[i]
		if a.ref.Job == c.ref.Job && a.ref.Kind == c.ref.Kind && a.dur == c.dur && a.q == c.q {
			out = append(out, [2]int{i - 1, i})
		}
	}
	return out
}
