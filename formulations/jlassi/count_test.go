package jlassi

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/mrbound/mrbound/instances/jlassiscenario"
	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

// plainCount is R_K written the obvious way, as the published form writes
// lengths: w binary per (task, machine, slot class, interval), L_t ≥ p·w,
// every interval holding a task, slot capacity, precedence as eq 7. It has
// no levels, no level-slot rows and no covers: the test of those rows is
// that both give the same optimum.
func plainCount(in *jlassiscenario.Instance, K int) *model.Model {
	classes := slotClasses(in, true)
	b := model.NewBuilder("plain")
	rows := 0
	name := func(family string) string { rows++; return fmt.Sprintf("%s_%d", family, rows) }
	L := make([]model.Var, K)
	var obj model.Expr
	for t := range L {
		L[t] = b.Continuous(fmt.Sprintf("L%d", t), 0, math.Inf(1))
		obj.Add(L[t], 1)
	}
	byTask := make([]model.Expr, len(in.Tasks))
	byT := make([]model.Expr, K)
	done := map[[2]int]model.Expr{} // (task, t) → Σ w in intervals ≤ t
	slot := map[[4]int]model.Expr{}
	for i := range in.Tasks {
		task := &in.Tasks[i]
		x := kindIndex(task.Kind)
		for t := 0; t < K; t++ {
			for j := range in.Machines {
				if task.P[j] == nil {
					continue
				}
				for c := range classes[j][x] {
					v := b.Binary(fmt.Sprintf("w_%d_%d_%d_%d", i, j, c, t))
					byTask[i].Add(v, 1)
					byT[t].Add(v, 1)
					var e model.Expr
					e.Add(v, taskP(in, classes, i, j, c)).Add(L[t], -1)
					b.LessEq(name("len"), e, 0)
					sk := [4]int{j, x, c, t}
					e2 := slot[sk]
					e2.Add(v, 1)
					slot[sk] = e2
					for t2 := t; t2 < K; t2++ {
						e3 := done[[2]int{i, t2}]
						e3.Add(v, 1)
						done[[2]int{i, t2}] = e3
					}
				}
			}
		}
		b.Equal(name("assign"), byTask[i], 1)
	}
	for sk, e := range slot {
		b.LessEq(name("slot"), e, float64(len(classes[sk[0]][sk[1]][sk[2]])))
	}
	for t := 0; t < K; t++ {
		b.GreaterEq(name("nonempty"), byT[t], 1)
	}
	// A reduce done by t needs every map of its job done by t−1.
	for _, jb := range in.Jobs {
		for _, k := range jb.Reduces {
			for _, l := range jb.Maps {
				for t := 0; t < K; t++ {
					var e model.Expr
					e.AddExpr(done[[2]int{k, t}], 1)
					if t > 0 {
						e.AddExpr(done[[2]int{l, t - 1}], -1)
					}
					b.LessEq(name("prec"), e, 0)
				}
			}
		}
	}
	b.Minimize(obj)
	m, err := b.Build()
	if err != nil {
		panic(err)
	}
	return m
}

func solveOpt(t *testing.T, m *model.Model, solver string) solve.Result {
	t.Helper()
	res, err := solve.Solve(context.Background(), m, solve.Options{Solver: solver, RelGap: 1e-9, AbsGap: 1e-6})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != solve.Optimal && res.Status != solve.Infeasible {
		t.Fatalf("%s: status %v", solver, res.Status)
	}
	return res
}

