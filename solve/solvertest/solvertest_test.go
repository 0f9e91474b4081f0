package solvertest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

// recorder is a T that records failures instead of failing, so that the suite
// can be run against wrong solvers.
type recorder struct {
	name    string
	failed  bool
	skipped bool
	msgs    []string
	subs    []*recorder
}

type stopSub struct{}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(f string, a ...any) {
	r.failed = true
	r.msgs = append(r.msgs, fmt.Sprintf(f, a...))
}
func (r *recorder) Fatalf(f string, a ...any) { r.Errorf(f, a...); panic(stopSub{}) }
func (r *recorder) Skip(a ...any)             { r.skipped = true; panic(stopSub{}) }
func (r *recorder) Logf(string, ...any)       {}
func (r *recorder) Short() bool               { return true }
func (r *recorder) Run(name string, f func(T)) bool {
	sub := &recorder{name: strings.TrimPrefix(r.name+"/"+name, "/")}
	r.subs = append(r.subs, sub)
	func() {
		defer func() {
			if v := recover(); v != nil {
				if _, ok := v.(stopSub); !ok {
					panic(v)
				}
			}
		}()
		f(sub)
	}()
	r.failed = r.failed || sub.failed
	return !sub.failed
}

// leaves maps each leaf subtest's name to its record.
func (r *recorder) leaves(out map[string]*recorder) map[string]*recorder {
	if out == nil {
		out = map[string]*recorder{}
	}
	if len(r.subs) == 0 && r.name != "" {
		out[r.name] = r
	}
	for _, s := range r.subs {
		s.leaves(out)
	}
	return out
}

// oracle is a fake solver that answers from the cases' stored solutions,
// then lets mutate falsify the answer.
type oracle struct {
	cases  map[string]Case
	mutate func(c Case, r *solve.Result) error
}

func newOracle(mutate func(Case, *solve.Result) error) *oracle {
	o := &oracle{cases: map[string]Case{}, mutate: mutate}
	for _, c := range Cases() {
		o.cases[c.Model.Name] = c
	}
	bcs, err := randomCases()
	if err != nil {
		panic(err)
	}
	for _, c := range bcs {
		o.cases[c.Model.Name] = optimal("bounds/"+c.Name, c.Model, c.Optimum, c.Solution...)
	}
	return o
}

func (o *oracle) Name() string { return "oracle" }

func (o *oracle) Solve(_ context.Context, m *model.Model, _ solve.Options) (solve.Result, error) {
	c, ok := o.cases[m.Name]
	if !ok {
		return solve.Result{}, fmt.Errorf("oracle: no answer for %q", m.Name)
	}
	r := solve.Result{Solver: "oracle", Status: c.Status[0]}
	r.Objective, r.Bound = solve.NoSolution(m.Sense)
	switch c.Status[0] {
	case solve.Optimal:
		r.HasSolution = true
		r.X = append([]float64(nil), c.Solution...)
		r.Objective, r.Bound = c.Optimum, c.Optimum
	case solve.Unbounded:
		r.Objective = r.Bound
	}
	if o.mutate != nil {
		if err := o.mutate(c, &r); err != nil {
			return solve.Result{}, err
		}
	}
	return r, nil
}

var oracleCaps = Caps{
	NoDuals:    "the oracle stores no duals (CheckDuals is tested directly)",
	NoBasis:    "the oracle stores no basis (CheckBasis is tested directly)",
	NoTestsets: "the oracle knows only the built-in cases",
}

func runRecorded(o *oracle, caps Caps) map[string]*recorder {
	r := &recorder{}
	run(r, func() solve.Solver { return o }, caps)
	return r.leaves(nil)
}

// TestOracleRun runs the suite for real against the oracle: the stored
// answers pass every check.
func TestOracleRun(t *testing.T) {
	Run(t, func() solve.Solver { return newOracle(nil) }, oracleCaps)
}

