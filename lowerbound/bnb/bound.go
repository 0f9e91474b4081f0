package bnb

import (
	"math"
	"slices"

	"github.com/mrbound/mrbound/lowerbound"
)

// fluidJob is a job with maps left in the preemptive relaxation of the map
// stage: it may run on every free map slot at once.
type fluidJob struct {
	release  float64
	work     float64
	tail     float64 // the job's least reduce span after its last map
	deadline float64 // EDF only
	end      float64
	// rem and done are fluid's working state.
	rem  float64
	done bool
}

// bound is a lower bound on the score of every schedule that extends the
// current node (§14): every remaining task starts no earlier than the last
// placed start t0, on a slot no earlier than the slot's free time. It takes
// the builtin min and max, math.Min and math.Max without their calls: the
// same results on every operand but NaN, which none of these is.
func (s *searcher) bound() float64 {
	t0 := s.lastStart
	if s.placed == 0 {
		t0 = s.minA
	}
	for k := range 2 {
		for i, sl := range s.slots[k] {
			s.avail[k][i] = max(sl.free, t0)
		}
		s.sortInts(s.avail[k])
	}
	nR := len(s.slots[1])
	var known float64 // Σ (C_j − a_j) of the jobs whose C_j is bounded alone
	var maxC, maxT float64
	s.fl, s.critG, s.arrG = s.fl[:0], s.critG[:0], s.arrG[:0]
	tmin, tailSum := math.Inf(1), 0.0
	var sumAG float64
	for j := range s.jobs {
		jb := &s.jobs[j]
		a := float64(jb.arrival)
		var c float64
		switch {
		case s.mapsDone[j] < jb.nMaps:
			left := jb.nMaps - s.mapsDone[j]
			rho := max(jb.arrival, t0)
			l := s.listEnd(s.avail[0], rho, left, jb.pMap)
			cr := l
			tail := 0.0
			if jb.nReds > 0 {
				cr = s.listEnd(s.avail[1], l, jb.nReds, jb.pRed)
				tail = jb.tail
				if s.plain {
					tail = float64(int64((jb.nReds+nR-1)/nR) * jb.pRed)
				}
			}
			c = float64(cr)
			s.fl = append(s.fl, fluidJob{release: float64(rho), work: float64(int64(left) * jb.pMap), tail: tail})
			s.critG = append(s.critG, c)
			s.arrG = append(s.arrG, jb.arrival)
			tmin = min(tmin, tail)
			tailSum += tail
			sumAG += a
		case s.redsDone[j] < jb.nReds:
			rel := max(jb.arrival, s.lme[j], t0)
			c = float64(max(s.listEnd(s.avail[1], rel, jb.nReds-s.redsDone[j], jb.pRed), s.done[j]))
			known += c - a
		default:
			c = float64(s.done[j])
			known += c - a
		}
		maxC = max(maxC, c)
		maxT = max(maxT, c-a)
	}
	if len(s.fl) == 0 {
		switch s.metric {
		case lowerbound.Makespan:
			return maxC - float64(s.minA)
		case lowerbound.MaxTurnaround:
			return maxT
		}
		return s.withLag(known, t0)
	}
	if (s.metric == lowerbound.MaxTurnaround || s.metric == lowerbound.Makespan) && s.inc != math.MaxInt64 {
		// Deadlines for the last map ends of a schedule better than the
		// incumbent: C_j − a_j ≤ inc − 1 (C_j − min a for the makespan),
		// and C_j ≥ L_j + tail_j.
		t := float64(s.inc - 1)
		for g := range s.fl {
			base := float64(s.arrG[g])
			if s.metric == lowerbound.Makespan {
				base = float64(s.minA)
			}
			s.fl[g].deadline = base + t - s.fl[g].tail
		}
		if s.fluid(s.avail[0], s.fl, edf) || s.cannotBeat(s.avail[0]) {
			return float64(s.inc) // no schedule better than the incumbent
		}
	}
	// eG gets the fluid's ends in order: fluid lists them as they come,
	// which is in order (its clock never goes back), the plain form sorts.
	s.eG = s.fluidEnds(s.avail[0], s.fl, s.eG[:0])
	switch s.metric {
	case lowerbound.Makespan:
		return max(maxC, s.eG[len(s.eG)-1]+tmin) - float64(s.minA)
	case lowerbound.MaxTurnaround:
		// Sorted last map ends are at least the fluid's sorted ends; the
		// jobs ranked k or later (n−k+1 of them) include one that arrived
		// no later than the k-th arrival.
		slices.Sort(s.arrG)
		for k, e := range s.eG {
			maxT = max(maxT, e+tmin-float64(s.arrG[k]))
		}
		return maxT
	}
	// The due-date form (§14i) reads the jobs' own critical paths, so its
	// order goes before they are sorted.
	s.dueOrder()
	s.sortFloats(s.critG)
	var paired, fluidSum float64
	for k, e := range s.eG {
		paired += max(s.critG[k], e+tmin)
		fluidSum += e
	}
	lo := s.withLag(known+max(paired, fluidSum+tailSum)-sumAG, t0)
	if s.prune(lo) && !s.plain {
		// The other parts close the node already, and the due-date form
		// could only raise it: leave out its prefix fluids, two thirds of
		// the bound's time. A closed child's value matters nowhere else
		// (it is dropped, and the order of the others does not depend on
		// it). Options.plain computes the whole bound: the tests require
		// the same Result.
		return lo
	}
	// lo holds the Lagrangian's value and the other parts, both no more
	// than the whole: max is the bound with the due-date form.
	due := tailSum + s.dueSum(s.avail[0])
	return max(known+due-sumAG, lo)
}

