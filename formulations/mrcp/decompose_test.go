package mrcp

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/solve"
)

// TestDecompositionMatchesMonolithic solves seeded small and mixed streams
// (several identical maps per job, so the aggregated counts are used) by the
// late-count decomposition (caps rising from Zmin, and serial caps) and by
// the monolithic product model with one binary per task (heuristic cutoff,
// no aggregation), on every usable backend, and expects the same optimum.
func TestDecompositionMatchesMonolithic(t *testing.T) {
	type stream struct {
		w         mrcpscenario.Workload
		jobs      int
		seed      uint64
		lambda    float64
		resources int
	}
	streams := []stream{{mrcpscenario.Small, 3, 1, 0.05, 2}}
	if !testing.Short() {
		streams = append(streams, stream{mrcpscenario.Small, 4, 2, 0.1, 1}, stream{mrcpscenario.Mixed, 3, 3, 0.05, 2})
	}
	// values[i] collects stream i's optima over methods and backends.
	values := make([][]float64, len(streams))
	for _, backend := range backends {
		t.Run(backend, func(t *testing.T) {
			usable(t, backend)
			for i, s := range streams {
				in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: s.w, Jobs: s.jobs, Lambda: s.lambda, Seed: s.seed, TimeUnit: 10, Resources: s.resources})
				if err != nil {
					t.Fatal(err)
				}
				for _, m := range []struct {
					name string
					o    Options
				}{
					{"decomposed", Options{}},
					{"serial", Options{Method: SerialDecomposition}},
					{"monolithic", Options{Method: Monolithic, Disaggregated: true}},
				} {
					if backend == "native" && m.name == "monolithic" && i > 0 {
						// Beyond a minute on native; highs's monolithic value is the reference.
						continue
					}
					m.o.Solve = solve.Options{Solver: backend, TimeLimit: testTimeLimit}
					out, err := RunInstance(context.Background(), t.Name(), in, m.o)
					if err != nil {
						t.Fatal(err)
					}
					if out.Result.Status.IsLimit() && backend == "native" {
						t.Skipf("native %s: %v", m.name, out.Result.Status)
					}
					if out.Result.Status != solve.Optimal || !out.Verified {
						t.Fatalf("%v %s: %v, verified %v (%v)", s, m.name, out.Result.Status, out.Verified, out.CheckErr)
					}
					if m.name != "monolithic" && out.Subproblems == nil && out.Result.Solver != "bounds" {
						t.Errorf("%v %s: no subproblems recorded", s, m.name)
					}
					if out.Result.Bound != out.Result.Objective {
						t.Errorf("%v %s: bound %v, objective %v", s, m.name, out.Result.Bound, out.Result.Objective)
					}
					t.Logf("%v %s: %v (%d late, Z %d), %d subproblems, %v", s, m.name, out.Result.Objective,
						out.Schedule.LateJobs, out.Schedule.MaxTurnaround, len(out.Subproblems), out.Result.Wall)
					values[i] = append(values[i], out.Recomputed)
				}
			}
		})
	}
	for i, vs := range values {
		for _, v := range vs[1:] {
			if v != vs[0] {
				t.Errorf("%v: optima differ: %v", streams[i], vs)
			}
		}
	}
}

// TestAggregatedMatchesDisaggregated compares the time-indexed model with
// counts for identical maps against one binary per map: same LP size order,
// same optimum, and the decoded schedules pass the checker.
func TestAggregatedMatchesDisaggregated(t *testing.T) {
	usable(t, "highs")
	in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: mrcpscenario.Medium, Jobs: 2, Lambda: 0.05, Seed: 7, TimeUnit: 10, Resources: 2})
	if err != nil {
		t.Fatal(err)
	}
	var values []float64
	for _, dis := range []bool{false, true} {
		out := run(t, in, "highs", Options{Disaggregated: dis}, true)
		groups := len(out.Built.groups)
		if dis && groups != len(out.Built.tasks) || !dis && groups >= len(out.Built.tasks) {
			t.Errorf("disaggregated=%v: %d groups for %d tasks", dis, groups, len(out.Built.tasks))
		}
		values = append(values, out.Recomputed)
	}
	if values[0] != values[1] {
		t.Errorf("aggregated %v, disaggregated %v", values[0], values[1])
	}
}

