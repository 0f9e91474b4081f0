package windowbound

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/mrbound/mrbound/formulations/mrcp"
	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/solvertest"
)

// TestOptimumMatchesEnumeration: on seeded random streams in whole seconds
// with a deadline on every job, the whole-stream MRCP solve of each metric
// (late jobs, max, total and mean turnaround, makespan, the product) is
// proven optimal and equals the enumerated continuous-time optimum
// (lowerbound.Exact), and its bound is that value; streams with a rounded
// time or a job without a deadline (for late jobs and the product) are not
// MRCP instances exactly and get nil. formulations/mrcp's makespan MILP
// proves the same makespan on every stream.
func TestOptimumMatchesEnumeration(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 12
	}
	rng := rand.New(rand.NewPCG(7, 23))
	metrics := []lowerbound.Metric{lowerbound.LateJobs, lowerbound.MaxTurnaround, lowerbound.MRCPProduct,
		lowerbound.TotalTurnaround, lowerbound.MeanTurnaround, lowerbound.Makespan}
	proven, withLate, refused, milp := 0, 0, 0, 0
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
		// formulations/mrcp's makespan MILP (compare uses late-count
		// decisions instead) on the same stream.
		if unit := exactUnit(p); unit >= 1 {
			jobs := make([]int, len(p.Jobs))
			for j := range jobs {
				jobs[j] = j
			}
			if in, _, exact, _, err := toMRCP(p, jobs, unit, true); err == nil && exact {
				for j := range in.Jobs {
					in.Jobs[j].Deadline = mrcp.HorizonBound(in)
				}
				out, err := mrcp.RunInstance(context.Background(), "stream", in, mrcp.Options{Objective: mrcp.Objective{Kind: mrcp.Makespan},
					Solve: solve.Options{Solver: "native"}})
				if err != nil {
					t.Fatal(err)
				}
				if out.Result.Status != solve.Optimal || !out.Verified || out.Recomputed*float64(unit) != float64(opt.Makespan) ||
					out.Result.Bound > out.Recomputed+1e-6 {
					t.Errorf("stream %d: makespan MILP %v, verified %v, value %v, bound %v units of %d ms; enumerated %d ms",
						i, out.Result.Status, out.Verified, out.Recomputed, out.Result.Bound, unit, opt.Makespan)
				}
				milp++
			}
		}
		for _, m := range metrics {
			name := fmt.Sprintf("stream %d %v", i, m)
			so, err := Optimum(context.Background(), p, m, Options{Solve: solve.Options{Solver: "native"}})
			if err != nil {
				t.Fatal(err)
			}
			want := opt.Value(m, len(p.Jobs))
			needsDeadlines := m == lowerbound.LateJobs || m == lowerbound.MRCPProduct
			if so == nil {
				if allDeadlines || !needsDeadlines {
					t.Errorf("%s: refused an exact MRCP stream", name)
				}
				refused++
				continue
			}
			if !allDeadlines && needsDeadlines {
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
	t.Logf("%d proven, %d refused, %d streams with a forced late job, %d makespans by the MILP", proven, refused, withLate, milp)
	if withLate == 0 || refused == 0 || proven == 0 || milp == 0 {
		t.Errorf("%d streams with a late job in every schedule, %d refused, %d proven: a path is untested", withLate, refused, proven)
	}
}

// congestedStream is the 10-job mixed stream of instances/mrcpscenario's
// generator (λ 0.04, seed 1: two jobs late in every schedule) as a
// lowerbound.Problem in ms; formulations/mrcp's combinatorial phase proves
// each metric's optimum in about 0.3 s.
func congestedStream(t *testing.T) *lowerbound.Problem {
	return generatedStream(t, 10, 0.04, 1)
}

// generatedStream is a generated MRCP mixed stream as a lowerbound.Problem in ms.
func generatedStream(t *testing.T, jobs int, lambda float64, seed uint64) *lowerbound.Problem {
	t.Helper()
	in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: mrcpscenario.Mixed, Jobs: jobs, Lambda: lambda, Seed: seed, TimeUnit: 1})
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