// countInstances are small instances for the decomposition's tests: two
// generated specs (one and two jobs) and scenario 1 and 2 seeds.
func countInstances(t *testing.T) map[string]*jlassiscenario.Instance {
	out := map[string]*jlassiscenario.Instance{}
	for x, spec := range []jlassiscenario.ScenarioSpec{
		{Jobs: [3]int{1, 0, 0}, Machines: [3]int{1, 0, 1}, Blocks: 3, T: 3},
		{Jobs: [3]int{2, 0, 0}, Machines: [3]int{0, 0, 2}, Blocks: 3, T: 4},
	} {
		sc, err := jlassiscenario.GenerateSpec(spec, 1)
		if err != nil {
			t.Fatal(err)
		}
		out[fmt.Sprintf("spec%d", x)] = compile(t, sc)
	}
	seeds := []int64{1, 2}
	if testing.Short() {
		seeds = seeds[:1]
	}
	for _, scenario := range []int{1, 2} {
		for _, seed := range seeds {
			out[fmt.Sprintf("scenario%d-seed%d", scenario, seed)] = generated(t, scenario, seed)
		}
	}
	return out
}

// TestCountSameOptimum: the level form of R_K (levels, level-slot rows,
// covers, cutoff off) has the optimum of the plain form, for K from the
// smallest feasible count up, on HiGHS and native; the wave bound is below
// it.
func TestCountSameOptimum(t *testing.T) {
	for name, in := range countInstances(t) {
		for K := max(1, in.MinHorizon()); K <= in.MinHorizon()+1; K++ {
			cm, err := buildCount(in, countOptions{K: K, T: K + 1, Cutoff: math.Inf(1)})
			if err != nil {
				t.Fatal(err)
			}
			plain := solveOpt(t, plainCount(in, K), "highs")
			for _, solver := range backends {
				lv := solveOpt(t, cm.Model, solver)
				if lv.Status != plain.Status || (lv.Status == solve.Optimal && math.Abs(lv.Objective-plain.Objective) > 1e-6) {
					t.Errorf("%s K=%d %s: levels %v %g, plain %v %g", name, K, solver, lv.Status, lv.Objective, plain.Status, plain.Objective)
				}
			}
			if plain.Status == solve.Optimal && waveBound(in, K) > plain.Objective+1e-6 {
				t.Errorf("%s K=%d: wave bound %g above R_K's optimum %g", name, K, waveBound(in, K), plain.Objective)
			}
			t.Logf("%s K=%d: %v %g (wave bound %g)", name, K, plain.Status, plain.Objective, waveBound(in, K))
		}
	}
}

// TestDecompositionBound: the decomposition's bound is at most the
// optimum the full MIP proves without it (strong form on HiGHS, published
// form on native where it is quick), and Run with it reaches that optimum.
// bandwidth.json is the case where the relaxation drops what binds (a
// shuffle that does not fit the link): the bound is then below the
// optimum, and the MIP settles it.
func TestDecompositionBound(t *testing.T) {
	ins := countInstances(t)
	ins["bandwidth"] = compile(t, loadScenario(t, "bandwidth"))
	ins["migration"] = compile(t, loadScenario(t, "migration"))
	ins["ram"] = compile(t, loadScenario(t, "ram"))
	for name, in := range ins {
		ref := run(t, in, Options{NoDecomposition: true, Solve: solve.Options{Solver: "highs"}})
		if ref.Result.Status != solve.Optimal || !ref.Verified() {
			t.Fatalf("%s: reference status %v", name, ref.Result.Status)
		}
		opt := ref.Schedule.RealTime
		for _, solver := range backends {
			rep := run(t, in, Options{Solve: solve.Options{Solver: solver}})
			d := rep.Decomposition
			if d == nil {
				t.Fatalf("%s %s: the decomposition did not run", name, solver)
			}
			if d.Bound > opt+1e-6 {
				t.Errorf("%s %s: decomposition bound %g above the optimum %g (%s)", name, solver, d.Bound, opt, d)
			}
			if rep.Result.Status != solve.Optimal || !rep.Verified() || math.Abs(rep.Schedule.RealTime-opt) > 1e-6 {
				t.Errorf("%s %s: status %v, verified %v, RealTime %v, want optimal %g", name, solver, rep.Result.Status, rep.Verified(), rep.Result.Objective, opt)
			}
			if rep.Result.Bound > opt+1e-6 {
				t.Errorf("%s %s: reported bound %g above the optimum %g", name, solver, rep.Result.Bound, opt)
			}
			t.Logf("%s %s: optimum %g, decomposition bound %g: %s", name, solver, opt, d.Bound, d)
		}
	}
}

