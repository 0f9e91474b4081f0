package bnb

import (
	"math"
	"math/bits"
	"slices"

	"github.com/mrbound/mrbound/lowerbound"
)

// maxBits is the longest window (in units of the searcher's gcd) whose
// whole-task capacities the decision test computes with a bitset; a longer
// window skips that part of the test (a weaker, still valid, test). The
// 20-job MRCP streams span about 1,000 units of 1 s.
const maxBits = 1 << 14

// maxEdgeRounds caps the rounds of deadline tightening per node: each round
// costs a pass over every (release, deadline) window, and the deadlines of
// the MRCP streams settle in one or two.
const maxEdgeRounds = 4

// dlJob is a job with maps left in the decision test, in units: its
// remaining maps (n of length p) are released at rho and must all end by d.
type dlJob struct {
	rho, d, p int64
	n         int
}

// decideScratch is cannotBeat's working memory, kept across nodes.
type decideScratch struct {
	js        []dlJob
	rs, ds    []int64
	avail     []int64
	reach     []uint64
	groups    map[int64]int
	cur, next []uint64 // packMiss's states
	// weightedLoadMiss's state (bound_lp.go): lpOff skips its LPs (the
	// probes' first rounds), lpNodes allows them below the root (the
	// probes' searches), lpCalls counts those; lpMissInc is the incumbent
	// at which the root's LP refuted (0: none yet), lpHoldInc the least at
	// which it did not (0: none yet); pool holds refuting weights.
	lpOff, lpNodes       bool
	lpCalls              int
	lpMissInc, lpHoldInc int64
	pool                 []lpCert
}

// windowWork is the map work of the jobs released at or after r with
// deadlines at or before dl.
func (sc *decideScratch) windowWork(r, dl int64) (w int64) {
	for _, j := range sc.js {
		if j.rho >= r && j.d <= dl {
			w += int64(j.n) * j.p
		}
	}
	return w
}

// windowSlack is the slot time the window [r, dl] offers less its work
// (windowWork); ok is false for a window without work.
func (sc *decideScratch) windowSlack(r, dl int64) (slack int64, ok bool) {
	w := sc.windowWork(r, dl)
	if w == 0 {
		return 0, false
	}
	for _, a := range sc.avail {
		slack += max(0, dl-max(a, r))
	}
	return slack - w, true
}

// cannotBeat reports whether no schedule of Comp(N) has a makespan or a
// maximum turnaround below the incumbent (docs/bounds.md §14d). A better
// schedule has C_j ≤ base_j + inc − 1 (base_j = a_j, or min a for the
// makespan), hence a last map end L_j ≤ that − tail_j, which becomes a
// deadline on the job's remaining maps; every time of the tree is a
// multiple of the unit u, so deadlines are rounded down to multiples of u
// and the test works in units. avail holds the map slots' free times raised
// to t0, sorted. Three rules, each sound for every schedule of Comp(N) that
// meets the deadlines:
//   - window load: the maps of the jobs released at or after r with
//     deadlines at or before δ fit in Σ_i max(0, δ − max(A_i, r));
//   - edge finding: when that window leaves slack σ, a map of another job
//     with deadline ≤ δ, released before r and longer than σ, ends by
//     r + σ, which becomes its job's deadline;
//   - whole tasks: in the same window slot i holds a set of whole maps,
//     so no more than the largest sum of the window's map lengths that
//     fits in δ − max(A_i, r);
//
// and, per job, its remaining maps alone list-scheduled on the slots end by
// its deadline; then the packing of the window of least slack (packMiss)
// and the weighted load (weightedLoadMiss, bound_lp.go).
func (s *searcher) cannotBeat(avail []int64) bool {
	if s.inc == math.MaxInt64 || (s.metric != lowerbound.Makespan && s.metric != lowerbound.MaxTurnaround) {
		return false
	}
	u := s.unit
	sc := &s.dec
	sc.js = sc.js[:0]
	t0 := s.lastStart
	if s.placed == 0 {
		t0 = s.minA
	}
	if s.inc < 1 {
		return true // scores are never negative
	}
	// A better schedule's score is at most inc − 1, and a multiple of u.
	better := (s.inc - 1) / u * u
	nR := len(s.slots[1])
	for j := range s.jobs {
		jb := &s.jobs[j]
		if s.mapsDone[j] >= jb.nMaps {
			continue
		}
		base := jb.arrival
		if s.metric == lowerbound.Makespan {
			base = s.minA
		}
		var tail int64
		if jb.nReds > 0 && nR > 0 {
			tail = int64((jb.nReds+nR-1)/nR) * jb.pRed
		}
		d := base + better - tail
		rho := max(jb.arrival, t0)
		// rho, p and the slots' times are multiples of u; d is too.
		sc.js = append(sc.js, dlJob{rho: rho / u, d: floorDiv(d, u), p: jb.pMap / u, n: jb.nMaps - s.mapsDone[j]})
	}
	if len(sc.js) == 0 || len(avail) == 0 {
		return false // nothing to test (no map slots: Validate's business)
	}
	sc.avail = sc.avail[:0]
	for _, a := range avail {
		sc.avail = append(sc.avail, a/u)
	}
	// Deadline tightening to a fixed point (or maxEdgeRounds rounds), the
	// window loads checked on the way.
	for round := 0; ; round++ {
		changed := false
		sc.rs, sc.ds = sc.rs[:0], sc.ds[:0]
		for _, j := range sc.js {
			sc.rs = append(sc.rs, j.rho)
			sc.ds = append(sc.ds, j.d)
		}
		slices.Sort(sc.rs)
		sc.rs = slices.Compact(sc.rs)
		slices.Sort(sc.ds)
		sc.ds = slices.Compact(sc.ds)
		for _, r := range sc.rs {
			for _, dl := range sc.ds {
				slack, ok := sc.windowSlack(r, dl)
				if !ok {
					continue
				}
				if slack < 0 {
					return true
				}
				for x := range sc.js {
					j := &sc.js[x]
					if j.rho < r && j.d <= dl && j.p > slack && j.d > r+slack {
						j.d, changed = r+slack, true
					}
				}
			}
		}
		if !changed || round+1 >= maxEdgeRounds {
			break
		}
	}
	for _, j := range sc.js {
		if s.listEnd(sc.avail, j.rho, j.n, j.p) > j.d {
			return true
		}
	}
	return s.wholeTasksMiss() || s.packMiss() || s.weightedLoadMiss()
}

