package jlassi

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mrbound/mrbound/instances/jlassiscenario"
	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

// encodeTol is the slack allowed between the encoded vector's objective and
// the schedule's RealTime (sums of whole seconds).
const encodeTol = 1e-9

// checkHeuristic asserts that s passes the checker and that its encoding is
// feasible for the model of form f with objective RealTime = s.RealTime.
func checkHeuristic(t *testing.T, in *jlassiscenario.Instance, s *Schedule, T int, f Form) {
	t.Helper()
	if v := Check(in, s, RealTime, math.NaN()); !v.OK {
		t.Fatalf("%s T=%d: checker rejects the heuristic's schedule: %v", in.Name, T, v)
	}
	m, err := Build(in, BuildOptions{T: T, Form: f})
	if err != nil {
		t.Fatal(err)
	}
	x, err := m.Encode(s)
	if err != nil {
		t.Fatalf("%s T=%d %v: %v", in.Name, T, f, err)
	}
	ev := m.Model.Evaluate(x)
	if !ev.Feasible(startTol, true) {
		t.Fatalf("%s T=%d %v: encoded vector infeasible: %+v", in.Name, T, f, ev)
	}
	if math.Abs(ev.Objective-s.RealTime) > encodeTol {
		t.Fatalf("%s T=%d %v: encoded objective %g, schedule RealTime %g", in.Name, T, f, ev.Objective, s.RealTime)
	}
	// Decoding the vector gives back a schedule with the same RealTime.
	d, err := m.Decode(x)
	if err != nil || d.RealTime != s.RealTime {
		t.Fatalf("%s T=%d %v: decode of the encoded vector: %v, RealTime %v want %g", in.Name, T, f, err, d, s.RealTime)
	}
}

// TestHeuristicScenarios: on generated instances of the seven Table 5
// scenarios (seeds 1–3) at eq 17's and Table 5's horizons the heuristic
// finds a schedule every time (42 of 42 at the time of writing), the checker
// accepts it, and its encoding is feasible for the strong model (the
// published one too for seed 1, whose builds are slower) with objective =
// RealTime.
func TestHeuristicScenarios(t *testing.T) {
	seeds := []int64{1, 2, 3}
	if testing.Short() {
		seeds = seeds[:1]
	}
	found, tried := 0, 0
	for sc := 1; sc <= 7; sc++ {
		for _, seed := range seeds {
			in := generated(t, sc, seed)
			for _, T := range []int{in.Eq17(), jlassiscenario.Table5Horizon[sc]} {
				tried++
				s := Heuristic(in, T)
				if s == nil {
					t.Errorf("scenario %d seed %d T=%d: no schedule", sc, seed, T)
					continue
				}
				found++
				checkHeuristic(t, in, s, T, Strong)
				if seed == 1 && T == jlassiscenario.Table5Horizon[sc] {
					checkHeuristic(t, in, s, T, Published)
				}
			}
		}
	}
	t.Logf("heuristic found a schedule for %d of %d (instance, horizon) pairs", found, tried)
}

// TestHeuristicHandMade compares the heuristic with the known optima of the
// hand-made instances: never below the optimum, equal where the choice is
// forced, and no schedule where the MILP is infeasible.
func TestHeuristicHandMade(t *testing.T) {
	for _, c := range []struct {
		name    string
		T       int
		optimum float64 // NaN: infeasible
		exact   bool
	}{
		{"migration", 3, 15, true},
		{"migration", 2, math.NaN(), false},
		{"bandwidth", 0, 110, false},
		{"ram", 0, 20, true},
	} {
		in := compile(t, loadScenario(t, c.name))
		T := c.T
		if T == 0 {
			T = in.Source.Horizon
		}
		s := Heuristic(in, T)
		if math.IsNaN(c.optimum) {
			if s != nil {
				t.Errorf("%s T=%d: heuristic found a schedule where the MILP is infeasible", c.name, T)
			}
			continue
		}
		if s == nil {
			t.Errorf("%s T=%d: no schedule", c.name, T)
			continue
		}
		checkHeuristic(t, in, s, T, Strong)
		checkHeuristic(t, in, s, T, Published)
		if s.RealTime < c.optimum-encodeTol || (c.exact && s.RealTime != c.optimum) {
			t.Errorf("%s T=%d: heuristic RealTime %g, optimum %g", c.name, T, s.RealTime, c.optimum)
		}
	}
}

