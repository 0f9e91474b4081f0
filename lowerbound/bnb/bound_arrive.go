package bnb

import "math"

// arriveHorizon caps, in multiples of the job's map duration, how far
// after the node's last start a job's release may lie for arriveSum to
// try it (further on, a slot's sums of durations are dense but for parity).
var arriveHorizon int64 = 2

// arriveOnlyNearest: arriveSum tries only the eligible job of least release.
var arriveOnlyNearest = false

// arriveMerge: the alternatives with idle are merged into one.
var arriveMerge = false

// arriveAlt is one alternative of arriveOne: L_c ≥ lc, and delta (time
// units × slots) of idle map-slot time in [t0, b].
type arriveAlt struct {
	lc, delta, b float64
}

// arriveSum is a lower bound on Σ_j max(L_j, d_j) over the jobs with maps
// left (s.fl, d_j = s.critG − tail as in dueSum, s.eG their fluid ends)
// from whole tasks at one job's start (§14j), or cur when it finds none
// higher: job c, none of its n_c ≤ M maps placed, released at
// r = max(a_c, t0). If its last map starts at r + w with w < p_c, its
// maps start on n_c distinct slots at σ ∈ [r, r+w], and slot i is busy on
// [A_i, σ) only by whole maps of other jobs released before r + w: idle at
// least gap(σ − A_i), the distance down to a sum of their durations.
// Either w ≥ p_c (L_c ≥ r + 2p_c), or for some w < p_c: L_c ≥ r + p_c + w
// and the map slots idle at least δ(w) in [t0, r+w], which the fluid takes
// as a phantom job of that work due at r + w. The bound is the least over
// the alternatives of the due-date form (§14i) of each. cur is dueSum's
// value: an alternative at or below it ends the job's try.
func (s *searcher) arriveSum(avail []int64, t0 int64, cur float64) float64 {
	best := cur
	g := -1
	var nearest int64 = math.MaxInt64
	for j := range s.jobs {
		jb := &s.jobs[j]
		if s.mapsDone[j] >= jb.nMaps {
			continue
		}
		g++ // s.fl holds the jobs with maps left in job order
		if s.mapsDone[j] != 0 || jb.nMaps > len(avail) || jb.nMaps < 2 {
			continue
		}
		r := max(jb.arrival, t0)
		if r-t0 > arriveHorizon*jb.pMap {
			continue
		}
		if arriveOnlyNearest {
			if r >= nearest {
				continue
			}
			nearest = r
		}
		best = max(best, s.arriveOne(avail, t0, g, j, best))
	}
	return best
}