// wholeTasksMiss is cannotBeat's third rule: for each deadline δ, the set
// of map lengths of the jobs due by δ gives the sums a slot's whole maps can
// make (a bounded subset sum, as a bitset), and for each release r the
// maps released at or after r and due by δ must fit in the slots' largest
// such sums within [max(A_i, r), δ].
func (s *searcher) wholeTasksMiss() bool {
	sc := &s.dec
	lo := slices.Min(sc.avail)
	for _, dl := range sc.ds {
		h := dl - lo
		if h <= 0 || h >= maxBits {
			continue
		}
		words := int(h/64) + 1
		if cap(sc.reach) < words {
			sc.reach = make([]uint64, words)
		}
		sc.reach = sc.reach[:words]
		clear(sc.reach)
		sc.reach[0] = 1
		if sc.groups == nil {
			sc.groups = map[int64]int{}
		}
		clear(sc.groups)
		for _, j := range sc.js {
			if j.d <= dl {
				sc.groups[j.p] += j.n
			}
		}
		for p, n := range sc.groups {
			// Binary splitting: chunks 1, 2, 4, … and the rest make every
			// count from 0 to n.
			for k := 1; n > 0; k *= 2 {
				c := min(k, n)
				n -= c
				shiftOr(sc.reach, p*int64(c), h)
			}
		}
		for _, r := range sc.rs {
			w := sc.windowWork(r, dl)
			if w == 0 {
				continue
			}
			var capa int64
			for _, a := range sc.avail {
				if x := dl - max(a, r); x > 0 {
					capa += highestBelow(sc.reach, x)
				}
			}
			if w > capa {
				return true
			}
		}
	}
	return false
}

// maxPackWork caps packMiss's work per slot (the splits of the two
// enumerated lengths' counts over its states): beyond it the rule is
// skipped (still valid). The tight windows of the 20-job MRCP streams need
// up to about 10^5.
const maxPackWork = 1 << 20

