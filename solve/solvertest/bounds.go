package solvertest

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

// BoundTol is the relative tolerance (of max(1, |optimum|)) of the bound
// checks: a reported dual bound may pass the optimum by no more than this,
// and neither may the optimum pass a reported objective.
const BoundTol = 1e-9

// BoundCase is a MIP with a known optimum on which every early stop must
// report a valid dual bound.
type BoundCase struct {
	// Name is the subtest name below "bounds/", e.g. "random_3" or
	// "p0033_max".
	Name string
	// Model is the MIP; Optimum its optimal objective (offset included).
	Model   *model.Model
	Optimum float64
	// Solution is one optimal point when known (the enumerated cases).
	Solution []float64
}

// Stop is one way of stopping a MIP solve early.
type Stop struct {
	// Name is the subtest name, e.g. "gap_1e-2" or "nodes_10".
	Name string
	// Options are the solve options (the backend's name is added by the
	// runner).
	Options solve.Options
	// Cancelled runs the solve with a context cancelled before the call.
	Cancelled bool
}

// Countdown returns a context that reports itself cancelled from the n-th
// call of Err on (its Done channel never closes): a deterministic
// interruption wherever the n-th check falls, in a node LP, a heuristic, a
// combinatorial search or between them.
func Countdown(n int64) context.Context {
	c := &countdownCtx{Context: context.Background()}
	c.left.Store(n)
	return c
}

type countdownCtx struct {
	context.Context
	left atomic.Int64
}

