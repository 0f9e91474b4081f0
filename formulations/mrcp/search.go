package mrcp

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"sort"

	"github.com/mrbound/mrbound/instances/mrcpscenario"
)

// searchResult is what a deadline search learned.
type searchResult int8

const (
	// searchInfeasible: no schedule meets the deadlines (proven).
	searchInfeasible searchResult = iota
	// searchFound: a schedule meeting the deadlines was found.
	searchFound
	// searchAborted: the node budget ran out first.
	searchAborted
)

// sgroup is n identical unit-demand tasks of one job and kind: same
// duration, the same earliest start rel and latest end dl.
type sgroup struct {
	job     int
	idx     []int // task indices in the job's Maps or Reduces
	dur     int
	rel, dl int
}

// deadlineSearch decides whether every job j can complete by d[j], by
// depth-first search over the active schedules of the pooled slots (unit
// demands only: then pooled capacity is exactly the per-resource slots, see
// the time-indexed model). Maps are scheduled first; at each leaf the maps'
// ends give the reduces' releases and a second search of the same kind
// places the reduces.
//
// Completeness: the deadline question is min L_max ≤ 0, a regular
// objective, so some feasible schedule (if any) is active. The search
// generates active schedules as Giffler and Thompson do on identical
// parallel slots: take the slot free first, at F; let E be the earliest end
// of any unscheduled task started there, min_g max(F, rel_g) + e_g; branch on
// every group whose task could start there before E. Prunings, each removing
// only subtrees without a feasible leaf: (i) a group whose remaining tasks
// cannot end by its deadline even alone (⌈left/slots⌉·e after
// max(F, rel)); (ii) the preemptive relaxation of the remaining tasks on the
// slot profile (slot i free from its free time; no later decision starts
// before F); (iii) two consecutive decisions starting at the same instant
// t, in decreasing group order, when the other order gives the same state
// (the first group could also have started at t); (iv) states already
// proven to fail (remaining counts, slot free times, map ends so far and the
// last decision).
type deadlineSearch struct {
	in     *mrcpscenario.Instance
	budget int
	nodes  int
	flow   maxFlow
	pts    []int
	key    []byte
	ends   []int
	rng    *rand.Rand
	en     energetic
	ets    []eTask
	fr     []int
	// stop ends the search as its budget does (searchAborted) when the
	// caller's context or time limit says so; nil: never.
	stop *stopper
}

// kindSearch is the search over one slot kind.
type kindSearch struct {
	ds     *deadlineSearch
	slots  int
	gs     []sgroup
	left   []int
	free   []int // sorted ascending
	starts [][]int
	// the previous decision: start, group and the free time of its slot
	lastT, lastG, lastF int
	// memo holds the failed states by remaining counts and previous
	// decision: their slot free times and job ends (see stateKey).
	memo map[string][][]int32
	vec  []int32
	// jobEnd is the latest end so far of each job's tasks of this kind.
	jobEnd []int
	leaf   func(ks *kindSearch) searchResult
	// prio orders the branches (smallest first): the deadline, plus noise
	// in a seeded search.
	prio []int
	// pack is the packing table of the kind's durations (energetic.go).
	pack *packTable
}

// unitDemands reports whether every task of in has demand 1.
func unitDemands(in *mrcpscenario.Instance) bool {
	for _, j := range in.Jobs {
		for _, t := range j.Maps {
			if t.Demand != 1 {
				return false
			}
		}
		for _, t := range j.Reduces {
			if t.Demand != 1 {
				return false
			}
		}
	}
	return true
}

// groupsOf returns the groups of identical tasks (same duration) of each job
// for kind k, with releases and deadlines left zero.
func groupsOf(in *mrcpscenario.Instance, k mrcpscenario.TaskKind) []sgroup {
	var out []sgroup
	for j, job := range in.Jobs {
		ts := job.Maps
		if k == mrcpscenario.Reduce {
			ts = job.Reduces
		}
		first := len(out)
	next:
		for i, t := range ts {
			for g := first; g < len(out); g++ {
				if out[g].dur == t.Duration {
					out[g].idx = append(out[g].idx, i)
					continue next
				}
			}
			out = append(out, sgroup{job: j, idx: []int{i}, dur: t.Duration})
		}
	}
	return out
}

