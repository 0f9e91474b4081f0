package tumm

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/instances/tummscenario"
	"github.com/mrbound/mrbound/solve"
)

func lcm(a, b int) int {
	g, h := a, b
	for h != 0 {
		g, h = h, g%h
	}
	return a / g * b
}

// TestAlgorithm1AgainstSimulation: on small batches whose task counts are
// multiples of every possible slot count, the task-level FIFO simulation and
// the recursion agree for every split, so the brute-force best split's
// makespan equals Algorithm 1's. On arbitrary batches the simulation is never
// below the recursion.
func TestAlgorithm1AgainstSimulation(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		S := 2 + rng.IntN(4)
		L := 1
		for s := 1; s <= S; s++ {
			L = lcm(L, s)
		}
		n := 1 + rng.IntN(4)
		jobs := make([]Job, n)
		for i := range jobs {
			jobs[i] = Job{Name: "j", MapTasks: L * rng.IntN(3), ReduceTasks: L * rng.IntN(3),
				MapTime: float64(1 + rng.IntN(9)), ReduceTime: float64(1 + rng.IntN(9))}
		}
		best := math.Inf(1)
		for sm := 1; sm < S; sm++ {
			sim := Simulate(jobs, sm, S-sm).Makespan
			_, ft := Pipeline(jobs, sm, S-sm)
			if math.Abs(sim-ft[n-1]) > 1e-9 {
				t.Fatalf("trial %d, s_m %d: simulation %g, recursion %g (jobs %+v)", trial, sm, sim, ft[n-1], jobs)
			}
			best = math.Min(best, sim)
		}
		// s_m = S is valid only without reduce work; the simulation knows.
		best = math.Min(best, Simulate(jobs, S, 0).Makespan)
		got, err := StaticConfig(jobs, S)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got.Makespan-best) > 1e-9 {
			t.Fatalf("trial %d: Algorithm 1 %g (s_m %d), brute force %g", trial, got.Makespan, got.MapSlots, best)
		}
		if fl := fluidMakespan(jobs, got.MapSlots, got.ReduceSlots); math.Abs(fl-got.Makespan) > 1e-9 {
			t.Fatalf("trial %d: fluid events %g, recursion %g", trial, fl, got.Makespan)
		}
	}
	for trial := 0; trial < 200; trial++ {
		S := 2 + rng.IntN(6)
		jobs := make([]Job, 1+rng.IntN(5))
		for i := range jobs {
			jobs[i] = Job{Name: "j", MapTasks: rng.IntN(12), ReduceTasks: rng.IntN(12),
				MapTime: 0.5 + 5*rng.Float64(), ReduceTime: 0.5 + 5*rng.Float64()}
		}
		for sm := 1; sm < S; sm++ {
			sim := Simulate(jobs, sm, S-sm).Makespan
			_, ft := Pipeline(jobs, sm, S-sm)
			if sim < ft[len(ft)-1]*(1-1e-12) {
				t.Fatalf("trial %d, s_m %d: simulation %g below the recursion %g", trial, sm, sim, ft[len(ft)-1])
			}
		}
	}
}

// TestAlgorithm1Hand: one job of 4 maps (time 3) and 2 reduces (time 6) on
// S = 4: s_m=1: 12+12/3=16; s_m=2: 6+6=12; s_m=3: 4+12=16 → s_m = 2, 12.
func TestAlgorithm1Hand(t *testing.T) {
	r, err := StaticConfig([]Job{{Name: "a", MapTasks: 4, ReduceTasks: 2, MapTime: 3, ReduceTime: 6}}, 4)
	if err != nil {
		t.Fatal(err)
	}
	if r.MapSlots != 2 || r.ReduceSlots != 2 || r.Makespan != 12 {
		t.Fatalf("got s_m %d s_r %d makespan %g; want 2, 2, 12", r.MapSlots, r.ReduceSlots, r.Makespan)
	}
	if !math.IsInf(r.Makespans[3], 1) {
		t.Errorf("s_m = S with reduce work: makespan %g, want +Inf", r.Makespans[3])
	}
	if _, err := StaticConfig(nil, 4); err == nil {
		t.Error("empty batch accepted")
	}
	if _, err := StaticConfig([]Job{{MapTasks: 1, ReduceTasks: 1, MapTime: 1, ReduceTime: 1}}, 1); err == nil {
		t.Error("one slot with reduce work accepted")
	}
}

