package upperbound_test

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mrbound/mrbound/compare"
	"github.com/mrbound/mrbound/compare/simbridge"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/lowerbound/bnb"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/upperbound"
)

// runRule simulates rule r on w in ideal mode, checks the trace with
// sim/check and returns the mean turnaround (ms).
func runRule(t *testing.T, w *sim.Workload, p *lowerbound.Problem, r upperbound.Rule) float64 {
	t.Helper()
	pol, err := upperbound.New(w, r)
	if err != nil {
		t.Fatal(err)
	}
	return runPolicy(t, w, p, pol)
}

// runPolicy simulates pol on w in ideal mode, checks the trace with
// sim/check and returns the mean turnaround (ms).
func runPolicy(t *testing.T, w *sim.Workload, p *lowerbound.Problem, pol *upperbound.List) float64 {
	t.Helper()
	res, err := sim.Run(w, pol, simbridge.IdealOptions())
	if err != nil {
		t.Fatal(err)
	}
	if err := check.Verify(w, res); err != nil {
		t.Fatalf("%s: %v", pol.Name(), err)
	}
	if res.Rejected > 0 {
		t.Fatalf("%s: %d invalid actions", pol.Name(), res.Rejected)
	}
	c, err := simbridge.Completions(res)
	if err != nil {
		t.Fatalf("%s: %v", pol.Name(), err)
	}
	v, err := compare.Value(p, lowerbound.MeanTurnaround, c)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestHoldWaitsForShortJob: one node, two map slots, one reduce slot. Job A
// arrives at 0 s with a 1-s map and two 10-s reduces; job B arrives at 1 s
// with a 1-s map and a 1-s reduce. At 1 s the reduce slot is free and only
// A's reduce is ready: srpt starts it, B's reduce waits until 11 s (A ends
// at 22 s, B at 12 s: mean turnaround 16.5 s). srpt-hold keeps the slot idle
// for the second until B's reduce is ready (B [2, 3], A's reduces [3, 23]:
// mean 12.5 s), which is the enumerated optimum: the test asserts both
// values, that srpt-hold attains the optimum, and each trace's verdict.
func TestHoldWaitsForShortJob(t *testing.T) {
	w, p, opt := holdCase(t, "hold", 1, []holdJob{{0, 1000, 2, 10000}, {1000, 1000, 1, 1000}})
	srpt := runRule(t, w, p, upperbound.SRPT)
	hold := runRule(t, w, p, upperbound.SRPTHold)
	if srpt != 16500 || hold != 12500 || opt != 12500 {
		t.Errorf("mean turnaround: srpt %g, srpt-hold %g, optimum %g; want 16500, 12500, 12500", srpt, hold, opt)
	}
}

// TestHoldSeesNonLocalMaps: node 0 has one map and one reduce slot, node 1
// none, holding the block of S's map; a map away from its block takes 0.5
// s more. L arrives at 0 s with a 1-s map (its block on node 0) and a
// 100-s reduce, S at 1 s with a 1-s map and a 1-s reduce. At 1 s L's reduce
// is ready and S's map starts on node 0, away from its block: it ends at
// 2.5 s, not 2 s. srpt-hold holds the reduce slot for S until then (S [2.5,
// 3.5], L [3.5, 103.5]: mean turnaround 53 s); taking S's map for 1 s, the
// hold expired at 2 s with S's reduce not ready, S was no candidate any
// more, and L's reduce took the slot (mean 102 s). The test asserts the
// value and the trace's verdict.
func TestHoldSeesNonLocalMaps(t *testing.T) {
	w := &sim.Workload{Name: "non-local", Cluster: sim.Cluster{NonLocalPenalty: 500, Replicas: 1,
		Nodes: []sim.Node{{MapSlots: 1, ReduceSlots: 1}, {}}}}
	for _, j := range []struct {
		arrival, red sim.Time
		block        int
	}{{0, 100000, 0}, {1000, 1000, 1}} {
		m := sim.TaskSpec{Work: 1000}
		m.SetReplicas([]int{j.block})
		w.Jobs = append(w.Jobs, sim.Job{Arrival: j.arrival, Deadline: sim.NoDeadline, Parent: -1, Maps: []sim.TaskSpec{m}, Reduces: []sim.TaskSpec{{Work: j.red}}})
	}
	p, err := simbridge.Problem(w, simbridge.IdealOptions(), false)
	if err != nil {
		t.Fatal(err)
	}
	if hold := runRule(t, w, p, upperbound.SRPTHold); hold != 53000 {
		t.Errorf("srpt-hold's mean turnaround %g ms, want 53000", hold)
	}
}

// TestHoldSeesSlotsFreeTogether: two nodes of two map slots and one
// reduce slot. A arrives at 0 s with a 1-s map and a 10-s reduce, W at 0 s
// with a 1-s map and two 5.5-s reduces, S at 1 s with a 3.5-s map and a
// 1-s reduce. At 1 s both reduce slots are free, A's and W's reduces
// ready, and S's reduce will be ready at 4.5 s. Node 0, offered first,
// weighed a hold for S as if its slot were the only one free: S would wait
// until A's reduce ends at 11 s, a saving of 6.5 s against 3.5 s · 2/√2 =
// 4.9 s, so it held (S [4.5, 5.5], A [1, 11], W's reduces [5.5, 11] and
// [11, 16.5]: mean turnaround 10.67 s). But node 1 is free too and takes
// W's first reduce, which ends at 6.5 s: S would wait only until then, a
// saving of 2 s, not worth the idle 4.9 s (nor node 1's 3.5 s · 1/√2 = 2.5
// s). srpt-hold now sees it and holds nothing (A [1, 11], W [1, 6.5] and
// [7.5, 13], S [6.5, 7.5]: mean 10.17 s). The test asserts the value, the
// trace's verdict, and that it is not below the enumerated optimum.
func TestHoldSeesSlotsFreeTogether(t *testing.T) {
	w, p, opt := holdCase(t, "together", 2, []holdJob{{0, 1000, 1, 10000}, {0, 1000, 2, 5500}, {1000, 3500, 1, 1000}})
	hold := runRule(t, w, p, upperbound.SRPTHold)
	if math.Abs(hold-30500.0/3) > 1e-6 || opt > hold {
		t.Errorf("srpt-hold's mean turnaround %g ms, optimum %g; want %g, not below the optimum", hold, opt, 30500.0/3)
	}
}

// TestHoldRanksByReadyKey: one node of six map slots and one reduce slot.
// J arrives at 0 s with a 1-s map and a 20-s reduce, S at 1.5 s with six
// 1-s maps and a 15-s reduce. At 1 s J's reduce is ready and S's will be at
// 2.5 s (its maps in one wave). srpt-hold compared S by its key then, its
// maps and reduce (21 s of work), with J's (20 s), so S was no
// candidate and J's reduce ran first (J [1, 21], S [21, 36]: mean
// turnaround 27.75 s). But when S's reduce is ready its maps have all
// launched: srpt then ranks it by its 15-s reduce, before J. srpt-hold now
// ranks it so and holds the slot for it (S [2.5, 17.5], J [17.5, 37.5]:
// mean 26.75 s), which is the enumerated optimum. The test asserts the
// value, the trace's verdict and the optimum.
func TestHoldRanksByReadyKey(t *testing.T) {
	w := &sim.Workload{Name: "ready key", Cluster: sim.Cluster{Nodes: []sim.Node{{MapSlots: 6, ReduceSlots: 1}}}}
	j := sim.Job{Deadline: sim.NoDeadline, Parent: -1, Maps: []sim.TaskSpec{{Work: 1000}}, Reduces: []sim.TaskSpec{{Work: 20000}}}
	s := sim.Job{Arrival: 1500, Deadline: sim.NoDeadline, Parent: -1, Reduces: []sim.TaskSpec{{Work: 15000}}}
	for range 6 {
		s.Maps = append(s.Maps, sim.TaskSpec{Work: 1000})
	}
	w.Jobs = []sim.Job{j, s}
	p, opt := exactMean(t, w)
	if hold := runRule(t, w, p, upperbound.SRPTHold); hold != 26750 || opt != 26750 {
		t.Errorf("srpt-hold's mean turnaround %g ms, optimum %g; want 26750 and 26750", hold, opt)
	}
}

// holdJob is a job of one map and reds equal reduces.
type holdJob struct {
	arrival, mapDur sim.Time
	reds            int
	red             sim.Time
}

// holdCase builds a workload of nodes nodes (2 map and 1 reduce slots each)
// running jobs, its problem and the enumerated optimal mean turnaround.
func holdCase(t *testing.T, name string, nodes int, jobs []holdJob) (*sim.Workload, *lowerbound.Problem, float64) {
	t.Helper()
	w := &sim.Workload{Name: name}
	for range nodes {
		w.Cluster.Nodes = append(w.Cluster.Nodes, sim.Node{MapSlots: 2, ReduceSlots: 1})
	}
	for _, j := range jobs {
		job := sim.Job{Arrival: j.arrival, Deadline: sim.NoDeadline, Parent: -1, Maps: []sim.TaskSpec{{Work: j.mapDur}}}
		for range j.reds {
			job.Reduces = append(job.Reduces, sim.TaskSpec{Work: j.red})
		}
		w.Jobs = append(w.Jobs, job)
	}
	p, opt := exactMean(t, w)
	return w, p, opt
}

// exactMean gives w's problem (ideal mode) and its enumerated optimal mean
// turnaround.
func exactMean(t *testing.T, w *sim.Workload) (*lowerbound.Problem, float64) {
	t.Helper()
	p, err := simbridge.Problem(w, simbridge.IdealOptions(), false)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := lowerbound.Exact(p)
	if err != nil {
		t.Fatal(err)
	}
	return p, ex.Value(lowerbound.MeanTurnaround, len(p.Jobs))
}

// TestHoldCountsRivals: two nodes of two map slots and one reduce slot. W
// arrives at 0 s with a 2-s map and two 11-s reduces, D at 0 s with a 1-s
// map and a 7-s reduce, S at 3 s with a 3-s map and a 6-s reduce, T at 7 s
// with a 3-s map and a 1-s reduce. At 2 s D's reduce runs on node 0 until 8
// s and node 1's reduce slot is free for W; S's reduce will be ready at 6 s.
// Judged by the first slot to free (s13up's estimate), holding for S saves
// it 8 − 6 = 2 s against a cost of 4 s · 1/√2 = 2.8 s: W's reduce starts,
// node 0 is then held at 8 s for T (ready at 10 s, ranked first) and S
// waits until 11 s (mean turnaround 12.5 s). srpt-hold sees that T, which
// srpt ranks before S, takes the slot that frees at 8 s, so S would wait
// until W's reduce ends at 13 s: it holds node 1 for S (S [6, 12], T [10,
// 11], W's reduces [11, 22] and [12, 23]: mean 11 s), which is the
// enumerated optimum. The test asserts the three values and each trace's
// verdict.
func TestHoldCountsRivals(t *testing.T) {
	w, p, opt := holdCase(t, "rivals", 2, []holdJob{{0, 2000, 2, 11000}, {0, 1000, 1, 7000}, {3000, 3000, 1, 6000}, {7000, 3000, 1, 1000}})
	first, err := upperbound.NewHoldFirstFree(w)
	if err != nil {
		t.Fatal(err)
	}
	before := runPolicy(t, w, p, first)
	hold := runRule(t, w, p, upperbound.SRPTHold)
	if before != 12500 || hold != 11000 || opt != 11000 {
		t.Errorf("mean turnaround: first-free estimate %g, srpt-hold %g, optimum %g; want 12500, 11000, 11000", before, hold, opt)
	}
}

// TestSearchMovesHolds: two nodes of two map slots and one reduce slot. W
// arrives at 4 s with a 2-s map and three 12-s reduces, B at 6 s with a
// 3-s map and a 7-s reduce, A at 9 s with a 4-s map and a 2-s reduce. At 6
// s both reduce slots are free and W's reduces ready; srpt-hold keeps one
// for B (ready at 9 s) and the other for A (ready at 13 s), and W's three
// reduces then run in two waves from 15 s (W ends at 39 s; mean turnaround
// 17 s, the best construction). The optimum holds only for B and runs a
// W reduce at 6 s: W ends at 30 s, A waits 3 s (mean 15 s) — the 7-s hold
// for A cost W a whole wave, which srpt-hold's cost per second of idling
// does not see. The search around srpt-hold, whose moves now also change
// its hold decisions (a job's bias, the cost's factor), finds it: the test
// asserts that the best constructed schedule is 17 s, that Best's schedule
// is the search's, verified, and equals the enumerated optimum. (The
// offsets alone, main before these moves, end at 17 s.)
func TestSearchMovesHolds(t *testing.T) {
	w, p, opt := holdCase(t, "hold moves", 2, []holdJob{{4000, 2000, 3, 12000}, {9000, 4000, 1, 2000}, {6000, 3000, 1, 7000}})
	res, err := upperbound.Best(context.Background(), w, p, upperbound.Options{Metric: lowerbound.MeanTurnaround, Sim: simbridge.IdealOptions(), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	constructed := math.Inf(1)
	for _, sc := range res.Tried {
		if sc.By != "offline-search" && sc.Verified {
			constructed = math.Min(constructed, sc.Value)
		}
	}
	b := res.Best
	if b == nil || !b.Verified || b.By != "offline-search" || b.Value != opt || constructed != 17000 || opt != 15000 {
		t.Errorf("best %+v, best construction %g, optimum %g; want the search's verified 15000, 17000, 15000", b, constructed, opt)
	}
}

// holdFamily is a small seeded instance of bench/looseside's day-like
// family: one or two nodes (2 map and 1 reduce slots each), five short
// jobs (one reduce, half of them about 1 s long) and one wide job (three or
// four reduces per reduce slot of 60–90 s), arriving over a window that
// loads the reduce slots fully — the load at which srpt-hold holds slots.
func holdFamily(rng *rand.Rand) *sim.Workload {
	return holdFamilyOf(rng, 5, 1)
}

// holdFamilyOf is holdFamily with short one-reduce jobs and wide ones.
func holdFamilyOf(rng *rand.Rand, short, wide int) *sim.Workload {
	nodes := 1 + rng.IntN(2)
	w := &sim.Workload{Name: "hold family"}
	for range nodes {
		w.Cluster.Nodes = append(w.Cluster.Nodes, sim.Node{MapSlots: 2, ReduceSlots: 1})
	}
	red := 0
	job := func(maps, mapDur, reds, redDur int) sim.Job {
		j := sim.Job{Deadline: sim.NoDeadline, Parent: -1}
		for range maps {
			j.Maps = append(j.Maps, sim.TaskSpec{Work: sim.Time(mapDur) * 1000})
		}
		for range reds {
			j.Reduces = append(j.Reduces, sim.TaskSpec{Work: sim.Time(redDur) * 1000})
		}
		red += reds * redDur
		return j
	}
	for range short {
		d := 1
		if rng.IntN(2) == 0 {
			d = 2 + rng.IntN(120)
		}
		w.Jobs = append(w.Jobs, job(1+rng.IntN(3), 1+rng.IntN(5), 1, d))
	}
	for range wide {
		w.Jobs = append(w.Jobs, job(2*nodes, 1+rng.IntN(5), nodes*(3+rng.IntN(2)), 60+rng.IntN(31)))
	}
	window := red / nodes
	for i := range w.Jobs {
		w.Jobs[i].Arrival = sim.Time(rng.IntN(window)) * 1000
	}
	return w
}

// TestHoldNeverBelowOptimum: on seeded instances of the day-like family,
// srpt-hold's schedule passes sim/check, and its mean turnaround and that
// of Best's schedule (the search around srpt-hold, with its hold moves,
// included) are at least the optimum the branch and bound proves — a
// value below the optimum would be a bug in the construction, the search
// or the simulator. The log says on how many instances the hold beat srpt
// and the search beat the hold.
func TestHoldNeverBelowOptimum(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 13))
	n := 16
	if testing.Short() {
		n = 6
	}
	better, proven, searched := 0, 0, 0
	for i := range n {
		w := holdFamily(rng)
		p, err := simbridge.Problem(w, simbridge.IdealOptions(), false)
		if err != nil {
			t.Fatal(err)
		}
		srpt := runRule(t, w, p, upperbound.SRPT)
		hold := runRule(t, w, p, upperbound.SRPTHold)
		res, err := bnb.Solve(context.Background(), p, lowerbound.MeanTurnaround, bnb.Options{Incumbent: math.Min(srpt, hold), NodeLimit: 300_000})
		if err != nil || res == nil {
			t.Fatalf("instance %d: the branch and bound: %v (nil %v)", i, err, res == nil)
		}
		if hold < res.Bound-1e-6 {
			t.Errorf("instance %d: srpt-hold %g below the proven bound %g (%v)", i, hold, res.Bound, res.Status)
		}
		best, err := upperbound.Best(context.Background(), w, p, upperbound.Options{Metric: lowerbound.MeanTurnaround, Sim: simbridge.IdealOptions(), Seed: uint64(i)})
		if err != nil || best.Best == nil || !best.Best.Verified {
			t.Fatalf("instance %d: Best: %v (%+v)", i, err, best)
		}
		if best.Best.Value < res.Bound-1e-6 {
			t.Errorf("instance %d: Best's %s %g below the proven bound %g (%v)", i, best.Best.By, best.Best.Value, res.Bound, res.Status)
		}
		if best.Best.Value < hold {
			searched++
		}
		if res.Status == solve.Optimal {
			proven++
		}
		if hold < srpt {
			better++
		}
	}
	t.Logf("optimum proven on %d of %d; srpt-hold beat srpt on %d, Best beat srpt-hold on %d", proven, n, better, searched)
}

// TestLongWaitsSearchNeverBelowBound: on seeded instances of the family
// large enough (70 jobs) that the moves around srpt-hold draw from the
// longest waits, Best's schedule is verified and at least the branch and
// bound's bound (proven or not, a lower bound) and compare's certified one
// — a search candidate below either would be a bug. The log says how often
// the search improved on srpt-hold.
func TestLongWaitsSearchNeverBelowBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 15))
	n := 3
	if testing.Short() {
		n = 1
	}
	searched := 0
	for i := range n {
		w := holdFamilyOf(rng, 66, 4)
		p, err := simbridge.Problem(w, simbridge.IdealOptions(), false)
		if err != nil {
			t.Fatal(err)
		}
		hold := runRule(t, w, p, upperbound.SRPTHold)
		best, err := upperbound.Best(context.Background(), w, p, upperbound.Options{Metric: lowerbound.MeanTurnaround, Sim: simbridge.IdealOptions(), Seed: uint64(i)})
		if err != nil || best.Best == nil || !best.Best.Verified {
			t.Fatalf("instance %d: Best: %v (%+v)", i, err, best)
		}
		res, err := bnb.Solve(context.Background(), p, lowerbound.MeanTurnaround, bnb.Options{Incumbent: best.Best.Value, NodeLimit: 20_000})
		if err != nil || res == nil {
			t.Fatalf("instance %d: the branch and bound: %v (nil %v)", i, err, res == nil)
		}
		bounds, err := lowerbound.Compute(p)
		if err != nil {
			t.Fatal(err)
		}
		cert := bounds.Get(lowerbound.MeanTurnaround).Certified
		if v := best.Best.Value; v < res.Bound-1e-6 || v < cert-1e-6 {
			t.Errorf("instance %d: Best's %s %g below the branch and bound's %g or the certified bound %g", i, best.Best.By, v, res.Bound, cert)
		}
		if best.Best.Value < hold {
			searched++
		}
	}
	t.Logf("the search improved on srpt-hold on %d of %d", searched, n)
}