// TestEncodeRejects: Encode refuses a schedule outside the model (a reduce in
// interval 0), a task placed twice, and a schedule whose vector breaks a row
// (the block migrated in the map's own interval: locality).
func TestEncodeRejects(t *testing.T) {
	in := compile(t, loadScenario(t, "migration"))
	s := Heuristic(in, 3)
	m, err := Build(in, BuildOptions{T: 3})
	if err != nil || s == nil {
		t.Fatal(err, s)
	}
	early := *s
	early.Tasks = slices.Clone(s.Tasks)
	for i := range early.Tasks {
		if early.Tasks[i].Kind == jlassiscenario.Reduce {
			early.Tasks[i].Interval = 0
		}
	}
	if _, err := m.Encode(&early); err == nil {
		t.Error("a reduce in interval 0 was encoded")
	}
	twice := *s
	twice.Tasks = append(slices.Clone(s.Tasks), s.Tasks[0])
	if _, err := m.Encode(&twice); err == nil {
		t.Error("a task placed twice was encoded")
	}
	late := *s
	late.Migrations = slices.Clone(s.Migrations)
	if len(late.Migrations) != 1 || late.Migrations[0].Interval != 0 {
		t.Fatalf("want one migration in interval 0, got %+v", late.Migrations)
	}
	late.Migrations[0].Interval = 1
	if _, err := m.Encode(&late); err == nil || !strings.Contains(err.Error(), "loc") {
		t.Errorf("a late migration: %v", err)
	}
}

// fakeSolver returns a fixed result without solving and records the start
// it was given.
type fakeSolver struct {
	name  string
	res   solve.Result
	start []float64
}

func (f *fakeSolver) Name() string { return f.name }

func (f *fakeSolver) Solve(_ context.Context, m *model.Model, o solve.Options) (solve.Result, error) {
	f.start = o.Start
	r := f.res
	r.Solver = f.name
	if r.HasSolution {
		r.X = make([]float64, m.NumCols()) // not used: see the tests
	}
	return r, nil
}

var (
	fakeNone = &fakeSolver{name: "jlassi-test-none", res: solve.Result{Status: solve.TimeLimit,
		Objective: math.Inf(1), Bound: 123}}
	fakeInfeasible = &fakeSolver{name: "jlassi-test-infeasible", res: solve.Result{Status: solve.Infeasible,
		Objective: math.Inf(1), Bound: math.Inf(1)}}
)

func init() {
	solve.Register(fakeNone)
	solve.Register(fakeInfeasible)
	solve.Register(fakeSlowLP)
}

// slowLP answers an LP (no integer column) with optimum 77 after lpTime,
// and counts the MIP solves it is asked for.
type slowLP struct {
	mipCalls int
	// lpTime is how long the LP takes: longer than a test's time limit, so
	// that the limit ends during the LP however long the heuristic before
	// it took on a loaded machine.
	lpTime time.Duration
}

func (*slowLP) Name() string { return "jlassi-test-slow-lp" }

func (f *slowLP) Solve(_ context.Context, m *model.Model, _ solve.Options) (solve.Result, error) {
	if slices.Contains(m.ColType, model.Integer) || slices.Contains(m.ColType, model.Binary) {
		f.mipCalls++
		return solve.Result{Solver: f.Name(), Status: solve.TimeLimit, Objective: math.Inf(1), Bound: math.Inf(-1)}, nil
	}
	time.Sleep(f.lpTime)
	return solve.Result{Solver: f.Name(), Status: solve.Optimal, HasSolution: true, Objective: 77, Bound: 77,
		X: make([]float64, m.NumCols())}, nil
}

var fakeSlowLP = &slowLP{}