// TestCoreMILPBounds: the MILP on part of the jobs (coreMILP) never bounds
// Z*_k above the whole instance's optimum (coreMILP on every job, the
// subproblem itself), and calls a cap infeasible only when the whole
// instance has no schedule under it, on small random instances (4–6 jobs),
// random parts of 2–4 jobs (never all), k = 0, 1 and caps from Zmin to Zmin + 15.
func TestCoreMILPBounds(t *testing.T) {
	usable(t, "highs")
	rng := rand.New(rand.NewPCG(5, 6))
	// Short limits: a solve the backend does not finish is skipped (it would
	// only test the backend).
	so := solve.Options{Solver: "highs"}
	const limit = 2 * time.Second
	tight, bounded, infeasible, skipped := 0, 0, 0, 0
	for trial := 0; trial < 20; trial++ {
		in, text := tinyInstance(t, rng, 3)
		for len(in.Jobs) < 4 {
			in, text = tinyInstance(t, rng, 6)
		}
		all := make([]int, len(in.Jobs))
		for j := range all {
			all[j] = j
		}
		zmin := TurnaroundLowerBound(in)
		k := rng.IntN(2)
		zcap := zmin + rng.IntN(16)
		whole, _, err := coreMILP(context.Background(), in, all, k, zcap, Options{}, so, limit)
		if err != nil {
			t.Fatal(err)
		}
		if whole.Status != solve.Optimal && whole.Status != solve.Infeasible {
			skipped++ // the oracle did not finish, not coreMILP's fault
			continue
		}
		core := rng.Perm(len(in.Jobs))[:2+rng.IntN(min(3, len(in.Jobs)-2))]
		part, _, err := coreMILP(context.Background(), in, core, k, zcap, Options{}, so, limit)
		if err != nil {
			t.Fatal(err)
		}
		if part.Status == solve.Infeasible {
			infeasible++
			if whole.Status != solve.Infeasible {
				t.Fatalf("%s k %d cap %d jobs %v: part infeasible, whole has Z %d", text, k, zcap, core, whole.ZBound)
			}
		}
		if whole.Status == solve.Optimal && part.ZBound > whole.ZBound {
			t.Fatalf("%s k %d cap %d jobs %v: part bound %d above the optimum %d", text, k, zcap, core, part.ZBound, whole.ZBound)
		}
		if part.Status == solve.Optimal && whole.Status == solve.Optimal {
			bounded++
			if part.ZBound == whole.ZBound {
				tight++
			}
		}
	}
	t.Logf("%d parts bound Z*_k (%d exactly), %d prove the cap empty (%d instances skipped: the whole not solved)",
		bounded, tight, infeasible, skipped)
	if bounded == 0 || infeasible == 0 {
		t.Error("the parts never bound Z*_k or never prove a cap empty")
	}
}

// TestLateSetMILPs: when few late sets pass the relaxation at a cap, the
// least optimum over their K = 0 MILPs (lateSetInstance) is the late
// count's own optimum, and all of them infeasible only when it is (HiGHS as
// the oracle, on small random instances).
func TestLateSetMILPs(t *testing.T) {
	usable(t, "highs")
	rng := rand.New(rand.NewPCG(8, 9))
	so := solve.Options{Solver: "highs"}
	const limit = 2 * time.Second
	compared, empty := 0, 0
	for trial := 0; trial < 16; trial++ {
		in, text := tinyInstance(t, rng, 6)
		if len(in.Jobs) < 3 {
			continue
		}
		rx := newRelaxation(in)
		k := 1 + rng.IntN(2)
		zcap := TurnaroundLowerBound(in) + rng.IntN(12)
		sets := passingSets(in, rx, k, zcap)
		if sets == nil {
			continue
		}
		whole, _, err := coreMILP(context.Background(), in, allJobs(in), k, zcap, Options{}, so, limit)
		if err != nil {
			t.Fatal(err)
		}
		if whole.Status != solve.Optimal && whole.Status != solve.Infeasible {
			continue
		}
		best := zcap + 1
		solved := true
		for _, set := range sets {
			ss, _, err := coreMILP(context.Background(), lateSetInstance(in, set, zcap), allJobs(in), 0, zcap, Options{}, so, limit)
			if err != nil {
				t.Fatal(err)
			}
			if ss.Status != solve.Optimal && ss.Status != solve.Infeasible {
				solved = false
			}
			best = min(best, ss.ZBound)
		}
		if !solved {
			continue
		}
		compared++
		if best > zcap {
			empty++
		}
		if best != whole.ZBound {
			t.Errorf("%s k %d cap %d sets %v: least set optimum %d, the late count's %d", text, k, zcap, sets, best, whole.ZBound)
		}
	}
	t.Logf("%d compared (%d with no schedule)", compared, empty)
	if compared == 0 || empty == compared {
		t.Error("nothing compared, or only empty caps")
	}
}

