package model

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

func tm(v Var, c float64) Term { return Term{Var: v, Coef: c} }

func ex(k float64, ts ...Term) Expr { return Expr{Terms: ts, Constant: k} }

func TestBuildValidationErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	other := NewBuilder("other")
	foreign := other.Continuous("f", 0, 1)
	cases := []struct {
		name  string
		build func(b *Builder)
		want  string
	}{
		{"NaN coefficient", func(b *Builder) {
			x := b.Continuous("x", 0, 1)
			b.LessEq("cap", ex(0, tm(x, nan)), 1)
		}, "model: row cap: coefficient NaN on column x"},
		{"Inf coefficient", func(b *Builder) {
			b.Continuous("y", 0, 1)
			x := b.Continuous("x", 0, 1)
			b.GreaterEq("", ex(0, tm(x, -inf)), 1)
		}, "model: row R0: coefficient -Inf on column x"},
		{"NaN objective coefficient", func(b *Builder) {
			b.AddVar(Column{Name: "x", Upper: 1, Obj: nan})
		}, "model: column x: objective coefficient NaN is not finite"},
		{"Inf objective coefficient via SetObjCoef", func(b *Builder) {
			b.SetObjCoef(b.Continuous("", 0, 1), inf)
		}, "model: column C0: objective coefficient +Inf is not finite"},
		{"NaN bound", func(b *Builder) { b.Continuous("x", nan, 1) }, "model: column x: bound is NaN"},
		{"lower +Inf", func(b *Builder) { b.Continuous("x", inf, inf) }, "model: column x: lower bound is +Inf"},
		{"upper -Inf", func(b *Builder) { b.Continuous("x", -inf, -inf) }, "model: column x: upper bound is -Inf"},
		{"column lower > upper", func(b *Builder) {
			x := b.Integer("x", 0, 5)
			b.SetBounds(x, 2, 1)
		}, "model: column x: lower bound 2 > upper bound 1"},
		{"row lower > upper", func(b *Builder) {
			x := b.Continuous("x", 0, 1)
			b.AddConstr("r", Sum(x), 3, 1)
		}, "model: row r: lower bound 3 > upper bound 1"},
		{"row NaN constant", func(b *Builder) {
			x := b.Continuous("x", 0, 1)
			b.LessEq("r", ex(nan, tm(x, 1)), 1)
		}, "model: row r: bound is NaN"},
		{"binary below 0", func(b *Builder) {
			b.AddVar(Column{Name: "b", Lower: -1, Upper: 1, Type: Binary})
		}, "model: column b: binary with bounds [-1, 1] outside [0, 1]"},
		{"binary above 1", func(b *Builder) {
			b.SetBounds(b.Binary("b"), 0, 2)
		}, "model: column b: binary with bounds [0, 2] outside [0, 1]"},
		{"duplicate column name", func(b *Builder) {
			b.Continuous("x", 0, 1)
			b.Continuous("y", 0, 1)
			b.Continuous("x", 0, 1)
		}, "model: column x: duplicate name"},
		{"duplicate row name", func(b *Builder) {
			x := b.Continuous("x", 0, 1)
			b.LessEq("r", Sum(x), 1)
			b.LessEq("r", Sum(x), 2)
		}, "model: row r: duplicate name"},
		{"column name with space", func(b *Builder) { b.Continuous("a b", 0, 1) }, `model: column a b: name "a b" contains white space`},
		{"duplicate family key", func(b *Builder) {
			f := NewFamily[struct{ I, J int }](b, "w")
			f.Add(struct{ I, J int }{1, 2}, 0, 1, 0, Binary)
			f.Add(struct{ I, J int }{1, 2}, 0, 1, 0, Binary)
		}, "model: column w(1,2): duplicate key in family"},
		{"duplicate row family key", func(b *Builder) {
			x := b.Continuous("x", 0, 1)
			f := NewRowFamily[int](b, "cap")
			f.LessEq(3, Sum(x), 1)
			f.GreaterEq(3, Sum(x), 0)
		}, "model: row cap(3): duplicate key in family"},
		{"term from another builder", func(b *Builder) {
			x := b.Continuous("x", 0, 1)
			b.Equal("mix", Sum(x, foreign), 1)
		}, "model: row mix: term on a column from another builder"},
		{"term from another builder in a row family", func(b *Builder) {
			f := NewRowFamily[struct{ I, J int }](b, "cap")
			f.Equal(struct{ I, J int }{4, 5}, Sum(foreign), 1)
		}, "model: row cap(4,5): term on a column from another builder"},
		{"zero Var", func(b *Builder) {
			b.Continuous("x", 0, 1)
			b.LessEq("z", Sum(Var{}), 1)
		}, "model: row z: term on the zero Var (never added)"},
		{"zero Var in objective", func(b *Builder) {
			b.Minimize(Sum(Var{}))
		}, "model: objective: term on the zero Var (never added)"},
		{"foreign Var in SetBounds", func(b *Builder) { b.SetBounds(foreign, 0, 1) }, "model: SetBounds: term on a column from another builder"},
		{"objective offset NaN", func(b *Builder) { b.Minimize(ex(nan)) }, "model: objective: offset NaN is not finite"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := NewBuilder("t")
			c.build(b)
			m, err := b.Build()
			if err == nil {
				t.Fatalf("Build succeeded: %+v", m)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error %v does not wrap ErrInvalid", err)
			}
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Errorf("error %T is not a *ValidationError", err)
			}
			if !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("error %q, want %q", err, c.want)
			}
		})
	}
}