// dueOrder sets the due dates d_j = crit_j − tail_j of the jobs with maps
// left (s.fl, their critical paths in s.critG, not yet sorted) and their
// order by d, then index, for dueSum.
func (s *searcher) dueOrder() {
	s.dueD, s.dueOrd = s.dueD[:0], s.dueOrd[:0]
	for g := range s.fl {
		s.dueD = append(s.dueD, s.critG[g]-s.fl[g].tail)
		// By d, then index: an insertion sort of a few dozen jobs.
		s.dueOrd = append(s.dueOrd, int32(g))
		for q := len(s.dueOrd) - 1; q > 0 && s.dueD[s.dueOrd[q-1]] > s.dueD[g]; q-- {
			s.dueOrd[q], s.dueOrd[q-1] = s.dueOrd[q-1], s.dueOrd[q]
		}
	}
}

// dueSum is a lower bound on Σ_j max(L_j, d_j) over the jobs with maps
// left (s.fl, their due dates and order set by dueOrder, their fluid SRPT
// ends sorted in s.eG), d_j = crit_j − tail_j, L_j the job's last map end
// (§14i): with the jobs sorted by d, e^i the sorted fluid SRPT ends of the
// first i jobs alone, it is Σ_m min_{i ≥ m} max(d_(i), e^i_(m)). The
// pairing of sorted ends with sorted critical paths forgets which job ends
// when; this keeps it for the jobs due by each time.
func (s *searcher) dueSum(avail []int64) float64 {
	n := len(s.fl)
	s.tau = s.tau[:0]
	// The prefix of every job is the whole set, whose ends s.eG holds.
	dMax := s.dueD[s.dueOrd[n-1]]
	for _, e := range s.eG {
		s.tau = append(s.tau, max(dMax, e))
	}
	sub, rel := s.dueSub[:0], s.dueRel[:0]
	live := 0
	for i, g := range s.dueOrd[:n-1] {
		sub = append(sub, s.fl[g])
		// rel is the prefix by release, for its last end.
		rel = append(rel, s.fl[g])
		for q := len(rel) - 1; q > 0 && rel[q-1].release > rel[q].release; q-- {
			rel[q], rel[q-1] = rel[q-1], rel[q]
		}
		d := s.dueD[g]
		if s.dueD[s.dueOrd[i+1]] == d {
			continue // the next prefix has the same d and no later ends
		}
		// A prefix's m-th end is no earlier than the whole set's: when
		// that already gives no earlier rank a better candidate, only its
		// last rank can gain, and its last end is the work's end under any
		// rule that never idles (SRPT is one), without the fluid. A rank
		// that cannot gain never can later (d grows, τ falls), so live,
		// the first rank that might, only moves on.
		for live < i && max(d, s.eG[live]) >= s.tau[live] {
			live++
		}
		if live >= i {
			if max(d, s.eG[i]) < s.tau[i] {
				s.tau[i] = min(s.tau[i], max(d, workEnd(avail, rel)))
			}
			continue
		}
		s.dueE = s.fluidEnds(avail, sub, s.dueE[:0])
		for m, e := range s.dueE {
			s.tau[m] = min(s.tau[m], max(d, e))
		}
	}
	s.dueRel = rel
	s.dueSub = sub
	var v float64
	for _, x := range s.tau {
		v += x
	}
	return v
}