// TestRunNoTimeForMIP: when the time limit ends before the MIP (here in the
// LP relaxation, or before anything ran), Run still reports the heuristic's
// checked schedule, with the LP optimum as the bound when it was computed;
// a MIP stopped before its own bound also gets the LP's.
func TestRunNoTimeForMIP(t *testing.T) {
	in := generated(t, 5, 3)
	fakeSlowLP.lpTime = 1200 * time.Millisecond
	rep := run(t, in, Options{LPBound: true, NoDecomposition: true, Solve: solve.Options{Solver: fakeSlowLP.Name(), TimeLimit: time.Second}})
	fakeSlowLP.lpTime = 0
	r := rep.Result
	if fakeSlowLP.mipCalls != 0 || r.Status != solve.TimeLimit || r.Bound != 77 || rep.LPBound != 77 ||
		!rep.FromHeuristic || !rep.Verified() || r.Objective != rep.Heuristic.RealTime || r.Solver != fakeSlowLP.Name() {
		t.Fatalf("after the LP: MIP calls %d, status %v, bound %g, LP bound %g, from heuristic %v, verified %v, objective %g, solver %q",
			fakeSlowLP.mipCalls, r.Status, r.Bound, rep.LPBound, rep.FromHeuristic, rep.Verified(), r.Objective, r.Solver)
	}
	// With time for the MIP, which stops before its own bound: the LP's stands.
	rep = run(t, in, Options{LPBound: true, NoDecomposition: true, Solve: solve.Options{Solver: fakeSlowLP.Name()}})
	if r := rep.Result; fakeSlowLP.mipCalls != 1 || r.Status != solve.TimeLimit || r.Bound != 77 || !rep.Verified() {
		t.Fatalf("MIP without a bound: MIP calls %d, status %v, bound %g, verified %v", fakeSlowLP.mipCalls, r.Status, r.Bound, rep.Verified())
	}
	rep = run(t, in, Options{LPBound: true, NoDecomposition: true, Solve: solve.Options{Solver: fakeSlowLP.Name(), TimeLimit: time.Nanosecond}})
	r = rep.Result
	if r.Status != solve.TimeLimit || !math.IsNaN(rep.LPBound) || !math.IsInf(r.Bound, -1) || !rep.FromHeuristic || !rep.Verified() {
		t.Fatalf("no time at all: status %v, LP bound %g, bound %g, from heuristic %v, verified %v",
			r.Status, rep.LPBound, r.Bound, rep.FromHeuristic, rep.Verified())
	}
}

// TestRunFallback: when the solver returns no schedule (a limit), Run passes
// the heuristic's encoded schedule as the start and reports the heuristic's
// schedule, checked, with the solver's status and bound; without the
// heuristic there is no schedule; an infeasible answer is never overridden.
func TestRunFallback(t *testing.T) {
	in := generated(t, 5, 3)
	rep := run(t, in, Options{NoDecomposition: true, Solve: solve.Options{Solver: fakeNone.name}})
	h := rep.Heuristic
	if h == nil || !h.Found {
		t.Fatalf("heuristic: %+v", h)
	}
	m, err := Build(in, BuildOptions{T: rep.T})
	if err != nil {
		t.Fatal(err)
	}
	want, err := m.Encode(h.Schedule)
	if err != nil || !slices.Equal(fakeNone.start, want) {
		t.Fatalf("start passed to the solver differs from the encoded heuristic schedule (err %v)", err)
	}
	if !rep.FromHeuristic || !rep.Verified() || rep.Schedule != h.Schedule {
		t.Fatalf("fallback: from heuristic %v, verified %v", rep.FromHeuristic, rep.Verified())
	}
	r := rep.Result
	if r.Status != solve.TimeLimit || r.Bound != 123 || r.Objective != h.RealTime || !r.HasSolution {
		t.Fatalf("result: status %v bound %g objective %g (heuristic %g) has solution %v", r.Status, r.Bound, r.Objective, h.RealTime, r.HasSolution)
	}
	j := rep.JSON()
	if j.ScheduleSource != "heuristic" || float64(j.HeuristicRealTime) != h.RealTime || float64(j.RealTime) != h.RealTime {
		t.Fatalf("JSON: source %q heuristic_realtime %v realtime %v", j.ScheduleSource, j.HeuristicRealTime, j.RealTime)
	}

	rep = run(t, in, Options{NoHeuristic: true, NoDecomposition: true, Solve: solve.Options{Solver: fakeNone.name}})
	if rep.Schedule != nil || rep.Heuristic != nil || fakeNone.start != nil {
		t.Fatal("NoHeuristic: a schedule or a start")
	}
	rep = run(t, in, Options{NoDecomposition: true, Solve: solve.Options{Solver: fakeInfeasible.name}})
	if rep.Schedule != nil || rep.FromHeuristic || rep.Result.Status != solve.Infeasible {
		t.Fatal("an infeasible answer was overridden by the heuristic")
	}
}

