package windowbound

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/solvertest"
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

// congestedStream is the 10-job mixed stream of instances/mrcpscenario's
// generator (λ 0.04, seed 1: two jobs late in every schedule) as a
// lowerbound.Problem in ms; formulations/mrcp's combinatorial phase proves
// each metric's optimum in about 0.3 s.
func congestedStream(t *testing.T) *lowerbound.Problem {
	t.Helper()
	in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: mrcpscenario.Mixed, Jobs: 10, Lambda: 0.04, Seed: 1, TimeUnit: 1})
	if err != nil {
		t.Fatal(err)
	}
	p := &lowerbound.Problem{Mode: lowerbound.Fixed, Groups: 1}
	for _, r := range in.Resources {
		p.Nodes = append(p.Nodes, lowerbound.Node{MapSlots: r.MapSlots, ReduceSlots: r.ReduceSlots})
	}
	for _, job := range in.Jobs {
		j := lowerbound.Job{Arrival: int64(job.Release) * 1000, HasDeadline: true, Deadline: int64(job.Deadline) * 1000}
		for _, m := range job.Maps {
			j.Maps = append(j.Maps, lowerbound.Task{Dur: []int64{int64(m.Duration) * 1000}})
		}
		for _, r := range job.Reduces {
			j.Reduces = append(j.Reduces, lowerbound.Task{Dur: []int64{int64(r.Duration) * 1000}})
		}
		p.Jobs = append(p.Jobs, j)
	}
	return p
}

// TestOptimumBoundAtStops: on a congested 10-job stream, Optimum stopped
// early (a cancelled context, an expired or short time limit, a node or an
// iteration limit, a loose gap) reports a bound at most the optimum proven
// without limits, for each metric, a verified value no better than it, and
// with a cancelled context or an expired time limit not Optimal (before
// formulations/mrcp honoured them, the combinatorial phase still proved
// the optimum).
func TestOptimumBoundAtStops(t *testing.T) {
	p := congestedStream(t)
	metrics := []lowerbound.Metric{lowerbound.LateJobs, lowerbound.MaxTurnaround, lowerbound.MRCPProduct}
	stops := []struct {
		name string
		ctx  context.Context
		so   solve.Options
		// stopped: the run must end at a limit (nothing is proven before).
		stopped bool
	}{
		{"cancelled", solvertest.Cancelled(), solve.Options{}, true},
		{"time_1ns", context.Background(), solve.Options{TimeLimit: time.Nanosecond}, true},
		{"time_50ms", context.Background(), solve.Options{TimeLimit: 50 * time.Millisecond}, false},
		{"nodes_1", context.Background(), solve.Options{NodeLimit: 1}, false},
		{"iterations_1", context.Background(), solve.Options{IterationLimit: 1}, false},
		{"gap_0.5", context.Background(), solve.Options{RelGap: 0.5}, false},
	}
	for _, m := range metrics {
		opt, err := Optimum(context.Background(), p, m, Options{Solve: solve.Options{Solver: "native"}})
		if err != nil {
			t.Fatal(err)
		}
		if opt == nil || opt.Status != solve.Optimal || !opt.Verified {
			t.Fatalf("%v: reference %+v, want a verified optimum", m, opt)
		}
		for _, st := range stops {
			name := fmt.Sprintf("%v %s", m, st.name)
			so := st.so
			so.Solver = "native"
			got, err := Optimum(st.ctx, p, m, Options{Solve: so})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %v, value %v, bound %v (optimum %v)", name, got.Status, got.Value, got.Bound, opt.Value)
			if got.Bound > opt.Value {
				t.Errorf("%s: bound %v above the optimum %v", name, got.Bound, opt.Value)
			}
			if got.Verified && got.Value < opt.Value {
				t.Errorf("%s: verified value %v below the optimum %v", name, got.Value, opt.Value)
			}
			if got.Status == solve.Optimal && got.Bound != got.Value {
				t.Errorf("%s: optimal with bound %v, value %v", name, got.Bound, got.Value)
			}
			if st.stopped && !got.Status.IsLimit() {
				t.Errorf("%s: %v, want a limit", name, got.Status)
			}
		}
	}
}
