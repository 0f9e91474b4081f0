package solvertest

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

// Tolerances of the checks.
const (
	// FeasTol bounds the bound and row violation of a returned point, and its
	// distance from integrality.
	FeasTol = 1e-6
	// ObjTol is the relative tolerance (of max(1, |optimum|)) on objectives.
	ObjTol = 1e-6
	// DualTol is the tolerance of the dual checks, relative to the size of
	// the numbers compared.
	DualTol = 1e-6
	// GapSlack is how far past the requested relative gap a solver's reported
	// bound may be on an Optimal MIP (HiGHS measures the gap slightly
	// differently from solve.RelativeGap).
	GapSlack = 1e-6
)

// Caps lists the capabilities a backend opts out of. Each non-empty field is
// the reason, given to t.Skip for every subtest that needs the capability;
// the zero Caps claims everything.
type Caps struct {
	// NoMIP skips the MIP cases and the MIPs of the test sets.
	NoMIP string
	// NoDuals skips the LP dual checks (row duals, reduced costs).
	NoDuals string
	// NoBasis skips the basis checks.
	NoBasis string
	// NoTestsets skips the ../shared/testsets problems.
	NoTestsets string
	// InfeasibleOrUnbounded, when non-empty, lets the backend answer
	// InfeasibleOrUnbounded where the exact answer is Infeasible or
	// Unbounded; the reason is logged when that happens. By default the
	// exact status is required.
	InfeasibleOrUnbounded string
	// SkipProblems maps test-set problem names to the reason for skipping
	// them (e.g. too slow for this backend in a test run).
	SkipProblems map[string]string
	// TestsetTimeLimit bounds each test-set solve; 0 means 120 s.
	TestsetTimeLimit time.Duration
}

// Run runs the conformance suite against the solver newSolver returns (called
// once per subtest). Subtests are named after the cases ("lp/infeasible",
// "mip/knapsack", "lp/relaxation_knapsack"), the test-set problems
// ("testsets/afiro") and the bound matrix ("bounds/random_3/nodes_10": every
// BoundCase under every Stop).
func Run(t *testing.T, newSolver func() solve.Solver, caps Caps) {
	t.Helper()
	run(testingT{t}, newSolver, caps)
}

// T is the part of *testing.T the suite uses. It lets the suite's own tests
// record failures instead of failing.
type T interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Skip(args ...any)
	Logf(format string, args ...any)
	Run(name string, f func(T)) bool
	Short() bool
}

// Adapt wraps a *testing.T as a T, for calling the Check functions from a
// backend's own tests.
func Adapt(t *testing.T) T { return testingT{t} }

type testingT struct{ *testing.T }

func (t testingT) Run(name string, f func(T)) bool {
	return t.T.Run(name, func(t *testing.T) { f(testingT{t}) })
}

func (t testingT) Short() bool { return testing.Short() }

func run(t T, newSolver func() solve.Solver, caps Caps) {
	for _, c := range Cases() {
		t.Run(c.Name, func(t T) {
			if c.Model.IsMIP() && caps.NoMIP != "" {
				t.Skip(caps.NoMIP)
			}
			res, err := newSolver().Solve(context.Background(), c.Model, solve.Options{})
			if err != nil {
				t.Fatalf("Solve: %v", err)
			}
			t.Logf("%v: objective %v, bound %v, %d nodes, %d iterations", res.Status, res.Objective, res.Bound, res.Nodes, res.Iterations)
			CheckCase(t, c, res, caps)
		})
	}
	runTestsets(t, newSolver, caps)
	runBounds(t, newSolver, caps)
}

