package mrcpsched

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/solve"
)

// subModel is the time-indexed MILP of one late count K of the current
// problem (pooled lanes, one per slot kind; policies.md §2.4 on Table 1), in
// cumulative form: F_g(τ) is the number of group g's tasks started by τ
// (integer; n_g identical maps of a job share one group, each reduce is a
// group of its own), u_t = [Z ≥ t]:
//
//	min Σ_t u_t                              Z = zlb + Σ_t u_t, t ∈ (zlb, cap]
//	F_g(τ) ≥ F_g(τ−1), F_g(τ) = 0 before est_g, = n_g from lst_g
//	Σ_g F_g(τ) − F_g(τ − e_g) ≤ c_k − busy_k(τ)     capacity; running tasks fixed
//	n_m·F_r(τ) ≤ F_m(τ − e_m)                 a reduce after all maps of its job
//	F_g(τ−1) + n_g·u_{τ+e_g} ≥ n_g            a start at τ makes Z ≥ τ + e_g
//	u_t ≥ u_{t+1}
//	F_g(d_j − tail_g − e_g) + n_g·N_j ≥ n_g   on time unless late
//	Σ_j N_j ≤ K − (jobs late in every schedule)
//
// with tail_g the job's longest unstarted reduce for a map group (0 for a
// reduce) and windows [est_g, lst_g] = [0 or the job's map end, cap − tail_g
// − e_g].
type subModel struct {
	m        *model.Model
	est, lst []int
	fs       [][]model.Var // per group: F_g(τ) for τ ∈ [est_g, lst_g)
	infea    bool          // a window is empty or too many jobs must be late
}

// cum is F_g(τ) as an expression term: a variable or a constant.
func (sm *subModel) cum(p *problem, g, tau int) (model.Var, float64, bool) {
	switch {
	case tau < sm.est[g]:
		return model.Var{}, 0, false
	case tau >= sm.lst[g]:
		return model.Var{}, float64(len(p.groups[g].tasks)), false
	}
	return sm.fs[g][tau-sm.est[g]], 0, true
}

// addCum adds coef·F_g(τ) to e.
func (sm *subModel) addCum(p *problem, e *model.Expr, g, tau int, coef float64) {
	if v, c, ok := sm.cum(p, g, tau); ok {
		e.Add(v, coef)
	} else {
		e.AddConst(coef * c)
	}
}

// constTol is the slack allowed to a row without variables (its terms are
// integer counts, so any violation is at least 1).
const constTol = 1e-9

// rowAdder adds rows to b and remembers whether a row without variables
// (every term fixed by the windows) was violated: the model is infeasible.
type rowAdder struct {
	b        *model.Builder
	violated bool
}

// row adds lo ≤ e ≤ up, moving e's constant to the bounds; a row without
// variables is checked instead of added.
func (r *rowAdder) row(e model.Expr, lo, up float64) {
	c := e.Constant
	e.Constant = 0
	if len(e.Terms) == 0 {
		if c < lo-constTol || c > up+constTol {
			r.violated = true
		}
		return
	}
	r.b.AddConstr("", e, lo-c, up-c)
}