// arriveOne is arriveSum's bound for job j at s.fl[g], or at most cur
// when some alternative is no higher.
func (s *searcher) arriveOne(avail []int64, t0 int64, g, j int, cur float64) float64 {
	jb := &s.jobs[j]
	u := s.unit
	r := max(jb.arrival, t0)
	p := jb.pMap
	n := jb.nMaps
	M := len(avail)
	// reach[x]: x grid steps are a sum of durations of maps that may run
	// on a slot before c's there: of other jobs with maps left, released
	// before r + p (any counts: a superset of what a slot can run).
	horizon := max(0, (r+p-avail[0])/u)
	if int64(cap(s.arr.reach)) < horizon+1 {
		s.arr.reach = make([]int64, horizon+1)
	}
	gapTo := s.arr.reach[:horizon+1]
	lens := s.arr.lens[:0]
	for k, jk := range s.jobs {
		if k != j && s.mapsDone[k] < jk.nMaps && jk.arrival < r+p {
			l := jk.pMap / u
			seen := false
			for _, x := range lens {
				seen = seen || x == l
			}
			if !seen {
				lens = append(lens, l)
			}
		}
	}
	s.arr.lens = lens
	// gapTo[x]: x − the largest reachable value ≤ x (reachable: gap 0).
	last := int64(0)
	for x := int64(0); x <= horizon; x++ {
		ok := x == 0
		for _, l := range lens {
			if l <= x && gapTo[x-l] == 0 {
				ok = true
				break
			}
		}
		if ok {
			last = x
		}
		gapTo[x] = x - last
	}
	// idle[i]: the least idle (grid steps) of slot i to start one of c's
	// maps at some σ ∈ [r, r+w]; it only falls as w grows.
	idle := s.arr.idle[:0]
	for range M {
		idle = append(idle, math.MaxInt64)
	}
	s.arr.idle = idle
	dc := s.critG[g] - s.fl[g].tail
	alts := s.arr.alts[:0]
	prev := int64(-1)
	for w := range p / u {
		sigma := r + w*u
		for i, a := range avail {
			if sigma >= a {
				idle[i] = min(idle[i], gapTo[(sigma-a)/u])
			}
		}
		// δ(w): the n least idles (n ≤ M, a few slots: by selection).
		sel := append(s.arr.sel[:0], idle...)
		s.arr.sel = sel
		delta := int64(0)
		for q := range n {
			least := q
			for i := q + 1; i < M; i++ {
				if sel[i] < sel[least] {
					least = i
				}
			}
			sel[q], sel[least] = sel[least], sel[q]
			if sel[q] == math.MaxInt64 {
				delta = -1
				break
			}
			delta += sel[q]
		}
		if delta < 0 {
			continue // c's maps cannot all start by r + w
		}
		lc := float64(r + p + w*u)
		if delta == 0 && lc <= dc {
			return cur // an alternative is the due-date form itself
		}
		if delta == prev || (arriveMerge && prev > 0 && delta > 0) {
			// The same idle at a later w (or, merged, less idle): the
			// alternative before covers this w too with its b raised
			// (and its idle lowered).
			alts[len(alts)-1].b = float64(r + w*u)
			alts[len(alts)-1].delta = float64(delta * u)
			prev = delta
			continue
		}
		prev = delta
		alts = append(alts, arriveAlt{lc: lc, delta: float64(delta * u), b: float64(r + w*u)})
	}
	alts = append(alts, arriveAlt{lc: float64(r + 2*p)})
	s.arr.alts = alts
	// The alternatives without idle first: they keep the fluid's ends.
	v := math.Inf(1)
	for pass := range 2 {
		for _, a := range alts {
			if (a.delta > 0) != (pass == 1) {
				continue
			}
			v = min(v, s.arriveAltSum(avail, t0, g, a))
			if v <= cur {
				return cur
			}
		}
	}
	return v
}

// arriveAltSum is the due-date form of one alternative: job g due at a.lc
// at least, and with a.delta > 0 a phantom job of that work released at
// t0 and due at a.b, whose F = max(E, a.b) is exactly a.b (it ends by
// a.b), so Σ over the real jobs is the form's sum less a.b (§14j).
func (s *searcher) arriveAltSum(avail []int64, t0 int64, g int, a arriveAlt) float64 {
	oldCrit := s.critG[g]
	s.critG[g] = max(oldCrit, a.lc+s.fl[g].tail)
	defer func() { s.critG[g] = oldCrit }()
	if a.delta == 0 {
		return s.dueSum(avail)
	}
	n := len(s.fl)
	s.arr.eG = append(s.arr.eG[:0], s.eG...)
	s.fl = append(s.fl, fluidJob{release: float64(t0), work: a.delta})
	s.critG = append(s.critG, a.b)
	s.eG = s.fluidEnds(avail, s.fl, s.eG[:0])
	v := s.dueSum(avail) - a.b
	// Or: the phantom's F ≤ b, so a rank of the real jobs whose τ exceeds
	// b is the next rank's.
	var shift float64
	for m := range n {
		if s.tau[m] > a.b {
			shift += s.tau[m+1]
		} else {
			shift += s.tau[m]
		}
	}
	s.fl, s.critG = s.fl[:n], s.critG[:n]
	s.eG = append(s.eG[:0], s.arr.eG...)
	return max(v, shift)
}

// arriveScratch is arriveSum's scratch.
type arriveScratch struct {
	reach, lens, idle, sel []int64
	alts                   []arriveAlt
	eG                     []float64
}