// searchDeadlines looks for a schedule of in (unit demands) in which every
// job j completes by d[j], within budget search nodes (maps and reduces
// together). It returns the schedule when found.
func searchDeadlines(in *mrcpscenario.Instance, d []int, budget int) (*Schedule, searchResult, int) {
	return searchDeadlinesSeeded(in, d, budget, 0)
}

// prioSpread is the range of the random term a seeded search adds to each
// group's deadline when ordering the branches (time units).
const prioSpread = 40

// searchDeadlinesSeeded is searchDeadlines with the branches ordered by
// deadline plus a random term drawn from seed (none for seed 0): the same
// tree in another order, for restarts when only a schedule is sought.
func searchDeadlinesSeeded(in *mrcpscenario.Instance, d []int, budget int, seed uint64) (*Schedule, searchResult, int) {
	return searchDeadlinesDir(in, d, budget, seed, false, nil)
}

// searchDeadlinesDir is searchDeadlinesSeeded in either direction of time.
// Reversed, it is the same search on the mirror image of the instance
// (time t ↦ −t): completion deadlines become releases and releases become
// deadlines, reduces come first and a job's maps are released when its
// reduces (mirrored) end. A schedule of the mirror is a schedule of the
// instance with each task's interval mirrored, so the two searches decide
// the same question; the mirror places first what the instance places last,
// which settles instances whose tight part is at the end of the horizon.
// A stop (may be nil) ends it as the budget does.
func searchDeadlinesDir(in *mrcpscenario.Instance, d []int, budget int, seed uint64, reversed bool, stop *stopper) (*Schedule, searchResult, int) {
	ds := &deadlineSearch{in: in, budget: budget, stop: stop}
	if seed != 0 {
		ds.rng = rand.New(rand.NewPCG(seed, 0x6d726370))
	}
	mapCap, redCap := slotTotals(in)
	maxRed := make([]int, len(in.Jobs))
	for j, job := range in.Jobs {
		for _, r := range job.Reduces {
			maxRed[j] = max(maxRed[j], r.Duration)
		}
	}
	mpack, rpack := kindPacks(in)
	firstKind, secondKind := mrcpscenario.Map, mrcpscenario.Reduce
	firstCap, secondCap := mapCap, redCap
	firstPack, secondPack := mpack, rpack
	// start[j] is where job j's first-kind tasks may start: the release, or
	// mirrored the completion deadline.
	start := make([]int, len(in.Jobs))
	fg := groupsOf(in, mrcpscenario.Map)
	if reversed {
		firstKind, secondKind = mrcpscenario.Reduce, mrcpscenario.Map
		firstCap, secondCap = redCap, mapCap
		firstPack, secondPack = rpack, mpack
		fg = groupsOf(in, mrcpscenario.Reduce)
		for j := range in.Jobs {
			start[j] = -d[j]
		}
		for g := range fg {
			// A reduce starts after the job's map phase, so its mirror ends
			// by −(s_j + P_j).
			fg[g].rel = -d[fg[g].job]
			fg[g].dl = -(in.Jobs[fg[g].job].Release + mapPhaseBound(in, in.Jobs[fg[g].job]))
		}
	} else {
		for j, job := range in.Jobs {
			start[j] = job.Release
		}
		for g := range fg {
			fg[g].rel = in.Jobs[fg[g].job].Release
			fg[g].dl = d[fg[g].job] - maxRed[fg[g].job]
		}
	}
	var found *Schedule
	first := ds.newKind(firstCap, fg, start)
	first.pack = firstPack
	first.leaf = func(fs *kindSearch) searchResult {
		sg := groupsOf(in, secondKind)
		for g := range sg {
			sg[g].rel = fs.jobEnd[sg[g].job]
			sg[g].dl = d[sg[g].job]
			if reversed {
				sg[g].dl = -in.Jobs[sg[g].job].Release
			}
		}
		second := ds.newKind(secondCap, sg, fs.jobEnd)
		second.pack = secondPack
		second.leaf = func(ss *kindSearch) searchResult {
			var tasks []Assignment
			for _, ks := range []*kindSearch{fs, ss} {
				kind := firstKind
				if ks == ss {
					kind = secondKind
				}
				for g, gr := range ks.gs {
					st := append([]int(nil), ks.starts[g]...)
					if reversed {
						for i := range st {
							st[i] = -st[i] - gr.dur
						}
					}
					sort.Ints(st)
					for i, x := range gr.idx {
						tasks = append(tasks, Assignment{Task: mrcpscenario.TaskRef{Job: gr.job, Kind: kind, Index: x}, Start: st[i]})
					}
				}
			}
			s := newSchedule(in, tasks)
			if colour(in, s) != nil {
				return searchInfeasible // cannot happen: the pooled load fits
			}
			found = s
			return searchFound
		}
		return second.dfs()
	}
	r := first.dfs()
	return found, r, ds.nodes
}

