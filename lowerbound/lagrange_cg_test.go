package lowerbound

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mrbound/mrbound/solve"
)

// cgTestOptions runs at most 10 masters with the native simplex (the
// tests' embedded solver), which is slow on the degenerate masters of the
// finer grids: the tests use grids of 4 and 32 steps (cgGrids).
var cgTestOptions = CGOptions{Rounds: 10, Solve: solve.Options{Solver: "native"}}

// cgGrids are the property test's coarse grids (lagrangeGrids' first two).
var cgGrids = lagrangeGrids[:2]

// TestIntervalLagrangianCGNeverExceedsOptimum is the property test of the
// column generation (docs/bounds.md §4f): on seeded tiny instances its
// value is at most the enumerated optimum, its certificate re-evaluated by
// the independent code of the §4b–§4c property test (lagrangianAt) gives at
// least the value and at most the optimum, and it is never below the
// subgradient method it starts from; it must raise the value on some. Every
// third instance runs with MasterNoStarts.
func TestIntervalLagrangianCGNeverExceedsOptimum(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 40
	}
	rng := rand.New(rand.NewPCG(26, 16))
	raised := 0
	for i := range n {
		p, opt := randomWithOptimum(t, rng)
		o := cgGrids[i%len(cgGrids)]
		sub, err := IntervalLagrangian(context.Background(), p, o)
		if err != nil {
			t.Fatal(err)
		}
		co := cgTestOptions
		co.MasterNoStarts = i%3 == 2 // §4b's master, §4c's terms in the evaluations
		res, _, err := IntervalLagrangianCG(context.Background(), p, o, co)
		if err != nil {
			t.Fatal(err)
		}
		optT := float64(opt.TotalTurnaround)
		if res.Value > optT+roundingSlack(optT) {
			t.Errorf("instance %d (%+v): column generation %.9g > optimum %g\n%s", i, o, res.Value, optT, dump(p))
		}
		if res.Value < sub.Value {
			t.Errorf("instance %d: column generation %.9g below its subgradient start %.9g", i, res.Value, sub.Value)
		}
		if res.Certificate == nil {
			t.Fatalf("instance %d: no certificate", i)
		}
		indep := lagrangianAt(p, res.Certificate)
		if res.Value > indep+1e-6*math.Max(1, math.Abs(indep)) {
			t.Errorf("instance %d: reported %.9g above its certificate's value %.9g", i, res.Value, indep)
		}
		if indep > optT+roundingSlack(optT) {
			t.Errorf("instance %d: certificate value %.9g > optimum %g\n%s", i, indep, optT, dump(p))
		}
		if res.Value > sub.Value+1e-6*math.Max(1, sub.Value) {
			raised++
		}
	}
	t.Logf("column generation above the subgradient method on %d of %d instances", raised, n)
	if raised == 0 {
		t.Errorf("column generation never raised the value: the test does not exercise it")
	}
}

// TestIntervalLagrangianCGReachesItsLP: without the start-time terms the
// Lagrangian's ceiling is the interval LP (docs/bounds.md §4d), which the
// column generation's master is a Dantzig–Wolfe form of. On small seeded
// instances, from 2 subgradient steps, the certified value is at most the
// LP's optimum and within 0.5 % of it.
func TestIntervalLagrangianCGReachesItsLP(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 161))
	below := 0
	for i := range 40 {
		p := randomProblem(rng, 7)
		o := LagrangeOptions{Intervals: 32, Iterations: 2, NoStarts: true}
		res, st, err := IntervalLagrangianCG(context.Background(), p, o, CGOptions{Rounds: 30, Solve: solve.Options{Solver: "native"}})
		if err != nil {
			t.Fatal(err)
		}
		lp, err := IntervalLP(context.Background(), p, o, solve.Options{Solver: "native"})
		if err != nil {
			t.Fatal(err)
		}
		if lp.Status != solve.Optimal || res.Value > lp.Value+1e-6*math.Max(1, lp.Value) || res.Value < lp.Value-5e-3*math.Max(1, lp.Value) {
			t.Errorf("instance %d: column generation %.9g (seed %.9g, %d rounds), LP %.9g (%v): want within 0.5 %% below the LP", i, res.Value, st.Seed, st.Rounds, lp.Value, lp.Status)
		}
		if st.Seed < lp.Value-5e-3*math.Max(1, lp.Value) {
			below++
		}
	}
	// The subgradient start must be short of the LP somewhere, or the test
	// shows nothing about the column generation.
	t.Logf("2 subgradient steps more than 0.5 %% below the LP on %d of 40 instances", below)
	if below == 0 {
		t.Errorf("the subgradient steps reach the LP on every instance: the test does not exercise the column generation")
	}
}