// CheckCase checks a result against a case's known answer: status, objective,
// the point (bounds, rows, integrality, its objective), bound consistency,
// and for an optimal LP the duals and the basis unless caps opts out.
func CheckCase(t T, c Case, res solve.Result, caps Caps) {
	t.Helper()
	m := c.Model
	if res.Status != c.Status[0] {
		if caps.InfeasibleOrUnbounded == "" || !slices.Contains(c.Status[1:], res.Status) {
			t.Fatalf("status %v, want %v (message %q)", res.Status, c.Status[0], res.Message)
		}
		t.Logf("accepting %v for %v: %s", res.Status, c.Status[0], caps.InfeasibleOrUnbounded)
	}
	CheckResult(t, m, res)
	switch c.Status[0] {
	case solve.Optimal:
		checkObjective(t, "objective", res.Objective, c.Optimum)
		checkBoundAgainstOptimum(t, m, res, c.Optimum)
		if m.IsMIP() {
			rel, _ := solve.Options{}.Gaps()
			if g := res.Gap(); g > rel+GapSlack && math.Abs(res.Objective-res.Bound) > 1e-6 {
				t.Errorf("optimal but gap %g (objective %v, bound %v) exceeds %g", g, res.Objective, res.Bound, rel)
			}
		} else {
			checkObjective(t, "bound of an optimal LP", res.Bound, c.Optimum)
			if caps.NoDuals == "" {
				CheckDuals(t, m, res)
			}
			if caps.NoBasis == "" {
				CheckBasis(t, m, res)
			}
		}
	case solve.Infeasible:
		if res.HasSolution {
			t.Errorf("%v with a solution", res.Status)
		}
		if res.Status == solve.Infeasible && res.Ray != nil && !m.IsMIP() {
			CheckDualRay(t, m, res.Ray)
		}
	case solve.Unbounded:
		if res.HasSolution && res.Status != solve.Unbounded {
			t.Errorf("%v with a solution", res.Status)
		}
		if res.Status == solve.Unbounded && !math.IsInf(res.Bound, sign(m)) {
			t.Errorf("unbounded but bound %v: a finite dual bound contradicts unboundedness", res.Bound)
		}
		if res.Status == solve.Unbounded && res.Ray != nil {
			CheckRay(t, m, res.Ray)
		}
	}
}

// sign is −1 for minimisation and +1 for maximisation: the direction of an
// unbounded objective.
func sign(m *model.Model) int {
	if m.Sense == model.Maximize {
		return 1
	}
	return -1
}

func checkObjective(t T, what string, got, want float64) {
	t.Helper()
	if d := math.Abs(got - want); !(d <= ObjTol*math.Max(1, math.Abs(want))) {
		t.Errorf("%s %.12g, want %.12g (difference %.3g)", what, got, want, d)
	}
}

// checkBoundAgainstOptimum: a dual bound can never be better than the true
// optimum.
func checkBoundAgainstOptimum(t T, m *model.Model, res solve.Result, opt float64) {
	t.Helper()
	tol := ObjTol * math.Max(1, math.Abs(opt))
	if m.Sense == model.Minimize && res.Bound > opt+tol || m.Sense == model.Maximize && res.Bound < opt-tol {
		t.Errorf("dual bound %.12g is better than the optimum %.12g", res.Bound, opt)
	}
}

// CheckRay checks a primal ray d of an unbounded model: it improves the
// objective (c·d < 0 when minimising) and stays feasible along the way (A·d
// and d respect every finite side of the rows and columns), each to DualTol
// relative to the size of d.
func CheckRay(t T, m *model.Model, d []float64) {
	t.Helper()
	if len(d) != m.NumCols() {
		t.Fatalf("ray has %d entries for %d columns", len(d), m.NumCols())
	}
	norm := 0.0
	for _, v := range d {
		norm = math.Max(norm, math.Abs(v))
	}
	tol := DualTol * math.Max(norm, 1e-300)
	cd, ad := 0.0, make([]float64, m.NumRows())
	for j, v := range d {
		cd += m.Obj[j] * v
		for k := m.ColStart[j]; k < m.ColStart[j+1]; k++ {
			ad[m.RowIndex[k]] += m.Value[k] * v
		}
		if !math.IsInf(m.ColUpper[j], 0) && v > tol || !math.IsInf(m.ColLower[j], 0) && v < -tol {
			t.Errorf("ray leaves column %s's bounds: d = %g", m.ColName(j), v)
		}
	}
	if float64(-sign(m))*cd >= -tol || norm == 0 {
		t.Errorf("ray does not improve the objective: c·d = %g (|d|∞ = %g)", cd, norm)
	}
	for i, v := range ad {
		if !math.IsInf(m.RowUpper[i], 0) && v > tol || !math.IsInf(m.RowLower[i], 0) && v < -tol {
			t.Errorf("ray leaves row %s: (A·d) = %g", m.RowName(i), v)
		}
	}
}