// buildSub emits the model for at most maxLate late jobs and Z ≤ zcap.
func buildSub(p *problem, maxLate, zcap, zlb int, fixedLate []bool) *subModel {
	ng := len(p.groups)
	sm := &subModel{fs: make([][]model.Var, ng)}
	var ok bool
	sm.est, sm.lst, ok = windows(p, maxLate, zcap, fixedLate)
	if !ok {
		sm.infea = true
		return sm
	}
	fixed := countLate(p, fixedLate)
	allOnTime := fixed == maxLate // the windows end at the deadlines
	inf := math.Inf(1)
	b := model.NewBuilder(fmt.Sprintf("mrcp-online-K%d-Z%d", maxLate, zcap))
	ra := &rowAdder{b: b}
	row := func(_ *model.Builder, e model.Expr, lo, up float64) { ra.row(e, lo, up) }
	u := make([]model.Var, zcap+1)
	obj := model.Expr{}
	for t := zlb + 1; t <= zcap; t++ {
		u[t] = b.Binary("")
		obj.Add(u[t], 1)
		if t > zlb+1 {
			e := model.Expr{}
			e.Add(u[t-1], 1).Add(u[t], -1)
			row(b, e, 0, inf)
		}
	}
	b.Minimize(obj)
	for g, gr := range p.groups {
		n := float64(len(gr.tasks))
		for tau := sm.est[g]; tau < sm.lst[g]; tau++ {
			v := b.Integer("", 0, n)
			sm.fs[g] = append(sm.fs[g], v)
			if tau > sm.est[g] {
				e := model.Expr{}
				e.Add(v, 1).Add(sm.fs[g][tau-sm.est[g]-1], -1)
				row(b, e, 0, inf)
			}
		}
		// a start at τ (some task not started by τ − 1) makes Z ≥ τ + e_g
		for tau := sm.est[g]; tau <= sm.lst[g]; tau++ {
			end := tau + gr.dur
			if end <= zlb {
				continue
			}
			e := model.Expr{}
			sm.addCum(p, &e, g, tau-1, 1)
			e.Add(u[end], n)
			row(b, e, n, inf)
		}
	}
	// capacity per kind and instant
	for _, k := range []sim.Kind{sim.Map, sim.Reduce} {
		for tau := 0; tau < zcap; tau++ {
			e := model.Expr{}
			for g, gr := range p.groups {
				if gr.kind != k || tau < sm.est[g] || tau >= sm.lst[g]+gr.dur {
					continue
				}
				sm.addCum(p, &e, g, tau, 1)
				sm.addCum(p, &e, g, tau-gr.dur, -1)
			}
			row(b, e, -inf, float64(p.cap[k]-p.busy(k, tau)))
		}
	}
	// precedence: n_m·F_r(τ) ≤ F_m(τ − e_m)
	for j := range p.jobs {
		pj := &p.jobs[j]
		for _, r := range pj.redGroups {
			for _, m := range pj.mapGroups {
				nm := float64(len(p.groups[m].tasks))
				for tau := sm.est[r]; tau < sm.lst[r]; tau++ {
					e := model.Expr{}
					sm.addCum(p, &e, r, tau, nm)
					sm.addCum(p, &e, m, tau-p.groups[m].dur, -1)
					row(b, e, -inf, 0)
				}
			}
		}
	}
	// lateness
	lateRow := model.Expr{}
	for j := range p.jobs {
		pj := &p.jobs[j]
		if allOnTime || fixedLate[j] || pj.runEnd > pj.deadline || pj.deadline >= zcap {
			continue // late in every schedule, or on time by Z ≤ zcap ≤ d_j
		}
		nv := b.Binary("")
		lateRow.Add(nv, 1)
		for _, g := range append(slices.Clone(pj.mapGroups), pj.redGroups...) {
			gr := &p.groups[g]
			tail := 0
			if gr.kind == sim.Map {
				tail = pj.maxRed
			}
			n := float64(len(gr.tasks))
			e := model.Expr{}
			sm.addCum(p, &e, g, pj.deadline-tail-gr.dur, 1)
			e.Add(nv, n)
			row(b, e, n, inf)
		}
	}
	if len(lateRow.Terms) > 0 {
		row(b, lateRow, -inf, float64(maxLate-fixed))
	}
	if ra.violated {
		sm.infea = true // a row fixed by the windows alone fails
		return sm
	}
	m, err := b.Build()
	if err != nil {
		sm.infea = true // cannot happen for a well-formed problem; no plan from it
		return sm
	}
	sm.m = m
	return sm
}

// decode reads the starts of a solution: each group's tasks, in id order, to
// its start times in ascending order (F_g(τ) − F_g(τ−1) start at τ).
func (sm *subModel) decode(p *problem, x []float64) []plannedTask {
	var out []plannedTask
	for g, gr := range p.groups {
		i, prev := 0, 0
		for tau := sm.est[g]; tau <= sm.lst[g] && i < len(gr.tasks); tau++ {
			f := len(gr.tasks)
			if v, _, ok := sm.cum(p, g, tau); ok {
				f = int(math.Round(x[v.Index()]))
			}
			for ; prev < f && i < len(gr.tasks); prev++ {
				out = append(out, plannedTask{task: gr.tasks[i], kind: gr.kind, start: tau})
				i++
			}
		}
	}
	return out
}

// solveStats describes one re-solve.
type solveStats struct {
	milps, cols, rows int
	nodes             int64
	optimal           bool // the plan is proven optimal for the problem
	limitHit          bool // a MILP stopped on a limit
	wallLimitHit      bool // … on the wall-clock limit (breaks determinism)
	failed            bool // a solver call failed: fallback plan
	sizeLimitHit      bool // a MILP was too large to build: incumbent kept
	setMILPs          int  // MILPs of single late sets (K's own was too large)
	setBetter         int  // … of them that improved the plan
}

// countLate is the number of jobs of fixedLate or late in every schedule
// (their running tasks end past the deadline).
func countLate(p *problem, fixedLate []bool) int {
	n := 0
	for j := range p.jobs {
		if fixedLate[j] || p.jobs[j].runEnd > p.jobs[j].deadline {
			n++
		}
	}
	return n
}

