package windowbound

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/solve"
	_ "github.com/mrbound/mrbound/solve/native"
)

// randomStream draws a tiny MRCP-like stream: fixed slots on 1–2 nodes, 2–3
// jobs each with maps and reduces of whole seconds, arrivals and deadlines
// in ms (so rounding to the unit matters) or, when aligned, in whole seconds.
func randomStream(rng *rand.Rand, aligned bool) *lowerbound.Problem {
	p := &lowerbound.Problem{Mode: lowerbound.Fixed, Groups: 1}
	for range 1 + rng.IntN(2) {
		p.Nodes = append(p.Nodes, lowerbound.Node{MapSlots: 1 + rng.IntN(2), ReduceSlots: 1})
	}
	tasks := 0
	for range 2 + rng.IntN(2) {
		j := lowerbound.Job{Arrival: rng.Int64N(8000)}
		for range 1 + rng.IntN(2) {
			j.Maps = append(j.Maps, lowerbound.Task{Dur: []int64{1000 * (1 + rng.Int64N(5))}})
		}
		j.Reduces = []lowerbound.Task{{Dur: []int64{1000 * (1 + rng.Int64N(5))}}}
		tasks += len(j.Maps) + 1
		if tasks > 8 {
			break
		}
		if rng.IntN(4) > 0 {
			j.HasDeadline = true
			j.Deadline = j.Arrival + 2000 + rng.Int64N(10000)
		}
		if aligned {
			j.Arrival -= j.Arrival % 1000
			j.Deadline -= j.Deadline % 1000
		}
		p.Jobs = append(p.Jobs, j)
	}
	return p
}