// TestHoldCountsDisplacedReduce: one node, two map slots, one reduce slot.
// J arrives at 0 s with a 1-s map and a 10-s reduce, S at 1 s with a 1-s
// map and a 9-s reduce. At 1 s J's reduce is ready and S's will be at 2 s,
// ranked first. Held for S, the slot saves S 9 s of wait (J's reduce ends
// at 11 s), which beat the idle second's cost (1 s · n/√R = 1 s), so
// srpt-hold held (S [2, 11], J [11, 21]: mean turnaround 15.5 s). But the
// hold also puts S's 9-s reduce before J's, whose reduce is its last: J
// loses δ + 9 s = 10 s for S's 9 s. srpt-hold now counts it (hold when the
// wait saved exceeds n·δ + q on one slot) and runs J first (J [1, 11], S
// [11, 20]: mean 15 s), the enumerated optimum. The test asserts the value,
// the trace's verdict and the optimum.
func TestHoldCountsDisplacedReduce(t *testing.T) {
	w, p, opt := holdCase(t, "displaced", 1, []holdJob{{0, 1000, 1, 10000}, {1000, 1000, 1, 9000}})
	if hold := runRule(t, w, p, upperbound.SRPTHold); hold != 15000 || opt != 15000 {
		t.Errorf("srpt-hold's mean turnaround %g ms, optimum %g; want 15000 and 15000", hold, opt)
	}
}