// TestBuildMatrix checks the CSC built from rows with repeated and
// cancelling terms, constants moved to the bounds, and the objective.
func TestBuildMatrix(t *testing.T) {
	b := NewBuilder("m")
	x, y, z := b.Continuous("x", 0, 10), b.Integer("y", -1, 5), b.Binary("z")
	b.Maximize(ex(7, tm(x, 1), tm(z, 2), tm(x, 0.5)))
	b.LessEq("r0", ex(0, tm(x, 1), tm(y, 2), tm(x, 2)), 4)      // x repeated: 3
	b.GreaterEq("r1", ex(1, tm(y, 1), tm(z, 1), tm(y, -1)), 0)  // y cancels
	b.AddConstr("r2", ex(-2, tm(z, 4), tm(x, -1)), -1, 3)       // constant −2
	b.Equal("r3", ex(0, tm(y, 1e-3), tm(z, 0), tm(y, 1e-3)), 0) // zero term dropped
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(m.ColStart, m.RowIndex, m.Value)
	want := "[0 2 4 6] [0 2 0 3 1 2] [3 -1 2 0.002 1 4]"
	if got != want {
		t.Errorf("CSC %s, want %s", got, want)
	}
	if fmt.Sprint(m.Obj, m.ObjOffset, m.Sense) != "[1.5 0 2] 7 maximize" {
		t.Errorf("objective %v %v %v", m.Obj, m.ObjOffset, m.Sense)
	}
	if fmt.Sprint(m.RowLower, m.RowUpper) != "[-Inf -1 1 0] [4 +Inf 5 0]" {
		t.Errorf("row bounds %v %v", m.RowLower, m.RowUpper)
	}
	if fmt.Sprint(m.ColType, m.ColLower, m.ColUpper) != "[continuous integer binary] [0 -1 0] [10 5 1]" {
		t.Errorf("columns %v %v %v", m.ColType, m.ColLower, m.ColUpper)
	}
	if x.Index() != 0 || y.Index() != 1 || z.Index() != 2 || b.NumVars() != 3 || b.NumConstrs() != 4 {
		t.Errorf("indices %d %d %d, counts %d %d", x.Index(), y.Index(), z.Index(), b.NumVars(), b.NumConstrs())
	}
	// The builder can go on; the first model shares nothing with it.
	m.Value[0] = 99
	b.SetBounds(x, 1, 2)
	m2, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if m2.Value[0] != 3 || m2.ColLower[0] != 1 || m.ColLower[0] != 0 {
		t.Errorf("models share memory: %v %v %v", m2.Value[0], m2.ColLower[0], m.ColLower[0])
	}
	if b.Lower(x) != 1 || b.Upper(x) != 2 {
		t.Errorf("Lower/Upper %v %v", b.Lower(x), b.Upper(x))
	}
}

func TestExprHelpers(t *testing.T) {
	b := NewBuilder("e")
	x, y := b.Continuous("x", 0, 1), b.Continuous("y", 0, 1)
	e := Sum(x, y)
	e.AddConst(2).Add(x, 3)
	f := NewExpr(1)
	f.Add(y, 1).AddConst(1)
	e.AddExpr(f, -2)
	e.Scale(0.5)
	got := fmt.Sprint(e.Constant)
	for _, tt := range e.Terms {
		got += fmt.Sprintf(" %d:%v", tt.Var.Index(), tt.Coef)
	}
	if got != "0 0:0.5 1:0.5 0:1.5 1:-1" {
		t.Errorf("expression %s", got)
	}
}

type kind int

func (k kind) String() string { return [...]string{"map", "reduce"}[k] }