// TestWindowBoundNeverExceedsOptimum: on seeded random streams, the windows'
// late-job and max-turnaround bounds never exceed the enumerated continuous
// optimum, with one window and with one job per window; with one window and
// data in whole seconds the late count is the optimum itself.
func TestWindowBoundNeverExceedsOptimum(t *testing.T) {
	n := 30
	if testing.Short() {
		n = 10
	}
	rng := rand.New(rand.NewPCG(5, 19))
	exactSeen := 0
	for i := range n {
		aligned := i%2 == 0
		p := randomStream(rng, aligned)
		opt, err := lowerbound.Exact(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, per := range []int{1, 10} {
			r, err := Bound(context.Background(), p, Options{WindowJobs: per, UnitMs: 1000})
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("instance %d, %d jobs per window", i, per)
			if int64(r.LateJobs) > opt.LateJobs {
				t.Errorf("%s: late bound %d > optimum %d", name, r.LateJobs, opt.LateJobs)
			}
			if r.MaxTurnaroundMs > opt.MaxTurnaround {
				t.Errorf("%s: max turnaround bound %d > optimum %d", name, r.MaxTurnaroundMs, opt.MaxTurnaround)
			}
			if aligned && per == 10 && r.AllOptimal && int64(r.LateJobs) != opt.LateJobs {
				t.Errorf("%s: proven late count %d, enumerated optimum %d", name, r.LateJobs, opt.LateJobs)
			}
			if r.Exact {
				exactSeen++
			}
			if r.Exact && (int64(r.LateJobs) != opt.LateJobs || r.MaxTurnaroundMs != opt.MaxTurnaround) {
				t.Errorf("%s: exact window gives late %d, max turnaround %d; enumerated %d, %d", name,
					r.LateJobs, r.MaxTurnaroundMs, opt.LateJobs, opt.MaxTurnaround)
			}
			if !r.AllOptimal {
				t.Logf("%s: not all windows proven", name)
			}
		}
	}
	if exactSeen == 0 {
		t.Error("no window was exact: the exact path is untested")
	}
	t.Logf("%d exact runs", exactSeen)
}

// TestWindowBoundMRCPWindows: two MRCP small jobs (3 maps of 12 s, one
// reduce of 39 s) arriving together on MRCP's 4-node cluster, deadlines at
// 60 s. The unit is gcd(12, 39) = 3 s and nothing is rounded, so the values
// are exact. Together: the first job's maps end at 12 s and its reduce at
// 51 s, but six maps on four slots end at 24 s at best, so the other reduce
// ends at 63 s: one job is late and the maximum turnaround is 63 s. In
// separate windows no job is late and each takes 51 s alone.
func TestWindowBoundMRCPWindows(t *testing.T) {
	p := &lowerbound.Problem{Mode: lowerbound.Fixed, Groups: 1}
	for range 4 {
		p.Nodes = append(p.Nodes, lowerbound.Node{MapSlots: 1, ReduceSlots: 1})
	}
	for range 2 {
		j := lowerbound.Job{HasDeadline: true, Deadline: 60000}
		for range 3 {
			j.Maps = append(j.Maps, lowerbound.Task{Dur: []int64{12000}})
		}
		j.Reduces = []lowerbound.Task{{Dur: []int64{39000}}}
		p.Jobs = append(p.Jobs, j)
	}
	for _, c := range []struct {
		per, windows, late int
		maxT               int64
	}{{2, 1, 1, 63000}, {1, 2, 0, 51000}} {
		r, err := Bound(context.Background(), p, Options{WindowJobs: c.per})
		if err != nil {
			t.Fatal(err)
		}
		if r.UnitMs != 3000 || !r.AllOptimal || len(r.Windows) != c.windows {
			t.Fatalf("%d per window: unit %d, all optimal %v, %d windows", c.per, r.UnitMs, r.AllOptimal, len(r.Windows))
		}
		if r.Exact != (c.windows == 1) {
			t.Errorf("%d per window: exact %v", c.per, r.Exact)
		}
		if r.LateJobs != c.late || r.MaxTurnaroundMs != c.maxT {
			t.Errorf("%d per window: late %d, max turnaround %d; want %d, %d", c.per, r.LateJobs, r.MaxTurnaroundMs, c.late, c.maxT)
		}
	}
	opt, err := lowerbound.Exact(p)
	if err != nil {
		t.Fatal(err)
	}
	if opt.LateJobs != 1 || opt.MaxTurnaround != 63000 {
		t.Errorf("enumerated late %d, max turnaround %d; want 1, 63000", opt.LateJobs, opt.MaxTurnaround)
	}
}

// TestWindowBoundRefuses: fungible slots are bad input.
func TestWindowBoundRefuses(t *testing.T) {
	job := lowerbound.Job{Maps: []lowerbound.Task{{Dur: []int64{500}}}, Reduces: []lowerbound.Task{{Dur: []int64{2000}}}}
	fun := &lowerbound.Problem{Mode: lowerbound.Fungible, Groups: 1, Nodes: []lowerbound.Node{{Slots: 2}}, Jobs: []lowerbound.Job{job}}
	if _, err := Bound(context.Background(), fun, Options{}); !errors.Is(err, badinput.Err) {
		t.Errorf("fungible: want bad input, got %v", err)
	}
}

// TestShortTasksDropped: a task shorter than the unit (refused before) is
// left out and counted; the bounds stay at or under Exact's optima, and a
// job left without a map goes with its reduce. Jobs 0 and 2 (one map each,
// under a second) are dropped whole; job 1 keeps its 3-s map and reduce and
// loses its 300-ms map.
func TestShortTasksDropped(t *testing.T) {
	task := func(ms int64) lowerbound.Task { return lowerbound.Task{Dur: []int64{ms}} }
	p := &lowerbound.Problem{Mode: lowerbound.Fixed, Groups: 1, Nodes: []lowerbound.Node{{MapSlots: 1, ReduceSlots: 1}},
		Jobs: []lowerbound.Job{
			{Arrival: 0, Deadline: 3000, HasDeadline: true, Maps: []lowerbound.Task{task(500)}, Reduces: []lowerbound.Task{task(2000)}},
			{Arrival: 0, Deadline: 6000, HasDeadline: true, Maps: []lowerbound.Task{task(3000), task(300)}, Reduces: []lowerbound.Task{task(2000)}},
			{Arrival: 1000, Deadline: 2000, HasDeadline: true, Maps: []lowerbound.Task{task(400)}, Reduces: []lowerbound.Task{task(3000)}},
		}}
	opt, err := lowerbound.Exact(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, per := range []int{1, 3} {
		r, err := Bound(context.Background(), p, Options{WindowJobs: per, UnitMs: 1000, Solve: solve.Options{Solver: "native"}})
		if err != nil {
			t.Fatalf("%d per window: %v", per, err)
		}
		// Jobs 0 and 2 whole (two tasks each) and job 1's 300-ms map.
		if r.DroppedTasks != 5 || r.Exact {
			t.Errorf("%d per window: dropped %d tasks, exact %v; want 5, false", per, r.DroppedTasks, r.Exact)
		}
		if int64(r.LateJobs) > opt.LateJobs || r.MaxTurnaroundMs > opt.MaxTurnaround {
			t.Errorf("%d per window: late ≥ %d, max turnaround ≥ %d ms; optimum %d, %d ms", per, r.LateJobs, r.MaxTurnaroundMs, opt.LateJobs, opt.MaxTurnaround)
		}
		if r.MaxTurnaroundMs == 0 {
			t.Errorf("%d per window: no max-turnaround bound from the kept tasks", per)
		}
	}
}

// TestDeadlineBeforeArrival: a Problem may give a job a deadline before its
// arrival (the job is late in every schedule); MRCP refuses one, so Bound
// failed with "window: jobs[1].deadline: 1 is before the release 3" and
// Optimum declined the late count and the product (issue 26's audit,
// s19wb). The deadline is now raised to the release: the window is still
// exact, and Bound and Optimum give Exact's optima (one late job, 4 s of
// maximum turnaround, a product of 8 s).
func TestDeadlineBeforeArrival(t *testing.T) {
	task := []lowerbound.Task{{Dur: []int64{2000}}}
	p := &lowerbound.Problem{Mode: lowerbound.Fixed, Groups: 1, Nodes: []lowerbound.Node{{MapSlots: 1, ReduceSlots: 1}},
		Jobs: []lowerbound.Job{
			{Arrival: 3000, HasDeadline: true, Deadline: 1000, Maps: task, Reduces: task},
			{Arrival: 1000, HasDeadline: true, Deadline: 9000, Maps: []lowerbound.Task{{Dur: []int64{1000}}}, Reduces: []lowerbound.Task{{Dur: []int64{1000}}}},
		}}
	opt, err := lowerbound.Exact(p)
	if err != nil {
		t.Fatal(err)
	}
	if opt.LateJobs != 1 || opt.MaxTurnaround != 4000 || opt.MRCPProduct != 8000 {
		t.Fatalf("enumerated %+v; want 1 late job, 4000 ms, product 8000", opt)
	}
	for _, per := range []int{1, 2} {
		r, err := Bound(context.Background(), p, Options{WindowJobs: per})
		if err != nil {
			t.Fatalf("%d per window: %v", per, err)
		}
		if r.LateJobs != 1 || r.MaxTurnaroundMs != 4000 || r.Exact != (per == 2) {
			t.Errorf("%d per window: late %d, max turnaround %d, exact %v; want 1, 4000, %v", per, r.LateJobs, r.MaxTurnaroundMs, r.Exact, per == 2)
		}
	}
	for _, m := range []lowerbound.Metric{lowerbound.LateJobs, lowerbound.MRCPProduct} {
		so, err := Optimum(context.Background(), p, m, Options{})
		if err != nil || so == nil {
			t.Fatalf("%v: %+v, %v; want the optimum", m, so, err)
		}
		if want := opt.Value(m, len(p.Jobs)); so.Status != solve.Optimal || so.Value != want || so.Bound != want {
			t.Errorf("%v: %v, value %v, bound %v; want the optimum %v", m, so.Status, so.Value, so.Bound, want)
		}
	}
}

// TestWindowStartsAtItsFirstArrival: each window's MRCP instance starts at
// its earliest arrival, so a job arriving at 2^41 ms (2.2·10^9 units of 1 s,
// past MRCP's 2^31 − 1 for a release) is bounded in a window of its own
// rather than refused with "window: jobs[0].release: must be a
// non-negative integer" (issue 26's audit, s19wb), and Optimum's schedule is
// placed back at the stream's times: the job alone takes 4 s, as Exact
// says, and its map starts at its arrival.
func TestWindowStartsAtItsFirstArrival(t *testing.T) {
	far := int64(1) << 41
	far -= far % 1000
	p := &lowerbound.Problem{Mode: lowerbound.Fixed, Groups: 1, Nodes: []lowerbound.Node{{MapSlots: 1, ReduceSlots: 1}},
		Jobs: []lowerbound.Job{{Arrival: far, HasDeadline: true, Deadline: far + 3000,
			Maps: []lowerbound.Task{{Dur: []int64{1000}}}, Reduces: []lowerbound.Task{{Dur: []int64{3000}}}}}}
	in, origin, exact, _, err := toMRCP(p, []int{0}, 1000, false)
	if err != nil || !exact || origin != far/1000 || in.Jobs[0].Release != 0 || in.Jobs[0].Deadline != 3 {
		t.Fatalf("instance %+v, origin %d, exact %v, %v; want release 0, deadline 3 from %d", in, origin, exact, err, far/1000)
	}
	r, err := Bound(context.Background(), p, Options{WindowJobs: 1, UnitMs: 1000})
	if err != nil {
		t.Fatal(err)
	}
	opt, err := lowerbound.Exact(p)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Exact || int64(r.LateJobs) != opt.LateJobs || r.MaxTurnaroundMs != opt.MaxTurnaround || opt.MaxTurnaround != 4000 {
		t.Errorf("exact %v, late %d, max turnaround %d; enumerated %d, %d (want 4000)", r.Exact, r.LateJobs, r.MaxTurnaroundMs, opt.LateJobs, opt.MaxTurnaround)
	}
	so, err := Optimum(context.Background(), p, lowerbound.MaxTurnaround, Options{UnitMs: 1000})
	if err != nil || so == nil || so.Status != solve.Optimal || so.Value != 4000 {
		t.Fatalf("Optimum: %+v, %v; want 4000 ms proven", so, err)
	}
	for _, a := range so.Placements {
		if want := far + map[bool]int64{false: 0, true: 1000}[a.Reduce]; a.Start != want {
			t.Errorf("%+v starts at %d ms, want %d", a, a.Start, want)
		}
	}
}

// TestWindowSplitsAtIdleGaps: a window whose jobs arrive ≈ 2^36 ms apart (one
// MRCP instance spanning the gap hit the 30-s limit before s20wb) is solved
// in parts, exactly, and equals Exact; a window whose second job arrives
// before the first can be done is not split, and its bounds stay at or
// under Exact's.
func TestWindowSplitsAtIdleGaps(t *testing.T) {
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
		// 9 s of work from 0: the second job, at 2^26 s ≈ 2^36 ms, finds
		// the node idle; the third (9 s after it) does too.
		{"gap 2^36", []lowerbound.Job{job(0, 8000), job(1000<<26, 10000), job(1000<<26+9000, 9000)}, 3},
		{"gap 2^30", []lowerbound.Job{job(0, 8000), job(1000<<20, 8000)}, 2},
		// 8 s after the first: 9 s of its work might still run.
		{"no idle gap", []lowerbound.Job{job(0, 8000), job(8000, 8000)}, 0},
	} {
		p := &lowerbound.Problem{Mode: lowerbound.Fixed, Groups: 1, Nodes: nodes, Jobs: c.jobs}
		opt, err := lowerbound.Exact(p)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Bound(context.Background(), p, Options{WindowJobs: len(c.jobs), UnitMs: 1000, Solve: solve.Options{Solver: "native"}})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		w := r.Windows[0]
		t.Logf("%s: late %d, max turnaround %d ms, %d parts; optimum %d, %d ms", c.name, r.LateJobs, r.MaxTurnaroundMs, w.Parts, opt.LateJobs, opt.MaxTurnaround)
		if w.Parts != c.parts {
			t.Errorf("%s: %d parts, want %d", c.name, w.Parts, c.parts)
		}
		if int64(r.LateJobs) > opt.LateJobs || r.MaxTurnaroundMs > opt.MaxTurnaround {
			t.Errorf("%s: late ≥ %d, max turnaround ≥ %d ms above the optimum %d, %d ms", c.name, r.LateJobs, r.MaxTurnaroundMs, opt.LateJobs, opt.MaxTurnaround)
		}
		if !r.Exact || int64(r.LateJobs) != opt.LateJobs || r.MaxTurnaroundMs != opt.MaxTurnaround {
			t.Errorf("%s: exact %v, late %d, max turnaround %d ms; want exact at the optimum %d, %d ms", c.name, r.Exact, r.LateJobs, r.MaxTurnaroundMs, opt.LateJobs, opt.MaxTurnaround)
		}
	}
}
