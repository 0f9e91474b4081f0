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