func TestFamilies(t *testing.T) {
	b := NewBuilder("f")
	type key struct{ I, J, S, T int }
	w := NewFamily[key](b, "w")
	for i := 0; i < 2; i++ {
		for s := 0; s < 2; s++ {
			w.Add(key{i, 7, s, -s}, 0, 1, float64(i+s), Binary)
		}
	}
	xi := NewFamily[int](b, "x")
	xi.Add(5, 0, 1, 0, Continuous)
	xs := NewFamily[string](b, "s")
	xs.Add("ab", 0, 1, 0, Continuous)
	xa := NewFamily[[2]uint8](b, "a")
	xa.Add([2]uint8{3, 4}, 0, 1, 0, Continuous)
	type mixed struct {
		K kind
		N int
	}
	xm := NewFamily[mixed](b, "m")
	xm.Add(mixed{1, 2}, 0, 1, 0, Continuous)
	rows := NewRowFamily[key](b, "c")
	v, ok := w.Get(key{1, 7, 0, 0})
	if !ok || v.Index() != 2 {
		t.Fatalf("Get: %v %v", v, ok)
	}
	if _, ok := w.Get(key{9, 9, 9, 9}); ok {
		t.Error("Get of a missing key succeeded")
	}
	rows.LessEq(key{1, 2, 3, 4}, Sum(v), 1)
	rows.GreaterEq(key{0, 0, 0, 0}, Sum(v), 0)
	rows.Equal(key{5, 5, 5, 5}, Sum(v), 1)
	rows.Add(key{6, 6, 6, 6}, Sum(v), 0, 1)
	if w.Len() != 4 || rows.Len() != 4 || fmt.Sprint(w.Keys()) != "[{0 7 0 0} {0 7 1 -1} {1 7 0 0} {1 7 1 -1}]" {
		t.Errorf("Len %d %d Keys %v", w.Len(), rows.Len(), w.Keys())
	}
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(m.ColNames, " "); got != "w(0,7,0,0) w(0,7,1,-1) w(1,7,0,0) w(1,7,1,-1) x(5) s(ab) a(3,4) m(reduce,2)" {
		t.Errorf("column names %s", got)
	}
	if got := strings.Join(m.RowNames, " "); got != "c(1,2,3,4) c(0,0,0,0) c(5,5,5,5) c(6,6,6,6)" {
		t.Errorf("row names %s", got)
	}
	if m.RowLower[2] != 1 || m.RowUpper[2] != 1 || m.RowLower[3] != 0 || m.RowUpper[3] != 1 {
		t.Errorf("row bounds %v %v", m.RowLower, m.RowUpper)
	}
}

// TestFormatKeyMatchesFmt checks the fast formatting of integer keys against
// the plain fmt rule: fmt.Sprint, braces trimmed, fields joined by commas.
func TestFormatKeyMatchesFmt(t *testing.T) {
	slow := func(prefix string, k any) string {
		s := strings.Trim(fmt.Sprint(k), "{}[]")
		return prefix + "(" + strings.Join(strings.Fields(s), ",") + ")"
	}
	type s3 struct {
		A int8
		B uint64
		C int
	}
	type withString struct {
		A int
		B string
	}
	keys := []any{nil, 0, -12, int64(1 << 40), uint16(7), s3{-1, 1 << 63, 42}, [3]int{1, -2, 3}, withString{1, "x y"}, kind(1), struct{ K kind }{0}, 3.5, true}
	for _, k := range keys {
		if got, want := FormatKey("p", k), slow("p", k); got != want {
			t.Errorf("FormatKey(%#v) = %q, want %q", k, got, want)
		}
	}
}

// TestBuildStop: BuildStop with a stop that says so at its first question,
// or at any later one on a model of 5,000 named columns and rows, returns
// ErrStopped and no model; one that never does builds what Build builds.
// ValidateStop likewise, on the built model.
func TestBuildStop(t *testing.T) {
	b := NewBuilder("stop")
	rows := NewRowFamily[int](b, "cap")
	prev := b.Continuous("x0", 0, 1)
	for i := 1; i < 5000; i++ {
		x := b.Continuous(fmt.Sprintf("x%d", i), 0, 1)
		rows.LessEq(i, ex(0, tm(x, 1), tm(prev, 2)), 3)
		prev = x
	}
	want, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	asked := 0
	got, err := b.BuildStop(func() bool { asked++; return false })
	if err != nil || got.NumCols() != want.NumCols() || got.NumRows() != want.NumRows() || got.NumNonzeros() != want.NumNonzeros() ||
		got.RowName(7) != want.RowName(7) || got.ColName(4999) != want.ColName(4999) {
		t.Fatalf("never stopped: %v; want the model Build makes", err)
	}
	if asked < 10 {
		t.Fatalf("%d questions over 5,000 columns and rows: the loops do not ask", asked)
	}
	for _, after := range []int{0, 1, asked / 3, asked / 2, asked - 1} {
		calls := 0
		m, err := b.BuildStop(func() bool { calls++; return calls > after })
		if !errors.Is(err, ErrStopped) || m != nil {
			t.Errorf("stop after %d of %d questions: %v, model %v; want ErrStopped and none", after, asked, err, m != nil)
		}
	}
	if err := want.ValidateStop(func() bool { return true }); !errors.Is(err, ErrStopped) {
		t.Errorf("ValidateStop stopped at once: %v", err)
	}
	if err := want.ValidateStop(func() bool { return false }); err != nil {
		t.Errorf("ValidateStop never stopped: %v", err)
	}
}
