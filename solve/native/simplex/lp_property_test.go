package simplex

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
	_ "github.com/mrbound/mrbound/solve/highs"
)

// randomLP draws a sparse LP with small integer data (which makes
// degeneracy common): a mix of boxed, one-sided, free and fixed columns and
// of ≤, ≥, equality, ranged and free rows; size multiplies the dimensions.
// Classes: 0 feasible by construction with mostly boxed columns (mostly
// optimal), 1 feasible by construction with one-sided and free columns
// (optimal or unbounded), 2 feasible and degenerate (rows tight at an
// integer point on its bounds), 3 unconstrained random data (mostly
// infeasible).
func randomLP(rng *rand.Rand, class, size int) *model.Model {
	n := 1 + rng.Intn(25*size)
	m := rng.Intn(20 * size)
	density := (0.1 + 0.4*rng.Float64()) / float64(size)
	a := make([][]float64, m)
	for i := range a {
		a[i] = make([]float64, n)
		for j := range a[i] {
			if rng.Float64() < density {
				a[i][j] = float64(rng.Intn(11) - 5)
			}
		}
	}
	s := lpSpec{sense: model.Minimize, a: a}
	if rng.Intn(2) == 0 {
		s.sense = model.Maximize
	}
	x0 := make([]float64, n)
	for j := 0; j < n; j++ {
		s.obj = append(s.obj, float64(rng.Intn(11)-5))
		lo := float64(rng.Intn(7) - 3)
		kind := rng.Intn(6)
		if (class == 0 || class == 2) && kind >= 2 && rng.Intn(4) > 0 {
			kind = 0
		}
		switch kind {
		case 0, 1:
			w := float64(rng.Intn(6))
			s.colLo, s.colUp = append(s.colLo, lo), append(s.colUp, lo+w)
			x0[j] = lo + float64(rng.Intn(int(w)+1))
		case 2:
			s.colLo, s.colUp = append(s.colLo, lo), append(s.colUp, posInf)
			x0[j] = lo + float64(rng.Intn(3))
		case 3:
			s.colLo, s.colUp = append(s.colLo, negInf), append(s.colUp, lo)
			x0[j] = lo - float64(rng.Intn(3))
		case 4:
			s.colLo, s.colUp = append(s.colLo, negInf), append(s.colUp, posInf)
			x0[j] = float64(rng.Intn(7) - 3)
		default:
			s.colLo, s.colUp = append(s.colLo, 0), append(s.colUp, posInf)
			x0[j] = float64(rng.Intn(3))
		}
		if class == 2 {
			// On a bound when there is one.
			if !math.IsInf(s.colLo[j], -1) {
				x0[j] = s.colLo[j]
			} else if !math.IsInf(s.colUp[j], 1) {
				x0[j] = s.colUp[j]
			}
		}
	}
	for i := 0; i < m; i++ {
		b := float64(rng.Intn(21) - 10)
		if rng.Intn(4) == 0 {
			b = 0
		}
		ax := 0.0
		for j := range x0 {
			ax += a[i][j] * x0[j]
		}
		slackLo, slackUp := 0.0, 0.0
		if class != 2 {
			slackLo, slackUp = float64(rng.Intn(3)), float64(rng.Intn(3))
		}
		switch rng.Intn(6) {
		case 0, 1:
			if class < 3 {
				b = ax + slackUp
			}
			s.rowLo, s.rowUp = append(s.rowLo, negInf), append(s.rowUp, b)
		case 2, 3:
			if class < 3 {
				b = ax - slackLo
			}
			s.rowLo, s.rowUp = append(s.rowLo, b), append(s.rowUp, posInf)
		case 4:
			if class < 3 {
				b = ax
			}
			s.rowLo, s.rowUp = append(s.rowLo, b), append(s.rowUp, b)
		default:
			if class < 3 {
				b = ax - slackLo
			}
			s.rowLo, s.rowUp = append(s.rowLo, b), append(s.rowUp, b+slackLo+slackUp+float64(rng.Intn(3)))
		}
	}
	return s.model()
}

// oracle returns HiGHS, or skips the test when it cannot load.
func oracle(t *testing.T) solve.Solver {
	t.Helper()
	h, err := solve.Lookup("highs")
	if err != nil {
		t.Skipf("no HiGHS oracle: %v", err)
	}
	probe := lpSpec{obj: []float64{1}, colLo: []float64{0}, colUp: []float64{1}, a: [][]float64{}, rowLo: []float64{}, rowUp: []float64{}}
	if _, err := h.Solve(context.Background(), probe.model(), solve.Options{}); err != nil {
		t.Skipf("HiGHS does not load: %v", err)
	}
	return h
}