// TestILPEqualsAlgorithm1Homogeneous: on a homogeneous cluster, the stage
// workload (n'_m maps of one job, n'_r reduces of the job ahead) is, for
// Algorithm 1, the batch [reduce-only job, map-only job], whose makespan is
// min over s_m of max(n'_m·t_m/s_m, n'_r·t_r/s_r). The ILP with the stage
// objective is never below it, and equals it whenever Algorithm 1's split
// runs both phases in whole waves ("where both apply").
func TestILPEqualsAlgorithm1Homogeneous(t *testing.T) {
	forEachBackend(t, func(t *testing.T, opts solve.Options) {
		rng := rand.New(rand.NewPCG(5, 5))
		equalCases := 0
		for trial := 0; trial < 16; trial++ {
			k, c := 1+rng.IntN(2), 2+rng.IntN(3)
			tm, tr := float64(1+rng.IntN(5)), float64(1+rng.IntN(5))
			S := k * c
			// Build the workload from a split and whole waves half the time.
			sm := 1 + rng.IntN(S-1)
			nm, nr := sm*(1+rng.IntN(4)), (S-sm)*(1+rng.IntN(4))
			if trial%2 == 1 {
				nm, nr = 1+rng.IntN(20), 1+rng.IntN(20)
			}
			jobs := []Job{{Name: "ahead", ReduceTasks: nr, MapTime: tm, ReduceTime: tr}, {Name: "current", MapTasks: nm, MapTime: tm, ReduceTime: tr}}
			a1, err := StaticConfig(jobs, S)
			if err != nil {
				t.Fatal(err)
			}
			nodes := make([]Node, k)
			for i := range nodes {
				nodes[i] = Node{Name: "n", Slots: c, MapTime: tm, ReduceTime: tr}
			}
			for _, align := range []bool{false, trial%4 == 0} {
				p := HetProblem{Nodes: nodes, MapTasks: nm, ReduceTasks: nr, Objective: Stage, Align: align}
				r, err := SolveHet(context.Background(), p, opts)
				if err != nil {
					t.Fatal(err)
				}
				if r.Status != solve.Optimal || !r.Check.Verified {
					t.Fatalf("trial %d: status %v, check %+v", trial, r.Status, r.Check)
				}
				if r.Objective < a1.Makespan*(1-1e-7)-1e-7 {
					t.Fatalf("trial %d: ILP %g below Algorithm 1 %g", trial, r.Objective, a1.Makespan)
				}
				whole := nm%a1.MapSlots == 0 && nr%a1.ReduceSlots == 0
				if !align && whole {
					equalCases++
					if math.Abs(r.Objective-a1.Makespan) > 1e-6 {
						t.Fatalf("trial %d: ILP %g ≠ Algorithm 1 %g (s_m %d, n'_m %d, n'_r %d, k %d × %d)",
							trial, r.Objective, a1.Makespan, a1.MapSlots, nm, nr, k, c)
					}
				}
			}
		}
		if equalCases < 4 {
			t.Fatalf("only %d cases where both apply", equalCases)
		}
	})
}