// TestHoldWeighsLastReduce: one node, two map slots, one reduce slot. A
// arrives at 1 s with a 1-s map and three 8.5-s reduces, B and C at 2.5 s
// with a 1-s map each, B with two 6-s reduces, C with one 5.5-s reduce. At
// 2 s A's reduces are ready and the slot free; B's and C's will be at 3.5
// s, both ranked before A. Judged by its first reduce's wait, a hold for B
// saved as much as one for C (7 s, until A's reduce would end at 10.5 s),
// and srpt-hold held for B (B [3.5, 9.5] and [15, 21], C [9.5, 15], A's
// from 21 s: mean turnaround 25.5 s). But B completes with its second
// reduce, which runs after C's, ranked before it, either way: held for B,
// the slot moves B's completion far less than its first reduce's start.
// srpt-hold now weighs the candidates' completions and holds for C (C
// [3.5, 9], B [9, 21], A's from 21 s: mean 23.5 s), the enumerated
// optimum. The test asserts the value, the trace's verdict and the
// optimum.
func TestHoldWeighsLastReduce(t *testing.T) {
	w, p, opt := holdCase(t, "last reduce", 1, []holdJob{{1000, 1000, 3, 8500}, {2500, 1000, 2, 6000}, {2500, 1000, 1, 5500}})
	if hold := runRule(t, w, p, upperbound.SRPTHold); hold != 23500 || opt != 23500 {
		t.Errorf("srpt-hold's mean turnaround %g ms, optimum %g; want 23500 and 23500", hold, opt)
	}
}