// TestStoredAnswers checks every stored solution against its own model.
func TestStoredAnswers(t *testing.T) {
	names := map[string]bool{}
	for _, c := range Cases() {
		if names[c.Name] || names[c.Model.Name] {
			t.Errorf("duplicate case name %s / %s", c.Name, c.Model.Name)
		}
		names[c.Name], names[c.Model.Name] = true, true
		if c.Status[0] != solve.Optimal {
			if c.Solution != nil {
				t.Errorf("%s: %v with a solution", c.Name, c.Status[0])
			}
			continue
		}
		ev := c.Model.Evaluate(c.Solution)
		if !ev.Feasible(1e-12, true) || math.Abs(ev.Objective-c.Optimum) > 1e-12 {
			t.Errorf("%s: stored solution: objective %v (want %v), %+v", c.Name, ev.Objective, c.Optimum, ev)
		}
	}
}

// TestIPOptimaByEnumeration proves the stored optima of the pure-integer
// cases by enumerating every integer point in the bounds.
func TestIPOptimaByEnumeration(t *testing.T) {
	for _, c := range Cases() {
		m := c.Model
		if !strings.HasPrefix(c.Name, "mip/") || c.Name == "mip/unbounded" {
			continue
		}
		pure := true
		for j := range m.ColType {
			pure = pure && m.ColType[j].IsInteger() && !math.IsInf(m.ColUpper[j]-m.ColLower[j], 0)
		}
		if !pure {
			continue
		}
		best, found := Enumerate(m)
		switch {
		case c.Status[0] == solve.Infeasible && found:
			t.Errorf("%s: stored infeasible but enumeration finds %v", c.Name, best)
		case c.Status[0] == solve.Optimal && (!found || best != c.Optimum):
			t.Errorf("%s: stored optimum %v, enumeration %v (found %v)", c.Name, c.Optimum, best, found)
		}
	}
}

// TestWrongSolversFail runs the suite against fakes that are each wrong in one
// way and checks that exactly the affected subtests fail.
func TestWrongSolversFail(t *testing.T) {
	isOptimal := func(c Case) bool { return c.Status[0] == solve.Optimal }
	relaxations := map[string]Case{}
	for _, c := range Cases() {
		relaxations[c.Name] = c
	}
	fakes := []struct {
		name     string
		mutate   func(Case, *solve.Result) error
		affected func(Case) bool
	}{
		{"call error", func(Case, *solve.Result) error { return errors.New("boom") },
			func(Case) bool { return true }},
		{"objective off by one", func(c Case, r *solve.Result) error {
			if isOptimal(c) {
				r.Objective++
				r.Bound = math.Min(r.Bound, r.Objective)
			}
			return nil
		}, isOptimal},
		{"point moved", func(c Case, r *solve.Result) error {
			if isOptimal(c) {
				r.X[0] += 0.75
			}
			return nil
		}, isOptimal},
		{"bound better than the optimum", func(c Case, r *solve.Result) error {
			if isOptimal(c) {
				if c.Model.Sense == model.Minimize {
					r.Bound = c.Optimum + 1
				} else {
					r.Bound = c.Optimum - 1
				}
			}
			return nil
		}, isOptimal},
		{"always optimal", func(c Case, r *solve.Result) error {
			if !isOptimal(c) {
				r.Status, r.HasSolution = solve.Optimal, true
				r.X = make([]float64, c.Model.NumCols())
				r.Objective, r.Bound = 0, 0
			}
			return nil
		}, func(c Case) bool { return !isOptimal(c) }},
		{"infeasible or unbounded", func(c Case, r *solve.Result) error {
			if len(c.Status) > 1 {
				r.Status = solve.InfeasibleOrUnbounded
				r.Objective, r.Bound = solve.NoSolution(c.Model.Sense)
			}
			return nil
		}, func(c Case) bool { return len(c.Status) > 1 }},
		{"finite bound on unbounded", func(c Case, r *solve.Result) error {
			if c.Status[0] == solve.Unbounded {
				r.Bound = 0
				r.Objective = 0
			}
			return nil
		}, func(c Case) bool { return c.Status[0] == solve.Unbounded }},
		{"LP relaxation passed off as the MIP answer", func(c Case, r *solve.Result) error {
			name := strings.Replace(c.Name, "mip/", "lp/relaxation_", 1)
			if rc, ok := relaxations[name]; ok && isOptimal(c) && c.Model.IsMIP() {
				r.X = append([]float64(nil), rc.Solution...)
				r.Objective, r.Bound = rc.Optimum, rc.Optimum
			}
			return nil
		}, func(c Case) bool {
			rc, ok := relaxations[strings.Replace(c.Name, "mip/", "lp/relaxation_", 1)]
			return ok && isOptimal(c) && c.Model.IsMIP() && rc.Optimum != c.Optimum
		}},
	}
	if got := runRecorded(newOracle(nil), oracleCaps); anyFailed(got) {
		t.Fatalf("the correct oracle fails: %v", failures(got))
	}
	for _, f := range fakes {
		got := runRecorded(newOracle(f.mutate), oracleCaps)
		nAffected := 0
		for _, c := range Cases() {
			rec := got[c.Name]
			if rec == nil {
				t.Fatalf("%s: no subtest %s", f.name, c.Name)
			}
			if want := f.affected(c); rec.failed != want {
				t.Errorf("%s: subtest %s failed=%v, want %v (%v)", f.name, c.Name, rec.failed, want, rec.msgs)
			}
			if f.affected(c) {
				nAffected++
			}
		}
		if nAffected == 0 {
			t.Errorf("%s affects no case", f.name)
		}
	}
}