// TestILPAgainstEnumeration: on small heterogeneous clusters, the stage
// objective without alignment equals the best over every per-node split of
// the slots' recomputed finish; the published objective with alignment is
// never below the best map finish over all splits.
func TestILPAgainstEnumeration(t *testing.T) {
	forEachBackend(t, func(t *testing.T, opts solve.Options) {
		rng := rand.New(rand.NewPCG(9, 9))
		for trial := 0; trial < 10; trial++ {
			k := 1 + rng.IntN(3)
			nodes := make([]Node, k)
			for i := range nodes {
				nodes[i] = Node{Name: "n", Slots: 1 + rng.IntN(3), MapTime: float64(1 + rng.IntN(6)), ReduceTime: float64(1 + rng.IntN(6))}
			}
			nm, nr := rng.IntN(15), rng.IntN(15)
			p := HetProblem{Nodes: nodes, MapTasks: nm, ReduceTasks: nr}
			bestStage, bestMap := math.Inf(1), math.Inf(1)
			split := make([]int, k)
			var walk func(i int)
			walk = func(i int) {
				if i == k {
					rs := make([]int, k)
					for j := range rs {
						rs[j] = nodes[j].Slots - split[j]
					}
					fm, fr := Recompute(p, split, rs)
					bestStage = math.Min(bestStage, math.Max(fm, fr))
					if !math.IsInf(fr, 1) {
						bestMap = math.Min(bestMap, fm)
					}
					return
				}
				for s := 0; s <= nodes[i].Slots; s++ {
					split[i] = s
					walk(i + 1)
				}
			}
			walk(0)
			p.Objective, p.Align = Stage, false
			r, err := SolveHet(context.Background(), p, opts)
			if err != nil {
				t.Fatal(err)
			}
			if math.IsInf(bestStage, 1) {
				if r.Status != solve.Infeasible && r.Status != solve.InfeasibleOrUnbounded {
					t.Fatalf("trial %d: no split works, status %v", trial, r.Status)
				}
				continue
			}
			if r.Status != solve.Optimal || !r.Check.Verified || math.Abs(r.Objective-bestStage) > 1e-6 {
				t.Fatalf("trial %d: status %v objective %g, enumeration %g, check %+v", trial, r.Status, r.Objective, bestStage, r.Check)
			}
			p.Objective, p.Align = Published, true
			r, err = SolveHet(context.Background(), p, opts)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != solve.Optimal || !r.Check.Verified || r.Objective < bestMap-1e-6 {
				t.Fatalf("trial %d (published, aligned): status %v objective %g, best map finish %g, check %+v", trial, r.Status, r.Objective, bestMap, r.Check)
			}
		}
	})
}

func TestExamples(t *testing.T) {
	for _, f := range []string{"../../examples/tumm-static.json", "../../examples/tumm-heterogeneous.json"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		forEachBackend(t, func(t *testing.T, opts solve.Options) {
			r, err := Run(context.Background(), f, data, Options{Solve: opts})
			if err != nil {
				t.Fatal(err)
			}
			if r.Status() != solve.Optimal || !r.Verified() {
				var sb strings.Builder
				r.WriteText(&sb)
				t.Fatalf("%s: status %v, verified %v\n%s", f, r.Status(), r.Verified(), sb.String())
			}
		})
	}
}