// TestLongestWaitsFitOneWave: the moves around srpt-hold promote the jobs
// that waited longest, but only those that fit in one wave of the
// cluster's slots. Two nodes of 2 map and 1 reduce slots run 64 jobs of
// one map and one reduce, one with 3 reduces and one with 5 maps;
// completions make a job's index its rank, so the last two wait longest:
// the two longest waits are the small jobs 63 and 62, and the two longest
// among the one-reduce jobs 65 (5 maps) and 63.
func TestLongestWaitsFitOneWave(t *testing.T) {
	w, p, c := longWaitsCase(t)
	all, one := upperbound.LongestWaits(w, p, c)
	if !slices.Equal(all, []int{63, 62}) || !slices.Equal(one, []int{65, 63}) {
		t.Errorf("longest waits %v, one-reduce %v; want [63 62] and [65 63]", all, one)
	}
}

// TestMovesDrawLongestWaits: on TestLongestWaitsFitOneWave's instance,
// where the search around srpt-hold has its longest waits, every offset
// move promotes one of them and every hold move that changes a bias
// raises that of one of the one-reduce jobs that waited longest: no move
// on a random job, which on the FB-2009 day at 20 nodes never improved
// and left the schedule as it was in 85 of 92 runs (docs/results.md,
// issue 26, s27margin).
func TestMovesDrawLongestWaits(t *testing.T) {
	w, p, c := longWaitsCase(t)
	all, one := upperbound.LongestWaits(w, p, c)
	jobs, signs := upperbound.OffsetMoves(w, p, c, all, 27, 200)
	for i, j := range jobs {
		if !slices.Contains(all, j) || signs[i] != -1 {
			t.Fatalf("offset move %d: job %d, direction %g; want one of %v promoted", i, j, signs[i], all)
		}
	}
	jobs, changes := upperbound.HoldBiasMoves(w, p, c, one, 27, 200)
	if len(jobs) < 100 {
		t.Errorf("%d of 200 hold moves changed a bias; want about 150", len(jobs))
	}
	for i, j := range jobs {
		if !slices.Contains(one, j) || changes[i] < 0 {
			t.Fatalf("hold move: job %d's bias changed by %g; want one of %v raised", j, changes[i], one)
		}
	}
}