// workEnd is when the work of js (sorted by release) ends on the
// machine whose speed at t is the number of slots free by t (avail sorted)
// when it never idles while work is released: the last end of fluid's
// SRPT, or of any rule that never idles, on js.
func workEnd(avail []int64, js []fluidJob) float64 {
	t := math.Inf(-1)
	k := 0 // the slots free by t
	for _, f := range js {
		t = max(t, f.release)
		w := f.work
		for {
			for k < len(avail) && float64(avail[k]) <= t {
				k++
			}
			if k == 0 {
				t = float64(avail[0])
				continue
			}
			if k == len(avail) || t+w/float64(k) <= float64(avail[k]) {
				t += w / float64(k)
				break
			}
			w -= (float64(avail[k]) - t) * float64(k)
			t = float64(avail[k])
		}
	}
	return t
}

// withLag is the sums' bound b raised to the time-indexed Lagrangian's at
// the node (§14e), when there is one.
func (s *searcher) withLag(b float64, t0 int64) float64 {
	if s.lag == nil {
		return b
	}
	return max(b, s.lag.node(s, t0))
}

// listEnd is listEnd, or listEndPlain under Options.plain.
func (s *searcher) listEnd(avail []int64, rho int64, n int, d int64) int64 {
	if s.plain {
		return listEndPlain(avail, rho, n, d)
	}
	if cap(s.ends) < n {
		s.ends = make([]int64, n)
	}
	return listEnd(avail, rho, n, d, s.ends)
}

// fluid is fluid, or fluidPlain under Options.plain.
func (s *searcher) fluid(avail []int64, js []fluidJob, r rule) bool {
	if s.plain {
		return fluidPlain(avail, js, r)
	}
	if cap(s.act) < 2*len(js) {
		s.act = make([]int32, 2*len(js))
	}
	// The ends go to s.eG's storage (overwritten by fluidEnds next): a nil
	// slice here allocated at every EDF test (rev18a).
	missed, ends := fluid(avail, js, r, s.act, s.eG[:0])
	s.eG = ends[:0]
	return missed
}

// fluidEnds runs SRPT's fluid and appends its jobs' ends to e in
// ascending order: as fluid lists them (in the order they come, which is
// ascending), or under Options.plain read back from the jobs and sorted.
func (s *searcher) fluidEnds(avail []int64, js []fluidJob, e []float64) []float64 {
	if s.plain {
		fluidPlain(avail, js, srpt)
		for _, f := range js {
			e = append(e, f.end)
		}
		slices.Sort(e)
		return e
	}
	if cap(s.act) < 2*len(js) {
		s.act = make([]int32, 2*len(js))
	}
	_, e = fluid(avail, js, srpt, s.act, e)
	return e
}

// sortInts and sortFloats sort a few dozen values at most (slots, jobs) by
// insertion, where slices.Sort's pdqsort set up more than it sorted; under
// Options.plain they are slices.Sort. The values have no NaN and no −0 (times
// from integers, fluid ends above them), so equal values are equal bits and
// every sort gives the same slice.
func (s *searcher) sortInts(x []int64) {
	if s.plain {
		slices.Sort(x)
		return
	}
	insertionSort(x)
}

func (s *searcher) sortFloats(x []float64) {
	if s.plain {
		slices.Sort(x)
		return
	}
	insertionSort(x)
}

func insertionSort[T int64 | float64](x []T) {
	for i := 1; i < len(x); i++ {
		v := x[i]
		k := i
		for ; k > 0 && x[k-1] > v; k-- {
			x[k] = x[k-1]
		}
		x[k] = v
	}
}

// listEnd is when the last of n tasks of duration d, released at rho, ends
// when they alone take the slots free at avail (sorted ascending): each
// takes the earliest-free slot, which is the least end for them alone.
//
// The tasks start in order of time, so the ends they add to the slots come
// in order too: the earliest-free slot is the first of two sorted queues,
// the slots not yet taken (avail raised to rho) and the ends added: O(n)
// steps where a scan of the slots per task took O(n·len(avail)).
func listEnd(avail []int64, rho int64, n int, d int64, ends []int64) int64 {
	m := len(avail)
	if m == 0 || n == 0 {
		return rho
	}
	if avail[m-1] <= rho {
		// Every slot is free by rho: the tasks run in rounds of m from
		// rho, the last in round ⌈n/m⌉ (a job not yet arrived, most of a
		// node's on the MRCP streams; its reduces after its maps).
		return rho + int64((n+m-1)/m)*d
	}
	// ends (capacity ≥ n, the caller's scratch) gets the added ends in
	// order; ends[ib:] are those not yet taken. A ring of len(avail) would
	// do, but its index's modulo cost more than the writes.
	ends = ends[:n]
	var ia, ib, w int
	var x int64
	for range n {
		if ia < m && (ib == w || max(avail[ia], rho) <= ends[ib]) {
			x = max(avail[ia], rho)
			ia++
		} else {
			x = ends[ib]
			ib++
		}
		ends[w] = x + d
		w++
	}
	return x + d // the starts never decrease: the last one ends last
}

