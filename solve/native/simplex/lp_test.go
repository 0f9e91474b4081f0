package simplex

import (
	"context"
	"math"
	"testing"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

var (
	posInf = math.Inf(1)
	negInf = math.Inf(-1)
)

// lpSpec is a small LP in dense form for tests.
type lpSpec struct {
	sense        model.Sense
	obj          []float64
	colLo, colUp []float64
	a            [][]float64 // rows
	rowLo, rowUp []float64
}

func (s lpSpec) model() *model.Model {
	n, m := len(s.obj), len(s.a)
	mod := &model.Model{Sense: s.sense, Obj: s.obj, ColLower: s.colLo, ColUpper: s.colUp,
		RowLower: s.rowLo, RowUpper: s.rowUp, ColType: make([]model.VarType, n)}
	if mod.Sense == 0 {
		mod.Sense = model.Minimize
	}
	mod.ColStart = []int{0}
	for j := 0; j < n; j++ {
		mod.ColType[j] = model.Continuous
		for i := 0; i < m; i++ {
			if v := s.a[i][j]; v != 0 {
				mod.RowIndex = append(mod.RowIndex, i)
				mod.Value = append(mod.Value, v)
			}
		}
		mod.ColStart = append(mod.ColStart, len(mod.RowIndex))
	}
	return mod
}

func solveSpec(t *testing.T, s lpSpec, opts Options) (*model.Model, *Solver, solve.Status) {
	t.Helper()
	m := s.model()
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	lp, err := New(m, opts)
	if err != nil {
		t.Fatal(err)
	}
	return m, lp, lp.Solve(context.Background())
}

// Tiny LPs solved by hand.
func TestTinyLPs(t *testing.T) {
	cases := []struct {
		name string
		spec lpSpec
		want solve.Status
		obj  float64
		x    []float64
	}{
		{
			// max 3x + 2y s.t. x + y ≤ 4, x + 3y ≤ 6, x ≤ 3, x,y ≥ 0: x=3, y=1, obj 11.
			name: "max_2d",
			spec: lpSpec{sense: model.Maximize, obj: []float64{3, 2}, colLo: []float64{0, 0}, colUp: []float64{3, posInf},
				a: [][]float64{{1, 1}, {1, 3}}, rowLo: []float64{negInf, negInf}, rowUp: []float64{4, 6}},
			want: solve.Optimal, obj: 11, x: []float64{3, 1},
		},
		{
			// min x + y s.t. x + 2y ≥ 4, 3x + y ≥ 6 (x,y ≥ 0): x=1.6, y=1.2, obj 2.8.
			name: "min_cover",
			spec: lpSpec{obj: []float64{1, 1}, colLo: []float64{0, 0}, colUp: []float64{posInf, posInf},
				a: [][]float64{{1, 2}, {3, 1}}, rowLo: []float64{4, 6}, rowUp: []float64{posInf, posInf}},
			want: solve.Optimal, obj: 2.8, x: []float64{1.6, 1.2},
		},
		{
			// Free variables and a ranged row: min x − y s.t. 1 ≤ x + y ≤ 2,
			// −1 ≤ x − y ≤ 5, x,y free: x − y = −1 at minimum.
			name: "free_ranged",
			spec: lpSpec{obj: []float64{1, -1}, colLo: []float64{negInf, negInf}, colUp: []float64{posInf, posInf},
				a: [][]float64{{1, 1}, {1, -1}}, rowLo: []float64{1, -1}, rowUp: []float64{2, 5}},
			want: solve.Optimal, obj: -1,
		},
		{
			// Equality rows: min 2x + 3y + z s.t. x + y + z = 10, x − y = 2, z ≤ 3.
			// z = 3, x + y = 7, x − y = 2 → x = 4.5, y = 2.5: 9 + 7.5 + 3 = 19.5.
			name: "equalities",
			spec: lpSpec{obj: []float64{2, 3, 1}, colLo: []float64{0, 0, 0}, colUp: []float64{posInf, posInf, 3},
				a: [][]float64{{1, 1, 1}, {1, -1, 0}}, rowLo: []float64{10, 2}, rowUp: []float64{10, 2}},
			want: solve.Optimal, obj: 19.5, x: []float64{4.5, 2.5, 3},
		},
		{
			// Infeasible: x + y ≤ 1, x + y ≥ 3.
			name: "infeasible",
			spec: lpSpec{obj: []float64{1, 1}, colLo: []float64{0, 0}, colUp: []float64{posInf, posInf},
				a: [][]float64{{1, 1}, {1, 1}}, rowLo: []float64{negInf, 3}, rowUp: []float64{1, posInf}},
			want: solve.Infeasible,
		},
		{
			// Infeasible by bounds: x ∈ [0,1], y ∈ [0,1], x + y ≥ 3.
			name: "infeasible_bounds",
			spec: lpSpec{obj: []float64{1, 0}, colLo: []float64{0, 0}, colUp: []float64{1, 1},
				a: [][]float64{{1, 1}}, rowLo: []float64{3}, rowUp: []float64{posInf}},
			want: solve.Infeasible,
		},
		{
			// Unbounded: max x + y s.t. x − y ≤ 1.
			name: "unbounded",
			spec: lpSpec{sense: model.Maximize, obj: []float64{1, 1}, colLo: []float64{0, 0}, colUp: []float64{posInf, posInf},
				a: [][]float64{{1, -1}}, rowLo: []float64{negInf}, rowUp: []float64{1}},
			want: solve.Unbounded,
		},
		{
			// Unbounded free variable without rows.
			name: "unbounded_free",
			spec: lpSpec{obj: []float64{1}, colLo: []float64{negInf}, colUp: []float64{posInf},
				a: [][]float64{}, rowLo: []float64{}, rowUp: []float64{}},
			want: solve.Unbounded,
		},
		{
			// Degenerate: many constraints through the optimum (0,0).
			// min −x − y s.t. x ≤ 0, y ≤ 0, x + y ≤ 0, 2x + y ≤ 0, x,y ≥ 0.
			name: "degenerate",
			spec: lpSpec{obj: []float64{-1, -1}, colLo: []float64{0, 0}, colUp: []float64{posInf, posInf},
				a: [][]float64{{1, 0}, {0, 1}, {1, 1}, {2, 1}}, rowLo: []float64{negInf, negInf, negInf, negInf}, rowUp: []float64{0, 0, 0, 0}},
			want: solve.Optimal, obj: 0, x: []float64{0, 0},
		},
		{
			// Beale's example, which cycles under the textbook rules:
			// min −3/4·x4 + 20·x5 − 1/2·x6 + 6·x7 s.t.
			// 1/4·x4 − 8·x5 − x6 + 9·x7 ≤ 0, 1/2·x4 − 12·x5 − 1/2·x6 + 3·x7 ≤ 0,
			// x6 ≤ 1, x ≥ 0: optimum −5/4 at x4 = 1, x6 = 1.
			name: "beale_cycling",
			spec: lpSpec{obj: []float64{-0.75, 20, -0.5, 6}, colLo: []float64{0, 0, 0, 0}, colUp: []float64{posInf, posInf, posInf, posInf},
				a: [][]float64{{0.25, -8, -1, 9}, {0.5, -12, -0.5, 3}, {0, 0, 1, 0}}, rowLo: []float64{negInf, negInf, negInf}, rowUp: []float64{0, 0, 1}},
			want: solve.Optimal, obj: -1.25,
		},
		{
			// Fixed column and an empty row: min x + y, x = 2, 0 ≤ y, row 0·x ∈ [−1, 1].
			name: "fixed_empty_row",
			spec: lpSpec{obj: []float64{1, 1}, colLo: []float64{2, 0}, colUp: []float64{2, posInf},
				a: [][]float64{{0, 0}}, rowLo: []float64{-1}, rowUp: []float64{1}},
			want: solve.Optimal, obj: 2, x: []float64{2, 0},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, opts := range []Options{{}, {NoScaling: true, NoPerturbation: true}} {
				m, lp, st := solveSpec(t, c.spec, opts)
				if st != c.want {
					t.Fatalf("opts %+v: status %v, want %v", opts, st, c.want)
				}
				switch st {
				case solve.Optimal:
					if math.Abs(lp.Objective()-c.obj) > 1e-9 {
						t.Fatalf("objective %v, want %v", lp.Objective(), c.obj)
					}
					x := lp.X()
					for j, v := range c.x {
						if math.Abs(x[j]-v) > 1e-9 {
							t.Fatalf("x = %v, want %v", x, c.x)
						}
					}
					checkOptimality(t, m, lp)
				case solve.Infeasible:
					checkFarkas(t, m, lp.Ray())
				case solve.Unbounded:
					checkPrimalRay(t, m, lp.Ray())
				}
			}
		})
	}
}