// TestLexicographicDecompositionMatchesMonolithic solves 12 seeded small
// streams, several with late jobs forced by tight deadlines, by the
// lexicographic decomposition (with and without the combinatorial phase)
// and by the monolithic lexicographic model on HiGHS, and expects the same
// late count and maximum turnaround, and the same objective value (both
// weigh K by LexicographicSpan + 1); the late-count objective, by the same
// three methods, gives the same K.
func TestLexicographicDecompositionMatchesMonolithic(t *testing.T) {
	usable(t, "highs")
	n := 12
	if testing.Short() {
		n = 6
	}
	withLate := 0
	for i := range n {
		w := []mrcpscenario.Workload{mrcpscenario.Small, mrcpscenario.Mixed}[i%2]
		in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: w, Jobs: 3 + i%3, Lambda: 0.05 + 0.02*float64(i%4),
			Seed: uint64(100 + i), TimeUnit: 10, Resources: 1 + i%2})
		if err != nil {
			t.Fatal(err)
		}
		if i%3 == 0 {
			// Tighten every deadline so that some job must be late.
			for j := range in.Jobs {
				in.Jobs[j].Deadline = in.Jobs[j].Release + (in.Jobs[j].Deadline-in.Jobs[j].Release)/3
			}
		}
		// solveAll runs the objective by the decomposition, the MILP-only
		// decomposition and the monolithic model, each proven optimal
		// (values are integers: an absolute gap below 1 proves it).
		solveAll := func(kind ObjectiveKind) []*Report {
			var outs []*Report
			for _, o := range []Options{{}, {NoSearch: true}, {Method: Monolithic}} {
				o.Objective = Objective{Kind: kind}
				o.Solve = solve.Options{Solver: "highs", TimeLimit: testTimeLimit}
				out, err := RunInstance(context.Background(), t.Name(), in, o)
				if err != nil {
					t.Fatal(err)
				}
				if out.Result.Status != solve.Optimal || !out.Verified || out.Result.Objective-out.Result.Bound >= 1 {
					t.Fatalf("stream %d %v %v: %v, verified %v (%v), bound %v objective %v", i, kind, o.Method, out.Result.Status,
						out.Verified, out.CheckErr, out.Result.Bound, out.Result.Objective)
				}
				if out.Recomputed != out.Result.Objective {
					t.Errorf("stream %d %v %v: recomputed %v, reported %v", i, kind, o.Method, out.Recomputed, out.Result.Objective)
				}
				outs = append(outs, out)
			}
			return outs
		}
		type answer struct {
			k, z int
			v    float64
		}
		var got []answer
		for _, out := range solveAll(Lexicographic) {
			got = append(got, answer{out.Schedule.LateJobs, out.Schedule.MaxTurnaround, out.Recomputed})
		}
		for _, a := range got[1:] {
			if a != got[0] {
				t.Errorf("stream %d: decomposition, MILP-only decomposition, monolithic: %v", i, got)
			}
		}
		// The late count alone: the same K by every method.
		for m, out := range solveAll(LateCount) {
			if out.Schedule.LateJobs != got[0].k || out.Recomputed != float64(got[0].k) {
				t.Errorf("stream %d late-count, method %d: %d late (value %v), lexicographic: %d", i, m,
					out.Schedule.LateJobs, out.Recomputed, got[0].k)
			}
		}
		if got[0].k > 0 {
			withLate++
		}
	}
	if withLate == 0 {
		t.Error("no stream had a late job: the test does not reach the late counts above 0")
	}
}