// propertyCases is the number of random LPs compared with HiGHS (fewer
// under -short).
func propertyCases() int {
	if testing.Short() {
		return 100
	}
	return 400
}

func TestRandomLPsAgainstHiGHS(t *testing.T) {
	h := oracle(t)
	rng := rand.New(rand.NewSource(20261122))
	counts := map[solve.Status]int{}
	for c := 0; c < propertyCases(); c++ {
		m := randomLP(rng, []int{0, 0, 1, 2, 2, 3}[c%6], 1+4*btoi(c%10 == 9))
		for _, opts := range []Options{{Seed: int64(c)}, {NoScaling: true, NoPerturbation: true}} {
			t.Run(fmt.Sprintf("case%d/scale=%v", c, !opts.NoScaling), func(t *testing.T) {
				compareWithOracle(t, h, m, opts)
			})
		}
		lp, _ := New(m, Options{})
		counts[lp.Solve(context.Background())]++
	}
	t.Logf("statuses: %v", counts)
}

func compareWithOracle(t *testing.T, h solve.Solver, m *model.Model, opts Options) {
	t.Helper()
	want, err := h.Solve(context.Background(), m, solve.Options{})
	if err != nil {
		t.Fatalf("HiGHS: %v", err)
	}
	lp, err := New(m, opts)
	if err != nil {
		t.Fatal(err)
	}
	st := lp.Solve(context.Background())
	agree := st == want.Status || (want.Status == solve.InfeasibleOrUnbounded && (st == solve.Infeasible || st == solve.Unbounded))
	if !agree {
		// HiGHS is not infallible: accept an Optimal answer that carries
		// its own proof (a point feasible to an absolute 1e-7 with a dual
		// certificate) when HiGHS gives up or calls the model infeasible.
		if st == solve.Optimal && (want.Status == solve.Infeasible || want.Status == solve.NumericalTrouble) {
			if ev := m.Evaluate(lp.X()); ev.MaxViolation() <= 1e-7 {
				checkOptimality(t, m, lp)
				t.Logf("HiGHS says %v; native's optimum %.12g is certified (max violation %.2g)", want.Status, lp.Objective(), ev.MaxViolation())
				return
			}
		}
		t.Fatalf("status %v, HiGHS %v (objective %v)", st, want.Status, want.Objective)
	}
	switch st {
	case solve.Optimal:
		if d := math.Abs(lp.Objective() - want.Objective); d > 1e-6*(1+math.Abs(want.Objective)) {
			t.Fatalf("objective %.12g, HiGHS %.12g", lp.Objective(), want.Objective)
		}
		checkOptimality(t, m, lp)
	case solve.Infeasible:
		checkFarkas(t, m, lp.Ray())
	case solve.Unbounded:
		checkPrimalRay(t, m, lp.Ray())
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Scaling rows by 10^[−4, 4] and columns by 10^[−6, 6] gives an equivalent
// LP: native must reach the same status and optimum on both. (HiGHS, with
// its absolute tolerances, answers differently on about a fifth of these
// badly scaled models, so the unscaled model is the oracle here.)
func TestBadlyScaledEquivalentLPs(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	cases := 300
	if testing.Short() {
		cases = 100
	}
	for c := 0; c < cases; c++ {
		m0 := randomLP(rng, []int{0, 2, 1}[c%3], 1+c%4)
		m := m0.Clone()
		for j := 0; j < m.NumCols(); j++ {
			cs := math.Pow(10, float64(rng.Intn(13)-6))
			for k := m.ColStart[j]; k < m.ColStart[j+1]; k++ {
				m.Value[k] *= cs
			}
			m.Obj[j] *= cs
			m.ColLower[j] /= cs
			m.ColUpper[j] /= cs
		}
		rs := make([]float64, m.NumRows())
		for i := range rs {
			rs[i] = math.Pow(10, float64(rng.Intn(9)-4))
			m.RowLower[i] *= rs[i]
			m.RowUpper[i] *= rs[i]
		}
		for k, i := range m.RowIndex {
			m.Value[k] *= rs[i]
		}
		s0, _ := New(m0, Options{})
		st0 := s0.Solve(context.Background())
		s, _ := New(m, Options{Seed: int64(c)})
		st := s.Solve(context.Background())
		if st != st0 {
			t.Fatalf("case %d: status %v on the scaled model, %v on the original", c, st, st0)
		}
		if st == solve.Optimal {
			if d := math.Abs(s.Objective() - s0.Objective()); d > 1e-6*(1+math.Abs(s0.Objective())) {
				t.Fatalf("case %d: objective %.12g on the scaled model, %.12g on the original", c, s.Objective(), s0.Objective())
			}
		}
		if st == solve.Infeasible {
			checkFarkas(t, m, s.Ray())
		}
	}
}