// TestCapsInfeasibleOrUnbounded: the opt-out accepts the ambiguous status.
func TestCapsInfeasibleOrUnbounded(t *testing.T) {
	caps := oracleCaps
	caps.InfeasibleOrUnbounded = "presolve cannot tell"
	got := runRecorded(newOracle(func(c Case, r *solve.Result) error {
		if len(c.Status) > 1 {
			r.Status = solve.InfeasibleOrUnbounded
			r.Objective, r.Bound = solve.NoSolution(c.Model.Sense)
		}
		return nil
	}), caps)
	if anyFailed(got) {
		t.Errorf("with the opt-out: %v", failures(got))
	}
}

// TestSkipProblems checks that a named test-set problem is skipped with its
// reason and the others are not.
func TestSkipProblems(t *testing.T) {
	if TestsetDir() == "" {
		t.Skip("no ../shared/testsets")
	}
	r := &recorder{}
	runTestsets(r, func() solve.Solver { return zeroSolver{} }, Caps{SkipProblems: map[string]string{"afiro": "slow"}})
	got := r.leaves(nil)
	if a := got["testsets/afiro"]; a == nil || !a.skipped || a.failed {
		t.Errorf("afiro: %+v", a)
	}
	if s := got["testsets/sc50a"]; s == nil || s.skipped || !s.failed {
		t.Errorf("sc50a with a zero solver: %+v", s)
	}
}

// TestCapsSkip checks that an opt-out skips, with its reason, and only what
// it names.
func TestCapsSkip(t *testing.T) {
	caps := oracleCaps
	caps.NoMIP = "no MIP here"
	got := runRecorded(newOracle(nil), caps)
	for name, rec := range got {
		wantSkip := strings.HasPrefix(name, "mip/") || name == "testsets" || name == "bounds"
		if rec.skipped != wantSkip || rec.failed {
			t.Errorf("%s: skipped=%v failed=%v", name, rec.skipped, rec.failed)
		}
	}
}

func anyFailed(m map[string]*recorder) bool { return len(failures(m)) > 0 }

func failures(m map[string]*recorder) []string {
	var out []string
	for n, r := range m {
		if r.failed {
			out = append(out, n+": "+strings.Join(r.msgs, "; "))
		}
	}
	sort.Strings(out)
	return out
}

// wyndorDuals are the optimal duals of lp/feasible (minimise −3x − 5y):
// rows plant1..3 have y = (0, −1.5, −1) and both reduced costs are 0.
func wyndorDuals() (Case, solve.Result) {
	c := lpFeasible()
	r := solve.Result{Status: solve.Optimal, HasSolution: true, X: c.Solution, Objective: c.Optimum, Bound: c.Optimum,
		RowDuals: []float64{0, -1.5, -1}, ReducedCosts: []float64{0, 0},
		ColBasis: []solve.BasisStatus{solve.Basic, solve.Basic},
		RowBasis: []solve.BasisStatus{solve.Basic, solve.AtUpper, solve.AtUpper}}
	return c, r
}