// windows returns each group's start window [est_g, lst_g] in
// buildSub(p, maxLate, zcap, ·, fixedLate): [0 or the job's earliest map
// end, zcap − tail_g − e_g], and when every job outside fixedLate must be on
// time (maxLate = their count) lst_g ≤ d_j − tail_g − e_g for the jobs with
// d_j < zcap (all the group's tasks started by then: the lateness row with
// N_j = 0). ok is false when a window is empty or too many jobs are late.
func windows(p *problem, maxLate, zcap int, fixedLate []bool) (est, lst []int, ok bool) {
	fixed := countLate(p, fixedLate)
	if fixed > maxLate {
		return nil, nil, false
	}
	est, lst = make([]int, len(p.groups)), make([]int, len(p.groups))
	for g, gr := range p.groups {
		pj := &p.jobs[gr.job]
		tail := 0
		if gr.kind == sim.Map {
			tail = pj.maxRed
		} else {
			est[g] = p.redEST(gr.job)
		}
		lst[g] = zcap - gr.dur - tail
		if fixed == maxLate && !fixedLate[gr.job] && pj.runEnd <= pj.deadline && pj.deadline < zcap {
			lst[g] = min(lst[g], pj.deadline-tail-gr.dur)
		}
		if lst[g] < est[g] {
			return nil, nil, false
		}
	}
	return est, lst, true
}

// subSize is about the columns of buildSub(p, maxLate, zcap, ·, fixedLate):
// the start windows plus the makespan indicators (0 when it is infeasible
// by its windows).
func subSize(p *problem, maxLate, zcap int, fixedLate []bool) int {
	est, lst, ok := windows(p, maxLate, zcap, fixedLate)
	if !ok {
		return 0
	}
	n := zcap
	for g := range est {
		n += lst[g] - est[g]
	}
	return n
}

// maxSetMILPs is the most late sets whose MILPs solveProblem solves one by
// one when the late count's own MILP is over the size limit.
const maxSetMILPs = 4

// solveProblem returns a plan for p: the best greedy schedule (starting
// from prev, the previous plan's job order), then for each late count K
// from the proven minimum, the MILP with Z ≤ ⌊(U − 1)/(K + 1)⌋ for the
// incumbent value U, until no cap reaches the lower bound on Z. A K whose
// late sets all fail the relaxation needs no MILP; when K's MILP is over
// maxCols and at most maxSetMILPs late sets pass, each set gets its own
// MILP (its other jobs on time: windows end at their deadlines). With
// setsFirst (for tests) every late count with more late jobs allowed than
// fixed and at most maxSetMILPs passing sets takes the per-set MILPs.
func solveProblem(ctx context.Context, p *problem, prev []int, opt solve.Options, maxCols int, setsFirst bool) (*schedule, []int, solveStats) {
	var st solveStats
	best, order := heuristic(p, prev)
	if best == nil {
		st.failed = true
		return nil, nil, st
	}
	zlb, fixedLate := p.lowerBounds()
	kmin := p.lateLowerBound(fixedLate)
	st.optimal = true
	// milp solves one subproblem and keeps a better plan; false when the
	// solve stopped the re-solve (a failed call).
	milp := func(k, zcap int, late []bool) bool {
		sm := buildSub(p, k, zcap, zlb, late)
		if sm.infea {
			return true
		}
		st.milps++
		st.cols += sm.m.NumCols()
		st.rows += sm.m.NumRows()
		res, err := solve.Solve(ctx, sm.m, opt)
		if err != nil {
			st.failed, st.optimal = true, false
			return false
		}
		st.nodes += res.Nodes
		switch {
		case res.Status == solve.Infeasible:
			return true
		case res.Status == solve.Optimal:
		case res.Status.IsLimit():
			st.optimal, st.limitHit = false, true
			st.wallLimitHit = st.wallLimitHit || res.Status == solve.TimeLimit || res.Status == solve.Interrupted
		default:
			st.optimal = false
			return true
		}
		if !res.HasSolution {
			return true
		}
		tasks := sm.decode(p, res.X)
		placeStarts(p, tasks)
		cand := scoreTasks(p, tasks)
		if verifyPlan(p, cand) == nil && cand.value() < best.value() {
			best = cand
			order = jobOrder(p, cand)
		}
		return true
	}
	cap := func(k int) int { return (best.value() - 1) / (k + 1) }
	for k := kmin; k < len(p.jobs)+1; k++ {
		zcap := cap(k)
		if zcap < zlb || best.value() <= (kmin+1)*zlb {
			break
		}
		if ctx.Err() != nil {
			st.optimal, st.limitHit, st.wallLimitHit = false, true, true
			break
		}
		sets, decided := p.passingLateSets(fixedLate, k, zcap, maxSetMILPs)
		if decided && len(sets) == 0 {
			continue // no late set of size k passes the relaxation at this cap
		}
		bySets := setsFirst && decided && len(sets) <= maxSetMILPs && k > countLate(p, fixedLate)
		if !bySets && (maxCols <= 0 || subSize(p, k, zcap, fixedLate) <= maxCols) {
			if !milp(k, zcap, fixedLate) {
				break
			}
			continue
		}
		if !decided || len(sets) > maxSetMILPs {
			st.optimal, st.sizeLimitHit = false, true
			break
		}
		// one MILP per passing late set: late jobs within fixedLate ∪ set
		tooBig := false
		for _, set := range sets {
			late := slices.Clone(fixedLate)
			for _, j := range set {
				late[j] = true
			}
			zcap = cap(k)
			if zcap < zlb {
				break
			}
			if maxCols > 0 && subSize(p, k, zcap, late) > maxCols {
				tooBig = true
				break
			}
			st.setMILPs++
			before := best.value()
			if !milp(k, zcap, late) {
				return best, order, st
			}
			if best.value() < before {
				st.setBetter++
			}
		}
		if tooBig {
			st.optimal, st.sizeLimitHit = false, true
			break
		}
	}
	return best, order, st
}

