package lowerbound

import (
	"math"
	"slices"
	"sort"
)

// Limits of the energetic max-turnaround test. Any set of intervals gives a
// valid test, so these trade strength for time.
const (
	// energeticPoints caps the interval starts and ends tried per test,
	// spread evenly over the sorted releases and deadlines.
	energeticPoints = 24
	// energeticHeavy is how many of the pieces with the longest W/cap have
	// their own window among the intervals tried (the jobs whose parallelism
	// cap makes them long). On FB-2009 day 0 at 20 nodes 8 and 24 prove
	// nothing above arrival-windows (33,737.6 s), 40 and 64 prove 34,592.1 s;
	// 40 costs 9.2 CPU s for the whole Compute there, 8 cost 0.9 s
	// (docs/results.md, issue 26, s9h26lower).
	energeticHeavy = 40
)

// ePiece is one job's work of one kind in the energetic test: its window is
// [a + lead, a + Z − lag] for a candidate maximum turnaround Z.
type ePiece struct {
	a, lead, lag float64
	w, cap       float64
	row          int
}

// energeticMaxTurnaround returns a lower bound on the maximum turnaround
// (docs/bounds.md §5, energetic-windows): the least integer Z above lo at
// which no interval of the sample is overloaded by the work the jobs must do
// inside it, given that each job completes within Z of its arrival and runs
// at most its parallelism cap. It returns lo when lo already passes.
func (pr *prep) energeticMaxTurnaround(lo float64) float64 {
	v := len(pr.weights) - 1
	nrow := 2
	if pr.fungible {
		nrow = 1
	}
	var pieces []ePiece
	for j := range pr.jobs {
		ji := &pr.jobs[j]
		for k := range 2 {
			w := ji.work[v][k]
			if w <= 0 {
				continue
			}
			pc := ePiece{a: ji.a, w: w, cap: pr.jobRateCap(j, k, v), row: min(k, nrow-1)}
			if k == kMap {
				pc.lag = ji.tail // lastMapEnd ≤ C_j − R_j ≤ a_j + Z − R_j
			} else {
				pc.lead = ji.head // reduces start after lastMapEnd ≥ a_j + M_j
			}
			pieces = append(pieces, pc)
		}
	}
	if len(pieces) == 0 {
		return lo
	}
	heavy := slices.Clone(pieces)
	sort.Slice(heavy, func(x, y int) bool { return heavy[x].w/heavy[x].cap > heavy[y].w/heavy[y].cap })
	heavy = heavy[:min(len(heavy), energeticHeavy)]
	rate := make([]float64, nrow)
	for r := range nrow {
		rate[r] = pr.rate[v][r]
	}
	z0 := math.Max(0, math.Floor(lo))
	if !pr.overloaded(pieces, heavy, rate, z0) {
		return lo
	}
	// Find a passing Z by doubling, then bisect: every failing Z is below
	// the optimum, whatever the sampled intervals did at other Z.
	fail, pass := z0, math.Max(1, 2*z0)
	for pr.overloaded(pieces, heavy, rate, pass) {
		fail, pass = pass, 2*pass
		if pass > float64(maxTime)*4 {
			return lo // no passing Z in range: keep what is proven
		}
	}
	for pass-fail > 1 {
		mid := math.Floor((fail + pass) / 2)
		if pr.overloaded(pieces, heavy, rate, mid) {
			fail = mid
		} else {
			pass = mid
		}
	}
	// Turnarounds of a semi-active optimum are whole ms (§0): failing at
	// fail means the optimum is ≥ fail + 1.
	return math.Max(lo, fail+1)
}

// overloaded reports whether some sampled interval [s, e] of some row must
// hold more work than its capacity when every job completes within z of its
// arrival: piece p's window is [r, d] = [a + lead, a + z − lag], it runs at
// rate ≤ cap, so at least W − cap·|[r, d] \ [s, e]| of it lies in [s, e].
// A window shorter than W/cap is overloaded by itself.
func (pr *prep) overloaded(pieces, heavy []ePiece, rate []float64, z float64) bool {
	var starts, ends []float64
	for _, p := range pieces {
		r, d := p.a+p.lead, p.a+z-p.lag
		if d-r < p.w/p.cap-roundingSlack(p.w/p.cap) {
			return true
		}
		starts = append(starts, r)
		ends = append(ends, d)
	}
	starts, ends = samplePoints(starts, energeticPoints), samplePoints(ends, energeticPoints)
	for _, p := range heavy {
		starts = append(starts, p.a+p.lead)
		ends = append(ends, p.a+z-p.lag)
	}
	energy := make([]float64, len(rate))
	for _, s := range starts {
		for _, e := range ends {
			if e <= s {
				continue
			}
			clear(energy)
			for _, p := range pieces {
				r, d := p.a+p.lead, p.a+z-p.lag
				inside := math.Min(d, e) - math.Max(r, s)
				if inside <= 0 {
					continue
				}
				if m := p.w - p.cap*((d-r)-inside); m > 0 {
					energy[p.row] += m
				}
			}
			for r, en := range energy {
				capacity := rate[r] * (e - s)
				if en > capacity+roundingSlack(en+capacity) {
					return true
				}
			}
		}
	}
	return false
}