// newKind starts the search over one slot kind; start[j] is the earliest
// any task of job j starts (the job's end so far before any is placed).
func (ds *deadlineSearch) newKind(slots int, gs []sgroup, start []int) *kindSearch {
	ks := &kindSearch{ds: ds, slots: slots, gs: gs, left: make([]int, len(gs)), free: make([]int, slots),
		starts: make([][]int, len(gs)), lastT: -1, lastG: -1, memo: map[string][][]int32{},
		jobEnd: make([]int, len(ds.in.Jobs))}
	ks.prio = make([]int, len(gs))
	for g, gr := range gs {
		ks.left[g] = len(gr.idx)
		ks.prio[g] = gr.dl
		if ds.rng != nil {
			ks.prio[g] += ds.rng.IntN(prioSpread)
		}
	}
	copy(ks.jobEnd, start)
	for i := range ks.free {
		ks.free[i] = -1 << 40
	}
	return ks
}

func (ks *kindSearch) dfs() searchResult {
	ds := ks.ds
	ds.nodes++
	if ds.nodes > ds.budget || ds.stop.tick() {
		return searchAborted
	}
	if ks.slots == 0 {
		for _, l := range ks.left {
			if l > 0 {
				return searchInfeasible
			}
		}
	}
	done := true
	F := ks.free[0]
	E := 1 << 62
	for g, gr := range ks.gs {
		if ks.left[g] == 0 {
			continue
		}
		done = false
		st := max(F, gr.rel)
		E = min(E, st+gr.dur)
		// (i) the group alone cannot end by its deadline.
		if st+ceilDiv(ks.left[g], ks.slots)*gr.dur > gr.dl {
			return searchInfeasible
		}
	}
	if done {
		return ks.leaf(ks)
	}
	if !ks.relaxed(F) {
		return searchInfeasible
	}
	key := ks.stateKey()
	if ks.dominated(key) {
		return searchInfeasible
	}
	var cand []int
	for g, gr := range ks.gs {
		if ks.left[g] > 0 && max(F, gr.rel) < E {
			cand = append(cand, g)
		}
	}
	sort.SliceStable(cand, func(a, b int) bool { return ks.prio[cand[a]] < ks.prio[cand[b]] })
	for _, g := range cand {
		gr := ks.gs[g]
		t := max(F, gr.rel)
		// (iii) the same state in the other order.
		if t == ks.lastT && g < ks.lastG && max(ks.lastF, gr.rel) == t {
			continue
		}
		lt, lg, lf, je := ks.lastT, ks.lastG, ks.lastF, ks.jobEnd[gr.job]
		ks.left[g]--
		ks.starts[g] = append(ks.starts[g], t)
		ks.free[0] = t + gr.dur
		for i := 1; i < len(ks.free) && ks.free[i] < ks.free[i-1]; i++ {
			ks.free[i], ks.free[i-1] = ks.free[i-1], ks.free[i]
		}
		ks.jobEnd[gr.job] = max(je, t+gr.dur)
		ks.lastT, ks.lastG, ks.lastF = t, g, F
		r := ks.dfs()
		ks.lastT, ks.lastG, ks.lastF, ks.jobEnd[gr.job] = lt, lg, lf, je
		// Undo: the slot that got t + dur goes back to F.
		for i := range ks.free {
			if ks.free[i] == t+gr.dur {
				ks.free[i] = F
				for ; i > 0 && ks.free[i] < ks.free[i-1]; i-- {
					ks.free[i], ks.free[i-1] = ks.free[i-1], ks.free[i]
				}
				break
			}
		}
		ks.starts[g] = ks.starts[g][:len(ks.starts[g])-1]
		ks.left[g]++
		if r != searchInfeasible {
			return r
		}
	}
	if b := ks.memo[key]; len(b) < memoBucket {
		ks.memo[key] = append(b, append([]int32(nil), ks.vec...))
	}
	return searchInfeasible
}