func TestCheckDuals(t *testing.T) {
	c, good := wyndorDuals()
	rec := &recorder{}
	CheckDuals(rec, c.Model, good)
	CheckBasis(rec, c.Model, good)
	if rec.failed {
		t.Fatalf("correct duals and basis fail: %v", rec.msgs)
	}
	bad := map[string]func(r *solve.Result){
		"sign flipped":          func(r *solve.Result) { r.RowDuals = []float64{0, 1.5, 1}; r.ReducedCosts = []float64{-6, -10} },
		"slack row priced":      func(r *solve.Result) { r.RowDuals = []float64{-1, -1.5, 0}; r.ReducedCosts = []float64{0, 0} },
		"reduced cost mismatch": func(r *solve.Result) { r.ReducedCosts = []float64{0, 1} },
		"missing":               func(r *solve.Result) { r.RowDuals = nil },
	}
	for name, f := range bad {
		r := good
		f(&r)
		rec := &recorder{}
		func() {
			defer func() { _ = recover() }()
			CheckDuals(rec, c.Model, r)
		}()
		if !rec.failed {
			t.Errorf("%s: CheckDuals passed", name)
		}
	}
	badBasis := good
	badBasis.RowBasis = []solve.BasisStatus{solve.AtUpper, solve.Basic, solve.AtUpper}
	rec = &recorder{}
	CheckBasis(rec, c.Model, badBasis)
	if !rec.failed {
		t.Error("basis with a slack row at its upper bound passed")
	}
}

// TestTestsetCanFail checks the test-set runner against a solver that answers
// zero to everything.
func TestTestsetCanFail(t *testing.T) {
	dir := TestsetDir()
	if dir == "" {
		t.Skip("no ../shared/testsets")
	}
	ps, err := Problems(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) < 30 {
		t.Errorf("only %d problems in optima.tsv", len(ps))
	}
	zero := newOracle(nil)
	for _, p := range ps[:1] { // afiro: optimum −464.75
		rec := &recorder{}
		func() {
			defer func() { _ = recover() }()
			CheckProblem(rec, zeroSolver{zero}, p, 0)
		}()
		if !rec.failed {
			t.Errorf("%s: a solver answering 0 passes", p.Name)
		}
	}
}

type zeroSolver struct{ *oracle }

func (zeroSolver) Solve(_ context.Context, m *model.Model, _ solve.Options) (solve.Result, error) {
	return solve.Result{Status: solve.Optimal, HasSolution: true, X: make([]float64, m.NumCols())}, nil
}

func TestCheckRay(t *testing.T) {
	c := lpUnbounded() // minimise −x − y s.t. x − y ≤ 1, x, y ≥ 0
	for _, tc := range []struct {
		d  []float64
		ok bool
	}{
		{[]float64{1, 1}, true},
		{[]float64{0, 2}, true},
		{[]float64{1, 0}, false},   // leaves the row
		{[]float64{-1, -1}, false}, // worsens the objective and leaves the bounds
		{[]float64{0, 0}, false},
	} {
		rec := &recorder{}
		CheckRay(rec, c.Model, tc.d)
		if rec.failed == tc.ok {
			t.Errorf("ray %v: failed=%v (%v)", tc.d, rec.failed, rec.msgs)
		}
	}
}

func TestCheckDualRay(t *testing.T) {
	c := lpInfeasible() // x + y ≤ 1 (row 0), x + y ≥ 2 (row 1), x, y ≥ 0
	for _, tc := range []struct {
		y  []float64
		ok bool
	}{
		{[]float64{-1, 1}, true},
		{[]float64{-2, 2}, true},
		{[]float64{1, -1}, false}, // prices infinite sides
		{[]float64{0, 1}, false},  // d = (−1, −1) prices the infinite upper bounds
		{[]float64{0, 0}, false},
	} {
		rec := &recorder{}
		func() {
			defer func() { _ = recover() }()
			CheckDualRay(rec, c.Model, tc.y)
		}()
		if rec.failed == tc.ok {
			t.Errorf("ray %v: failed=%v (%v)", tc.y, rec.failed, rec.msgs)
		}
	}
}

