package mrcp

import (
	"slices"

	inst "github.com/mrbound/mrbound/instances/mrcp"
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

// packTable answers S(L), the largest sum of durations from durs (any
// multiplicities) that is at most L: one slot holds at most S(L) units of
// tasks lying wholly in an interval of length L, since they run one after
// another without overlap.
type packTable struct {
	durs []int
	best []int // best[L] = S(L), grown on demand
}

func newPackTable(durs []int) *packTable {
	d := sortInts(append([]int(nil), durs...))
	return &packTable{durs: d, best: []int{0}}
}

// maxPackLen bounds the lengths the packing table holds (time units); longer
// intervals get the trivial S(L) ≤ L.
const maxPackLen = 1 << 16

// kindPacks returns the packing tables of the map and reduce durations of in.
func kindPacks(in *inst.Instance) (maps, reduces *packTable) {
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

// s returns S(l) (0 for l ≤ 0).
func (pt *packTable) s(l int) int {
	if l <= 0 {
		return 0
	}
	if l > maxPackLen {
		return l // a valid (trivial) upper bound
	}
	for len(pt.best) <= l {
		x := len(pt.best)
		reach := false
		for _, d := range pt.durs {
			if d <= x && pt.best[x-d] == x-d {
				reach = true
				break
			}
		}
		if reach {
			pt.best = append(pt.best, x)
		} else {
			pt.best = append(pt.best, pt.best[x-1])
		}
	}
	return pt.best[l]
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
			avail, packed := 0, 0
			if free == nil {
				avail = c * (t2 - t1)
				if en.pack != nil {
					packed = c * en.pack.s(t2-t1)
				}
			} else {
				for _, f := range free {
					avail += max(0, t2-max(t1, f))
					if en.pack != nil {
						packed += en.pack.s(t2 - max(t1, f))
					}
				}
			}
			need, inside := 0, 0
			for _, e := range ts {
				if need += e.required(t1, t2, c); need > avail {
					return false
				}
				if e.r >= t1 && e.d <= t2 && e.q == 1 {
					inside += e.n * e.p
				}
			}
			if en.pack != nil && inside > packed {
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