// scoreTasks makes a schedule of planned tasks and scores it.
func scoreTasks(p *problem, tasks []plannedTask) *schedule {
	s := &schedule{tasks: tasks}
	ends := make([]int, len(p.jobs))
	for _, t := range tasks {
		j := p.jobOfTask[t.task]
		ends[j] = max(ends[j], t.start+p.dur[t.task])
	}
	s.score(p, ends)
	return s
}

// jobOrder is the jobs of a plan by their first planned start (then index):
// the previous order handed to the next solve's heuristic.
func jobOrder(p *problem, s *schedule) []int {
	first := make([]int, len(p.jobs))
	for j := range first {
		first[j] = math.MaxInt
	}
	for _, t := range s.tasks {
		j := p.jobOfTask[t.task]
		first[j] = min(first[j], t.start)
	}
	o := make([]int, len(p.jobs))
	for j := range o {
		o[j] = j
	}
	slices.SortStableFunc(o, func(a, b int) int {
		if first[a] != first[b] {
			if first[a] < first[b] {
				return -1
			}
			return 1
		}
		return a - b
	})
	return o
}

// verifyPlan checks a plan against the problem alone: every unstarted task
// planned once at a start ≥ 0 on a node with a slot of its kind; reduces
// after every map of their job (running ones included); at no instant more
// tasks of a kind on a node than its slots, running tasks counted.
func verifyPlan(p *problem, s *schedule) error {
	seen := map[sim.TaskID]bool{}
	mapEnd := make([]int, len(p.jobs))
	for j := range p.jobs {
		mapEnd[j] = p.jobs[j].runMapEnd
	}
	for _, t := range s.tasks {
		if seen[t.task] {
			return fmt.Errorf("task %d planned twice", t.task)
		}
		seen[t.task] = true
		if t.start < 0 || t.node < 0 || t.node >= len(p.slots[t.kind]) || p.slots[t.kind][t.node] == 0 {
			return fmt.Errorf("task %d: start %d on node %d", t.task, t.start, t.node)
		}
		if t.kind == sim.Map {
			j := p.jobOfTask[t.task]
			mapEnd[j] = max(mapEnd[j], t.start+p.dur[t.task])
		}
	}
	for _, g := range p.groups {
		for _, id := range g.tasks {
			if !seen[id] {
				return fmt.Errorf("task %d not planned", id)
			}
		}
	}
	type ev struct{ at, delta, node int }
	var evs [3][]ev
	for _, r := range p.run {
		evs[r.kind] = append(evs[r.kind], ev{0, 1, r.node}, ev{r.end, -1, r.node})
	}
	for _, t := range s.tasks {
		if t.kind == sim.Reduce && t.start < mapEnd[p.jobOfTask[t.task]] {
			return fmt.Errorf("reduce %d starts at %d before its job's maps end at %d", t.task, t.start, mapEnd[p.jobOfTask[t.task]])
		}
		evs[t.kind] = append(evs[t.kind], ev{t.start, 1, t.node}, ev{t.start + p.dur[t.task], -1, t.node})
	}
	for k, list := range evs {
		slices.SortFunc(list, func(a, b ev) int {
			if a.at != b.at {
				return a.at - b.at
			}
			return a.delta - b.delta // ends before starts
		})
		use := map[int]int{}
		for _, e := range list {
			use[e.node] += e.delta
			if use[e.node] > p.slots[k][e.node] {
				return fmt.Errorf("%s slots of node %d over capacity at %d", sim.Kind(k), e.node, e.at)
			}
		}
	}
	return nil
}