// checkFarkas verifies a dual ray y over the rows proves infeasibility: the
// interval of yᵀAx over the column box and the interval of yᵀr over the row
// box are disjoint.
func checkFarkas(t testing.TB, m *model.Model, y []float64) {
	t.Helper()
	if len(y) != m.NumRows() {
		t.Fatalf("dual ray has length %d, want %d", len(y), m.NumRows())
	}
	// z = Aᵀy.
	z := make([]float64, m.NumCols())
	scale := 0.0
	for j := range z {
		for k := m.ColStart[j]; k < m.ColStart[j+1]; k++ {
			z[j] += m.Value[k] * y[m.RowIndex[k]]
		}
	}
	for _, v := range y {
		scale = math.Max(scale, math.Abs(v))
	}
	if scale == 0 {
		t.Fatal("dual ray is zero")
	}
	tol := 1e-7 * scale
	boxRange := func(c, lo, up float64) (float64, float64) {
		if math.Abs(c) <= tol {
			return 0, 0
		}
		if c > 0 {
			return c * lo, c * up
		}
		return c * up, c * lo
	}
	var axLo, axUp, rLo, rUp float64
	for j, c := range z {
		a, b := boxRange(c, m.ColLower[j], m.ColUpper[j])
		axLo += a
		axUp += b
	}
	for i, c := range y {
		a, b := boxRange(c, m.RowLower[i], m.RowUpper[i])
		rLo += a
		rUp += b
	}
	eps := 1e-6 * (1 + scale)
	if !(axLo > rUp+eps || rLo > axUp+eps) {
		t.Fatalf("dual ray does not prove infeasibility: yᵀAx ∈ [%v, %v], yᵀr ∈ [%v, %v]", axLo, axUp, rLo, rUp)
	}
}

