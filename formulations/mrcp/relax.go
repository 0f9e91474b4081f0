package mrcp

import (
	"slices"
	"sort"

	"github.com/mrbound/mrbound/instances/mrcpscenario"
)

// relaxation is the preemptive relaxation of MRCP on pooled slots, used by
// the decomposition to bound and prune before any MILP. Given a completion
// deadline D_j for every job, it is infeasible only when no schedule (with
// C_j ≤ D_j for every j) exists:
//
//	maps of j run in [s_j, D_j − longest reduce of j]
//	reduces of j run in [s_j + P_j, D_j]          P_j = mapPhaseBound
//
// and on each slot kind the tasks, allowed to be interrupted and moved
// between slots but never run at more than their demand q_t at once, must
// receive q_t·e_t slot-units inside their windows without exceeding the
// total capacity at any instant. That is a transportation problem (tasks to
// the elementary intervals between window ends), decided by one max-flow.
// Identical tasks of a job (same kind, duration, demand, window) form one
// group of n tasks: energy n·q·e, rate at most min(n·q, capacity). Before the
// flow each group's window must hold its tasks without preemption:
// ⌈n / ⌊cap/q⌋⌉·e (at most ⌊cap/q⌋ of them run at once).
type relaxation struct {
	in     *mrcpscenario.Instance
	groups [3][]relaxGroup // per kind
	cap    [3]int
	maxRed []int // longest reduce per job
	phase  []int // P_j
	flow   maxFlow
	en     energetic
	ets    []eTask
	packs  [3]*packTable // per kind, with unit demands only
	// stop (nil: never) makes the bounds below stop early with what they
	// have proven (a weaker bound, never a stronger one) and the searches
	// that take rx stop as at their budgets.
	stop *stopper
}

// relaxGroup is n identical tasks of one job and kind.
type relaxGroup struct {
	job, n, dur, q int
}

func newRelaxation(in *mrcpscenario.Instance) *relaxation {
	rx := &relaxation{in: in, maxRed: make([]int, len(in.Jobs)), phase: make([]int, len(in.Jobs))}
	rx.cap[mrcpscenario.Map], rx.cap[mrcpscenario.Reduce] = slotTotals(in)
	for j, job := range in.Jobs {
		for _, k := range []mrcpscenario.TaskKind{mrcpscenario.Map, mrcpscenario.Reduce} {
			ts := job.Maps
			if k == mrcpscenario.Reduce {
				ts = job.Reduces
			}
			var gs []relaxGroup
		next:
			for _, t := range ts {
				for i := range gs {
					if gs[i].dur == t.Duration && gs[i].q == t.Demand {
						gs[i].n++
						continue next
					}
				}
				gs = append(gs, relaxGroup{job: j, n: 1, dur: t.Duration, q: t.Demand})
			}
			rx.groups[k] = append(rx.groups[k], gs...)
		}
		for _, r := range job.Reduces {
			rx.maxRed[j] = max(rx.maxRed[j], r.Duration)
		}
		rx.phase[j] = mapPhaseBound(in, job)
	}
	if unitDemands(in) {
		rx.packs[mrcpscenario.Map], rx.packs[mrcpscenario.Reduce] = kindPacks(in)
	}
	return rx
}

// window returns the interval [lo, hi) in which the tasks of group g of kind
// k must run when job g.job completes by d.
func (rx *relaxation) window(k mrcpscenario.TaskKind, g relaxGroup, d int) (lo, hi int) {
	s := rx.in.Jobs[g.job].Release
	if k == mrcpscenario.Map {
		return s, d - rx.maxRed[g.job]
	}
	return s + rx.phase[g.job], d
}

// feasible reports whether the relaxation admits completions C_j ≤ d[j].
func (rx *relaxation) feasible(d []int) bool {
	for _, k := range []mrcpscenario.TaskKind{mrcpscenario.Map, mrcpscenario.Reduce} {
		if !rx.kindFeasible(k, d) {
			return false
		}
	}
	return true
}

func (rx *relaxation) kindFeasible(k mrcpscenario.TaskKind, d []int) bool {
	if !rx.groupsFit(k, d) {
		return false
	}
	if need, got := rx.kindFlow(k, d); got != need {
		return false
	}
	if !energeticChecks {
		return true
	}
	gs := rx.groups[k]
	ets := rx.ets[:0]
	for _, g := range gs {
		lo, hi := rx.window(k, g, d[g.job])
		ets = append(ets, eTask{n: g.n, p: g.dur, q: g.q, r: lo, d: hi})
	}
	rx.ets = ets
	rx.en.pack = rx.packs[k]
	return rx.en.feasible(ets, rx.cap[k], nil, true)
}