// longWaitsCase: two nodes of 2 map and 1 reduce slots run 64 jobs of one
// map and one reduce, one with 3 reduces and one with 5 maps, with
// completions that make a job's index its rank in waiting.
func longWaitsCase(t *testing.T) (*sim.Workload, *lowerbound.Problem, []int64) {
	t.Helper()
	w := &sim.Workload{Name: "one wave"}
	for range 2 {
		w.Cluster.Nodes = append(w.Cluster.Nodes, sim.Node{MapSlots: 2, ReduceSlots: 1})
	}
	job := func(maps, reds int) sim.Job {
		j := sim.Job{Deadline: sim.NoDeadline, Parent: -1, Arrival: sim.Time(len(w.Jobs)) * 1000}
		for range maps {
			j.Maps = append(j.Maps, sim.TaskSpec{Work: 1000})
		}
		for range reds {
			j.Reduces = append(j.Reduces, sim.TaskSpec{Work: 1000})
		}
		return j
	}
	for range 64 {
		w.Jobs = append(w.Jobs, job(1, 1))
	}
	w.Jobs = append(w.Jobs, job(1, 3), job(5, 1))
	p, err := simbridge.Problem(w, simbridge.IdealOptions(), false)
	if err != nil {
		t.Fatal(err)
	}
	c := make([]int64, len(w.Jobs))
	for j := range c {
		c[j] = p.Jobs[j].Arrival + int64(j+1)*1_000_000 // 1,000 s apart: more than any critical path
	}
	return w, p, c
}

