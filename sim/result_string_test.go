package sim

import (
	"strings"
	"testing"
)

// TestResultStringCountsJobs: the summary line says "1 job" for one job and
// "2 jobs" for two (the engine does this inline, importing nothing of ours).
func TestResultStringCountsJobs(t *testing.T) {
	for _, c := range []struct {
		jobs int
		want string
	}{{1, "1/1 job,"}, {2, "2/2 jobs,"}} {
		r := &Result{Policy: "fifo"}
		r.Metrics.Jobs, r.Metrics.CompletedJobs = c.jobs, c.jobs
		if got := r.String(); !strings.Contains(got, c.want) {
			t.Errorf("%d jobs: %q, want it to contain %q", c.jobs, got, c.want)
		}
	}
}