// TestRunStartHiGHS: HiGHS stopped after one node on scenario 1 returns a
// schedule of its own at least as good as the heuristic's start.
func TestRunStartHiGHS(t *testing.T) {
	in := generated(t, 1, 1)
	rep := run(t, in, Options{NoDecomposition: true, Solve: solve.Options{Solver: "highs", NodeLimit: 1}})
	if rep.Heuristic == nil || !rep.Heuristic.Found {
		t.Fatal("no heuristic schedule")
	}
	if rep.FromHeuristic || !rep.Verified() || rep.Schedule.RealTime > rep.Heuristic.RealTime {
		t.Fatalf("from heuristic %v, verified %v, RealTime %v vs heuristic %g", rep.FromHeuristic, rep.Verified(),
			rep.Schedule, rep.Heuristic.RealTime)
	}
}

// TestHeuristicObjective: under TST, Run keeps the heuristic attempt with the
// least TST, not the shortest: on scenario 3 seed 5 (where the shortest
// attempt migrates blocks) one without migrations exists, whose TST is N,
// eq 1's constant and so the optimum; the run is settled.
func TestHeuristicObjective(t *testing.T) {
	if testing.Short() {
		t.Skip("solves scenario 3 under TST (seconds)")
	}
	in := generated(t, 3, 5)
	short := Heuristic(in, 9)
	if short == nil || len(short.Migrations) == 0 {
		t.Fatalf("the shortest attempt has no migration: the test needs another instance")
	}
	rep := run(t, in, Options{Objective: TST, Horizon: Horizon{Mode: HorizonTable5}, Solve: solve.Options{Solver: "native"}})
	n := float64(len(in.Tasks))
	if h := rep.Heuristic; h == nil || !h.Found || h.Objective != n || len(h.Schedule.Migrations) != 0 {
		t.Fatalf("heuristic under TST: %+v, want objective %g without migrations", h, n)
	}
	if rep.Result.Status != solve.Optimal || !rep.Verified() || rep.Result.Objective != n {
		t.Fatalf("status %v, verified %v, objective %g, want optimal %g", rep.Result.Status, rep.Verified(), rep.Result.Objective, n)
	}
}

// TestHeuristicLocalAttempts: on scenario 6 the links fill with shuffles
// when every map runs at home. On seeds 7 and 12 none of the attempts the
// RealTime heuristic makes is migration-free, even kept by TST; the
// locality-first attempts with the reduces in ready order (seed 7) and with
// the jobs one after the other (seed 12) are. Run under TST then gets a
// schedule without migrations, TST = N, and proves it optimal.
func TestHeuristicLocalAttempts(t *testing.T) {
	if testing.Short() {
		t.Skip("solves scenario 6 under TST (seconds)")
	}
	T := jlassiscenario.Table5Horizon[6]
	for _, seed := range []int64{7, 12} {
		in := generated(t, 6, seed)
		m, err := Build(in, BuildOptions{Objective: TST, T: T})
		if err != nil {
			t.Fatal(err)
		}
		tst := func(s *Schedule) float64 {
			x, err := m.Encode(s)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			return m.Model.Evaluate(x).Objective
		}
		n := float64(len(in.Tasks))
		without := heuristicBy(in, T, tst, false, nil)
		if without == nil || len(without.Migrations) == 0 {
			t.Fatalf("seed %d: without the local attempts the heuristic is migration-free: the test needs another instance", seed)
		}
		with := heuristicBy(in, T, tst, true, nil)
		if with == nil || len(with.Migrations) != 0 || tst(with) != n {
			t.Fatalf("seed %d: with the local attempts %+v, want a schedule without migrations", seed, with)
		}
		rep := run(t, in, Options{Objective: TST, Horizon: Horizon{Mode: HorizonTable5}, Solve: solve.Options{Solver: "native"}})
		if h := rep.Heuristic; h == nil || !h.Found || h.Objective != n || len(h.Schedule.Migrations) != 0 {
			t.Fatalf("seed %d: heuristic under TST: %+v, want objective %g without migrations", seed, h, n)
		}
		if rep.Result.Status != solve.Optimal || !rep.Verified() || rep.Result.Objective != n {
			t.Fatalf("seed %d: status %v, verified %v, objective %g, want optimal %g", seed, rep.Result.Status, rep.Verified(), rep.Result.Objective, n)
		}
		t.Logf("seed %d: TST %g with %d migrations without the local attempts; %g with them (RealTime %g)", seed, tst(without), len(without.Migrations), n, with.RealTime)
	}
}