// memoBucket bounds the failed states kept per key (the dominance test scans
// them all).
const memoBucket = 256

// stateKey returns the memo key of the node (remaining counts and the
// previous decision) and leaves in ks.vec its slot free times and job ends,
// normalised: every later decision starts at or after m0 = max(F, least
// release of a remaining group), so free times below m0 count as m0; a job
// with tasks left ends at or after m0 + its shortest remaining duration,
// so its end so far counts as at least that; and the previous decision
// matters (rule iii) only when it started at or after m0.
func (ks *kindSearch) stateKey() string {
	m0 := 1 << 62
	for g, gr := range ks.gs {
		if ks.left[g] > 0 {
			m0 = min(m0, gr.rel)
		}
	}
	m0 = max(m0, ks.free[0])
	b := ks.ds.key[:0]
	for _, l := range ks.left {
		b = binary.AppendVarint(b, int64(l))
	}
	if ks.lastT >= m0 {
		b = binary.AppendVarint(b, int64(ks.lastT))
		b = binary.AppendVarint(b, int64(ks.lastG))
		b = binary.AppendVarint(b, int64(max(ks.lastF, m0)))
	}
	ks.ds.key = b
	v := ks.vec[:0]
	for _, f := range ks.free {
		v = append(v, int32(max(f, m0)))
	}
	ends := ks.ds.ends[:0]
	for _, e := range ks.jobEnd {
		ends = append(ends, e)
	}
	for g, gr := range ks.gs {
		if ks.left[g] > 0 {
			ends[gr.job] = max(ends[gr.job], m0+gr.dur)
		}
	}
	ks.ds.ends = ends
	for _, e := range ends {
		v = append(v, int32(e))
	}
	ks.vec = v
	return string(b)
}

// dominated reports whether a failed state with the same key had every
// slot free and every job end at or before this node's: any completion of
// this node would complete that one too (later free slots and later map
// ends only remove schedules).
func (ks *kindSearch) dominated(key string) bool {
next:
	for _, rec := range ks.memo[key] {
		for i, x := range rec {
			if x > ks.vec[i] {
				continue next
			}
		}
		return true
	}
	return false
}

// relaxed is the preemptive relaxation of the remaining tasks: slot i is
// available from free[i] (and no task starts before F), group g needs
// left·e slot-units in [max(F, rel), dl) at rate at most min(left, slots).
func (ks *kindSearch) relaxed(F int) bool {
	ds := ks.ds
	pts := ds.pts[:0]
	need := 0
	ng := 0
	for g, gr := range ks.gs {
		if ks.left[g] == 0 {
			continue
		}
		ng++
		pts = append(pts, max(F, gr.rel), gr.dl)
		need += ks.left[g] * gr.dur
	}
	for _, f := range ks.free {
		if f > F {
			pts = append(pts, f)
		}
	}
	pts = sortedUnique(pts)
	ds.pts = pts
	f := &ds.flow
	f.reset(2 + len(ks.gs) + len(pts))
	iv := 2 + len(ks.gs)
	for i := 0; i+1 < len(pts); i++ {
		c := 0
		for _, fr := range ks.free {
			if fr <= pts[i] {
				c++
			}
		}
		f.edge(iv+i, 1, c*(pts[i+1]-pts[i]))
	}
	for g, gr := range ks.gs {
		if ks.left[g] == 0 {
			continue
		}
		lo := max(F, gr.rel)
		f.edge(0, 2+g, ks.left[g]*gr.dur)
		rate := min(ks.left[g], ks.slots)
		for i := searchInts(pts, lo); i+1 < len(pts) && pts[i] < gr.dl; i++ {
			f.edge(2+g, iv+i, rate*(pts[i+1]-pts[i]))
		}
	}
	if f.run(0, 1) != need {
		return false
	}
	if !energeticChecks {
		return true
	}
	ets := ds.ets[:0]
	for g, gr := range ks.gs {
		if ks.left[g] > 0 {
			ets = append(ets, eTask{n: ks.left[g], p: gr.dur, q: 1, r: max(F, gr.rel), d: gr.dl})
		}
	}
	ds.ets = ets
	ds.en.pack = ks.pack
	fr := ds.fr[:0]
	for _, f := range ks.free {
		fr = append(fr, max(f, F)) // nothing starts before F
	}
	ds.fr = fr
	return ds.en.feasible(ets, ks.slots, fr, false)
}