// TestDecompositionInfeasible: at T = 2 the migration instance has no
// schedule (the block must move first); the decomposition's bound does not
// claim one, and the run ends infeasible.
func TestDecompositionInfeasible(t *testing.T) {
	in := compile(t, loadScenario(t, "migration"))
	for _, solver := range backends {
		rep := run(t, in, Options{Horizon: Horizon{Mode: HorizonFixed, T: 2}, Solve: solve.Options{Solver: solver}})
		if rep.Result.Status != solve.Infeasible || rep.Schedule != nil {
			t.Errorf("%s: status %v, schedule %v", solver, rep.Result.Status, rep.Schedule != nil)
		}
	}
}

// TestDemoScenario5: examples/scenario5.json (make demo) is settled by the
// decomposition on both backends with the same optimum: K = 3 task
// intervals, whose relaxation's optimum is completed into a checked
// schedule, and no other count can do better.
func TestDemoScenario5(t *testing.T) {
	if testing.Short() {
		t.Skip("solves R_3 of scenario 5 (seconds)")
	}
	data, err := os.ReadFile("../../examples/scenario5.json")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := jlassiscenario.Decode("scenario5.json", data)
	if err != nil {
		t.Fatal(err)
	}
	in := compile(t, sc)
	var got []float64
	for _, solver := range backends {
		rep := run(t, in, Options{Solve: solve.Options{Solver: solver, TimeLimit: 10 * time.Minute}})
		if rep.Result.Status != solve.Optimal || !rep.Verified() || rep.Result.Bound < rep.Schedule.RealTime-1e-6 {
			t.Fatalf("%s: status %v verified %v bound %g", solver, rep.Result.Status, rep.Verified(), rep.Result.Bound)
		}
		if rep.Heuristic == nil || rep.Schedule.RealTime > rep.Heuristic.RealTime {
			t.Errorf("%s: RealTime %g above the heuristic's", solver, rep.Schedule.RealTime)
		}
		got = append(got, rep.Schedule.RealTime)
		t.Logf("%s: %g in %.1f s: %s", solver, rep.Schedule.RealTime, rep.Result.Wall.Seconds(), rep.Decomposition)
	}
	if got[0] != got[1] {
		t.Errorf("optima differ across backends: %v", got)
	}
}

// TestCountBoundsProperty: on random small instances (one to three jobs,
// one or two machines), for K from the least feasible count up, the wave
// and level bounds never exceed R_K's optimum, and R_K as built (levels,
// level covers from levelNeeds, interval order rows) has the optimum of
// the plain form, or is infeasible with it.
func TestCountBoundsProperty(t *testing.T) {
	seeds := 12
	if testing.Short() {
		seeds = 4
	}
	for seed := 1; seed <= seeds; seed++ {
		spec := jlassiscenario.ScenarioSpec{
			Jobs:     [3]int{1 + seed%2, (seed / 2) % 2, 0},
			Machines: [3]int{seed % 2, 0, 1 + (seed/3)%2},
			Blocks:   3, T: 4,
		}
		sc, err := jlassiscenario.GenerateSpec(spec, int64(seed))
		if err != nil {
			t.Fatal(err)
		}
		in := compile(t, sc)
		for K := max(1, in.MinHorizon()); K <= in.MinHorizon()+1; K++ {
			plain := solveOpt(t, plainCount(in, K), "highs")
			for _, T := range []int{K, K + 1} {
				cm, err := buildCount(in, countOptions{K: K, T: T, Cutoff: math.Inf(1)})
				if err != nil {
					t.Fatal(err)
				}
				lv := solveOpt(t, cm.Model, backends[(seed+T)%len(backends)])
				if T == K+1 && (lv.Status != plain.Status || (lv.Status == solve.Optimal && math.Abs(lv.Objective-plain.Objective) > 1e-6)) {
					t.Errorf("seed %d K=%d: R_K %v %g, plain %v %g", seed, K, lv.Status, lv.Objective, plain.Status, plain.Objective)
				}
				if T == K && lv.Status == solve.Optimal && lv.Objective < plain.Objective-1e-6 {
					// K = T only restricts interval 0's maps to their homes.
					t.Errorf("seed %d K=T=%d: R_K %g below the plain optimum %g", seed, K, lv.Objective, plain.Objective)
				}
			}
			if plain.Status != solve.Optimal {
				continue
			}
			if wb, lb := waveBound(in, K), levelBound(in, K); wb > plain.Objective+1e-6 || lb > plain.Objective+1e-6 {
				t.Errorf("seed %d K=%d: wave bound %g or level bound %g above R_K's optimum %g", seed, K, wb, lb, plain.Objective)
			}
			t.Logf("seed %d (%d tasks) K=%d: optimum %g, wave %g, level %g", seed, len(in.Tasks), K, plain.Objective, waveBound(in, K), levelBound(in, K))
		}
	}
}

