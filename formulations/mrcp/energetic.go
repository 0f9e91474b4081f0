package mrcp

import (
	"slices"

	"github.com/mrbound/mrbound/instances/mrcpscenario"
)

// eTask is n identical non-preemptive tasks of one job and slot kind for
// energetic reasoning: duration p, demand q, every one starting at or after
// r and ending at or before d.
type eTask struct {
	n, p, q, r, d int
}

// energetic is the non-preemptive energetic check of Baptiste and Le Pape on
// pooled slots. For an interval [t1, t2) a task with window [r, d) runs in
// it at least
//
//	min(p, t2 − t1, r + p − t1, t2 − d + p)   (clipped at 0)
//
// whether it is left-shifted (started at r) or right-shifted (ended at d),
// and anywhere in between at least as much. A group of n identical tasks, at
// most m = min(n, ⌊cap/q⌋) of them at once, also needs n·p minus what can run
// before t1 (at most n·min(p, a) and m·a slot-units in the a = min(t1, d) − r
// units of its window before t1) and after t2 (the same with
// d − max(t2, r)). Every schedule meeting the windows puts at least the
// larger of the two, times q, inside [t1, t2), so the sum over the tasks
// must fit the slot-units available there. Checking the intervals whose ends
// are in {r, r + p, d − p} (starts) and {d, d − p, r + p} (ends) for every
// group, plus the instants where the slot profile steps, suffices for the
// single-task terms (Baptiste, Le Pape and Nuijten 2001, §3.3) and is a
// subset for the rest: an interval it does not check is never needed for
// validity, only for strength.
type energetic struct {
	t1s, t2s []int
	// pack is the largest total of whole task durations that fits in a
	// length, for the packing term (nil: no packing term).
	pack *packTable
}

// packTable answers S_M(L), the largest sum of durations from a subset M of
// durs (any multiplicities) that is at most L: one slot holds at most
// S_M(L) units of tasks with durations in M lying wholly in an interval of
// length L, since they run one after another without overlap.
type packTable struct {
	durs []int   // distinct, ascending
	best [][]int // best[M][L] = S_M(L), grown on demand (M a bit mask of durs)
}

// maxPackDurs bounds the distinct durations given their own subsets; with
// more, every subset uses the table of all durations (a weaker, valid S).
const maxPackDurs = 6

func newPackTable(durs []int) *packTable {
	d := sortInts(append([]int(nil), durs...))
	n := 1
	if len(d) <= maxPackDurs {
		n = 1 << len(d)
	}
	return &packTable{durs: d, best: make([][]int, n)}
}

// bit is the mask bit of duration p (0 if p is not in durs).
func (pt *packTable) bit(p int) uint {
	for i, d := range pt.durs {
		if d == p {
			return 1 << i
		}
	}
	return 0
}

// maxPackLen bounds the lengths the packing table holds (time units); longer
// intervals get the trivial S(L) ≤ L.
const maxPackLen = 1 << 16

// kindPacks returns the packing tables of the map and reduce durations of in.
func kindPacks(in *mrcpscenario.Instance) (maps, reduces *packTable) {
	var md, rd []int
	for _, j := range in.Jobs {
		for _, t := range j.Maps {
			md = append(md, t.Duration)
		}
		for _, t := range j.Reduces {
			rd = append(rd, t.Duration)
		}
	}
	return newPackTable(md), newPackTable(rd)
}

// s returns S_M(l) (0 for l ≤ 0).
func (pt *packTable) s(mask uint, l int) int {
	if l <= 0 {
		return 0
	}
	if l > maxPackLen {
		return l // a valid (trivial) upper bound
	}
	full := uint(1)<<len(pt.durs) - 1
	if len(pt.best) == 1 || mask == 0 {
		mask = full // all durations: weaker, valid
	}
	m := mask
	if len(pt.best) == 1 {
		m = 0
	}
	best := pt.best[m]
	if best == nil {
		best = []int{0}
	}
	for len(best) <= l {
		x := len(best)
		reach := false
		for i, d := range pt.durs {
			if mask&(1<<i) != 0 && d <= x && best[x-d] == x-d {
				reach = true
				break
			}
		}
		if reach {
			best = append(best, x)
		} else {
			best = append(best, best[x-1])
		}
	}
	pt.best[m] = best
	return best[l]
}

// required is the energy (slot-units) that the tasks of e must spend in
// [t1, t2) when at most c slots are available at once.
func (e eTask) required(t1, t2, c int) int {
	l := t2 - t1
	one := min(e.p, l, e.r+e.p-t1, t2-e.d+e.p)
	if one < 0 {
		one = 0
	}
	need := e.n * one
	if par := min(e.n, c/max(e.q, 1)); par > 0 {
		before, after := 0, 0
		if a := min(t1, e.d) - e.r; a > 0 {
			before = min(e.n*min(e.p, a), par*a)
		}
		if a := e.d - max(t2, e.r); a > 0 {
			after = min(e.n*min(e.p, a), par*a)
		}
		need = max(need, e.n*e.p-before-after)
	}
	return need * e.q
}

// feasible reports whether every checked interval holds the energy its
// tasks require. Capacity: c slots throughout when free is nil; otherwise
// slot i is available from free[i] on (c = len(free)).
func (en *energetic) feasible(ts []eTask, c int, free []int, full bool) bool {
	t1s, t2s := en.t1s[:0], en.t2s[:0]
	for _, e := range ts {
		if full {
			t1s = append(t1s, e.r, e.r+e.p, e.d-e.p)
			t2s = append(t2s, e.d, e.d-e.p, e.r+e.p)
		} else {
			t1s = append(t1s, e.r)
			t2s = append(t2s, e.d)
		}
	}
	for _, f := range free {
		t1s = append(t1s, f)
	}
	t1s, t2s = sortInts(t1s), sortInts(t2s)
	en.t1s, en.t2s = t1s, t2s
	for _, t1 := range t1s {
		for i := len(t2s) - 1; i >= 0 && t2s[i] > t1; i-- {
			t2 := t2s[i]
			avail := 0
			if free == nil {
				avail = c * (t2 - t1)
			} else {
				for _, f := range free {
					avail += max(0, t2-max(t1, f))
				}
			}
			need, inside := 0, 0
			var mask uint
			for _, e := range ts {
				if need += e.required(t1, t2, c); need > avail {
					return false
				}
				if en.pack != nil && e.r >= t1 && e.d <= t2 && e.q == 1 {
					inside += e.n * e.p
					mask |= en.pack.bit(e.p)
				}
			}
			packed := 0
			if inside > 0 {
				if free == nil {
					packed = c * en.pack.s(mask, t2-t1)
				} else {
					for _, f := range free {
						packed += en.pack.s(mask, t2-max(t1, f))
					}
				}
			}
			if inside > packed {
				return false
			}
		}
	}
	return true
}

// sortInts sorts a and drops repeats.
func sortInts(a []int) []int {
	slices.Sort(a)
	return slices.Compact(a)
}
