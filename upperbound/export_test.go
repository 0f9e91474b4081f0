package upperbound

import "github.com/mrbound/mrbound/sim"

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
	l, err := New(w, SRPTHold)
	if err != nil {
		return nil, err
	}
	l.holdFirstFree = true
	return l, nil
}