// relabel renumbers the K positions of a placement as the order rows ask
// (docs/jlassi.md, "Interval order"): adjacent positions that no job links
// trade places while the later one is longer. Each trade raises the length
// sequence lexicographically, so the trading ends; the schedule is the same,
// its intervals renumbered.
func relabel(in *jlassiscenario.Instance, cm *countModel, place []wKey, T int) [][]wKey {
	at := make([][]wKey, cm.K)
	for _, k := range place {
		at[k.T] = append(at[k.T], k)
	}
	length := func(ks []wKey) float64 {
		l := 0.0
		for _, k := range ks {
			l = math.Max(l, taskP(in, cm.classes, k.I, k.J, k.S))
		}
		return l
	}
	from := 0
	if cm.K == T {
		from = 1
	}
	for traded := true; traded; {
		traded = false
		for t := from; t+1 < cm.K; t++ {
			if length(at[t]) < length(at[t+1]) && len(linkedJobs(in, at[t], at[t+1])) == 0 {
				at[t], at[t+1] = at[t+1], at[t]
				traded = true
			}
		}
	}
	return at
}

// linkedJobs lists the jobs with a map in a and a reduce in b.
func linkedJobs(in *jlassiscenario.Instance, a, b []wKey) []int {
	maps := map[int]bool{}
	for _, k := range a {
		if in.Tasks[k.I].Kind == jlassiscenario.Map {
			maps[in.Tasks[k.I].Job] = true
		}
	}
	var out []int
	seen := map[int]bool{}
	for _, k := range b {
		J := in.Tasks[k.I].Job
		if in.Tasks[k.I].Kind == jlassiscenario.Reduce && maps[J] && !seen[J] {
			seen[J] = true
			out = append(out, J)
		}
	}
	return out
}