// groupsFit reports whether every group of kind k fits its window without
// preemption: ⌈n / ⌊cap/q⌋⌉·e (at most ⌊cap/q⌋ of its tasks run at once).
func (rx *relaxation) groupsFit(k mrcpscenario.TaskKind, d []int) bool {
	for _, g := range rx.groups[k] {
		if !rx.groupFits(k, g, d[g.job]) {
			return false
		}
	}
	return true
}

func (rx *relaxation) groupFits(k mrcpscenario.TaskKind, g relaxGroup, d int) bool {
	lo, hi := rx.window(k, g, d)
	par := rx.cap[k] / g.q // tasks of g that fit at once
	return par > 0 && hi-lo >= ceilDiv(g.n, par)*g.dur
}

// kindFlow returns the work of kind k (slot-units) and the most of it the
// preemptive transportation problem can place within the windows of d
// (windows assumed non-empty, as groupsFit checks).
func (rx *relaxation) kindFlow(k mrcpscenario.TaskKind, d []int) (need, got int) {
	gs := rx.groups[k]
	c := rx.cap[k]
	var pts []int
	for _, g := range gs {
		lo, hi := rx.window(k, g, d[g.job])
		pts = append(pts, lo, hi)
		need += g.n * g.q * g.dur
	}
	pts = sortedUnique(pts)
	// Nodes: 0 source, 1 sink, 2.. groups, then intervals.
	f := &rx.flow
	f.reset(2 + len(gs) + len(pts) - 1)
	iv := 2 + len(gs)
	for i := 0; i+1 < len(pts); i++ {
		f.edge(iv+i, 1, c*(pts[i+1]-pts[i]))
	}
	for gi, g := range gs {
		lo, hi := rx.window(k, g, d[g.job])
		f.edge(0, 2+gi, g.n*g.q*g.dur)
		rate := min(g.n*g.q, c)
		i := searchInts(pts, lo)
		for ; i+1 < len(pts) && pts[i] < hi; i++ {
			f.edge(2+gi, iv+i, rate*(pts[i+1]-pts[i]))
		}
	}
	return need, f.run(0, 1)
}

// energeticChecks turns on the non-preemptive energetic check (energetic.go)
// after every preemptive relaxation that passes (a switch for measuring it).
var energeticChecks = true

// sortedUnique sorts a and drops repeats (insertion sort: a is short).
func sortedUnique(a []int) []int {
	for i := 1; i < len(a); i++ {
		for k := i; k > 0 && a[k] < a[k-1]; k-- {
			a[k], a[k-1] = a[k-1], a[k]
		}
	}
	out := a[:0]
	for i, v := range a {
		if i == 0 || v != out[len(out)-1] {
			out = append(out, v)
		}
	}
	return out
}

