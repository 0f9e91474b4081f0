package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"
)

// evalModel is
//
//	minimise  2x + 3y − z + 5
//	r0:       x + y      ≤ 4
//	r1:       x     − z  ≥ 1
//	r2: 1 ≤       y + z  ≤ 3
//	x ∈ [0, 3], y ≥ 0 integer, z binary.
func evalModel(t *testing.T) *Model {
	b := NewBuilder("eval")
	x, y, z := b.Continuous("x", 0, 3), b.Integer("y", 0, math.Inf(1)), b.Binary("z")
	b.Minimize(ex(5, tm(x, 2), tm(y, 3), tm(z, -1)))
	b.LessEq("r0", Sum(x, y), 4)
	b.GreaterEq("r1", ex(0, tm(x, 1), tm(z, -1)), 1)
	b.AddConstr("r2", Sum(y, z), 1, 3)
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

func TestEvaluate(t *testing.T) {
	m := evalModel(t)
	// A feasible integral point: objective 4 + 3 − 1 + 5 = 11.
	ev := m.Evaluate([]float64{2, 1, 1})
	if ev.Objective != 11 || fmt.Sprint(ev.RowActivity) != "[3 1 2]" {
		t.Errorf("objective %v activities %v", ev.Objective, ev.RowActivity)
	}
	if ev.MaxBoundViolation != 0 || ev.MaxRowViolation != 0 || ev.MaxIntegrality != 0 ||
		ev.WorstCol != -1 || ev.WorstRow != -1 || ev.WorstIntCol != -1 || !ev.Feasible(0, true) {
		t.Errorf("feasible point judged %+v", ev)
	}
	// x = 4 is 1 over its bound, z = −0.5 is 0.5 under; r0 = 4.3 is 0.3
	// over, r2 = −0.2 is 1.2 under; y = 0.3 is 0.3 from an integer and z
	// 0.5. Objective 8 + 0.9 + 0.5 + 5 = 14.4.
	ev = m.Evaluate([]float64{4, 0.3, -0.5})
	checks := []struct {
		name      string
		got, want float64
	}{
		{"objective", ev.Objective, 14.4}, {"r0", ev.RowActivity[0], 4.3}, {"r1", ev.RowActivity[1], 4.5}, {"r2", ev.RowActivity[2], -0.2},
		{"bound violation", ev.MaxBoundViolation, 1}, {"row violation", ev.MaxRowViolation, 1.2},
		{"integrality", ev.MaxIntegrality, 0.5}, {"max violation", ev.MaxViolation(), 1.2},
	}
	for _, c := range checks {
		if !near(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if ev.WorstCol != 0 || ev.WorstRow != 2 || ev.WorstIntCol != 2 {
		t.Errorf("worst col %d row %d int col %d, want 0 2 2", ev.WorstCol, ev.WorstRow, ev.WorstIntCol)
	}
	if ev.Feasible(1.1, false) || !ev.Feasible(1.3, false) || !ev.Feasible(1.3, true) {
		t.Errorf("Feasible disagrees with the violations %+v", ev)
	}
	// Only integrality broken: feasible as an LP point, not as a MIP point.
	ev = m.Evaluate([]float64{2, 1.25, 1})
	if !ev.Feasible(1e-9, false) || ev.Feasible(1e-9, true) || ev.WorstIntCol != 1 || ev.MaxIntegrality != 0.25 {
		t.Errorf("integrality-only point %+v", ev)
	}
	// NaN is an infinite violation of bounds and integrality.
	ev = m.Evaluate([]float64{2, math.NaN(), 1})
	if !math.IsInf(ev.MaxBoundViolation, 1) || ev.WorstCol != 1 || !math.IsInf(ev.MaxIntegrality, 1) || ev.WorstIntCol != 1 {
		t.Errorf("NaN point %+v", ev)
	}
	defer func() {
		if recover() == nil {
			t.Error("Evaluate accepted a point of the wrong length")
		}
	}()
	m.Evaluate([]float64{1})
}

func TestStats(t *testing.T) {
	m := evalModel(t)
	b := NewBuilder("more")
	x := b.Continuous("x", -2e3, 0.5)
	b.Equal("e", ex(0, tm(x, 1e-4)), 7)
	b.AddConstr("free", Sum(x), math.Inf(-1), math.Inf(1))
	m2, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	s := m.Stats()
	want := Statistics{Rows: 3, Cols: 3, Nonzeros: 6, Continuous: 1, Integer: 1, Binary: 1,
		Inequalities: 2, Ranged: 1, Matrix: Range{1, 1}, Objective: Range{1, 3}, Bounds: Range{1, 3}, RHS: Range{1, 4}}
	if s != want {
		t.Errorf("stats %+v\nwant  %+v", s, want)
	}
	s2 := m2.Stats()
	if s2.Equalities != 1 || s2.FreeRows != 1 || s2.Matrix != (Range{1e-4, 1}) || s2.Bounds != (Range{0.5, 2e3}) || s2.Objective.Max != 0 {
		t.Errorf("stats %+v", s2)
	}
	var buf bytes.Buffer
	if err := s.Write(&buf); err != nil {
		t.Fatal(err)
	}
	golden := `rows         3 (0 equality, 2 inequality, 1 ranged, 0 free)
columns      3 (1 continuous, 1 integer, 1 binary)
nonzeros     6
matrix       [1e+00, 1e+00]
objective    [1e+00, 3e+00]
bounds       [1e+00, 3e+00]
rhs          [1e+00, 4e+00]
`
	if buf.String() != golden {
		t.Errorf("Write:\n%s\nwant\n%s", buf.String(), golden)
	}
	if (Range{}).String() != "none" {
		t.Errorf("empty range prints %q", Range{}.String())
	}
}

// randomModel builds a seeded random model with repeated terms.
func randomModel(t *testing.T, rng *rand.Rand, rows, cols, terms int) *Model {
	b := NewBuilder("random")
	vs := make([]Var, cols)
	for j := range vs {
		vs[j] = b.Continuous("", 0, 1)
	}
	for i := 0; i < rows; i++ {
		e := NewExpr(terms)
		for k := 0; k < terms; k++ {
			e.Add(vs[rng.Intn(cols)], float64(rng.Intn(9)-4))
		}
		b.LessEq("", e, 1)
	}
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRowMatrix(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for trial := 0; trial < 20; trial++ {
		m := randomModel(t, rng, 1+rng.Intn(30), 1+rng.Intn(30), rng.Intn(8))
		dense := map[[2]int]float64{}
		for j := 0; j < m.NumCols(); j++ {
			for k := m.ColStart[j]; k < m.ColStart[j+1]; k++ {
				dense[[2]int{m.RowIndex[k], j}] = m.Value[k]
			}
		}
		csr := m.RowMatrix()
		if len(csr.RowStart) != m.NumRows()+1 || csr.RowStart[m.NumRows()] != m.NumNonzeros() {
			t.Fatalf("row starts %v for %d nonzeros", csr.RowStart, m.NumNonzeros())
		}
		seen := 0
		for i := 0; i < m.NumRows(); i++ {
			for k := csr.RowStart[i]; k < csr.RowStart[i+1]; k++ {
				if k > csr.RowStart[i] && csr.ColIndex[k] <= csr.ColIndex[k-1] {
					t.Errorf("row %d: columns not increasing", i)
				}
				if v, ok := dense[[2]int{i, csr.ColIndex[k]}]; !ok || v != csr.Value[k] {
					t.Errorf("(%d,%d) = %v in CSR, %v (%v) in CSC", i, csr.ColIndex[k], csr.Value[k], v, ok)
				}
				seen++
			}
		}
		if seen != len(dense) {
			t.Errorf("CSR has %d entries, CSC %d", seen, len(dense))
		}
	}
}

func TestValidate(t *testing.T) {
	base := evalModel(t)
	if err := base.Validate(); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		break_ func(m *Model)
		want   string
	}{
		{"sense", func(m *Model) { m.Sense = SenseUnknown }, "objective: sense must be"},
		{"offset", func(m *Model) { m.ObjOffset = math.Inf(-1) }, "objective: offset -Inf is not finite"},
		{"column lengths", func(m *Model) { m.ColUpper = m.ColUpper[:2] }, "columns: column arrays differ"},
		{"row lengths", func(m *Model) { m.RowNames = m.RowNames[:1] }, "rows: row arrays differ"},
		{"column starts", func(m *Model) { m.ColStart[3] = 5 }, "matrix: column starts do not match"},
		{"decreasing start", func(m *Model) { m.ColStart[2] = 1 }, "column y: column start decreases"},
		{"row index range", func(m *Model) { m.RowIndex[1] = 3 }, "column x: row index 3 out of range"},
		{"row order", func(m *Model) { m.RowIndex[0], m.RowIndex[1] = 1, 0 }, "column x: row indices not strictly increasing (row r0)"},
		{"zero value", func(m *Model) { m.Value[2] = 0 }, "column y: coefficient 0 in row r0"},
		{"NaN value", func(m *Model) { m.Value[4] = math.NaN() }, "column z: coefficient NaN in row r1"},
		{"objective NaN", func(m *Model) { m.Obj[1] = math.NaN() }, "column y: objective coefficient NaN"},
		{"type", func(m *Model) { m.ColType[0] = VarTypeUnknown }, "column x: type unknown"},
		{"binary", func(m *Model) { m.ColUpper[2] = 2 }, "column z: binary with bounds [0, 2]"},
		{"crossed column", func(m *Model) { m.ColLower[0] = 4 }, "column x: lower bound 4 > upper bound 3"},
		{"row NaN", func(m *Model) { m.RowUpper[1] = math.NaN() }, "row r1: bound is NaN"},
		{"row -Inf upper", func(m *Model) { m.RowUpper[0] = math.Inf(-1) }, "row r0: upper bound is -Inf"},
		{"duplicate column name", func(m *Model) { m.ColNames[2] = "x" }, "column x: duplicate name"},
		{"duplicate row name", func(m *Model) { m.RowNames[1] = "r0" }, "row r0: duplicate name"},
		{"space in name", func(m *Model) { m.RowNames[2] = "r 2" }, `row r 2: name "r 2" contains white space`},
		{"unnamed error names", func(m *Model) { m.ColNames = nil; m.ColLower[0] = 9 }, "column C0: lower bound 9 > upper bound 3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := base.Clone()
			c.break_(m)
			err := m.Validate()
			if err == nil || !strings.HasPrefix(err.Error(), "model: "+c.want) {
				t.Errorf("Validate = %v, want %q", err, c.want)
			}
			if base.Validate() != nil {
				t.Fatal("Clone shares memory with the original")
			}
		})
	}
	// A row may share a column's name; unnamed entries are fine.
	m := base.Clone()
	m.RowNames[0], m.ColNames[1] = "x", ""
	if err := m.Validate(); err != nil {
		t.Errorf("row named like a column: %v", err)
	}
}

func TestEnums(t *testing.T) {
	for _, v := range []VarType{VarTypeUnknown, Continuous, Integer, Binary} {
		b, _ := json.Marshal(v)
		var back VarType
		if err := json.Unmarshal(b, &back); err != nil || back != v {
			t.Errorf("%v → %s → %v, %v", v, b, back, err)
		}
	}
	for _, s := range []Sense{SenseUnknown, Minimize, Maximize} {
		b, _ := json.Marshal(s)
		var back Sense
		if err := json.Unmarshal(b, &back); err != nil || back != s {
			t.Errorf("%v → %s → %v, %v", s, b, back, err)
		}
	}
	var v VarType
	var s Sense
	if v.UnmarshalText([]byte("real")) == nil || s.UnmarshalText([]byte("up")) == nil {
		t.Error("unknown names accepted")
	}
	if VarType(9).String() != "VarType(9)" || Sense(-1).String() != "Sense(-1)" || !Binary.IsInteger() || Continuous.IsInteger() {
		t.Error("String or IsInteger wrong")
	}
	m := evalModel(t)
	if !m.IsMIP() || m.ColName(0) != "x" || m.RowName(2) != "r2" {
		t.Error("IsMIP or names wrong")
	}
}

// TestRelaxation: the relaxation has every column continuous, and m is
// left as it was (its integer columns stay integer).
func TestRelaxation(t *testing.T) {
	m := evalModel(t)
	r := m.Relaxation()
	for j, ty := range r.ColType {
		if ty != Continuous {
			t.Errorf("column %d of the relaxation is %v", j, ty)
		}
	}
	if m.ColType[1] != Integer || m.ColType[2] != Binary {
		t.Errorf("m's column types changed: %v", m.ColType)
	}
	// Binary columns keep their [0, 1] bounds.
	if r.ColLower[2] != 0 || r.ColUpper[2] != 1 || r.NumRows() != m.NumRows() {
		t.Errorf("relaxation bounds %v %v, rows %d", r.ColLower, r.ColUpper, r.NumRows())
	}
}