// CheckDualRay checks a Farkas certificate y (one entry per row) of an
// infeasible LP. With d = −Aᵀy it must hold that
//
//	Σ_i (y_i > 0 ? y_i·RowLower_i : y_i·RowUpper_i)
//	  + Σ_j (d_j > 0 ? d_j·ColLower_j : d_j·ColUpper_j) > 0
//
// with every bound used finite; since any feasible x would make the left side
// at most yᵀAx − yᵀAx = 0, no x exists. Entries within DualTol (relative to
// |y|∞) of zero count as zero.
func CheckDualRay(t T, m *model.Model, y []float64) {
	t.Helper()
	if len(y) != m.NumRows() {
		t.Fatalf("dual ray has %d entries for %d rows", len(y), m.NumRows())
	}
	norm := 0.0
	for _, v := range y {
		norm = math.Max(norm, math.Abs(v))
	}
	if norm == 0 {
		t.Fatalf("dual ray is zero")
	}
	tol := DualTol * norm
	sum, scale := 0.0, 0.0
	price := func(what string, v, lo, up float64) {
		switch {
		case v > tol && math.IsInf(lo, -1), v < -tol && math.IsInf(up, 1):
			t.Errorf("dual ray prices an infinite bound of %s (multiplier %g)", what, v)
		case v > tol:
			sum += v * lo
			scale += math.Abs(v * lo)
		case v < -tol:
			sum += v * up
			scale += math.Abs(v * up)
		}
	}
	for i, v := range y {
		price("row "+m.RowName(i), v, m.RowLower[i], m.RowUpper[i])
	}
	for j := 0; j < m.NumCols(); j++ {
		d := 0.0
		for k := m.ColStart[j]; k < m.ColStart[j+1]; k++ {
			d -= m.Value[k] * y[m.RowIndex[k]]
		}
		price("column "+m.ColName(j), d, m.ColLower[j], m.ColUpper[j])
	}
	if !(sum > DualTol*math.Max(1, scale)) {
		t.Errorf("dual ray proves nothing: Farkas sum %g ≤ 0", sum)
	}
}

// CheckResult checks what any result must satisfy whatever the status: the
// bounds are ordered (Bound ≤ Objective when minimising), and a claimed
// solution has one value per column, is feasible to FeasTol (integral for
// integer columns) and has the reported objective.
func CheckResult(t T, m *model.Model, res solve.Result) {
	t.Helper()
	if math.IsNaN(res.Objective) || math.IsNaN(res.Bound) {
		t.Errorf("NaN objective %v or bound %v", res.Objective, res.Bound)
	}
	tol := ObjTol * math.Max(1, math.Abs(res.Objective))
	if m.Sense == model.Minimize && res.Bound > res.Objective+tol ||
		m.Sense == model.Maximize && res.Bound < res.Objective-tol {
		t.Errorf("bound %.12g and objective %.12g are in the wrong order for %v", res.Bound, res.Objective, m.Sense)
	}
	if !res.HasSolution {
		noSol, _ := solve.NoSolution(m.Sense)
		if res.Status != solve.Unbounded && res.Objective != noSol {
			t.Errorf("no solution but objective %v (want %v)", res.Objective, noSol)
		}
		return
	}
	if len(res.X) != m.NumCols() {
		t.Fatalf("solution has %d values for %d columns", len(res.X), m.NumCols())
	}
	ev := m.Evaluate(res.X)
	if v := ev.MaxBoundViolation; v > FeasTol {
		t.Errorf("column %s violates its bounds by %g", m.ColName(ev.WorstCol), v)
	}
	if v := ev.MaxRowViolation; v > FeasTol {
		t.Errorf("row %s violated by %g", m.RowName(ev.WorstRow), v)
	}
	if v := ev.MaxIntegrality; v > FeasTol {
		t.Errorf("integer column %s is %g from an integer", m.ColName(ev.WorstIntCol), v)
	}
	if d := math.Abs(ev.Objective - res.Objective); d > ObjTol*math.Max(1, math.Abs(res.Objective)) {
		t.Errorf("reported objective %.12g but the point evaluates to %.12g", res.Objective, ev.Objective)
	}
}