// searchInts is the index of v in the sorted a (or where it would go).
func searchInts(a []int, v int) int {
	lo, hi := 0, len(a)
	for lo < hi {
		m := (lo + hi) / 2
		if a[m] < v {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// maxFlow is Dinic's algorithm on a small graph, reused between calls.
type maxFlow struct {
	head  []int
	to    []int
	capa  []int
	next  []int
	level []int
	iter  []int
	queue []int
}

func (f *maxFlow) reset(n int) {
	f.head = f.head[:0]
	for i := 0; i < n; i++ {
		f.head = append(f.head, -1)
	}
	f.to, f.capa, f.next = f.to[:0], f.capa[:0], f.next[:0]
}

func (f *maxFlow) edge(u, v, c int) {
	f.to = append(f.to, v, u)
	f.capa = append(f.capa, c, 0)
	f.next = append(f.next, f.head[u], f.head[v])
	f.head[u] = len(f.to) - 2
	f.head[v] = len(f.to) - 1
}

func (f *maxFlow) run(s, t int) int {
	n := len(f.head)
	total := 0
	for {
		f.level = f.level[:0]
		for i := 0; i < n; i++ {
			f.level = append(f.level, -1)
		}
		f.level[s] = 0
		f.queue = append(f.queue[:0], s)
		for qi := 0; qi < len(f.queue); qi++ {
			u := f.queue[qi]
			for e := f.head[u]; e >= 0; e = f.next[e] {
				if f.capa[e] > 0 && f.level[f.to[e]] < 0 {
					f.level[f.to[e]] = f.level[u] + 1
					f.queue = append(f.queue, f.to[e])
				}
			}
		}
		if f.level[t] < 0 {
			return total
		}
		f.iter = append(f.iter[:0], f.head...)
		for {
			p := f.augment(s, t, int(^uint(0)>>1))
			if p == 0 {
				break
			}
			total += p
		}
	}
}

func (f *maxFlow) augment(u, t, limit int) int {
	if u == t {
		return limit
	}
	for ; f.iter[u] >= 0; f.iter[u] = f.next[f.iter[u]] {
		e := f.iter[u]
		v := f.to[e]
		if f.capa[e] > 0 && f.level[v] == f.level[u]+1 {
			if p := f.augment(v, t, min(limit, f.capa[e])); p > 0 {
				f.capa[e] -= p
				f.capa[e^1] += p
				return p
			}
		}
	}
	return 0
}

// minTurnaround is the least z ≥ lo for which the relaxation admits
// C_j ≤ s_j + z for every j (no deadlines: every job may be late), a lower
// bound on the maximum turnaround of every schedule. Feasibility is monotone
// in z (windows only grow), so a doubling then bisection search finds it.
// A stop counts every z left as feasible: the result is then one more than
// the largest z proven infeasible (or lo), weaker but valid.
func (rx *relaxation) minTurnaround(lo int) int {
	d := make([]int, len(rx.in.Jobs))
	ok := func(z int) bool {
		if rx.stop.tick() {
			return true
		}
		for j, job := range rx.in.Jobs {
			d[j] = job.Release + z
		}
		return rx.feasible(d)
	}
	if ok(lo) {
		return lo
	}
	hi := max(lo, 1)
	for !ok(hi) {
		if hi > 1<<40 {
			return hi // cannot happen: large windows always fit
		}
		lo, hi = hi, 2*hi // lo stays infeasible
	}
	for hi-lo > 1 {
		m := (lo + hi) / 2
		if ok(m) {
			hi = m
		} else {
			lo = m
		}
	}
	return hi
}

// lateLowerBound is a lower bound on the number of late jobs of every
// schedule with maximum turnaround at most z; r is R_z (capDeadlines), the
// jobs that can be late at all. A job whose groups do not fit their on-time
// windows even alone (groupsFit) is late in every such schedule. With those
// late and every other job on time (D_j = d_j), let δ_k be the work of kind
// k the preemptive flow cannot place. A schedule with late set A ⊇ those
// gives a full flow for A's deadlines; removing what each job j ∈ A runs
// outside its on-time window (at most γ_kj: per group, the least of its work
// and its rate times the length its window gains) leaves a flow for the
// on-time deadlines, so Σ_{j∈A} γ_kj ≥ δ_k. The least number of jobs whose
// largest γ_kj reach δ_k, for the stronger kind, bounds |A| beyond the
// forced ones. Nonincreasing in z (windows and gains only grow, R_z too).
func (rx *relaxation) lateLowerBound(z int, r []int) int {
	in := rx.in
	d := make([]int, len(in.Jobs))
	for j, job := range in.Jobs {
		d[j] = job.Release + z
	}
	forced := 0
	free := make([]bool, len(in.Jobs)) // may be late, not forced
	for _, j := range r {
		d[j] = in.Jobs[j].Deadline
		ok := true
		for _, k := range []mrcpscenario.TaskKind{mrcpscenario.Map, mrcpscenario.Reduce} {
			for _, g := range rx.groups[k] {
				if g.job == j && !rx.groupFits(k, g, d[j]) {
					ok = false
				}
			}
		}
		if !ok {
			d[j] = in.Jobs[j].Release + z
			forced++
		} else {
			free[j] = true
		}
	}
	most := 0
	gain := make([]int, len(in.Jobs))
	for _, k := range []mrcpscenario.TaskKind{mrcpscenario.Map, mrcpscenario.Reduce} {
		need, got := rx.kindFlow(k, d)
		deficit := need - got
		if deficit <= 0 {
			continue
		}
		clear(gain)
		c := rx.cap[k]
		for _, g := range rx.groups[k] {
			if !free[g.job] {
				continue
			}
			lo, hiOn := rx.window(k, g, d[g.job])
			_, hiLate := rx.window(k, g, in.Jobs[g.job].Release+z)
			extra := hiLate - max(hiOn, lo)
			if extra > 0 {
				gain[g.job] += min(g.n*g.q*g.dur, min(g.n*g.q, c)*extra)
			}
		}
		gs := append([]int(nil), gain...)
		slices.Sort(gs)
		n := 0
		for i := len(gs) - 1; i >= 0 && deficit > 0; i-- {
			deficit -= gs[i]
			n++
		}
		if deficit > 0 {
			return len(in.Jobs) + 1 // no late set covers it: no schedule at z
		}
		most = max(most, n)
	}
	return forced + most
}

// lateSetBudget bounds the nodes of one lateSetPasses call; past it the
// answer is "passes" (weaker, still valid).
const lateSetBudget = 20000

// lateSetPasses reports whether some late set L ⊆ r (r = R_z), |L| ≤ k,
// passes the relaxation at cap z (completion deadlines s_j + z for j ∈ L
// or j ∉ r, d_j for the rest), or the search for one ran out of budget. A
// branch and bound over the jobs of r (late or on time), pruned by the
// argument of lateLowerBound on the jobs still undecided: with the late
// ones so far late and every other job on time, each kind's unplaced work
// must be covered by the gains of at most k − |late so far| undecided jobs.
// A stop answers "passes", as the budget does.
func (rx *relaxation) lateSetPasses(z int, r []int, k int) bool {
	in := rx.in
	d := make([]int, len(in.Jobs))
	for j, job := range in.Jobs {
		d[j] = job.Release + z
	}
	for _, j := range r {
		d[j] = in.Jobs[j].Deadline
	}
	order := append([]int(nil), r...)
	work := func(j int) int {
		w := 0
		for _, t := range in.Jobs[j].Maps {
			w += t.Duration * t.Demand
		}
		for _, t := range in.Jobs[j].Reduces {
			w += t.Duration * t.Demand
		}
		return w
	}
	sort.SliceStable(order, func(a, b int) bool { return work(order[a]) > work(order[b]) })
	undecided := make([]bool, len(in.Jobs))
	for _, j := range order {
		undecided[j] = true
	}
	gain := make([]int, len(in.Jobs))
	budget := lateSetBudget
	var rec func(i, left int) bool
	rec = func(i, left int) bool {
		budget--
		if budget < 0 || rx.stop.tick() {
			return true
		}
		if left == 0 || i == len(order) {
			return rx.feasible(d)
		}
		if !rx.coverable(z, d, undecided, left, gain) {
			return false
		}
		j := order[i]
		undecided[j] = false
		defer func() { undecided[j] = true }()
		d[j] = in.Jobs[j].Release + z
		if rec(i+1, left-1) {
			return true
		}
		d[j] = in.Jobs[j].Deadline
		return rec(i+1, left)
	}
	return rec(0, k)
}

// coverable is the pruning of lateSetPasses: false when no choice of at
// most left jobs among the undecided ones (now on time in d) to make late
// can let the relaxation place all the work. A job decided on time must fit
// its window (groupsFit); an undecided one that does not must be late; each
// kind's work the flow cannot place must be covered by the gains (see
// lateLowerBound) of the jobs made late.
func (rx *relaxation) coverable(z int, d []int, undecided []bool, left int, gain []int) bool {
	in := rx.in
	forced := 0
	clear(gain)
	for _, k := range []mrcpscenario.TaskKind{mrcpscenario.Map, mrcpscenario.Reduce} {
		for _, g := range rx.groups[k] {
			if !rx.groupFits(k, g, d[g.job]) {
				if !undecided[g.job] {
					return false
				}
				gain[g.job] = -1 // marks a forced job
			}
		}
	}
	dd := d
	for j := range gain {
		if gain[j] < 0 {
			if forced == 0 {
				dd = append([]int(nil), d...)
			}
			dd[j] = in.Jobs[j].Release + z
			forced++
		}
	}
	if forced > left {
		return false
	}
	for _, k := range []mrcpscenario.TaskKind{mrcpscenario.Map, mrcpscenario.Reduce} {
		need, got := rx.kindFlow(k, dd)
		deficit := need - got
		if deficit <= 0 {
			continue
		}
		gs := make([]int, len(in.Jobs))
		for _, g := range rx.groups[k] {
			if !undecided[g.job] || gain[g.job] < 0 {
				continue
			}
			lo, hiOn := rx.window(k, g, d[g.job])
			_, hiLate := rx.window(k, g, in.Jobs[g.job].Release+z)
			if extra := hiLate - max(hiOn, lo); extra > 0 {
				gs[g.job] += min(g.n*g.q*g.dur, min(g.n*g.q, rx.cap[k])*extra)
			}
		}
		slices.Sort(gs)
		for i := len(gs) - 1; i >= len(gs)-(left-forced) && i >= 0; i-- {
			deficit -= gs[i]
		}
		if deficit > 0 {
			return false
		}
	}
	return true
}
