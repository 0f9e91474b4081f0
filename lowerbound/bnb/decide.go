package bnb

import (
	"math"

	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/solve"
)

// maxOrder is the order in which a round of the maxima's search takes the
// children of equal bound.
type maxOrder int8

const (
	// byArrival takes the earliest arrival first: with the equal tails of
	// MRCP's streams, the earliest deadline of cannotBeat.
	byArrival maxOrder = iota
	// byLeastWork takes the job of least remaining work first.
	byLeastWork
	// byMostWork takes the job of most remaining work first.
	byMostWork
	numOrders
)

// maxTie is the tie key of a child of job arrival a and remaining work w
// under the current round's order.
func (s *searcher) maxTie(a, w int64) int64 {
	switch s.order {
	case byLeastWork:
		return w
	case byMostWork:
		return -w
	}
	return a
}

// runMax is run for the makespan and the maximum turnaround, which with an
// incumbent U are decision problems — is there a schedule of score ≤ U − 1?
// — that cannotBeat's deadlines prune hard, but where a depth-first search
// that finds no such schedule early in its order spends its nodes far from
// one: on the 20-job MRCP streams the schedule below the incumbent is found
// within a few thousand nodes by one order and not in a million by another
// (docs/results.md, issue 26, s13max). So the node limit is split into
// rounds, one per order, each a complete depth-first search from the root
// that stops at its share; any round that closes every node proves the
// incumbent optimal, the incumbent found carries over, and the bound is
// the best of the rounds' bounds (each valid, §14). A round's memo is
// dropped after it: a stopped round leaves dominators whose subtrees were
// not closed (Lemma 3 needs them closed). The sums run one search.
func (s *searcher) runMax() {
	if s.metric != lowerbound.Makespan && s.metric != lowerbound.MaxTurnaround {
		s.run()
		return
	}
	total := s.limit
	s.restartOn = true
	defer func() { s.restartOn = false }()
	if s.inc == math.MaxInt64 {
		// No incumbent to probe below: the first leaf of a dive gives one.
		s.limit = min(total, s.nodes+2*int64(s.nTasks)+2)
		s.run()
		if s.finished || (s.stopped == solve.StatusUnknown && !s.restart) {
			return // every node closed
		}
	}
	lo := s.probes(total / 2)
	if s.finished || s.stopped == solve.StatusUnknown && lo >= s.inc {
		s.stopped = solve.StatusUnknown
		return // a probe's schedule met the proven level, or the levels reached the incumbent
	}
	bound := float64(lo)
	for r := range numOrders {
		s.order = r
		end := s.nodes + (total-s.nodes)/int64(numOrders-r)
		for {
			s.round(end)
			if s.finished || (s.stopped == solve.StatusUnknown && !s.restart) {
				return // the incumbent met Known, or every node closed
			}
			if !s.restart {
				break
			}
			// A better schedule: search again from the root below it.
		}
		bound = math.Max(bound, math.Min(s.openMin, float64(s.inc)))
		if s.stopped == solve.Interrupted {
			break
		}
	}
	s.openMin = bound
}

// round runs one depth-first search from the root, to node end at most
// (one node at least), with a fresh memo (after the first search) and the
// previous round's stop, open bound and restart cleared.
func (s *searcher) round(end int64) {
	s.limit = max(end, s.nodes+1)
	s.stopped, s.openMin, s.restart = solve.StatusUnknown, math.Inf(1), false
	if s.memo != nil && s.nodes > 0 {
		s.memo = newMemo(s.memo.max)
	}
	s.run()
}

// lpAfterNodes is the nodes a probe's level gets without the root's
// weighted-load LP (bound_lp.go) before it: the search decides most levels
// within a few hundred nodes (docs/results.md, s13max), where the LP would
// cost as much as 10^4.
// It is a variable so that the tests can give the LP every level.
var lpAfterNodes int64 = 4096

// probes decides, level by level from the best proven one up, whether a
// schedule of score ≤ lo exists, within budget nodes: the incumbent is set
// to lo + 1 for the probe (cannotBeat's deadlines are then the tightest,
// and off-by-one gaps close), a search that closes every node refutes lo
// (the next multiple of the unit becomes the proven level, Known), one
// that reaches a leaf has found a schedule at the proven level — optimal.
// Each level is first searched without the weighted-load LPs for
// lpAfterNodes nodes, then with them, at the root and at a few shallow
// nodes (bound_lp.go).
// It returns the proven level; s.finished reports a schedule found, s.stopped
// a probe stopped undecided (or interrupted).
func (s *searcher) probes(budget int64) int64 {
	u := s.unit
	if s.inc == math.MaxInt64 {
		return 0
	}
	end := s.nodes + budget
	s.dec.lpOff = true // the LP waits for a level the search leaves open
	lo := max(s.known, int64(ceilSafe(s.bound())), 0)
	s.dec.lpOff = false
	lo = (lo + u - 1) / u * u // scores of the tree are multiples of u
	for lo < s.inc && s.nodes < end {
		real := s.inc
		s.inc, s.known = lo+1, lo
		decided := false
		for r := -1; r < int(numOrders); r++ {
			// A first round without the root's LP (most levels are
			// decided within lpAfterNodes, and the LP then costs nothing),
			// then the three orders with it.
			if r < 0 {
				s.order, s.dec.lpOff = byArrival, true
				s.round(min(end, s.nodes+lpAfterNodes))
				s.dec.lpOff = false
			} else {
				s.order, s.dec.lpNodes = maxOrder(r), true
				s.round(s.nodes + (end-s.nodes)/int64(int(numOrders)-r))
				s.dec.lpNodes = false
			}
			if s.finished {
				return lo // s.inc ≤ lo, its schedule in s.best
			}
			if s.stopped == solve.StatusUnknown {
				decided = true // every node closed: no schedule ≤ lo
				break
			}
			if s.stopped == solve.Interrupted {
				break
			}
		}
		s.inc = real
		if !decided {
			s.known = lo // still proven: a later schedule at lo is optimal
			return lo
		}
		lo += u
		s.known = lo
	}
	return lo
}
