package windowbound

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/solve"
)

// TestOptimumMatchesEnumeration: on seeded random streams in whole seconds
// with a deadline on every job, the whole-stream MRCP solve of each metric
// (late jobs, max turnaround, the product) is proven optimal and equals the
// enumerated continuous-time optimum (lowerbound.Exact), and its bound is
// that value; streams with a rounded time or a job without a deadline (but
// for the max turnaround) are not MRCP instances exactly and get nil.
func TestOptimumMatchesEnumeration(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 12
	}
	rng := rand.New(rand.NewPCG(7, 23))
	metrics := []lowerbound.Metric{lowerbound.LateJobs, lowerbound.MaxTurnaround, lowerbound.MRCPProduct}
	proven, withLate, refused := 0, 0, 0
	for i := range n {
		p := randomStream(rng, true)
		for j := range p.Jobs {
			if !p.Jobs[j].HasDeadline && i%4 != 3 {
				p.Jobs[j].HasDeadline, p.Jobs[j].Deadline = true, p.Jobs[j].Arrival+3000
			}
		}
		if i%5 == 4 {
			p.Jobs[0].Arrival += 500 // not a multiple of a second: the unit is 500 ms, still exact
		}
		opt, err := lowerbound.Exact(p)
		if err != nil {
			t.Fatal(err)
		}
		if opt.LateJobs > 0 {
			withLate++
		}
		allDeadlines := true
		for j := range p.Jobs {
			allDeadlines = allDeadlines && p.Jobs[j].HasDeadline
		}
		for _, m := range metrics {
			name := fmt.Sprintf("stream %d %v", i, m)
			so, err := Optimum(context.Background(), p, m, Options{Solve: solve.Options{Solver: "native"}})
			if err != nil {
				t.Fatal(err)
			}
			want := opt.Value(m, len(p.Jobs))
			if so == nil {
				if allDeadlines || m == lowerbound.MaxTurnaround {
					t.Errorf("%s: refused an exact MRCP stream", name)
				}
				refused++
				continue
			}
			if !allDeadlines && m != lowerbound.MaxTurnaround {
				t.Errorf("%s: solved a stream with a job without deadline as if exact", name)
			}
			if so.Bound > want {
				t.Errorf("%s: bound %v above the enumerated optimum %v", name, so.Bound, want)
			}
			if so.Status != solve.Optimal || !so.Verified {
				t.Errorf("%s: %v, verified %v", name, so.Status, so.Verified)
				continue
			}
			proven++
			if so.Value != want || so.Bound != want {
				t.Errorf("%s: MRCP optimum %v (bound %v), enumerated %v", name, so.Value, so.Bound, want)
			}
		}
	}
	t.Logf("%d proven, %d refused, %d streams with a forced late job", proven, refused, withLate)
	if withLate == 0 || refused == 0 || proven == 0 {
		t.Errorf("%d streams with a late job in every schedule, %d refused, %d proven: a path is untested", withLate, refused, proven)
	}
}