func (c *countdownCtx) Err() error {
	if c.left.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// Cancelled returns a context cancelled before the call.
func Cancelled() context.Context {
	c, cancel := context.WithCancel(context.Background())
	cancel()
	return c
}

// Stops returns the stops of the bound matrix: relative gaps 1e-1, 1e-2 and
// 1e-4, an absolute gap of 1, node limits 1, 10 and 100, an iteration limit
// of 50, a time limit that has expired before the first node (1 ns) and a
// context cancelled before the call. All are deterministic in what they
// check: the bound must be valid wherever the solve stops.
func Stops() []Stop {
	return []Stop{
		{Name: "gap_1e-1", Options: solve.Options{RelGap: 1e-1}},
		{Name: "gap_1e-2", Options: solve.Options{RelGap: 1e-2}},
		{Name: "gap_1e-4", Options: solve.Options{RelGap: 1e-4}},
		{Name: "absgap_1", Options: solve.Options{RelGap: 1e-12, AbsGap: 1}},
		{Name: "nodes_1", Options: solve.Options{NodeLimit: 1}},
		{Name: "nodes_10", Options: solve.Options{NodeLimit: 10}},
		{Name: "nodes_100", Options: solve.Options{NodeLimit: 100}},
		{Name: "iterations_50", Options: solve.Options{IterationLimit: 50}},
		{Name: "time_1ns", Options: solve.Options{TimeLimit: time.Nanosecond}},
		{Name: "cancelled", Cancelled: true},
	}
}

// boundTestsets are the test-set MIPs of the bound matrix: small enough that
// the whole matrix takes seconds on both backends (lseu, rgn and stein27
// took 13 to 32 s each on HiGHS and are left to the per-backend tests). Their
// objectives are integral (p0033, vpm1, gt2) or not (egout), which matters
// because an integral objective lets a search prune by whole units.
var boundTestsets = []string{"p0033", "egout", "vpm1", "gt2"}

// boundMirrored are the test-set MIPs also run as maximisations: objective
// negated, sense flipped and an offset added (mirrorOffset), so that the
// optimum is mirrorOffset − the published one.
var boundMirrored = []string{"p0033", "rgn", "egout"}

// mirrorOffset is the objective constant of the mirrored test-set MIPs.
const mirrorOffset = 1234.5

// randomBoundCases is the number of seeded random MILPs in the matrix.
const randomBoundCases = 12

// BoundCases returns the cases of the bound matrix: seeded random pure-integer
// MILPs (minimisations and maximisations, with objective offsets) whose
// optima are found by enumeration, then the test-set MIPs of boundTestsets
// and the mirrored maximisations of boundMirrored when ../shared/testsets is
// present. Each call builds fresh models.
func BoundCases() ([]BoundCase, error) {
	cs, err := randomCases()
	if err != nil {
		return nil, err
	}
	dir := TestsetDir()
	if dir == "" {
		return cs, nil
	}
	for _, name := range boundTestsets {
		p, m, err := LoadProblem(dir, name)
		if err != nil {
			return nil, err
		}
		cs = append(cs, BoundCase{Name: name, Model: m, Optimum: p.Optimum})
	}
	for _, name := range boundMirrored {
		p, m, err := LoadProblem(dir, name)
		if err != nil {
			return nil, err
		}
		for j := range m.Obj {
			m.Obj[j] = -m.Obj[j]
		}
		m.ObjOffset = mirrorOffset - m.ObjOffset
		m.Sense = model.Maximize
		m.Name = name + "_max"
		cs = append(cs, BoundCase{Name: m.Name, Model: m, Optimum: mirrorOffset - p.Optimum})
	}
	return cs, nil
}

// randomCases returns the random MILPs of the matrix with their optima.
func randomCases() ([]BoundCase, error) {
	var cs []BoundCase
	for seed, o := range randomOptima() {
		m := RandomMILP(uint64(seed))
		if o.x == nil {
			return nil, fmt.Errorf("solvertest: random MILP %d is infeasible", seed)
		}
		cs = append(cs, BoundCase{Name: m.Name, Model: m, Optimum: o.best, Solution: append([]float64(nil), o.x...)})
	}
	return cs, nil
}

// randomOptima enumerates the random MILPs once per process (about 10 ms
// each): x is an optimal point, nil when there is none.
var randomOptima = sync.OnceValue(func() []struct {
	best float64
	x    []float64
} {
	out := make([]struct {
		best float64
		x    []float64
	}, randomBoundCases)
	for seed := range out {
		out[seed].best, out[seed].x, _ = enumerate(RandomMILP(uint64(seed)))
	}
	return out
})

// RandomMILP returns a seeded random pure-integer MILP named
// "random_<seed>", small enough that Enumerate is its oracle (at most
// 3⁹ = 19 683 integer points) and, with 5 rows, hard enough that most
// need a search tree. Objective coefficients have three decimals, so that
// no search can round its bound to whole units. The seed picks the shape:
//
//	seed mod 3 = 0: maximise c·x + k  s.t. A·x ≤ b (multi-knapsack),  x ∈ {0, 1}¹⁴
//	seed mod 3 = 1: minimise c·x + k  s.t. A·x ≥ b (covering),        x ∈ {0, 1}¹⁴
//	seed mod 3 = 2: minimise c·x + k  s.t. l ≤ A·x ≤ h, c and A of both signs, x ∈ {−1, 0, 1}⁹
//
// with A ≥ 0 in the first two shapes and the right-hand sides a fraction of
// the row's largest activity, so that every model has a feasible point
// (x = 0 in the first and third shapes, x = 1 in the second).
func RandomMILP(seed uint64) *model.Model {
	const rows = 5
	rng := rand.New(rand.NewPCG(seed, 0x6d72626f756e64))
	b := model.NewBuilder(fmt.Sprintf("random_%d", seed))
	shape := seed % 3
	n, lo, up := 20, 0.0, 1.0
	if shape == 2 {
		n, lo = 12, -1
	}
	vars := make([]model.Var, n)
	for j := range vars {
		vars[j] = b.Integer(fmt.Sprintf("x%d", j), lo, up)
	}
	dec := func(lo, hi float64) float64 { return math.Round((lo+rng.Float64()*(hi-lo))*1000) / 1000 }
	for i := range rows {
		e := model.NewExpr(n)
		most := 0.0
		for _, v := range vars {
			if rng.IntN(4) == 0 {
				continue // sparse
			}
			a := float64(1 + rng.IntN(20))
			if shape == 2 {
				a = float64(rng.IntN(21) - 10)
			}
			e.Add(v, a)
			most += math.Abs(a)
		}
		name := fmt.Sprintf("r%d", i)
		switch shape {
		case 0:
			b.LessEq(name, e, math.Floor(most*dec(0.3, 0.6)))
		case 1:
			b.GreaterEq(name, e, math.Ceil(most*dec(0.3, 0.6)))
		default:
			b.AddConstr(name, e, -math.Floor(most*dec(0.05, 0.3)), math.Floor(most*dec(0.05, 0.3)))
		}
	}
	obj := model.NewExpr(n)
	for _, v := range vars {
		c := dec(1, 20)
		if shape == 2 {
			c = dec(-20, 20)
		}
		obj.Add(v, c)
	}
	obj.AddConst(dec(-50, 50))
	if shape == 0 {
		b.Maximize(obj)
	} else {
		b.Minimize(obj)
	}
	return mustBuild(b)
}

// runBounds is the bound matrix: every BoundCase under every Stop, subtests
// "bounds/<case>/<stop>".
func runBounds(t T, newSolver func() solve.Solver, caps Caps) {
	t.Run("bounds", func(t T) {
		if caps.NoMIP != "" {
			t.Skip(caps.NoMIP)
		}
		cs, err := BoundCases()
		if err != nil {
			t.Fatalf("%v", err)
		}
		for _, c := range cs {
			t.Run(c.Name, func(t T) {
				if c.Solution == nil && caps.NoTestsets != "" {
					t.Skip(caps.NoTestsets)
				}
				for _, st := range Stops() {
					t.Run(st.Name, func(t T) {
						res, err := SolveStopped(newSolver(), c.Model, st)
						if err != nil {
							t.Fatalf("Solve: %v", err)
						}
						t.Logf("%v: objective %.12g, bound %.12g, gap %.3g, %d nodes", res.Status, res.Objective, res.Bound, res.Gap(), res.Nodes)
						CheckBounds(t, c.Model, res, c.Optimum, st.Options)
					})
				}
			})
		}
	})
}

// SolveStopped solves m with s under the stop st.
func SolveStopped(s solve.Solver, m *model.Model, st Stop) (solve.Result, error) {
	ctx := context.Background()
	if st.Cancelled {
		ctx = Cancelled()
	}
	return s.Solve(ctx, m, st.Options)
}

// CheckBounds checks a result of a solve of a MIP with known optimum opt,
// however it stopped: CheckResult holds, the dual bound is no better than
// the optimum and the objective no better either (bound ≤ opt ≤ objective
// when minimising, mirrored when maximising), each to BoundTol relative;
// an Optimal result has a solution and a gap within the tolerances of opts
// (to GapSlack); a limit status is one of solve.Status.IsLimit.
func CheckBounds(t T, m *model.Model, res solve.Result, opt float64, opts solve.Options) {
	t.Helper()
	CheckResult(t, m, res)
	tol := BoundTol * math.Max(1, math.Abs(opt))
	s := 1.0 // sense: internal values s·v are minimised
	if m.Sense == model.Maximize {
		s = -1
	}
	if s*res.Bound > s*opt+tol {
		t.Errorf("%v: bound %.12g is better than the optimum %.12g (by %.3g)", res.Status, res.Bound, opt, s*(res.Bound-opt))
	}
	if s*res.Objective < s*opt-tol {
		t.Errorf("%v: objective %.12g is better than the optimum %.12g (by %.3g)", res.Status, res.Objective, opt, s*(opt-res.Objective))
	}
	switch {
	case res.Status == solve.Optimal:
		if !res.HasSolution {
			t.Errorf("optimal without a solution")
		}
		rel, abs := opts.Gaps()
		if d := math.Abs(res.Objective - res.Bound); res.Gap() > rel+GapSlack && d > abs*(1+GapSlack) {
			t.Errorf("optimal but gap %.3g (objective %.12g, bound %.12g) exceeds the tolerances %g relative, %g absolute",
				res.Gap(), res.Objective, res.Bound, rel, abs)
		}
	case res.Status.IsLimit():
	default:
		t.Errorf("status %v on a feasible bounded MIP, want optimal or a limit (message %q)", res.Status, res.Message)
	}
}