// TestTopIndexHalves: the rank of a longest wait is 0 half the time, 1 a
// quarter, 2 and 3 an eighth each (seeded draws, within 10 %), and always
// 0 in a list of one.
func TestTopIndexHalves(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 24))
	var n [4]int
	for range 8000 {
		n[upperbound.TopIndex(rng, 4)]++
		if i := upperbound.TopIndex(rng, 1); i != 0 {
			t.Fatalf("a list of one: index %d", i)
		}
	}
	for i, want := range []int{4000, 2000, 1000, 1000} {
		if math.Abs(float64(n[i]-want)) > 0.1*float64(want) {
			t.Errorf("index %d drawn %d times of 8000, want about %d", i, n[i], want)
		}
	}
}

// TestLongWaitsSearchSeedFixed: on an instance large enough (70 jobs) that
// the moves draw from the longest waits, Best twice with one seed gives
// the same verified schedule, no worse than srpt-hold's.
func TestLongWaitsSearchSeedFixed(t *testing.T) {
	w := holdFamilyOf(rand.New(rand.NewPCG(26, 15)), 66, 4)
	p, err := simbridge.Problem(w, simbridge.IdealOptions(), false)
	if err != nil {
		t.Fatal(err)
	}
	hold := runRule(t, w, p, upperbound.SRPTHold)
	var got [2]*upperbound.Schedule
	for i := range got {
		res, err := upperbound.Best(context.Background(), w, p, upperbound.Options{Metric: lowerbound.MeanTurnaround, Sim: simbridge.IdealOptions(), Seed: 7})
		if err != nil || res.Best == nil {
			t.Fatalf("Best: %v (%+v)", err, res)
		}
		got[i] = res.Best
	}
	a, b := got[0], got[1]
	if !a.Verified || a.Value > hold || a.Value != b.Value || a.By != b.By || !slices.Equal(a.Completion, b.Completion) {
		t.Errorf("two runs with seed 7: %+v and %+v; want the same verified schedule, at most srpt-hold's %g", a, b, hold)
	}
}