type rule int8

const (
	srpt rule = iota
	edf
)

// fluid runs the preemptive relaxation of the map stage — one machine whose
// speed at t is the number of slots free by t (avail sorted) — by SRPT or
// EDF, setting each job's end; it reports whether EDF missed a deadline and
// returns ends with the jobs' ends appended as they come (ascending: its
// clock never goes back, and each end is the clock's next value).
// SRPT's sorted ends are componentwise the least of any schedule of the
// relaxation (a time change turns it into a unit-speed machine, where SRPT
// minimises the number of unfinished jobs at every instant), and EDF meets
// every deadline whenever any schedule does.
func fluid(avail []int64, js []fluidJob, r rule, scratch []int32, ends []float64) (bool, []float64) {
	// The builtin min is math.Min without its call (the same result for
	// every operand but NaN, which never occurs here: times are finite or
	// +Inf); t never decreases, so the slots free by t are a growing prefix
	// of the sorted avail and the next one to come free is the first after
	// it (where a scan of avail per event took a fifth of the search's time
	// on the MRCP streams). Likewise act lists the jobs released and not
	// done in order of index, so that the scan for the pick meets them in
	// the same order (the first of equal keys is picked), and pend the
	// jobs not yet released by release: its first is the next release.
	// scratch is the caller's, of capacity ≥ 2·len(js).
	n := len(js)
	scratch = scratch[:2*n]
	act, pend := scratch[:0:n], scratch[n:n]
	t := math.Inf(1)
	for i := range js {
		js[i].rem, js[i].done = js[i].work, false
		t = min(t, js[i].release)
	}
	for i := range js {
		if js[i].release <= t {
			act = append(act, int32(i))
			continue
		}
		// By release, then index (the jobs come by index): an insertion
		// sort, the releases are mostly in order already.
		pend = append(pend, int32(i))
		for q := len(pend) - 1; q > 0 && js[pend[q-1]].release > js[i].release; q-- {
			pend[q], pend[q-1] = pend[q-1], pend[q]
		}
	}
	missed := false
	speed := 0
	// pick (at act[at]) is the job the scan in index order picks: the
	// first of least key. Between events only the picked job's key changes
	// (SRPT's remaining work falls, EDF's deadlines stay), so it stays the
	// first of least key until it ends (pick −1: scan again) or a job is
	// released (compared with it), where a scan per event took a third of
	// fluid's time on the MRCP streams.
	pick, at := -1, -1
	for len(act)+len(pend) > 0 {
		for speed < len(avail) && float64(avail[speed]) <= t {
			speed++
		}
		for len(pend) > 0 && js[pend[0]].release <= t {
			// Released: into act at its place by index.
			i := pend[0]
			pend = pend[1:]
			act = append(act, i)
			q := len(act) - 1
			for ; q > 0 && act[q-1] > i; q-- {
				act[q], act[q-1] = act[q-1], act[q]
			}
			if pick >= 0 {
				if at >= q {
					at++
				}
				// The scan would meet i before pick when i < pick: it
				// then takes i at an equal key too.
				if ii := int(i); better(js, ii, pick, r) || (ii < pick && !better(js, pick, ii, r)) {
					pick, at = ii, q
				}
			}
		}
		nextAvail, nextRel := math.Inf(1), math.Inf(1)
		if speed < len(avail) {
			nextAvail = float64(avail[speed])
		}
		if len(pend) > 0 {
			nextRel = js[pend[0]].release
		}
		if pick < 0 {
			for q, i32 := range act {
				if i := int(i32); pick < 0 || better(js, i, pick, r) {
					pick, at = i, q
				}
			}
		}
		if pick < 0 || speed == 0 {
			t = min(nextRel, nextAvail)
			continue
		}
		fin := t + js[pick].rem/float64(speed)
		step := min(fin, min(nextRel, nextAvail))
		if step >= fin {
			js[pick].end, js[pick].done = fin, true
			ends = append(ends, fin)
			act = append(act[:at], act[at+1:]...)
			if r == edf && fin > js[pick].deadline+fluidTol {
				missed = true
			}
			pick, at = -1, -1
			t = fin
			continue
		}
		js[pick].rem -= (step - t) * float64(speed)
		t = step
	}
	return missed, ends
}

func better(js []fluidJob, i, j int, r rule) bool {
	if r == edf {
		return js[i].deadline < js[j].deadline
	}
	return js[i].rem < js[j].rem
}