// TestBoundMatrixCanFail runs the bound matrix against fakes that each get
// one thing wrong and checks that every case fails under every stop.
func TestBoundMatrixCanFail(t *testing.T) {
	past := func(c Case, v float64) float64 {
		d := 3e-5 * math.Max(1, math.Abs(c.Optimum)) // the defect that issue #14 found
		if c.Model.Sense == model.Maximize {
			return v + d
		}
		return v - d
	}
	fakes := []struct {
		name   string
		mutate func(Case, *solve.Result) error
	}{
		{"bound past the optimum at a node limit", func(c Case, r *solve.Result) error {
			r.Status = solve.NodeLimit
			r.Bound = 2*c.Optimum - past(c, c.Optimum)
			return nil
		}},
		{"objective better than the optimum", func(c Case, r *solve.Result) error {
			r.Status, r.HasSolution, r.X = solve.TimeLimit, false, nil
			r.Objective = past(c, c.Optimum)
			r.Bound = 2*r.Objective - c.Optimum
			return nil
		}},
		{"optimal with a gap past the tolerance", func(c Case, r *solve.Result) error {
			half := 0.5 * math.Max(1, math.Abs(c.Optimum)) // a valid bound, 50 % short
			if c.Model.Sense == model.Maximize {
				half = -half
			}
			r.Bound = c.Optimum - half
			return nil
		}},
		{"infeasible", func(c Case, r *solve.Result) error {
			r.Status, r.HasSolution, r.X = solve.Infeasible, false, nil
			r.Objective, r.Bound = solve.NoSolution(c.Model.Sense)
			r.Objective, r.Bound = r.Bound, r.Objective
			return nil
		}},
	}
	for _, f := range fakes {
		o := newOracle(func(c Case, r *solve.Result) error {
			if strings.HasPrefix(c.Name, "bounds/") {
				return f.mutate(c, r)
			}
			return nil
		})
		rec := &recorder{}
		runBounds(rec, func() solve.Solver { return o }, oracleCaps)
		ran := 0
		for name, l := range rec.leaves(nil) {
			if !strings.HasPrefix(name, "bounds/random_") {
				continue
			}
			ran++
			if !l.failed {
				t.Errorf("%s: %s passes", f.name, name)
			}
		}
		if want := randomBoundCases * len(Stops()); ran != want {
			t.Errorf("%s: %d random subtests, want %d", f.name, ran, want)
		}
	}
}

// TestEnumerateAgainstFullScan checks enumerate's row pruning against a scan
// of every point, on the random MILPs with all but their first 10 columns
// fixed at their lower bounds (at most 3¹⁰ points).
func TestEnumerateAgainstFullScan(t *testing.T) {
	for seed := range uint64(randomBoundCases) {
		m := RandomMILP(seed)
		for j := 10; j < m.NumCols(); j++ {
			m.ColUpper[j] = m.ColLower[j]
		}
		want, wantOK := math.Inf(1), false
		x := append([]float64(nil), m.ColLower...)
		for {
			if ev := m.Evaluate(x); ev.Feasible(1e-9, true) {
				v := ev.Objective
				if m.Sense == model.Maximize {
					v = -v
				}
				want, wantOK = math.Min(want, v), true
			}
			j := 0
			for ; j < len(x) && x[j] == m.ColUpper[j]; j++ {
				x[j] = m.ColLower[j]
			}
			if j == len(x) {
				break
			}
			x[j]++
		}
		if m.Sense == model.Maximize {
			want = -want
		}
		got, arg, ok := enumerate(m)
		if ok != wantOK || ok && (got != want || m.Evaluate(arg).Objective != got) {
			t.Errorf("%s: enumerate %v (feasible %v, at %v), full scan %v (feasible %v)", m.Name, got, ok, arg, want, wantOK)
		}
	}
}