// TestChargedWaitsDemoteWideJob: one node, two map slots, one reduce slot.
// B arrives at 0 s with a 1-s map and two 11-s reduces, C at 1 s with a
// 2-s map and a 4-s reduce, A at 9 s with a 1-s map and two 9-s reduces.
// srpt-hold holds the slot for C (ready at 3 s; C [3, 7]), then at 7 s
// for A, ready at 10 s and ranked before B by its work (18 s against 22
// s): A [10, 28], B [28, 50], mean turnaround 25 s, the best
// construction. Given the waits the interval Lagrangian charges the jobs
// on this instance (A 16.6 s, B 3.7 s, C none), the search around
// srpt-hold ends by trying its offsets with the two wide jobs (more
// reduces than reduce slots) demoted by ½, ¾ and 1 times their waits: A
// then ranks after B, no hold at 7 s, B [7, 29], A [29, 47]: mean 24.33
// s, the enumerated optimum. With a budget of 3 runs those are the
// search's only runs; without the waits its 3 runs (moves drawn from the
// seed) do not find it. The test asserts the values, the verdict and the
// optimum, and that bad waits are refused.
func TestChargedWaitsDemoteWideJob(t *testing.T) {
	w, p, opt := holdCase(t, "charged", 1, []holdJob{{9000, 1000, 2, 9000}, {0, 1000, 2, 11000}, {1000, 2000, 1, 4000}})
	o := upperbound.Options{Metric: lowerbound.MeanTurnaround, Sim: simbridge.IdealOptions(), Evaluations: 3}
	plain, err := upperbound.Best(context.Background(), w, p, o)
	if err != nil {
		t.Fatal(err)
	}
	if hold := runRule(t, w, p, upperbound.SRPTHold); hold != 25000 || plain.Best.Value != 25000 {
		t.Errorf("srpt-hold %g ms, Best without waits %g by %s; want 25000 and 25000", hold, plain.Best.Value, plain.Best.By)
	}
	o.Waits = []float64{16649, 3719, 0}
	charged, err := upperbound.Best(context.Background(), w, p, o)
	if err != nil {
		t.Fatal(err)
	}
	if b := charged.Best; !b.Verified || math.Abs(b.Value-opt) > 1e-6 || math.Abs(opt-73000.0/3) > 1e-6 {
		t.Errorf("with waits: best %g by %s (verified %v), optimum %g; want 24333.33 ms", b.Value, b.By, b.Verified, opt)
	}
	o.Waits = []float64{1, 2}
	if _, err := upperbound.Best(context.Background(), w, p, o); err == nil {
		t.Error("two waits for three jobs: no error")
	}
	o.Waits = []float64{1, math.NaN(), 3}
	if _, err := upperbound.Best(context.Background(), w, p, o); err == nil {
		t.Error("a NaN wait: no error")
	}
}

