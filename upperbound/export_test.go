package upperbound

import "github.com/mrbound/mrbound/sim"

// SetVerifyTrace replaces the checker of every schedule for a test (so that
// it can make the checker reject) and returns what restores it.
func SetVerifyTrace(v func(*sim.Workload, *sim.Result) error) (restore func()) {
	old := verifyTrace
	verifyTrace = v
	return func() { verifyTrace = old }
}