func TestBadInput(t *testing.T) {
	cases := []struct{ json, want string }{
		{`{"kind":"tumm","schema_version":1}`, "none of static, heterogeneous and batch"},
		{`{"kind":"tumm","schema_version":1,"static":{"slots":4,"jobs":[]}}`, "$.static.jobs: empty job batch"},
		{`{"kind":"tumm","schema_version":1,"static":{"slots":4,"jobs":[{"name":"a","map_tasks":-1,"reduce_tasks":0,"map_time":1,"reduce_time":1}]}}`, "$.static.jobs[0].map_tasks"},
		{`{"kind":"tumm","schema_version":1,"static":{"slots":4,"jobs":[{"name":"a","map_tasks":1,"reduce_tasks":0,"map_time":-2,"reduce_time":1}]}}`, "$.static.jobs[0].map_time"},
		{`{"kind":"tumm","schema_version":1,"heterogeneous":{"map_tasks":1,"reduce_tasks":1,"nodes":[{"name":"n","slots":0,"map_time":1,"reduce_time":1}]}}`, "$.heterogeneous.nodes[0].slots"},
		{`{"kind":"tumm","schema_version":1,"heterogeneous":{"map_tasks":1,"reduce_tasks":1,"objective":"fast","nodes":[{"name":"n","slots":2,"map_time":1,"reduce_time":1}]}}`, "$.heterogeneous.objective"},
		{`{"kind":"tumm","schema_version":1,"static":{"slots":"x"}}`, "$.static.slots"},
	}
	for _, c := range cases {
		_, err := Run(context.Background(), "bad.json", []byte(c.json), Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "bad.json: ") {
			t.Errorf("%s\n  error %v, want it to name bad.json and mention %q", c.json, err, c.want)
		}
		if !errors.Is(err, badinput.Err) {
			t.Errorf("%s\n  error %v does not wrap badinput.Err", c.json, err)
		}
	}
	// A scenario that is well formed but has no feasible split reports a
	// status, not an error: one node with one slot and both phases.
	var s = &tummscenario.Scenario{Kind: "tumm", SchemaVersion: 1, Heterogeneous: &tummscenario.Heterogeneous{MapTasks: 1, ReduceTasks: 1,
		Nodes: []tummscenario.Node{{Name: "n", Slots: 1, MapTime: 1, ReduceTime: 1}}}}
	forEachBackend(t, func(t *testing.T, opts solve.Options) {
		r, err := RunScenario(context.Background(), s, Options{Solve: opts})
		if err != nil {
			t.Fatal(err)
		}
		if r.Status() == solve.Optimal || r.Verified() {
			t.Fatalf("one slot for both phases: status %v verified %v", r.Status(), r.Verified())
		}
	})
}

// TestPerspectiveSameOptimum: the perspective rows change the LP relaxation,
// never the optimum.
func TestPerspectiveSameOptimum(t *testing.T) {
	forEachBackend(t, func(t *testing.T, opts solve.Options) {
		rng := rand.New(rand.NewPCG(4, 4))
		for trial := 0; trial < 3; trial++ {
			nodes := make([]Node, 1+rng.IntN(2))
			for i := range nodes {
				nodes[i] = Node{Name: "n", Slots: 1 + rng.IntN(3), MapTime: float64(1 + rng.IntN(4)), ReduceTime: float64(1 + rng.IntN(4))}
			}
			nm, nr := 1+rng.IntN(8), 1+rng.IntN(8)
			for _, obj := range []Objective{Published, Stage} {
				for _, align := range []bool{false, true} {
					var got [2]float64
					var st [2]solve.Status
					for k, persp := range []bool{false, true} {
						p := HetProblem{Nodes: nodes, MapTasks: nm, ReduceTasks: nr, Objective: obj, Align: align, Perspective: persp}
						r, err := SolveHet(context.Background(), p, opts)
						if err != nil {
							t.Fatal(err)
						}
						got[k], st[k] = r.Objective, r.Status
						if r.Status == solve.Optimal && !r.Check.Verified {
							t.Fatalf("trial %d %v align %v perspective %v: %s", trial, obj, align, persp, r.Check.Problem)
						}
					}
					if st[0] != st[1] || (st[0] == solve.Optimal && math.Abs(got[0]-got[1]) > 1e-6) {
						t.Fatalf("trial %d %v align %v: default %v %g, perspective %v %g", trial, obj, align, st[0], got[0], st[1], got[1])
					}
				}
			}
		}
	})
}

// TestPhaseFinishFig6: the example of Fig. 6 (§5): 7 map tasks, node 1 runs
// a task in 1 s, node 2 in 2 s, four map slots in all. Two slots on each node
// finish at 3 s, one and three at 4 s, three and one at 2 s.
func TestPhaseFinishFig6(t *testing.T) {
	times := []float64{1, 2}
	for _, c := range []struct {
		slots []int
		want  float64
	}{{[]int{2, 2}, 3}, {[]int{1, 3}, 4}, {[]int{3, 1}, 2}, {[]int{0, 0}, math.Inf(1)}} {
		if got := PhaseFinish(7, c.slots, times); got != c.want {
			t.Errorf("slots %v: finish %g, want %g", c.slots, got, c.want)
		}
	}
	if got := PhaseFinish(0, []int{0, 0}, times); got != 0 {
		t.Errorf("no tasks: %g, want 0", got)
	}
}