// encodeCount writes positions (from relabel) as a vector of cm: w, the
// levels g of each position's longest task, q = 1 where a job links two
// adjacent positions.
func encodeCount(t *testing.T, in *jlassiscenario.Instance, cm *countModel, at [][]wKey) []float64 {
	t.Helper()
	x := make([]float64, cm.Model.NumCols())
	for p := range at {
		l := 0.0
		for _, k := range at[p] {
			k.T = p
			v, ok := cm.w.Get(k)
			if !ok {
				t.Fatalf("placement %+v has no column in R_K", k)
			}
			x[v.Index()] = 1
			l = math.Max(l, taskP(in, cm.classes, k.I, k.J, k.S))
		}
		for k := 1; k < len(cm.levels); k++ {
			if cm.levels[k] <= l {
				v, _ := cm.g.Get([2]int{p, k})
				x[v.Index()] = 1
			}
		}
		// s[J,p] = 1 when every map of J is in a position before p.
		if cm.s != nil && p > 0 {
			for J := range in.Jobs {
				v, ok := cm.s.Get([2]int{J, p})
				if !ok {
					continue
				}
				done := true
				for q := p; q < len(at) && done; q++ {
					for _, k := range at[q] {
						if in.Tasks[k.I].Job == J && in.Tasks[k.I].Kind == jlassiscenario.Map {
							done = false
						}
					}
				}
				if done {
					x[v.Index()] = 1
				}
			}
		}
		if p+1 < len(at) {
			for _, J := range linkedJobs(in, at[p], at[p+1]) {
				if v, ok := cm.q.Get([2]int{J, p}); ok {
					x[v.Index()] = 1
				}
			}
		}
	}
	return x
}

// TestOrderRowsRelabel: the interval order rows are symmetry rows. Every
// schedule, its task intervals renumbered by relabel, satisfies every row
// of R_K (order rows included) with the same RealTime. Schedules: the
// optima at the least horizon on small instances (the strong form on
// native: 0.7 s for the six; the published form on HiGHS took 21 s, for the
// same optima), and the heuristic's and the local search's on scenarios 3–6
// (seed 1, Table 5's T), whose intervals are far from sorted.
func TestOrderRowsRelabel(t *testing.T) {
	type sched struct {
		name string
		in   *jlassiscenario.Instance
		s    *Schedule
		T    int
	}
	var cases []sched
	for name, in := range countInstances(t) {
		rep := run(t, in, Options{NoDecomposition: true, NoHeuristic: true,
			Horizon: Horizon{Mode: HorizonSearch}, Solve: solve.Options{Solver: "native"}})
		if rep.Result.Status != solve.Optimal || !rep.Verified() {
			t.Fatalf("%s: strong form %v", name, rep.Result.Status)
		}
		cases = append(cases, sched{name + "/optimum", in, rep.Schedule, rep.T})
	}
	scenarios := []int{3, 4, 5, 6}
	if testing.Short() {
		scenarios = []int{4}
	}
	for _, sc := range scenarios {
		in := generated(t, sc, 1)
		T := jlassiscenario.Table5Horizon[sc]
		h := Heuristic(in, T)
		cases = append(cases, sched{fmt.Sprintf("scenario%d/heuristic", sc), in, h, T})
		a := newAnnealer(in, T)
		if !a.fromSchedule(h) {
			t.Fatalf("scenario %d: heuristic does not load", sc)
		}
		a.run(0, func() bool { return false })
		place, K := a.placements()
		checkRelabel(t, fmt.Sprintf("scenario%d/search", sc), in, place, K, T, a.total)
	}
	for _, c := range cases {
		place, K := taskIntervals(t, c.in, c.s)
		checkRelabel(t, c.name, c.in, place, K, c.T, c.s.RealTime)
	}
}

// taskIntervals reads a schedule's placements over its task intervals
// (intervals holding only migrations dropped, the order kept).
func taskIntervals(t *testing.T, in *jlassiscenario.Instance, s *Schedule) ([]wKey, int) {
	t.Helper()
	classes := slotClasses(in, true)
	taskIdx, machIdx := map[string]int{}, map[string]int{}
	for i := range in.Tasks {
		taskIdx[in.Tasks[i].ID] = i
	}
	for j := range in.Machines {
		machIdx[in.Machines[j].ID] = j
	}
	used := map[int]bool{}
	for _, p := range s.Tasks {
		used[p.Interval] = true
	}
	index := map[int]int{}
	K := 0
	for iv := 0; iv < s.Horizon; iv++ {
		if used[iv] {
			index[iv] = K
			K++
		}
	}
	var out []wKey
	for _, p := range s.Tasks {
		i, j := taskIdx[p.Task], machIdx[p.Machine]
		x := kindIndex(in.Tasks[i].Kind)
		c := -1
		for ci, slots := range classes[j][x] {
			if slices.Contains(slots, p.Slot) {
				c = ci
			}
		}
		out = append(out, wKey{i, j, c, index[p.Interval]})
	}
	return out, K
}

