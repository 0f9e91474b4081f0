package upperbound

import (
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/sim"
)

// SetVerifyTrace replaces the checker of every schedule for a test (so that
// it can make the checker reject) and returns what restores it.
func SetVerifyTrace(v func(*sim.Workload, *sim.Result) error) (restore func()) {
	old := verifyTrace
	verifyTrace = v
	return func() { verifyTrace = old }
}

// NewWithOffsets is dynamic rule r's construction with offset[j] added to
// job j's key: a candidate of the search around r.
func NewWithOffsets(w *sim.Workload, r Rule, offset []float64) (*List, error) {
	l, err := New(w, r)
	if err != nil {
		return nil, err
	}
	l.offset = offset
	return l, nil
}

// NewHoldFirstFree is srpt-hold judging its holds as s13up's rule did (the
// wait saved up to the first reduce slot to free; see List.holdFirstFree):
// the rule the finer estimate is tested against.
func NewHoldFirstFree(w *sim.Workload) (*List, error) {
	return newHoldWith(w, func(l *List) { l.holdFirstFree = true })
}

// newHoldWith is srpt-hold on w with one of its switches set by set.
func newHoldWith(w *sim.Workload, set func(*List)) (*List, error) {
	l, err := New(w, SRPTHold)
	if err != nil {
		return nil, err
	}
	set(l)
	return l, nil
}

// LongestWaits are the jobs the moves around srpt-hold promote, given the
// completions c: all but the wide ones, and the one-reduce ones, longest
// wait beyond the critical path first.
func LongestWaits(w *sim.Workload, p *lowerbound.Problem, c []int64) (all, one []int) {
	e := &evaluator{w: w, p: p, c: newClair(w)}
	return e.longestWaits(c)
}

// TopIndex is the draw of a rank among n longest waits.
var TopIndex = topIndex

// NewHoldNoMapLocal is srpt-hold without its wait for a local map slot
// (offerMaps): a test compares the two schedules.
func NewHoldNoMapLocal(w *sim.Workload) (*List, error) {
	return newHoldWith(w, func(l *List) { l.noMapLocal = true })
}

// NewHoldPriced is srpt-hold with a relaxation's reduce prices
// (Options.Prices) in its holds' cost.
func NewHoldPriced(w *sim.Workload, sp *SlotPrices) (*List, error) {
	if err := sp.validate(); err != nil {
		return nil, err
	}
	return newHoldWith(w, func(l *List) { l.c.reducePrice = newPriceCurve(sp) })
}

// OffsetMoves draws n of the search's offset moves around srpt-hold, given
// the completions c and the longest waits top: each move's job and
// direction (−1 promotes it).
func OffsetMoves(w *sim.Workload, p *lowerbound.Problem, c []int64, top []int, seed uint64, n int) (jobs []int, signs []float64) {
	e := &evaluator{w: w, p: p, c: newClair(w)}
	rng := sim.NewStream(seed, "moves")
	for range n {
		j, sign := e.offsetMove(rng, c, top)
		jobs, signs = append(jobs, j), append(signs, sign)
	}
	return jobs, signs
}

// HoldBiasMoves draws n of the search's hold moves from srpt-hold's own
// decisions, given the completions c and the one-reduce jobs that waited
// longest, topOne: for each move that changed a job's bias (not the cost
// factor), the job and the change.
func HoldBiasMoves(w *sim.Workload, p *lowerbound.Problem, c []int64, topOne []int, seed uint64, n int) (jobs []int, changes []float64) {
	e := &evaluator{w: w, p: p, c: newClair(w)}
	rng := sim.NewStream(seed, "moves")
	start := holdMoves{bias: make([]float64, len(w.Jobs)), scale: 1}
	for range n {
		m := e.holdMove(rng, start, c, topOne)
		for j, b := range m.bias {
			if b != 0 {
				jobs, changes = append(jobs, j), append(changes, b)
			}
		}
	}
	return jobs, changes
}
