package bnb

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mrbound/mrbound/lowerbound"
)

// dueTiny draws a small stream of the shape the due-date bound (§14i) is
// for: one node of 2–3 map slots and one reduce slot, 2–4 jobs of 1–4
// maps each and at most one reduce, spread arrivals.
func dueTiny(r *rand.Rand) *lowerbound.Problem {
	p := &lowerbound.Problem{Mode: lowerbound.Fixed, Groups: 1, Nodes: []lowerbound.Node{{MapSlots: 2 + r.IntN(2), ReduceSlots: 1}}}
	tasks := 0
	for range 2 + r.IntN(3) {
		j := lowerbound.Job{Arrival: int64(r.IntN(9))}
		dm := int64(1 + r.IntN(5))
		for range 1 + r.IntN(4) {
			if tasks < lowerbound.ExactMaxTasks {
				j.Maps = append(j.Maps, lowerbound.Task{Dur: []int64{dm}})
				tasks++
			}
		}
		if r.IntN(2) == 0 && tasks < lowerbound.ExactMaxTasks {
			j.Reduces = append(j.Reduces, lowerbound.Task{Dur: []int64{int64(1 + r.IntN(3))}})
			tasks++
		}
		p.Jobs = append(p.Jobs, j)
	}
	return p
}

// treeAudit walks s's whole tree from the current node (no pruning, the
// rules on) and returns the best leaf's total turnaround below it; at
// every node the sums' bound (without the Lagrangian) must be at most
// that, which by §14 Lemma 1 is the least total over Comp(N). due counts
// the nodes where the due-date form is the largest part of the bound.
func treeAudit(t *testing.T, s *searcher, name string, due *int) int64 {
	if s.placed == s.nTasks {
		return s.score()
	}
	b := s.bound()
	if len(s.fl) > 0 && s.tau != nil {
		var tail, tau float64
		for _, f := range s.fl {
			tail += f.tail
		}
		for _, x := range s.tau {
			tau += x
		}
		var paired, fluidSum float64
		tmin := math.Inf(1)
		for _, f := range s.fl {
			tmin = min(tmin, f.tail)
		}
		for k, e := range s.eG {
			fluidSum += e
			paired += max(s.critG[k], e+tmin) // s.critG sorted by bound
		}
		if tail+tau > max(paired, fluidSum+tail)+1e-9 {
			*due++
		}
	}
	best := int64(math.MaxInt64)
	for _, c := range s.children(nil) {
		u := s.apply(&c)
		best = min(best, treeAudit(t, s, name, due))
		s.undo(&c, u)
	}
	if b > float64(best)+1e-9 {
		t.Fatalf("%s: node at %d placed, bound %v above its subtree's best %d", name, s.placed, b, best)
	}
	return best
}

// TestDueBoundBelowExact: on 300 streams of dueTiny's shape and 150 of
// tiny's, every node of the whole tree has a sums' bound (with the
// due-date form, §14i) at most its subtree's best leaf, and the root's best
// leaf is lowerbound.Exact's optimum; the due-date form is the largest
// part of the bound at some of the nodes.
func TestDueBoundBelowExact(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 14))
	due := 0
	for it := range 450 {
		p := dueTiny(r)
		if it >= 300 {
			p = tiny(r)
		}
		opt, err := lowerbound.Exact(p)
		if err != nil {
			t.Fatal(err)
		}
		s := newSearcher(p)
		s.ctx, s.metric = context.Background(), lowerbound.TotalTurnaround
		name := fmt.Sprintf("problem %d\n%s", it, dumpP(p))
		if got := treeAudit(t, s, name, &due); float64(got) != opt.Value(lowerbound.TotalTurnaround, len(p.Jobs)) {
			t.Fatalf("%s: the tree's best %d, Exact %d", name, got, opt.TotalTurnaround)
		}
	}
	if due == 0 {
		t.Fatal("the due-date form was never the largest part of the bound")
	}
	t.Logf("the due-date form led the bound at %d nodes", due)
}

// TestWorkEndIsFluidsLast: workEnd gives the SRPT fluid's last end (up to
// float rounding) on 20,000 seeded slot lists and job sets — ties of free
// times, releases before and after them, all slots free late.
func TestWorkEndIsFluidsLast(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 15))
	for it := range 20_000 {
		avail := make([]int64, 1+r.IntN(8))
		for i := range avail {
			avail[i] = int64(r.IntN(1 + 5*r.IntN(20)))
		}
		slices.Sort(avail)
		js := make([]fluidJob, 1+r.IntN(8))
		for i := range js {
			js[i] = fluidJob{release: float64(r.IntN(80)), work: float64(1 + r.IntN(40))}
		}
		_, ends := fluid(avail, slices.Clone(js), srpt, make([]int32, 2*len(js)), nil)
		byRelease := slices.Clone(js)
		slices.SortStableFunc(byRelease, func(a, b fluidJob) int { return cmp.Compare(a.release, b.release) })
		want, got := ends[len(ends)-1], workEnd(avail, byRelease)
		if math.Abs(got-want) > 1e-9*max(1, want) {
			t.Fatalf("case %d: workEnd(%v, %+v) = %v, the fluid's last end %v", it, avail, byRelease, got, want)
		}
	}
}
