package lpformat

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/model/internal/modeltest"
	"github.com/mrbound/mrbound/model/mps"
)

const testsets = "../../../shared/testsets"

func tm(v model.Var, c float64) model.Term { return model.Term{Var: v, Coef: c} }

func ex(k float64, ts ...model.Term) model.Expr { return model.Expr{Terms: ts, Constant: k} }

func write(t *testing.T, m *model.Model) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func read(t *testing.T, text string) *model.Model {
	t.Helper()
	m, err := Read(strings.NewReader(text), "t.lp")
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	return m
}

// featureModel uses every feature: all bound kinds, every row kind, integer
// and binary columns, an empty row and column, a constant, maximisation.
func featureModel(t *testing.T) *model.Model {
	inf := math.Inf(1)
	b := model.NewBuilder("features")
	x := b.Continuous("x", -inf, inf)
	y := b.Continuous("y(1,2)", -inf, -2.5)
	z := b.Continuous("z", -5, -2)
	w := b.Continuous("w", 3, 3)
	u := b.Continuous("u", 0.1, inf)
	v := b.Continuous("v", -inf, 7)
	n := b.Integer("n", 0, inf)
	k := b.Integer("k", -3, 8)
	q := b.Integer("q", 0, 1)
	e := b.Integer("e", -inf, 4)
	bb := b.Binary("bb")
	b1 := b.AddVar(model.Column{Name: "b1", Lower: 1, Upper: 1, Type: model.Binary})
	b0 := b.AddVar(model.Column{Name: "b0", Lower: 0, Upper: 0, Type: model.Binary})
	bh := b.AddVar(model.Column{Name: "bh", Lower: 0.5, Upper: 1, Type: model.Binary})
	b.Continuous("empty", 0, 1)
	b.Continuous("up0", 0, 0.25)
	b.Maximize(ex(-42.5, tm(x, 1), tm(y, 1), tm(z, -1.25), tm(n, 3), tm(bb, 1e-9), tm(b1, 2), tm(b0, -0.5), tm(bh, 1)))
	b.Equal("obj", ex(0, tm(x, 1), tm(z, 1), tm(w, 0.3)), 1.1)
	b.LessEq("le", model.Sum(y, u), 1e10)
	b.GreaterEq("ge", model.Sum(v, n, k), -7)
	b.AddConstr("rng", ex(0, tm(q, 1), tm(e, -1), tm(k, 1.0/3)), -0.1, 0.7)
	b.AddConstr("freerow", model.Sum(x, bb), -inf, inf)
	b.Equal("emptyrow", model.Expr{}, 0)
	b.AddConstr("emptyrng", model.Expr{}, -1, 2)
	// A long row, so that it wraps over several lines.
	long := model.NewExpr(20)
	for _, vv := range []model.Var{x, y, z, w, u, v, n, k, q, e, bb, b1, b0, bh} {
		long.Add(vv, 1.5)
	}
	b.LessEq("long", long, 100)
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRoundTripBuilt(t *testing.T) {
	m := featureModel(t)
	text := write(t, m)
	m2 := read(t, text)
	if d := modeltest.Diff(m, m2); d != "" {
		t.Fatalf("write→read differs: %s\n%s", d, text)
	}
	if text2 := write(t, m2); text2 != text {
		t.Fatalf("write→read→write text differs:\n%s\n---\n%s", text, text2)
	}
	for _, want := range []string{"Maximize\n obj_1:", " - 42.5\n", " rng: -0.1 <= + 0.3333333333333333 k + 1 q - 1 e <= 0.7\n",
		" freerow: + 1 x + 1 bb >= -inf\n", " emptyrow: 0 x = 0\n", " x free\n", " -inf <= y(1,2) <= -2.5\n",
		" w = 3\n", " u >= 0.1\n", " up0 <= 0.25\n", " b0 = 0\n", " bh >= 0.5\n", "General\n  n k q e\n", "Binary\n  bb b1 b0 bh\n", "End\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
}

func TestRoundTripTestsets(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(testsets, "*", "*.mps"))
	if len(files) == 0 {
		t.Skip("no testsets")
	}
	for _, f := range files {
		m, err := mps.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := write(t, m)
		m2 := read(t, text)
		// Testset names are legal LP names except where noted by sanitise;
		// compare against the names the writer chose.
		want := m.Clone()
		want.ColNames = legalNames(m.NumCols(), m.ColNames, "C")
		want.RowNames = legalNames(m.NumRows(), m.RowNames, "R")
		if d := modeltest.Diff(want, m2); d != "" {
			t.Errorf("%s: differs: %s", filepath.Base(f), d)
		}
		if text2 := write(t, m2); text2 != text {
			t.Errorf("%s: write→read→write text differs", filepath.Base(f))
		}
	}
}

func TestNames(t *testing.T) {
	given := []string{"ok", "", "with space", "1st", "x", ".dot", "free", "a<b", "C1", "Inf", "with_space", "e1", strings.Repeat("n", 300)}
	got := legalNames(len(given), given, "C")
	want := []string{"ok", "C1_1", "with_space_1", "_1st", "x", "_.dot", "_free", "a_b", "C1", "_Inf", "with_space", "e1", strings.Repeat("n", 243)}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	for _, s := range got {
		if !legal(s) {
			t.Errorf("%q is not legal", s)
		}
	}
}

func TestReadHandWritten(t *testing.T) {
	m := read(t, `\ a comment line
\ Problem: hand
MAXIMIZE
  value: 3 x1 + 2x2
       - x3 + 4 \ comment after a term
       + 2 x1
subject to
 c1: x1 + x2 + x1 <= 10
 c2: x1 - x2 => -inf
 -x3 + 2 x2 =< 4
 c4: 3 >= x1 + 1
 c5: -5 < x2 - x3 < 5
 c6: x1 = 2
 c7: 2 x1 + 3 > 7
Bounds
 x1 <= 4
 -infinity <= x2 <= +INF
 x3 >= -1
 0.5 >= x4
 x5 FREE
 x6 = 1.5e1
Generals
 x1
Binaries
 x4 x7
END
this is ignored
`)
	inf := math.Inf(1)
	if m.Sense != model.Maximize || m.ObjOffset != 4 || m.Name != "hand" {
		t.Errorf("sense %v offset %v name %q", m.Sense, m.ObjOffset, m.Name)
	}
	if fmt.Sprint(m.ColNames) != "[x1 x2 x3 x4 x5 x6 x7]" || fmt.Sprint(m.Obj) != "[5 2 -1 0 0 0 0]" {
		t.Errorf("columns %v obj %v", m.ColNames, m.Obj)
	}
	wantRows := [][2]float64{{-inf, 10}, {-inf, inf}, {-inf, 4}, {-inf, 2}, {-5, 5}, {2, 2}, {4, inf}}
	for i, w := range wantRows {
		if m.RowLower[i] != w[0] || m.RowUpper[i] != w[1] {
			t.Errorf("row %d: [%v, %v], want %v", i, m.RowLower[i], m.RowUpper[i], w)
		}
	}
	if m.RowNames[2] != "" || m.RowNames[6] != "c7" {
		t.Errorf("row names %q", m.RowNames)
	}
	csr := m.RowMatrix()
	if got := fmt.Sprint(csr.ColIndex[:2], csr.Value[:2]); got != "[0 1] [2 1]" {
		t.Errorf("row c1 (x1 repeated) = %s", got)
	}
	wantCols := []struct {
		lo, up float64
		typ    model.VarType
	}{{0, 4, model.Integer}, {-inf, inf, model.Continuous}, {-1, inf, model.Continuous}, {0, 0.5, model.Binary},
		{-inf, inf, model.Continuous}, {15, 15, model.Continuous}, {0, 1, model.Binary}}
	for j, w := range wantCols {
		if m.ColLower[j] != w.lo || m.ColUpper[j] != w.up || m.ColType[j] != w.typ {
			t.Errorf("column %s: [%v, %v] %v, want %+v", m.ColNames[j], m.ColLower[j], m.ColUpper[j], m.ColType[j], w)
		}
	}
	if m := read(t, "\ufeffmin\n obj: x\nend\n"); m.NumCols() != 1 {
		t.Errorf("file with a byte order mark: %d columns", m.NumCols())
	}
	m = read(t, "\\ Problem: named\nmin\nst\nc: x >= 1\nend")
	if m.Name != "named" || m.Sense != model.Minimize || m.NumCols() != 1 {
		t.Errorf("name %q sense %v cols %d", m.Name, m.Sense, m.NumCols())
	}
}

func TestReadErrors(t *testing.T) {
	cases := []struct {
		name, text string
		line       int
		msg        string
	}{
		{"no objective", "Subject To\n c: x >= 1\nEnd\n", 1, "expected Minimize or Maximize"},
		{"empty", "\\ nothing\n", 1, "empty file"},
		{"bad number", "Minimize\n obj: 1.2.3 x\nEnd\n", 2, `invalid number "1.2.3"`},
		{"missing sense", "Minimize\n obj: x\nSubject To\n c: x + y\n d: x >= 1\nEnd\n", 5, `expected <=, >= or = in row c, found "d"`},
		{"missing rhs", "Minimize\n obj: x\nSubject To\n c: x + y >= z\nEnd\n", 4, `expected a number, found "z"`},
		{"duplicate row", "Minimize\n obj: x\nSubject To\n c: x >= 1\n c: x <= 2\nEnd\n", 5, "row c defined twice"},
		{"mixed range", "Minimize\n obj: x\nSubject To\n c: 1 <= x >= 2\nEnd\n", 4, "two <= or two >="},
		{"quadratic", "Minimize\n obj: [ x ^ 2 ]\nEnd\n", 2, "quadratic"},
		{"semi", "Minimize\n obj: x\nSemi-continuous\n x\nEnd\n", 3, "semi-continuous"},
		{"sos", "Minimize\n obj: x\nSOS\n s1: S1:: x:1\nEnd\n", 3, "SOS"},
		{"crossed bounds", "Minimize\n obj: x\nBounds\n x >= 3\n x <= 2\nEnd\n", 5, "column x: lower bound 3 > upper bound 2"},
		{"negative upper only", "Minimize\n obj: x\nBounds\n x <= -1\nEnd\n", 4, "column x: lower bound 0 > upper bound -1"},
		{"binary out of range", "Minimize\n obj: x\nBounds\n x <= 3\nBinary\n x\nEnd\n", 4, "column x: binary"},
		{"bound without op", "Minimize\n obj: x\nBounds\n x 3\nEnd\n", 4, "expected <=, >=, = or free"},
		{"general number", "Minimize\n obj: x\nGeneral\n 3\nEnd\n", 4, "expected a column name"},
		{"second objective", "Minimize\n obj: x\nMaximize\n x\nEnd\n", 3, "second objective"},
		{"bad char", "Minimize\n obj: x * y\nEnd\n", 2, "unexpected character '*'"},
		{"row infeasible side", "Minimize\n obj: x\nSubject To\n c: x >= +inf\nEnd\n", 4, "row c: lower bound is +Inf"},
		{"term name colon", "Minimize\n obj: x\nSubject To\n c: x + y: >= 1\nEnd\n", 4, `unexpected name "y" followed by ':'`},
		{"dangling sign", "Minimize\n obj: x +\nSubject To\n c: x >= 1\nEnd\n", 3, "expected a term, found a section keyword"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(c.text), "bad.lp")
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			prefix := "bad.lp:" + strconv.Itoa(c.line) + ": "
			if !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("error %q, want prefix %q and %q", err, prefix, c.msg)
			}
		})
	}
}

func TestReadFileMissing(t *testing.T) {
	if _, err := ReadFile(filepath.Join(t.TempDir(), "none.lp")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("error %v", err)
	}
}

func ExampleWrite() {
	b := model.NewBuilder("tiny")
	x := b.Integer("x", 0, 10)
	y := b.Continuous("y", -1, math.Inf(1))
	z := b.Binary("z")
	b.Maximize(ex(2, tm(x, 1), tm(y, 1)))
	b.AddConstr("cap", ex(0, tm(x, 1), tm(y, 2)), 1, 8)
	b.LessEq("link", ex(0, tm(x, 1), tm(z, -10)), 0)
	m, _ := b.Build()
	_ = Write(os.Stdout, m)
	// Output:
	// \ Problem: tiny
	// Maximize
	//  obj: + 1 x + 1 y + 0 z + 2
	// Subject To
	//  cap: 1 <= + 1 x + 2 y <= 8
	//  link: + 1 x - 10 z <= 0
	// Bounds
	//  x <= 10
	//  y >= -1
	// General
	//   x
	// Binary
	//   z
	// End
}
