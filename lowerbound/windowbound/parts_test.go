package windowbound

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/solve"
)

// gappedStream draws 2–3 bursts of 1–2 jobs (whole seconds, ≤ 9 tasks in
// all, a deadline on every job) on 1–2 nodes, each burst arriving at or
// after the end of the previous one's work (gapParts' E(A): exactly there,
// a few seconds later or, when long, 2^20 s later, which puts the stream
// beyond maxOptimumUnits).
func gappedStream(rng *rand.Rand, long bool) *lowerbound.Problem {
	p := &lowerbound.Problem{Mode: lowerbound.Fixed, Groups: 1}
	for range 1 + rng.IntN(2) {
		p.Nodes = append(p.Nodes, lowerbound.Node{MapSlots: 1 + rng.IntN(2), ReduceSlots: 1})
	}
	sec := func(lo, n int64) int64 { return 1000 * (lo + rng.Int64N(n)) }
	var at int64
	tasks := 0
	for burst := range 2 + rng.IntN(2) {
		latest, work := at, int64(0)
		for range 1 + rng.IntN(2) {
			j := lowerbound.Job{Arrival: at + sec(0, 3), HasDeadline: true}
			for range 1 + rng.IntN(2) {
				j.Maps = append(j.Maps, lowerbound.Task{Dur: []int64{sec(1, 4)}})
			}
			j.Reduces = []lowerbound.Task{{Dur: []int64{sec(1, 4)}}}
			if tasks+len(j.Maps)+1 > lowerbound.ExactMaxTasks {
				break
			}
			tasks += len(j.Maps) + 1
			j.Deadline = j.Arrival + sec(2, 8)
			latest = max(latest, j.Arrival)
			for _, ts := range [][]lowerbound.Task{j.Maps, j.Reduces} {
				for _, t := range ts {
					work += t.Dur[0]
				}
			}
			p.Jobs = append(p.Jobs, j)
		}
		at = latest + work
		switch {
		case long && burst == 0:
			at += 1000 << 20
		case rng.IntN(2) == 0:
			at += sec(0, 4)
		}
	}
	return p
}

// TestOptimumInPartsMatchesExact: on gappedStream draws (a third of them
// beyond maxOptimumUnits, where Optimum returned nil before it cut streams
// at idle gaps), Optimum cuts every metric but the product into parts and
// proves the enumerated optimum (lowerbound.Exact), with a schedule that the
// test's own checker accepts at that value, also with the optimum as
// incumbent (makespan, total and mean); the product is solved whole within
// the limit and declined beyond it. Stopped at one node, after 200 context
// checks or by a time limit of 1 ns, no bound is above the optimum.
func TestOptimumInPartsMatchesExact(t *testing.T) {
	n := 24
	if testing.Short() {
		n = 9
	}
	rng := rand.New(rand.NewPCG(21, 26))
	proven, long := 0, 0
	for i := range n {
		isLong := i%3 == 2
		p := gappedStream(rng, isLong)
		opt, err := lowerbound.Exact(p)
		if err != nil {
			t.Fatal(err)
		}
		beyond := spanMs(p)/exactUnit(p) > maxOptimumUnits
		if beyond != isLong {
			t.Fatalf("stream %d: %d ms of span in units of %d ms, long %v", i, spanMs(p), exactUnit(p), isLong)
		}
		for _, m := range optimumMetrics {
			what := fmt.Sprintf("stream %d %v", i, m)
			want := opt.Value(m, len(p.Jobs))
			so, err := Optimum(context.Background(), p, m, Options{Solve: solve.Options{Solver: "native"}})
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if m == lowerbound.MRCPProduct {
				if (so == nil) != beyond {
					t.Errorf("%s: %v beyond the unit limit %v: the product is solved whole or not at all", what, so, beyond)
				}
				if so != nil {
					checkStreamOptimum(t, what, p, m, so, want)
				}
				continue
			}
			if so == nil {
				t.Fatalf("%s: nil", what)
			}
			checkStreamOptimum(t, what, p, m, so, want)
			if so.Parts < 2 || so.Status != solve.Optimal {
				t.Errorf("%s: %d parts, %v; want the optimum %v from ≥ 2 parts", what, so.Parts, so.Status, want)
			}
			proven++
			if beyond {
				long++
			}
			if m == lowerbound.TotalTurnaround || m == lowerbound.MeanTurnaround || m == lowerbound.Makespan {
				inc, err := Optimum(context.Background(), p, m, Options{Solve: solve.Options{Solver: "native"}, Incumbent: want})
				if err != nil || inc == nil {
					t.Fatalf("%s with the optimum as incumbent: %v, %v", what, inc, err)
				}
				checkStreamOptimum(t, what+" with the optimum as incumbent", p, m, inc, want)
				if inc.Status != solve.Optimal {
					t.Errorf("%s with the optimum as incumbent: %v", what, inc.Status)
				}
			}
			stops := append(earlyStops(), earlyStop{"time limit 1 ns", context.Background(), solve.Options{Solver: "native", TimeLimit: time.Nanosecond}})
			for _, stop := range stops {
				r, err := Optimum(stop.ctx, p, m, Options{Solve: stop.solve})
				if err != nil || r == nil {
					t.Fatalf("%s, %s: %v, %v", what, stop.name, r, err)
				}
				checkStreamOptimum(t, what+", "+stop.name, p, m, r, want)
			}
		}
	}
	t.Logf("%d metric solves proven in parts, %d of them beyond %d units", proven, long, maxOptimumUnits)
	if proven == 0 || long == 0 {
		t.Errorf("%d proven, %d beyond the unit limit: a path is untested", proven, long)
	}
}