// checkPrimalRay verifies d: improving, within the recession cone of the
// bounds and rows.
func checkPrimalRay(t testing.TB, m *model.Model, d []float64) {
	t.Helper()
	if len(d) != m.NumCols() {
		t.Fatalf("primal ray has length %d, want %d", len(d), m.NumCols())
	}
	scale := maxAbs(d)
	if scale == 0 {
		t.Fatal("primal ray is zero")
	}
	tol := 1e-7 * scale
	cd := 0.0
	for j, v := range d {
		cd += m.Obj[j] * v
		if (v > tol && !math.IsInf(m.ColUpper[j], 1)) || (v < -tol && !math.IsInf(m.ColLower[j], -1)) {
			t.Fatalf("ray leaves the bounds of column %d (d=%v)", j, v)
		}
	}
	if m.Sense == model.Maximize {
		cd = -cd
	}
	if cd >= -tol {
		t.Fatalf("ray does not improve the objective (c·d = %v)", cd)
	}
	ad := make([]float64, m.NumRows())
	for j, v := range d {
		for k := m.ColStart[j]; k < m.ColStart[j+1]; k++ {
			ad[m.RowIndex[k]] += m.Value[k] * v
		}
	}
	for i, v := range ad {
		if (v > tol && !math.IsInf(m.RowUpper[i], 1)) || (v < -tol && !math.IsInf(m.RowLower[i], -1)) {
			t.Fatalf("ray leaves the bounds of row %d (Ad=%v)", i, v)
		}
	}
}

// A singular basis installed by SetBasis (two equal columns basic) is
// repaired by row logicals and the solve still reaches the optimum.
func TestSingularBasisRepaired(t *testing.T) {
	// min −x − y − z s.t. x + y + z ≤ 4, x + y ≤ 3 (x and y equal columns), 0 ≤ x,y,z ≤ 2.
	spec := lpSpec{obj: []float64{-1, -1, -1}, colLo: []float64{0, 0, 0}, colUp: []float64{2, 2, 2},
		a: [][]float64{{1, 1, 1}, {1, 1, 0}}, rowLo: []float64{negInf, negInf}, rowUp: []float64{4, 3}}
	m := spec.model()
	s, err := New(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := Basis{Cols: []solve.BasisStatus{solve.Basic, solve.Basic, solve.AtLower}, Rows: []solve.BasisStatus{solve.AtUpper, solve.AtUpper}}
	if err := s.SetBasis(b); err != nil {
		t.Fatal(err)
	}
	mustSolve(t, s, solve.Optimal)
	if math.Abs(s.Objective()+4) > 1e-9 {
		t.Fatalf("objective %v, want −4", s.Objective())
	}
	checkOptimality(t, m, s)
}