// CheckDuals checks the duals of an optimal LP, in the convention
//
//	reduced cost d = c − Aᵀy
//
// with, when minimising, d_j > 0 only at the lower bound of x_j, d_j < 0 only
// at its upper bound, y_i > 0 only at the lower side of row i and y_i < 0 only
// at its upper side (dual feasibility and complementary slackness together);
// when maximising the signs flip. It fails when the result carries no duals.
func CheckDuals(t T, m *model.Model, res solve.Result) {
	t.Helper()
	n, r := m.NumCols(), m.NumRows()
	if len(res.RowDuals) != r || len(res.ReducedCosts) != n {
		t.Fatalf("optimal LP with %d row duals and %d reduced costs, want %d and %d",
			len(res.RowDuals), len(res.ReducedCosts), r, n)
	}
	s := 1.0
	if m.Sense == model.Maximize {
		s = -1
	}
	act := m.Evaluate(res.X).RowActivity
	at := func(v, bound float64) bool {
		return !math.IsInf(bound, 0) && math.Abs(v-bound) <= FeasTol*math.Max(1, math.Abs(bound))
	}
	for j := 0; j < n; j++ {
		d, scale := m.Obj[j], math.Abs(m.Obj[j])
		for k := m.ColStart[j]; k < m.ColStart[j+1]; k++ {
			d -= m.Value[k] * res.RowDuals[m.RowIndex[k]]
			scale += math.Abs(m.Value[k] * res.RowDuals[m.RowIndex[k]])
		}
		if diff := math.Abs(d - res.ReducedCosts[j]); diff > DualTol*math.Max(1, scale) {
			t.Errorf("column %s: reduced cost %g but c − Aᵀy = %g", m.ColName(j), res.ReducedCosts[j], d)
		}
		dj, tol := s*res.ReducedCosts[j], DualTol*math.Max(1, scale)
		if dj > tol && !at(res.X[j], m.ColLower[j]) || dj < -tol && !at(res.X[j], m.ColUpper[j]) {
			t.Errorf("column %s = %g in [%g, %g] has reduced cost %g: not dual feasible or not complementary",
				m.ColName(j), res.X[j], m.ColLower[j], m.ColUpper[j], res.ReducedCosts[j])
		}
	}
	for i := 0; i < r; i++ {
		yi := s * res.RowDuals[i]
		if yi > DualTol && !at(act[i], m.RowLower[i]) || yi < -DualTol && !at(act[i], m.RowUpper[i]) {
			t.Errorf("row %s = %g in [%g, %g] has dual %g: not dual feasible or not complementary",
				m.RowName(i), act[i], m.RowLower[i], m.RowUpper[i], res.RowDuals[i])
		}
	}
}

// CheckBasis checks the basis of an optimal LP: one status per column and
// row, exactly NumRows basic, and nonbasic columns and rows at the bound
// their status names. It fails when the result carries no basis.
func CheckBasis(t T, m *model.Model, res solve.Result) {
	t.Helper()
	if len(res.ColBasis) != m.NumCols() || len(res.RowBasis) != m.NumRows() {
		t.Fatalf("optimal LP with %d column and %d row basis statuses, want %d and %d",
			len(res.ColBasis), len(res.RowBasis), m.NumCols(), m.NumRows())
	}
	act := m.Evaluate(res.X).RowActivity
	basic := 0
	check := func(what string, st solve.BasisStatus, v, lo, up float64) {
		near := func(b float64) bool { return math.Abs(v-b) <= FeasTol*math.Max(1, math.Abs(b)) }
		ok := true
		switch st {
		case solve.Basic:
			basic++
		case solve.AtLower:
			ok = near(lo)
		case solve.AtUpper:
			ok = near(up)
		case solve.NonbasicFixed:
			ok = lo == up && near(lo)
		case solve.Zero:
			ok = near(0)
		default:
			ok = false
		}
		if !ok {
			t.Errorf("%s = %g in [%g, %g] has basis status %v", what, v, lo, up, st)
		}
	}
	for j, st := range res.ColBasis {
		check("column "+m.ColName(j), st, res.X[j], m.ColLower[j], m.ColUpper[j])
	}
	for i, st := range res.RowBasis {
		check("row "+m.RowName(i), st, act[i], m.RowLower[i], m.RowUpper[i])
	}
	if basic != m.NumRows() {
		t.Errorf("%d basic columns and rows, want %d", basic, m.NumRows())
	}
}