// maxLateSets bounds the late sets the combinatorial phase enumerates for one
// cap; beyond it the subproblem goes to the MILP.
const maxLateSets = 5000

// lateStatus is what searchLateCount learned about one late count K.
type lateStatus int8

const (
	// lateSolved: Z*_K found; the schedule attains it.
	lateSolved lateStatus = iota
	// lateEmpty: no schedule with at most K late jobs and Z ≤ the cap.
	lateEmpty
	// lateUnknown: Z*_K ≥ the returned z; the rest is left to the MILP.
	lateUnknown
)

// searchLateCount settles the subproblem "at most k late jobs, Z ≤ zcap"
// without a MILP when it can. For z = zlo, zlo + 1, …, zcap: a schedule with
// Z ≤ z has C_j ≤ s_j + z, so only the jobs R_z = {j : d_j < s_j + z} can be
// late, and its late set lies in some L ⊆ R_z with |L| = min(k, |R_z|); each
// such L gives completion deadlines D_j = s_j + z for j ∈ L or j ∉ R_z and
// D_j = d_j otherwise. L is dismissed when the preemptive relaxation is
// infeasible, else searchDeadlines decides it. The first z with a schedule
// is Z*_k (every smaller z was proven empty). It stops with lateUnknown and
// the z reached when a search runs out of budget or there are too many sets.
//
// With tries > 0 it only looks for a schedule: each set gets that many
// searches (at most perSet nodes each), in both directions of time with
// branch orders seeded 0, 0, 1, 1, …, a set whose searches run out of
// budget is passed over, and lateSolved then means only "a schedule with
// Z ≤ z", not that z is Z*_k. With tries = 0 it proves: one set at a time
// by decideDeadlines. With lateUnknown in prove mode it also returns the
// smallest set of jobs (by coreJobs) left undecided for the late set that
// stopped it, nil if none: a candidate for a smaller MILP.
func searchLateCount(in *mrcpscenario.Instance, rx *relaxation, k, zlo, zcap int, budget *int, tries, perSet int) (lateStatus, int, *Schedule, []int) {
	prove := tries == 0
	if prove {
		tries = 1
	}
	d := make([]int, len(in.Jobs))
	// hints carries each late set's subset proofs from one z to the next.
	hints := map[string]*subsetHint{}
	for z := zlo; z <= zcap; z++ {
		if rx.stop.poll() {
			// Every cap below z was proven empty before the stop.
			return lateUnknown, z, nil, nil
		}
		r := capDeadlines(in, z, d)
		// Every job of R_z late is the weakest case: if even that fails, z is empty.
		if !rx.feasible(d) {
			continue
		}
		// So is a z at which more than k jobs must be late.
		if rx.lateLowerBound(z, r) > k {
			continue
		}
		size := min(k, len(r))
		if binomial(len(r), size) > maxLateSets {
			if !rx.lateSetPasses(z, r, size) {
				continue // no late set passes the relaxation
			}
			return lateUnknown, z, nil, nil
		}
		if *budget <= 0 {
			return lateUnknown, z, nil, nil
		}
		pick := make([]int, size) // indices into r, increasing
		for i := range pick {
			pick[i] = i
		}
		aborted := false
		var core []int
		for {
			if rx.stop.tick() {
				return lateUnknown, z, nil, core
			}
			lateSetDeadlines(in, r, pick, z, d)
			if rx.feasible(d) {
				key := fmt.Sprint(lateJobs(r, pick))
				for try := 0; try < tries; try++ {
					var s *Schedule
					var res searchResult
					var nodes int
					if prove {
						h := hints[key]
						if h == nil {
							h = &subsetHint{fits: [2]int{1, 1}}
							hints[key] = h
						}
						// A set whose previous cap was proven gets up to
						// 4 times that proof's nodes, at least perSet.
						s, res, nodes = decideDeadlines(in, d, min(*budget, max(perSet, 4*h.proofNodes)), 0, h, rx.stop)
						if res == searchInfeasible {
							h.proofNodes = nodes
						}
					} else {
						s, res, nodes = searchDeadlinesDir(in, d, min(*budget, perSet), uint64(try/2), try%2 == 1, rx.stop)
					}
					*budget -= nodes
					if res == searchFound {
						return lateSolved, z, s, nil
					}
					if res == searchAborted && prove && core == nil {
						core = coreJobs(in, hints[key])
					}
					if *budget <= 0 || rx.stop.stopped() {
						return lateUnknown, z, nil, core
					}
					if res == searchInfeasible {
						break // proven: no restart can find one
					}
					aborted = true
				}
			}
			if !nextCombination(pick, len(r)) {
				break
			}
		}
		// Another set may have a schedule even when one ran out of budget,
		// so every set is tried before z is left undecided.
		if aborted && prove {
			return lateUnknown, z, nil, core
		}
	}
	return lateEmpty, zcap + 1, nil, nil
}