// TestChargedFirstKeepsDemotion: TestChargedWaitsDemoteWideJob's instance
// and waits, with a budget of 6 runs. Ending with the charged runs, the
// search first keeps moves no worse than srpt-hold's 25 s (most change
// nothing here), and the demotion added to their offsets and hold moves
// then misses the 24.33-s optimum on 3 of seeds 0–19. Beginning with them
// (Options.ChargedFirst), the demotion reaches it first and the later
// moves keep only what is no worse: every seed ends at the optimum,
// verified by sim/check.
func TestChargedFirstKeepsDemotion(t *testing.T) {
	w, p, opt := holdCase(t, "charged first", 1, []holdJob{{9000, 1000, 2, 9000}, {0, 1000, 2, 11000}, {1000, 2000, 1, 4000}})
	for seed := range uint64(20) {
		o := upperbound.Options{Metric: lowerbound.MeanTurnaround, Sim: simbridge.IdealOptions(), Evaluations: 6, Seed: seed,
			Waits: []float64{16649, 3719, 0}, ChargedFirst: true}
		res, err := upperbound.Best(context.Background(), w, p, o)
		if err != nil {
			t.Fatal(err)
		}
		if b := res.Best; !b.Verified || math.Abs(b.Value-opt) > 1e-6 {
			t.Errorf("seed %d: best %g by %s (verified %v); want the optimum %g ms", seed, b.Value, b.By, b.Verified, opt)
		}
	}
}
