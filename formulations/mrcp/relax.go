package mrcp

import (
	inst "github.com/mrbound/mrbound/instances/mrcp"
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
	in     *inst.Instance
	groups [3][]relaxGroup // per kind
	cap    [3]int
	maxRed []int // longest reduce per job
	phase  []int // P_j
	flow   maxFlow
	en     energetic
	ets    []eTask
	packs  [3]*packTable // per kind, with unit demands only
}

// relaxGroup is n identical tasks of one job and kind.
type relaxGroup struct {
	job, n, dur, q int
}

func newRelaxation(in *inst.Instance) *relaxation {
	rx := &relaxation{in: in, maxRed: make([]int, len(in.Jobs)), phase: make([]int, len(in.Jobs))}
	rx.cap[inst.Map], rx.cap[inst.Reduce] = slotTotals(in)
	for j, job := range in.Jobs {
		for _, k := range []inst.TaskKind{inst.Map, inst.Reduce} {
			ts := job.Maps
			if k == inst.Reduce {
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
		rx.packs[inst.Map], rx.packs[inst.Reduce] = kindPacks(in)
	}
	return rx
}

// window returns the interval [lo, hi) in which the tasks of group g of kind
// k must run when job g.job completes by d.
func (rx *relaxation) window(k inst.TaskKind, g relaxGroup, d int) (lo, hi int) {
	s := rx.in.Jobs[g.job].Release
	if k == inst.Map {
		return s, d - rx.maxRed[g.job]
	}
	return s + rx.phase[g.job], d
}

// feasible reports whether the relaxation admits completions C_j ≤ d[j].
func (rx *relaxation) feasible(d []int) bool {
	for _, k := range []inst.TaskKind{inst.Map, inst.Reduce} {
		if !rx.kindFeasible(k, d) {
			return false
		}
	}
	return true
}

func (rx *relaxation) kindFeasible(k inst.TaskKind, d []int) bool {
	gs := rx.groups[k]
	c := rx.cap[k]
	var pts []int
	need := 0
	for _, g := range gs {
		lo, hi := rx.window(k, g, d[g.job])
		par := c / g.q // tasks of g that fit at once
		if par == 0 || hi-lo < ceilDiv(g.n, par)*g.dur {
			return false
		}
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
	if f.run(0, 1) != need {
		return false
	}
	if !energeticChecks {
		return true
	}
	ets := rx.ets[:0]
	for _, g := range gs {
		lo, hi := rx.window(k, g, d[g.job])
		ets = append(ets, eTask{n: g.n, p: g.dur, q: g.q, r: lo, d: hi})
	}
	rx.ets = ets
	rx.en.pack = rx.packs[k]
	return rx.en.feasible(ets, c, nil, true)
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
func (rx *relaxation) minTurnaround(lo int) int {
	d := make([]int, len(rx.in.Jobs))
	ok := func(z int) bool {
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