func checkRelabel(t *testing.T, name string, in *jlassiscenario.Instance, place []wKey, K, T int, realtime float64) {
	t.Helper()
	cm, err := buildCount(in, countOptions{K: K, T: T, Cutoff: math.Inf(1)})
	if err != nil {
		t.Fatal(err)
	}
	if cm.q.Len() == 0 && K > 2 {
		t.Logf("%s: no order rows at K=%d", name, K)
	}
	x := encodeCount(t, in, cm, relabel(in, cm, place, T))
	ev := cm.Model.Evaluate(x)
	if !ev.Feasible(startTol, true) {
		t.Errorf("%s K=%d T=%d: the relabelled schedule breaks R_K: row %s by %g, bounds by %g, integrality by %g",
			name, K, T, cm.Model.RowName(ev.WorstRow), ev.MaxRowViolation, ev.MaxBoundViolation, ev.MaxIntegrality)
	}
	if math.Abs(ev.Objective-realtime) > 1e-6 {
		t.Errorf("%s: relabelled objective %g, RealTime %g", name, ev.Objective, realtime)
	}
	t.Logf("%s: K=%d, RealTime %g, %d order links", name, K, realtime, cm.q.Len())
}

// TestPhaseRows: R_K with the phase binaries has the LP optimum and the
// integer optimum of R_K with the cumulative precedence rows (the phase
// rows add branching handles, not cuts), on the small instances and, for
// the LP, on scenario 4 at K = 8, where every job turns to its reduces
// somewhere in eight intervals.
func TestPhaseRows(t *testing.T) {
	type probe struct {
		name string
		in   *jlassiscenario.Instance
		K, T int
		mip  bool
	}
	var probes []probe
	for name, in := range countInstances(t) {
		for K := max(1, in.MinHorizon()); K <= in.MinHorizon()+1; K++ {
			probes = append(probes, probe{name, in, K, K + 1, true})
		}
	}
	probes = append(probes, probe{"scenario4-seed1", generated(t, 4, 1), 8, 15, false})
	for _, p := range probes {
		phase, err := buildCount(p.in, countOptions{K: p.K, T: p.T, Cutoff: math.Inf(1)})
		if err != nil {
			t.Fatal(err)
		}
		cumulative, err := buildCount(p.in, countOptions{K: p.K, T: p.T, Cutoff: math.Inf(1), CumulativePrecedence: true})
		if err != nil {
			t.Fatal(err)
		}
		if phase.s == nil || phase.s.Len() == 0 || cumulative.s != nil {
			t.Fatalf("%s K=%d: phase binaries %v, cumulative %v", p.name, p.K, phase.s, cumulative.s)
		}
		for _, solver := range backends {
			a := solveOpt(t, phase.Model.Relaxation(), solver)
			b := solveOpt(t, cumulative.Model.Relaxation(), solver)
			if a.Status != b.Status || math.Abs(a.Objective-b.Objective) > 1e-6*math.Max(1, math.Abs(b.Objective)) {
				t.Errorf("%s K=%d %s: LP with phase rows %v %g, cumulative %v %g", p.name, p.K, solver, a.Status, a.Objective, b.Status, b.Objective)
			}
			if !p.mip {
				continue
			}
			a = solveOpt(t, phase.Model, solver)
			b = solveOpt(t, cumulative.Model, solver)
			if a.Status != b.Status || math.Abs(a.Objective-b.Objective) > 1e-6 {
				t.Errorf("%s K=%d %s: R_K with phase rows %v %g, cumulative %v %g", p.name, p.K, solver, a.Status, a.Objective, b.Status, b.Objective)
			}
		}
	}
}