// TestOptimumSplitsAtIdleGaps: TestWindowSplitsAtIdleGaps' stream of three
// jobs ≈ 2^36 ms apart, 6.9·10^7 units of 1 s from its first arrival (nil
// before), is proven for every metric but the product, in three parts, at
// Exact's optimum; a stream without an idle gap is solved whole as before.
func TestOptimumSplitsAtIdleGaps(t *testing.T) {
	task := func(ms int64) lowerbound.Task { return lowerbound.Task{Dur: []int64{ms}} }
	job := func(a, d int64) lowerbound.Job {
		return lowerbound.Job{Arrival: a, Deadline: a + d, HasDeadline: true,
			Maps: []lowerbound.Task{task(3000), task(2000)}, Reduces: []lowerbound.Task{task(4000)}}
	}
	nodes := []lowerbound.Node{{MapSlots: 1, ReduceSlots: 1}}
	for _, c := range []struct {
		name  string
		jobs  []lowerbound.Job
		parts int
	}{
		{"gap 2^36", []lowerbound.Job{job(0, 8000), job(1000<<26, 10000), job(1000<<26+9000, 9000)}, 3},
		{"no idle gap", []lowerbound.Job{job(0, 8000), job(8000, 8000)}, 0},
	} {
		p := &lowerbound.Problem{Mode: lowerbound.Fixed, Groups: 1, Nodes: nodes, Jobs: c.jobs}
		opt, err := lowerbound.Exact(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range optimumMetrics {
			what := fmt.Sprintf("%s %v", c.name, m)
			so, err := Optimum(context.Background(), p, m, Options{Solve: solve.Options{Solver: "native"}})
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if m == lowerbound.MRCPProduct && c.parts > 0 {
				if so != nil {
					t.Errorf("%s: %v, want nil (a union's product is not its parts')", what, so.Status)
				}
				continue
			}
			if so == nil {
				t.Fatalf("%s: nil", what)
			}
			checkStreamOptimum(t, what, p, m, so, opt.Value(m, len(p.Jobs)))
			if so.Status != solve.Optimal || so.Parts != c.parts {
				t.Errorf("%s: %v in %d parts, want the optimum in %d", what, so.Status, so.Parts, c.parts)
			}
		}
	}
}