// coreJobs is the smaller of the two sets the subsetProver of hint would try
// next (the jobs released first or last, one more than the largest found
// feasible), nil when both are the whole instance.
func coreJobs(in *mrcpscenario.Instance, h *subsetHint) []int {
	sp := newSubsetProver(in, nil, 0)
	n := len(sp.order)
	w0, w1 := h.fits[0]+1, h.fits[1]+1
	switch {
	case w0 >= n && w1 >= n:
		return nil
	case w0 <= w1:
		return append([]int(nil), sp.order[:w0]...)
	default:
		return append([]int(nil), sp.order[n-w1:]...)
	}
}

// firstRound is the node budget of the first forward and reversed searches
// of decideDeadlines; each round doubles it.
const firstRound = 1000

// decideDeadlines runs the deadline search forward and reversed in turn
// (searchDeadlinesDir), with budgets firstRound, 2·firstRound, … per
// direction, until one decides or budget nodes are spent: the tight part
// of an instance may lie at either end of its horizon, and the search
// settles it fast only from that end. Restarts cost at most twice the
// nodes of the direction that decides. Each round also gives the
// subsetProver the same budget per subset, for a tight part in the middle.
// hint (may be nil) carries what the subsetProver learned to the next call
// on similar deadlines: the set that proved infeasibility last time is
// searched first, with 3/4 of the budget. A stop (may be nil) ends it as the
// budget does.
func decideDeadlines(in *mrcpscenario.Instance, d []int, budget int, seed uint64, hint *subsetHint, stop *stopper) (*Schedule, searchResult, int) {
	used := 0
	sp := newSubsetProver(in, d, seed)
	sp.stop = stop
	if hint != nil {
		sp.fits = hint.fits
		if hint.w > 0 {
			infeasible, n := sp.try(hint.fam, hint.w, budget*3/4)
			used += n
			if infeasible {
				return nil, searchInfeasible, used
			}
		}
		defer func() { hint.fits = sp.fits }()
	}
	for round := firstRound; ; round *= 2 {
		for _, rev := range []bool{false, true} {
			b := min(round, budget-used)
			if b <= 0 || stop.stopped() {
				return nil, searchAborted, used
			}
			s, res, n := searchDeadlinesDir(in, d, b, seed, rev, stop)
			used += min(n, b)
			if res != searchAborted {
				return s, res, used
			}
		}
		infeasible, n := sp.round(round, budget-used)
		used += n
		if infeasible {
			if hint != nil {
				hint.fam, hint.w = sp.proof[0], sp.proof[1]
			}
			return nil, searchInfeasible, used
		}
	}
}

// subsetHint is what one decideDeadlines call tells the next (see there).
type subsetHint struct {
	fam, w int    // the set that proved infeasibility (w = 0: none)
	fits   [2]int // subsetProver.fits
	// proofNodes is what the last proof of infeasibility cost (searchLateCount).
	proofNodes int
}

// subsetTries is how many undecided subsets of each family subsetProver
// tries per round.
const subsetTries = 2

