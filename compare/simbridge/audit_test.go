package simbridge

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/policy/fair"
	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
)

// auditWorkload is randomWorkload widened for issue 26's audit (s18audit):
// jobs without reduces, many identical jobs with tied arrivals, 1-ms works
// next to long ones, a single slot of a kind.
func auditWorkload(rng *rand.Rand) *sim.Workload {
	w := randomWorkload(rng, 5)
	if rng.IntN(2) == 0 {
		w.Cluster.Nodes = w.Cluster.Nodes[:1]
		w.Cluster.Nodes[0].MapSlots, w.Cluster.Nodes[0].ReduceSlots, w.Cluster.Nodes[0].TotalSlots = 1, 1, 1
	}
	if rng.IntN(2) == 0 {
		// Identical jobs, arriving together.
		j := w.Jobs[0]
		for i := range w.Jobs {
			w.Jobs[i].Maps, w.Jobs[i].Reduces = j.Maps, j.Reduces
			a := j.Arrival + sim.Time(rng.IntN(2))*1000
			if w.Jobs[i].Deadline != sim.NoDeadline {
				w.Jobs[i].Deadline += a - w.Jobs[i].Arrival // the same slack
			}
			w.Jobs[i].Arrival = a
		}
	}
	for i := range w.Jobs {
		if rng.IntN(3) == 0 {
			w.Jobs[i].Reduces = nil
		}
		if rng.IntN(4) == 0 {
			w.Jobs[i].Maps[0].Work = 1
		}
	}
	return w
}

// TestAuditBracket: on small workloads (auditWorkload) and every metric,
// Compare's report (with its branch and bound) has a bound at most every
// verified policy value, at most the best verified upper and, when the
// instance is tiny, at most Exact's optimum while the upper is at least
// it; bound_status is "optimal" exactly when the bracket is 1 (s18audit).
func TestAuditBracket(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 18))
	n := 12
	if v, err := strconv.Atoi(os.Getenv("MRBOUND_AUDIT_N")); err == nil && v > 0 {
		n = v
	}
	for i := range n {
		w := auditWorkload(rng)
		for _, m := range []lowerbound.Metric{lowerbound.Makespan, lowerbound.TotalTurnaround, lowerbound.MeanTurnaround,
			lowerbound.MaxTurnaround, lowerbound.LateJobs, lowerbound.MRCPProduct} {
			name := fmt.Sprintf("workload %d %v", i, m)
			out, err := Compare(context.Background(), name, w, NameAll(fifo.New(), fifo.NewEDF(), fair.New()),
				Options{Metric: m, Sim: IdealOptions(), SearchNodes: 2_000})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			r := out.Report
			tol := 1e-9 * math.Max(1, r.Bound)
			for _, row := range r.Policies {
				if row.Verified && row.Value < r.Bound-tol {
					t.Fatalf("%s: %s %v below the bound %v", name, row.Policy, row.Value, r.Bound)
				}
			}
			if r.Upper != nil && r.UpperVerified && *r.Upper < r.Bound-tol {
				t.Fatalf("%s: upper %v (%s) below the bound %v", name, *r.Upper, r.UpperBy, r.Bound)
			}
			one := r.Bracket != nil && *r.Bracket == 1
			if (r.BoundStatus == "optimal") != one {
				t.Fatalf("%s: bound_status %q with bracket %v", name, r.BoundStatus, r.Bracket)
			}
			if out.Exact != nil {
				o := out.Exact.Value(m, len(out.Problem.Jobs))
				if r.Bound > o+tol || (r.Upper != nil && *r.Upper < o-tol) {
					t.Fatalf("%s: bound %v, upper %v, exact optimum %v", name, r.Bound, r.Upper, o)
				}
			}
		}
	}
}