// TestIntervalLagrangianCGStopped: a run stopped after one master, or with
// its context cancelled before it starts, still returns a valid value: at
// most the optimum, and after one round at least the subgradient method's.
func TestIntervalLagrangianCGStopped(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 162))
	for i := range 20 {
		p, opt := randomWithOptimum(t, rng)
		optT := float64(opt.TotalTurnaround)
		o := cgGrids[i%len(cgGrids)]
		sub, err := IntervalLagrangian(context.Background(), p, o)
		if err != nil {
			t.Fatal(err)
		}
		one, st, err := IntervalLagrangianCG(context.Background(), p, o, CGOptions{Rounds: 1, Solve: solve.Options{Solver: "native"}})
		if err != nil {
			t.Fatal(err)
		}
		if st.Rounds > 1 || one.Value < sub.Value || one.Value > optT+roundingSlack(optT) {
			t.Errorf("instance %d: one round: %.9g after %d rounds, subgradient %.9g, optimum %g", i, one.Value, st.Rounds, sub.Value, optT)
		}
		capped, st, err := IntervalLagrangianCG(context.Background(), p, o, CGOptions{MaxColumns: 1, Solve: solve.Options{Solver: "native"}})
		if err != nil {
			t.Fatal(err)
		}
		if st.Rounds > 0 || capped.Value < sub.Value || capped.Value > optT+roundingSlack(optT) {
			t.Errorf("instance %d: pool capped at one column: %.9g after %d rounds, subgradient %.9g, optimum %g", i, capped.Value, st.Rounds, sub.Value, optT)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		stopped, _, err := IntervalLagrangianCG(ctx, p, o, cgTestOptions)
		if err != nil {
			t.Fatal(err)
		}
		if stopped.Value < 0 || stopped.Value > optT+roundingSlack(optT) {
			t.Errorf("instance %d: cancelled run %.9g, optimum %g", i, stopped.Value, optT)
		}
	}
}

// TestComputeWithLagrangeCG: through ComputeWith, the column generation
// gives the Lagrangian component at least the subgradient method's value
// and at most the optimum.
func TestComputeWithLagrangeCG(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 163))
	raised := 0
	for i := range 20 {
		p, opt := randomWithOptimum(t, rng)
		o := cgGrids[i%len(cgGrids)]
		plain, err := ComputeWith(context.Background(), p, Options{Lagrange: &o})
		if err != nil {
			t.Fatal(err)
		}
		co := cgTestOptions
		cg, err := ComputeWith(context.Background(), p, Options{Lagrange: &o, LagrangeCG: &co})
		if err != nil {
			t.Fatal(err)
		}
		a, b := component(plain, LagrangeComponent), component(cg, LagrangeComponent)
		optT := float64(opt.TotalTurnaround)
		if b < a || b > optT+roundingSlack(optT) {
			t.Errorf("instance %d: Lagrangian component %.9g with column generation, %.9g without, optimum %g", i, b, a, optT)
		}
		if b > a+1e-6*math.Max(1, a) {
			raised++
		}
	}
	if raised == 0 {
		t.Errorf("column generation never raised the component: the test does not exercise it")
	}
}

// component is the value of total turnaround's component name in b.
func component(b *Bounds, name string) float64 {
	for _, c := range b.Get(TotalTurnaround).Components {
		if c.Name == name {
			return c.Value
		}
	}
	return math.NaN()
}