// subsetProver looks for a set of jobs that cannot meet their deadlines
// even without the other jobs: removing jobs only removes load, so such a
// set proves that no schedule of the instance meets them. Its candidates
// are the i jobs released first (searched reversed, since their tight part
// is at their end) and the i released last (searched forward), i = 2, 3, …:
// a family's sets are nested, so once one has a schedule every smaller one
// has, and each round starts above the largest set with a schedule.
type subsetProver struct {
	in    *mrcpscenario.Instance
	d     []int
	seed  uint64
	order []int // jobs by release
	// fits[0], fits[1]: the largest first and last sets found feasible.
	fits [2]int
	// proof is the family and size of the set round proved infeasible.
	proof [2]int
	stop  *stopper // may be nil
}

func newSubsetProver(in *mrcpscenario.Instance, d []int, seed uint64) *subsetProver {
	order := make([]int, len(in.Jobs))
	for j := range order {
		order[j] = j
	}
	sort.SliceStable(order, func(a, b int) bool { return in.Jobs[order[a]].Release < in.Jobs[order[b]].Release })
	return &subsetProver{in: in, d: d, seed: seed, order: order, fits: [2]int{1, 1}}
}

// round searches up to subsetTries undecided sets of each family with at
// most per nodes each and budget in total; it reports whether one is
// infeasible (recorded in proof), and the nodes spent.
func (sp *subsetProver) round(per, budget int) (bool, int) {
	n := len(sp.order)
	used := 0
	for fam := 0; fam < 2; fam++ {
		tries := 0
		for w := sp.fits[fam] + 1; w < n && tries < subsetTries; w++ {
			b := min(per, budget-used)
			if b <= 0 || sp.stop.stopped() {
				return false, used
			}
			res, nodes := sp.search(fam, w, b)
			used += nodes
			switch res {
			case searchInfeasible:
				sp.proof = [2]int{fam, w}
				return true, used
			case searchFound:
				sp.fits[fam] = w
			default:
				tries++
			}
		}
	}
	return false, used
}

// try searches set w of family fam with budget nodes; it reports whether
// the set is infeasible, and the nodes spent.
func (sp *subsetProver) try(fam, w, budget int) (bool, int) {
	if w >= len(sp.order) || budget <= 0 {
		return false, 0
	}
	res, nodes := sp.search(fam, w, budget)
	if res == searchFound {
		sp.fits[fam] = max(sp.fits[fam], w)
	}
	return res == searchInfeasible, nodes
}

// search runs the deadline search on set w of family fam (0: the w jobs
// released first, searched reversed; 1: the w released last, forward).
func (sp *subsetProver) search(fam, w, budget int) (searchResult, int) {
	n := len(sp.order)
	js := sp.order[n-w:]
	if fam == 0 {
		js = sp.order[:w]
	}
	sub, sd := restrictJobs(sp.in, js, sp.d)
	_, res, nodes := searchDeadlinesDir(sub, sd, budget, sp.seed, fam == 0, sp.stop)
	return res, min(nodes, budget)
}

// restrictJobs returns in with only the jobs js (in that order) and their
// deadlines from d.
func restrictJobs(in *mrcpscenario.Instance, js, d []int) (*mrcpscenario.Instance, []int) {
	sub := *in
	sub.Jobs = make([]mrcpscenario.Job, len(js))
	sd := make([]int, len(js))
	for i, j := range js {
		sub.Jobs[i], sd[i] = in.Jobs[j], d[j]
	}
	return &sub, sd
}

// lateJobs returns the jobs {r[i] : i ∈ pick}.
func lateJobs(r, pick []int) []int {
	out := make([]int, len(pick))
	for x, i := range pick {
		out[x] = r[i]
	}
	return out
}

// nextCombination advances pick (increasing indices in [0, n)) to the next
// combination in lexicographic order; false after the last.
func nextCombination(pick []int, n int) bool {
	k := len(pick)
	i := k - 1
	for i >= 0 && pick[i] == n-k+i {
		i--
	}
	if i < 0 {
		return false
	}
	pick[i]++
	for x := i + 1; x < k; x++ {
		pick[x] = pick[x-1] + 1
	}
	return true
}

// binomial is C(n, k), saturating at a large value.
func binomial(n, k int) int {
	c := 1
	for i := 0; i < k; i++ {
		c = c * (n - i) / (i + 1)
		if c > 1<<40 {
			return 1 << 40
		}
	}
	return c
}
