package mrcpsched

import (
	"slices"

	"github.com/mrbound/mrbound/sim"
)

// lateSetBudget bounds the late sets passingLateSets examines per late count
// (a deterministic work limit; past it the question goes to the MILP).
const lateSetBudget = 5000

// passingLateSets decides, by the fluid relaxation of setPasses, which late
// sets a schedule with at most k late jobs and Z ≤ zcap may have: it tries
// every set of size k made of the jobs late in every schedule (fixedLate)
// and jobs with d_j < zcap (a job with d_j ≥ zcap is on time when Z ≤ zcap),
// and returns the candidate part of the first limit + 1 that pass. Every
// such schedule has its late jobs inside fixedLate ∪ one of the passing
// sets; none passing proves that no such schedule exists. decided is false
// when there were more than lateSetBudget sets to try (sets is nil then).
func (p *problem) passingLateSets(fixedLate []bool, k, zcap, limit int) (sets [][]int, decided bool) {
	var cand []int
	late := slices.Clone(fixedLate)
	fixed := 0
	for j := range p.jobs {
		switch {
		case fixedLate[j]:
			fixed++
		case p.jobs[j].deadline < zcap:
			cand = append(cand, j)
		}
	}
	pick := min(k-fixed, len(cand))
	if pick < 0 {
		return nil, true
	}
	if binom(len(cand), pick) > lateSetBudget {
		return nil, false
	}
	idx := make([]int, pick)
	for i := range idx {
		idx[i] = i
	}
	for {
		for _, i := range idx {
			late[cand[i]] = true
		}
		if p.setPasses(late, zcap) {
			set := make([]int, pick)
			for x, i := range idx {
				set[x] = cand[i]
			}
			sets = append(sets, set)
		}
		for _, i := range idx {
			late[cand[i]] = false
		}
		if len(sets) > limit {
			return sets, true
		}
		// next combination of pick indices out of len(cand)
		i := pick - 1
		for i >= 0 && idx[i] == len(cand)-pick+i {
			i--
		}
		if i < 0 {
			return sets, true
		}
		idx[i]++
		for x := i + 1; x < pick; x++ {
			idx[x] = idx[x-1] + 1
		}
	}
}

// binom is C(n, k), saturating above lateSetBudget.
func binom(n, k int) int {
	c := 1
	for i := range k {
		c = c * (n - i) / (i + 1)
		if c > lateSetBudget {
			return lateSetBudget + 1
		}
	}
	return c
}

// setPasses is a necessary condition for a schedule with Z ≤ zcap in which
// the jobs not in late meet their deadlines: the preemptive relaxation on
// pooled slots. Every job ends by D_j = zcap, or min(d_j, zcap) when on time;
// so its unstarted maps (released at 0) end by D_j − (its longest unstarted
// reduce), and its unstarted reduces run in [r_j, D_j] with r_j = redEST
// (after its running maps and its shortest unstarted map). The work of the
// tasks whose windows lie in [a, b] must fit in the slot time of the kind
// free there (running tasks hold their slots until their ends):
//
//	Σ_{windows ⊆ [a, b]} w ≤ Σ_slots (b − max(a, busy_s))⁺
//
// for a among the releases and b among the deadlines.
func (p *problem) setPasses(late []bool, zcap int) bool {
	for _, k := range []sim.Kind{sim.Map, sim.Reduce} {
		free := make([]int, p.cap[k])
		i := 0
		for _, r := range p.run {
			if r.kind == k && i < len(free) {
				free[i] = r.end
				i++
			}
		}
		type win struct{ rel, due, work int }
		var ws []win
		for j := range p.jobs {
			pj := &p.jobs[j]
			due := zcap
			if !late[j] {
				due = min(due, pj.deadline)
			}
			w := win{due: due}
			gs := pj.redGroups
			if k == sim.Map {
				gs = pj.mapGroups
				w.due -= pj.maxRed
			} else {
				w.rel = p.redEST(j)
			}
			for _, g := range gs {
				w.work += p.groups[g].dur * len(p.groups[g].tasks)
			}
			if w.work > 0 {
				ws = append(ws, w)
			}
		}
		for _, a := range ws {
			for _, b := range ws {
				if b.due < a.rel {
					continue
				}
				lo, hi, need := a.rel, b.due, 0
				for _, w := range ws {
					if w.rel >= lo && w.due <= hi {
						need += w.work
					}
				}
				have := 0
				for _, f := range free {
					have += max(hi-max(lo, f), 0)
				}
				if need > have {
					return false
				}
			}
		}
	}
	return true
}