// TestOptimumBoundAtStops: on a congested 10-job stream (on a 2-job one for
// the total and mean turnaround), Optimum stopped early (a cancelled context, an expired or short time limit, a node or an
// iteration limit, a loose gap) reports a bound at most the optimum proven
// without limits, for each metric, a verified value no better than it, and
// with a cancelled context or an expired time limit not Optimal (before
// formulations/mrcp honoured them, the combinatorial phase still proved
// the optimum).
func TestOptimumBoundAtStops(t *testing.T) {
	testBoundAtStops(t, congestedStream(t), []lowerbound.Metric{lowerbound.LateJobs, lowerbound.MaxTurnaround, lowerbound.MRCPProduct, lowerbound.Makespan})
	// The turnaround MILP proves small streams only (compare's limit is
	// TurnaroundOptimumColumns): 2 jobs, and 3 (46 tasks) in step form.
	testBoundAtStops(t, generatedStream(t, 2, 0.05, 1), []lowerbound.Metric{lowerbound.TotalTurnaround, lowerbound.MeanTurnaround})
	if !testing.Short() {
		testBoundAtStops(t, generatedStream(t, 3, 0.05, 1), []lowerbound.Metric{lowerbound.TotalTurnaround})
	}
}

func testBoundAtStops(t *testing.T, p *lowerbound.Problem, metrics []lowerbound.Metric) {
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

// TestOptimumIncumbent: an incumbent (a verified schedule's value, as
// compare passes it) at the optimum still gives the proven optimum, for
// the total and mean turnaround and the makespan; one a unit below it is
// refused with an error, as no schedule reaches it (an incumbent from
// another problem must never turn into a bound above the optimum).
func TestOptimumIncumbent(t *testing.T) {
	for _, c := range []struct {
		p *lowerbound.Problem
		m lowerbound.Metric
	}{
		{generatedStream(t, 2, 0.05, 1), lowerbound.TotalTurnaround},
		{generatedStream(t, 2, 0.05, 1), lowerbound.MeanTurnaround},
		{congestedStream(t), lowerbound.Makespan},
	} {
		o := Options{Solve: solve.Options{Solver: "native", TimeLimit: time.Minute}}
		ref, err := Optimum(context.Background(), c.p, c.m, o)
		if err != nil {
			t.Fatal(err)
		}
		if ref == nil || ref.Status != solve.Optimal || !ref.Verified {
			t.Fatalf("%v: reference %+v, want a verified optimum", c.m, ref)
		}
		o.Incumbent = ref.Value
		got, err := Optimum(context.Background(), c.p, c.m, o)
		if err != nil {
			t.Fatalf("%v: incumbent at the optimum: %v", c.m, err)
		}
		if got.Status != solve.Optimal || !got.Verified || got.Value != ref.Value || got.Bound != ref.Value {
			t.Errorf("%v: incumbent at the optimum %v: %v, value %v, bound %v", c.m, ref.Value, got.Status, got.Value, got.Bound)
		}
		unit := 1000.0
		if c.m == lowerbound.MeanTurnaround {
			unit /= float64(len(c.p.Jobs))
		}
		o.Incumbent = ref.Value - unit
		if got, err := Optimum(context.Background(), c.p, c.m, o); err == nil {
			t.Errorf("%v: incumbent %v below the optimum %v accepted: %+v", c.m, o.Incumbent, ref.Value, got)
		}
	}
}

// TestOptimumMaxColumns: Optimum does not try the turnaround MILP (nil)
// when TurnaroundModel's model has more than MaxColumns start columns, and
// with MaxColumns at their count proves the same optimum as without a limit;
// TurnaroundModel refuses the metrics it does not solve.
func TestOptimumMaxColumns(t *testing.T) {
	p := generatedStream(t, 2, 0.05, 1)
	if _, err := TurnaroundModel(p, lowerbound.Makespan, Options{}); err == nil {
		t.Error("TurnaroundModel of the makespan: no error")
	}
	so := solve.Options{Solver: "native", TimeLimit: time.Minute}
	ref, err := Optimum(context.Background(), p, lowerbound.TotalTurnaround, Options{Solve: so})
	if err != nil {
		t.Fatal(err)
	}
	if ref == nil || ref.Status != solve.Optimal {
		t.Fatalf("reference %+v, want an optimum", ref)
	}
	bt, err := TurnaroundModel(p, lowerbound.TotalTurnaround, Options{Solve: so})
	if err != nil || bt == nil {
		t.Fatalf("TurnaroundModel: %v, %v", bt, err)
	}
	cols := 0 // the start columns, which MaxColumns counts
	for j := range bt.Model.NumCols() {
		if n := bt.Model.ColName(j); strings.HasPrefix(n, "F(") || strings.HasPrefix(n, "x(") {
			cols++
		}
	}
	if got, err := Optimum(context.Background(), p, lowerbound.TotalTurnaround, Options{Solve: so, MaxColumns: cols - 1}); err != nil || got != nil {
		t.Errorf("MaxColumns %d below the model's %d: %+v, %v; want not tried", cols-1, cols, got, err)
	}
	got, err := Optimum(context.Background(), p, lowerbound.TotalTurnaround, Options{Solve: so, MaxColumns: cols})
	if err != nil || got == nil || got.Status != solve.Optimal || got.Value != ref.Value {
		t.Errorf("MaxColumns %d, the model's: %+v, %v; want the optimum %v", cols, got, err, ref.Value)
	}
}

// fineUnitStreams are wideStream draws 128, 345 and 859 of the audit (seed
// 26, 19): 1-ms data, horizons of 7,000–40,000 units, where before s20wb a
// node limit of 1 did not stop Optimum (the makespan of the first ran past
// 60 s, the total turnaround of the second 38 s, the maximum turnaround of
// the third 3 s: the combinatorial phase ignored node limits).
func fineUnitStreams() []*lowerbound.Problem {
	task := func(ms ...int64) lowerbound.Task { return lowerbound.Task{Dur: ms} }
	return []*lowerbound.Problem{
		{Mode: lowerbound.Fixed, Groups: 2, Nodes: []lowerbound.Node{{Group: 0, MapSlots: 1, ReduceSlots: 1}}, Jobs: []lowerbound.Job{
			{Arrival: 5107, HasDeadline: true, Deadline: 18607, Maps: []lowerbound.Task{task(5589), task(5788), task(1500)}, Reduces: []lowerbound.Task{task(5070)}},
			{Arrival: 306, HasDeadline: true, Deadline: 3306, Maps: []lowerbound.Task{task(3000)}, Reduces: []lowerbound.Task{task(4465)}},
			{Arrival: 946, HasDeadline: true, Deadline: 3465, Maps: []lowerbound.Task{task(4500), task(2752)}, Reduces: []lowerbound.Task{task(2603)}},
		}},
		{Mode: lowerbound.Fixed, Groups: 2, Nodes: []lowerbound.Node{{Group: 1, MapSlots: 1, ReduceSlots: 1}, {Group: 0, MapSlots: 2}}, Jobs: []lowerbound.Job{
			{Arrival: 0, HasDeadline: true, Deadline: 585, Maps: []lowerbound.Task{task(1000), task(887), task(1500)}, Reduces: []lowerbound.Task{task(500), task(1008)}},
			{Arrival: 500, HasDeadline: true, Deadline: 1263, Maps: []lowerbound.Task{task(507)}, Reduces: []lowerbound.Task{task(500), task(500)}},
		}},
		{Mode: lowerbound.Fixed, Groups: 2, Nodes: []lowerbound.Node{{Group: 1, MapSlots: 1, ReduceSlots: 1}}, Jobs: []lowerbound.Job{
			{Arrival: 2000, HasDeadline: true, Deadline: 776, Maps: []lowerbound.Task{task(3641), task(3025), task(1329)}, Reduces: []lowerbound.Task{task(2098), task(1000)}},
			{Arrival: 0, HasDeadline: true, Deadline: 8000, Maps: []lowerbound.Task{task(3000), task(3000)}, Reduces: []lowerbound.Task{task(2523), task(3258)}},
		}},
	}
}

// TestOptimumLimitsHoldAtFineUnits: on fineUnitStreams, every metric at a
// node limit of 1 stops with a limit (nothing is proven in one unit of
// work; before s20wb the maximum turnaround of stream 2 was proven
// "optimal" there after 3 s of search, and the others ran for minutes) and
// a bound not above Exact's optimum, and the makespan still has a verified
// schedule (the greedy start); after 200 context checks
// (deterministic) the answer is a limit with such a bound or the optimum.
func TestOptimumLimitsHoldAtFineUnits(t *testing.T) {
	for x, p := range fineUnitStreams() {
		opt, err := lowerbound.Exact(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range optimumMetrics {
			want := opt.Value(m, len(p.Jobs))
			for _, stop := range earlyStops() {
				what := fmt.Sprintf("stream %d %v, %s", x, m, stop.name)
				r, err := Optimum(stop.ctx, p, m, Options{UnitMs: 1, Solve: stop.solve})
				if err != nil || r == nil {
					t.Fatalf("%s: %v, %v", what, r, err)
				}
				checkStreamOptimum(t, what, p, m, r, want)
				// Optimal at one node only where no search ran: the greedy
				// makespan meets the certified bound (stream 2).
				if stop.solve.NodeLimit == 1 && !r.Status.IsLimit() && (m != lowerbound.Makespan || r.Status != solve.Optimal) {
					t.Errorf("%s: %v, want a limit", what, r.Status)
				}
				if m == lowerbound.Makespan && r.Placements == nil {
					t.Errorf("%s: no schedule", what)
				}
			}
		}
	}
}

// draw1564 is wideStream draw 1564 of the audit (seed 26, 19): 1-ms data,
// 2 jobs, 7 tasks, about 16,000 units; its total-turnaround model (10^5
// columns) is what a 100-ms deadline overran by 0.3–0.8 s in naming,
// validating and presolving it before s21opt.
func draw1564() *lowerbound.Problem {
	task := func(ms int64) lowerbound.Task { return lowerbound.Task{Dur: []int64{ms}} }
	return &lowerbound.Problem{Mode: lowerbound.Fixed, Groups: 2, Nodes: []lowerbound.Node{{Group: 0, MapSlots: 1, ReduceSlots: 1}}, Jobs: []lowerbound.Job{
		{Arrival: 2000, HasDeadline: true, Deadline: 16448, Maps: []lowerbound.Task{task(4000), task(4315), task(4000)}, Reduces: []lowerbound.Task{task(3013), task(2000)}},
		{Arrival: 306, HasDeadline: true, Deadline: 10306, Maps: []lowerbound.Task{task(4163)}, Reduces: []lowerbound.Task{task(4000)}},
	}}
}

// TestOptimumStopsAnywhereAtFineUnits: draw1564's total turnaround at 1-ms
// units, stopped after 0 to 59,000 context checks (solvertest.Countdown,
// deterministic; on 2026-11-29 the run read the context 35,941 times in
// the time-indexed emit, then 675 in model.Builder.BuildStop, 936 in the
// validations, 21,638 in presolve before the search), always answers
// without an error, interrupted, with a bound not above Exact's optimum
// and a schedule the test's checker accepts when it has one.
func TestOptimumStopsAnywhereAtFineUnits(t *testing.T) {
	p := draw1564()
	opt, err := lowerbound.Exact(p)
	if err != nil {
		t.Fatal(err)
	}
	want := opt.Value(lowerbound.TotalTurnaround, len(p.Jobs))
	stops := []int64{0, 10000, 36000, 36800, 40000, 59000}
	if testing.Short() {
		stops = []int64{0, 36000, 40000}
	}
	for _, n := range stops {
		what := fmt.Sprintf("total turnaround after %d context checks", n)
		r, err := Optimum(solvertest.Countdown(n), p, lowerbound.TotalTurnaround, Options{UnitMs: 1, Solve: solve.Options{Solver: "native"}})
		if err != nil || r == nil {
			t.Fatalf("%s: %v, %v", what, r, err)
		}
		checkStreamOptimum(t, what, p, lowerbound.TotalTurnaround, r, want)
		if r.Status != solve.Interrupted {
			t.Errorf("%s: %v, want interrupted (the optimum takes minutes)", what, r.Status)
		}
	}
}