// packMiss is cannotBeat's fourth rule, on the window (r, δ) of least slack
// σ: the maps of the jobs released at or after r and due by δ lie whole in
// [max(A_i, r), δ] on their slot, so some split of their counts per length
// over the slots fills each slot i to at most its room R_i, the rooms' gaps
// summing to exactly σ. A dynamic program over the slots decides whether
// one exists when the maps have at most three lengths and σ < 64: its state
// is the counts of the two rarer lengths placed so far, holding the gap sums
// (≤ σ) reachable as the bits of a word; the commonest length fills each
// slot's room up to a gap.
func (s *searcher) packMiss() bool {
	sc := &s.dec
	var bestR, bestD int64
	sigma := int64(math.MaxInt64)
	for _, r := range sc.rs {
		for _, dl := range sc.ds {
			if slack, ok := sc.windowSlack(r, dl); ok && slack < sigma {
				bestR, bestD, sigma = r, dl, slack
			}
		}
	}
	if sigma == math.MaxInt64 {
		return false
	}
	// The lengths of the window's maps, with counts: at most three.
	var ps [3]int64
	var ns [3]int
	k := 0
	for _, j := range sc.js {
		if j.rho < bestR || j.d > bestD {
			continue
		}
		x := 0
		for x < k && ps[x] != j.p {
			x++
		}
		if x == k {
			if k == 3 {
				return false
			}
			ps[k], k = j.p, k+1
		}
		ns[x] += j.n
	}
	// The commonest length is the free one (index 2), the others enumerated.
	for x := 0; x < k; x++ {
		if ns[x] > ns[2] || ps[2] == 0 {
			ps[x], ps[2] = ps[2], ps[x]
			ns[x], ns[2] = ns[2], ns[x]
		}
	}
	n0, n1, pf := ns[0], ns[1], ps[2]
	// Splits of the two rarer counts, summed over the states: the work
	// per slot.
	work := (n0 + 1) * (n0 + 2) / 2 * (n1 + 1) * (n1 + 2) / 2
	if sigma >= 64 || work > maxPackWork {
		return false
	}
	// A state is the counts (u0, u1) placed so far; its word holds the
	// gap sums (bits 0..σ) reachable with them.
	states := (n0 + 1) * (n1 + 1)
	if cap(sc.cur) < states {
		sc.cur, sc.next = make([]uint64, states), make([]uint64, states)
	}
	cur, next := sc.cur[:states], sc.next[:states]
	clear(cur)
	cur[0] = 1
	full := uint64(1)<<(uint(sigma)+1) - 1
	for _, a := range sc.avail {
		room := max(0, bestD-max(a, bestR))
		clear(next)
		for u0 := 0; u0 <= n0; u0++ {
			for u1 := 0; u1 <= n1; u1++ {
				m := cur[u0*(n1+1)+u1]
				if m == 0 {
					continue
				}
				for a0 := 0; u0+a0 <= n0 && int64(a0)*ps[0] <= room; a0++ {
					for a1 := 0; u1+a1 <= n1 && int64(a0)*ps[0]+int64(a1)*ps[1] <= room; a1++ {
						// The commonest length fills the rest up to a gap
						// of rem mod pf, or that plus whole lengths.
						var nm uint64
						for g := (room - int64(a0)*ps[0] - int64(a1)*ps[1]) % pf; g <= sigma; g += pf {
							nm |= m << uint(g)
						}
						next[(u0+a0)*(n1+1)+u1+a1] |= nm & full
					}
				}
			}
		}
		cur, next = next, cur
	}
	return cur[n0*(n1+1)+n1]>>uint(sigma)&1 == 0
}

// shiftOr sets b |= b << k, bits above h dropped.
func shiftOr(b []uint64, k, h int64) {
	if k <= 0 || k > h {
		return
	}
	ws, bs := int(k/64), uint(k%64)
	for i := len(b) - 1; i >= ws; i-- {
		v := b[i-ws] << bs
		if bs != 0 && i-ws-1 >= 0 {
			v |= b[i-ws-1] >> (64 - bs)
		}
		b[i] |= v
	}
	if last := h % 64; int(h/64) == len(b)-1 {
		b[len(b)-1] &= (uint64(1) << (uint(last) + 1)) - 1
	}
}

// highestBelow is the largest set bit's index at or below x (0 when none
// but bit 0).
func highestBelow(b []uint64, x int64) int64 {
	i := int(x / 64)
	if i >= len(b) {
		i, x = len(b)-1, int64(len(b))*64-1
	}
	w := b[i]
	if r := uint(x % 64); r < 63 {
		w &= (uint64(1) << (r + 1)) - 1
	}
	for {
		if w != 0 {
			return int64(i)*64 + int64(bits.Len64(w)) - 1
		}
		i--
		if i < 0 {
			return 0
		}
		w = b[i]
	}
}

// floorDiv is ⌊a / b⌋ for b > 0.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}
