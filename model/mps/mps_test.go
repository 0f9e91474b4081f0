package mps

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/model/internal/modeltest"
)

const testsets = "../../../shared/testsets"

// testsetCounts holds, per file, the constraint rows (ROWS entries other than
// N), the distinct columns, the non-zero COLUMNS entries on those rows and the
// integer columns. They were counted by a separate script over the files'
// text; rows/cols/nonzeros agree with `glpsol --check` wherever glpsol reads
// the file, and the integer counts with the MIPLIB headers.
var testsetCounts = map[string][4]int{
	"bell5": {91, 104, 266, 58}, "egout": {98, 141, 282, 55}, "enigma": {21, 100, 289, 100},
	"flugpl": {18, 18, 46, 11}, "gt2": {29, 188, 376, 188}, "lseu": {28, 89, 309, 89},
	"mas74": {13, 151, 1706, 150}, "mas76": {12, 151, 1640, 150}, "misc07": {212, 260, 8619, 259},
	"noswot": {182, 128, 735, 100}, "p0033": {16, 33, 98, 33}, "pk1": {45, 86, 915, 55},
	"pp08a": {136, 240, 480, 64}, "pp08aCUTS": {246, 240, 839, 64}, "rgn": {24, 180, 460, 100},
	"stein27": {118, 27, 378, 27}, "stein45": {331, 45, 1034, 45}, "vpm1": {234, 378, 749, 168},
	"adlittle": {56, 97, 383, 0}, "afiro": {27, 32, 83, 0}, "blend": {74, 83, 491, 0},
	"e226": {223, 282, 2578, 0}, "grow7": {140, 301, 2612, 0}, "kb2": {43, 41, 286, 0},
	"lotfi": {153, 308, 1078, 0}, "recipe": {91, 180, 663, 0}, "sc105": {105, 103, 280, 0},
	"sc205": {205, 203, 551, 0}, "sc50a": {50, 48, 130, 0}, "sc50b": {50, 48, 118, 0},
	"scagr25": {471, 500, 1554, 0}, "scagr7": {129, 140, 420, 0}, "share1b": {117, 225, 1151, 0},
	"share2b": {96, 79, 694, 0}, "stocfor1": {117, 111, 447, 0}, "vtpbase": {198, 203, 908, 0},
}

func tm(v model.Var, c float64) model.Term { return model.Term{Var: v, Coef: c} }

func ex(k float64, ts ...model.Term) model.Expr { return model.Expr{Terms: ts, Constant: k} }

func testsetFiles(t testing.TB) []string {
	files, _ := filepath.Glob(filepath.Join(testsets, "*", "*.mps"))
	if len(files) == 0 {
		t.Skip("no testsets at " + testsets)
	}
	return files
}

func base(f string) string { return strings.TrimSuffix(filepath.Base(f), ".mps") }

func TestReadTestsets(t *testing.T) {
	files := testsetFiles(t)
	if len(files) != len(testsetCounts) {
		t.Errorf("%d files, %d expected counts", len(files), len(testsetCounts))
	}
	for _, f := range files {
		m, err := ReadFile(f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		want, ok := testsetCounts[base(f)]
		if !ok {
			t.Errorf("%s: no expected counts", f)
			continue
		}
		s := m.Stats()
		got := [4]int{m.NumRows(), m.NumCols(), m.NumNonzeros(), s.Integer + s.Binary}
		if got != want {
			t.Errorf("%s: rows, cols, nnz, ints = %v, want %v", base(f), got, want)
		}
		if m.Sense != model.Minimize {
			t.Errorf("%s: sense %v", base(f), m.Sense)
		}
		wantOff := 0.0
		if base(f) == "e226" {
			wantOff = 7.113 // RHS −7.113 on the objective row
		}
		if m.ObjOffset != wantOff {
			t.Errorf("%s: offset %v, want %v", base(f), m.ObjOffset, wantOff)
		}
	}
}

// TestReadTestsetsGLPK compares counts with glpsol where glpsol is installed
// and reads the file (it refuses some MIPLIB files whose comment lines are
// longer than fixed MPS allows).
func TestReadTestsetsGLPK(t *testing.T) {
	if _, err := exec.LookPath("glpsol"); err != nil {
		t.Skip("glpsol not installed")
	}
	if testing.Short() {
		t.Skip("short")
	}
	re := regexp.MustCompile(`Number of (?:rows|columns|non-zeros \(matrix\)) *= *(\d+)`)
	checked := 0
	for _, f := range testsetFiles(t) {
		out, _ := exec.Command("glpsol", "--mps", f, "--check").Output()
		ms := re.FindAllStringSubmatch(string(out), -1)
		if len(ms) != 3 {
			continue
		}
		m, err := ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprintf("%d %d %d", m.NumRows(), m.NumCols(), m.NumNonzeros())
		want := fmt.Sprintf("%s %s %s", ms[0][1], ms[1][1], ms[2][1])
		if got != want {
			t.Errorf("%s: rows cols nnz %s, glpsol %s", base(f), got, want)
		}
		checked++
	}
	if checked < 20 {
		t.Errorf("glpsol read only %d files", checked)
	}
}

func roundTrip(t *testing.T, m *model.Model) (*model.Model, string) {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, m); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	m2, err := Read(&b, "roundtrip")
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	return m2, text
}

func TestRoundTripTestsets(t *testing.T) {
	for _, f := range testsetFiles(t) {
		m, err := ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m2, text := roundTrip(t, m)
		if d := modeltest.Diff(m, m2); d != "" {
			t.Errorf("%s: read→write→read differs: %s", base(f), d)
		}
		_, text2 := roundTrip(t, m2)
		if text != text2 {
			t.Errorf("%s: write→read→write text differs", base(f))
		}
	}
}

// featureModel uses every feature the format carries.
func featureModel(t *testing.T) *model.Model {
	inf := math.Inf(1)
	b := model.NewBuilder("features")
	x := b.Continuous("C1", -inf, inf) // free; named like a generated name
	y := b.Continuous("", -inf, -2.5)  // negative upper, unnamed → "C1_1"
	z := b.Continuous("z", -5, -2)     // both negative
	w := b.Continuous("w", 3, 3)       // fixed
	u := b.Continuous("u", 0.1, inf)   // lower only
	v := b.Continuous("v", -inf, 7)    // upper only, lower −Inf
	n := b.Integer("n", 0, inf)        // integer without upper
	k := b.Integer("k", -3, 8)         // integer with bounds
	q := b.Integer("q", 0, 1)          // integer 0/1 (not binary)
	e := b.Integer("e", -inf, 4)       // integer, lower −Inf
	bb := b.Binary("bb")               // binary
	b1 := b.AddVar(model.Column{Name: "b1", Lower: 1, Upper: 1, Type: model.Binary})
	empty := b.Continuous("empty", 0, 1) // no entries, no cost
	_ = empty
	b.Maximize(ex(-42.5, tm(x, 1), tm(y, 1), tm(z, -1.25), tm(n, 3), tm(bb, 1e-9), tm(b1, 2)))
	b.Equal("obj", ex(0, tm(x, 1), tm(z, 1), tm(w, 0.3)), 1.1)
	b.LessEq("", model.Sum(y, u), 1e10)
	b.GreaterEq("ge", model.Sum(v, n, k), -7)
	b.AddConstr("rng", ex(0, tm(q, 1), tm(e, 1), tm(k, 1.0/3)), -0.1, 0.7)
	b.AddConstr("rng2", model.Sum(u, v), 1e-7, 12345.678)
	b.AddConstr("free", model.Sum(x, bb), -inf, inf)
	b.Equal("emptyrow", model.Expr{}, 0)
	b.GreaterEq("emptyge", model.Expr{}, -1)
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// named fills in the names the writer generates.
func named(m *model.Model) *model.Model {
	c := m.Clone()
	c.ColNames = uniqueNames(m.NumCols(), m.ColNames, "C")
	c.RowNames = uniqueNames(m.NumRows(), m.RowNames, "R")
	return c
}

func TestRoundTripBuilt(t *testing.T) {
	m := featureModel(t)
	m2, text := roundTrip(t, m)
	if d := modeltest.Diff(named(m), m2); d != "" {
		t.Fatalf("round trip differs: %s\n%s", d, text)
	}
	if !strings.Contains(text, "OBJSENSE\n    MAX\n") {
		t.Errorf("no OBJSENSE MAX:\n%s", text)
	}
	if !strings.Contains(text, "RHS obj_1 42.5\n") {
		t.Errorf("objective constant not written as −RHS of the objective row (obj_1):\n%s", text)
	}
	if !strings.Contains(text, " C1_1 ") || strings.Count(text, "\n N  ") != 1 {
		t.Errorf("generated names not unique:\n%s", text)
	}
	// Unnamed models get names on the way back and keep everything else.
	b := model.NewBuilder("")
	x, y := b.Continuous("", 0, 4), b.Integer("", 0, 10)
	b.Minimize(model.Sum(x, y))
	b.GreaterEq("", model.Sum(x, y), 1)
	mu, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	mu2, text := roundTrip(t, mu)
	if d := modeltest.Diff(named(mu), mu2); d != "" {
		t.Fatalf("unnamed round trip differs: %s\n%s", d, text)
	}
}

func TestWriteRangeOverflow(t *testing.T) {
	b := model.NewBuilder("")
	x := b.Continuous("x", 0, 1)
	b.AddConstr("wide", model.Sum(x), -1e308, 1e308)
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(io.Discard, m); err == nil || !strings.Contains(err.Error(), "row wide") {
		t.Errorf("Write = %v, want an error naming row wide", err)
	}
}

func TestEncodeRangeExact(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	bad := 0
	for i := 0; i < 100000; i++ {
		lo := (rng.Float64() - 0.5) * math.Pow(10, float64(rng.Intn(24)-12))
		up := lo + rng.Float64()*math.Pow(10, float64(rng.Intn(24)-12))
		if up <= lo {
			continue
		}
		typ, b, r := encodeRange(lo, up)
		var gl, gu float64
		if typ == 'G' {
			gl, gu = b, b+math.Abs(r)
		} else {
			gl, gu = b-math.Abs(r), b
		}
		if gl != lo || gu != up {
			bad++
			if bad < 5 {
				t.Errorf("range [%v, %v] comes back as [%v, %v]", lo, up, gl, gu)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d inexact ranges", bad)
	}
}

func read(t *testing.T, text string) *model.Model {
	t.Helper()
	m, err := Read(strings.NewReader(text), "t.mps")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestReadConventions(t *testing.T) {
	inf := math.Inf(1)
	m := read(t, `NAME conv extra words
OBJSENSE
    MAXIMIZE
ROWS
 N  cost
 L  lim
 G  ge
 E  eqp
 E  eqn
 E  eq0
 N  other
COLUMNS
    x  cost 1  lim 1
    x  other 5  ge 2
    MARKER 'MARKER' 'INTORG'
    i0 lim 1
    i1 lim 1
    i2 ge 1
    MARKER 'MARKER' 'INTEND'
    y  eqp 1  eqn 1
    y  eq0 1  lim 0
RHS
    RHS cost 5   lim 10
    RHS ge 1  eqp 2
    RHS eqn 3  eq0 4
    RHS other 99
RANGES
    RNG lim 4  ge -3
    RNG eqp 1.5  eqn -2.5
    RNG eq0 0  cost 7
BOUNDS
 UP BND x -1
 UP BND i1 5
 LO BND i2 2
 LO BND y -4
 UP BND y -1
ENDATA
`)
	if m.Name != "conv" || m.Sense != model.Maximize || m.ObjOffset != -5 {
		t.Errorf("name %q sense %v offset %v", m.Name, m.Sense, m.ObjOffset)
	}
	wantRows := [][2]float64{{6, 10}, {1, 4}, {2, 3.5}, {0.5, 3}, {4, 4}}
	for i, w := range wantRows {
		if m.RowLower[i] != w[0] || m.RowUpper[i] != w[1] {
			t.Errorf("row %s: [%v, %v], want %v", m.RowNames[i], m.RowLower[i], m.RowUpper[i], w)
		}
	}
	wantCols := []struct {
		lo, up float64
		typ    model.VarType
	}{{-inf, -1, model.Continuous}, {0, 1, model.Integer}, {0, 5, model.Integer}, {2, inf, model.Integer}, {-4, -1, model.Continuous}}
	for j, w := range wantCols {
		if m.ColLower[j] != w.lo || m.ColUpper[j] != w.up || m.ColType[j] != w.typ {
			t.Errorf("column %s: [%v, %v] %v, want %+v", m.ColNames[j], m.ColLower[j], m.ColUpper[j], m.ColType[j], w)
		}
	}
	if m.NumRows() != 5 || m.NumNonzeros() != 8 || m.Obj[0] != 1 {
		t.Errorf("rows %d nnz %d obj %v (N row 'other' must be dropped, zero entry skipped)", m.NumRows(), m.NumNonzeros(), m.Obj)
	}
}

func TestReadBoundTypes(t *testing.T) {
	inf := math.Inf(1)
	m := read(t, `NAME
OBJSENSE MAX
ROWS
 N obj
 L c
COLUMNS
 a c 1
 b c 1
 c c 1
 d c 1
 e c 1
 f c 1
 g c 1
 h c 1
 i c 1
RHS
 c 1
BOUNDS
 FR a
 MI BND b
 PL c
 UP d 3
 PL d
 BV e
 LI f -2
 UI f 9
 FX g 2.5
 BV BND h 1
 UI i -3
ENDATA
`)
	want := []struct {
		lo, up float64
		typ    model.VarType
	}{{-inf, inf, model.Continuous}, {-inf, inf, model.Continuous}, {0, inf, model.Continuous},
		{0, inf, model.Continuous}, {0, 1, model.Binary}, {-2, 9, model.Integer},
		{2.5, 2.5, model.Continuous}, {0, 1, model.Binary}, {-inf, -3, model.Integer}}
	for j, w := range want {
		if m.ColLower[j] != w.lo || m.ColUpper[j] != w.up || m.ColType[j] != w.typ {
			t.Errorf("column %s: [%v, %v] %v, want %+v", m.ColNames[j], m.ColLower[j], m.ColUpper[j], m.ColType[j], w)
		}
	}
	if m.Sense != model.Maximize || m.RowUpper[0] != 1 {
		t.Errorf("same-line OBJSENSE MAX or set-less RHS not read: %v %v", m.Sense, m.RowUpper)
	}
	if m := read(t, "\ufeffNAME bom\nROWS\n N o\nCOLUMNS\n x o 1\nENDATA\n"); m.Name != "bom" || m.Obj[0] != 1 {
		t.Errorf("file with a byte order mark: %q %v", m.Name, m.Obj)
	}
	m = read(t, "NAME\nOBJSENSE\n MIN\nOBJNAME\n second\nROWS\n N first\n N second\n G r\nCOLUMNS\n x first 1 second 2\n x r 1\nRHS\n R second 3\nENDATA\n")
	if m.Sense != model.Minimize || m.Obj[0] != 2 || m.ObjOffset != -3 {
		t.Errorf("OBJNAME: sense %v obj %v offset %v", m.Sense, m.Obj, m.ObjOffset)
	}
}

// fixed lays fields out in the columns of fixed MPS: 2, 5, 15, 25, 40, 50.
func fixed(f ...string) string {
	pos := []int{1, 4, 14, 24, 39, 49}
	var b []byte
	for i, s := range f {
		for len(b) < pos[i] {
			b = append(b, ' ')
		}
		b = append(b, s...)
	}
	return string(b) + "\n"
}

// TestReadFixed reads fixed MPS whose names contain spaces and whose RHS and
// BOUNDS set names are blank.
func TestReadFixed(t *testing.T) {
	text := "NAME          FIXED\nROWS\n" +
		fixed("N", "COST") + fixed("L", "LIM 1") + fixed("G", "LIM 2") + "COLUMNS\n" +
		fixed("", "X ONE", "COST", "1.0", "LIM 1", "1.0") +
		fixed("", "X ONE", "LIM 2", "1.0") +
		fixed("", "Y TWO", "COST", "2.0", "LIM 2", "-1.0") +
		"RHS\n" + fixed("", "", "LIM 1", "4.0", "LIM 2", "1.0") +
		"BOUNDS\n" + fixed("UP", "", "Y TWO", "3.0") + "ENDATA\n"
	m := read(t, text)
	if fmt.Sprint(m.ColNames, m.RowNames) != "[X_ONE Y_TWO] [LIM_1 LIM_2]" {
		t.Fatalf("names %q %q", m.ColNames, m.RowNames)
	}
	if m.RowUpper[0] != 4 || m.RowLower[1] != 1 || m.ColUpper[1] != 3 || m.NumNonzeros() != 3 || m.Obj[1] != 2 {
		t.Errorf("rows %v %v cols %v nnz %d obj %v", m.RowLower, m.RowUpper, m.ColUpper, m.NumNonzeros(), m.Obj)
	}
}

// TestReadFixedError: when both readings fail, the error comes from the one
// that got further, here the fixed reading that reaches the bad bound type.
func TestReadFixedError(t *testing.T) {
	text := "NAME          FIXED\nROWS\n" + fixed("N", "COST") + fixed("L", "LIM 1") + "COLUMNS\n" +
		fixed("", "X ONE", "LIM 1", "1.0") + "BOUNDS\n" + fixed("XX", "BND", "X ONE", "3.0") + "ENDATA\n"
	_, err := Read(strings.NewReader(text), "f.mps")
	if err == nil || err.Error() != `f.mps:8: unknown bound type "XX"` {
		t.Errorf("error %v", err)
	}
}

func TestReadErrors(t *testing.T) {
	head := "NAME t\nROWS\n N obj\n L c\nCOLUMNS\n"
	cases := []struct {
		name, text string
		line       int
		msg        string
	}{
		{"unknown section", "NAME t\nROWZ\n", 2, `unknown section "ROWZ"`},
		{"undeclared row", head + " x obj 1\n x d 1\nENDATA\n", 7, `row "d" is not declared in ROWS`},
		{"non-numeric", head + " x c 1.0.0\nENDATA\n", 6, `invalid number "1.0.0"`},
		{"nan", head + " x c NaN\nENDATA\n", 6, "NaN"},
		{"inf coefficient", head + " x c Inf\nENDATA\n", 6, "not finite"},
		{"unclosed marker", head + " M 'MARKER' 'INTORG'\n x c 1\nRHS\nENDATA\n", 6, "never closed"},
		{"unclosed marker at end", head + " M 'MARKER' 'INTORG'\n x c 1\nENDATA\n", 6, "never closed"},
		{"intend without intorg", head + " M 'MARKER' 'INTEND'\nENDATA\n", 6, "without INTORG"},
		{"duplicate column block", head + " x c 1\n y c 1\n x obj 1\nENDATA\n", 8, "column x appears again after column y"},
		{"duplicate entry", head + " x c 1\n x c 2\nENDATA\n", 7, "column x: row c given twice"},
		{"duplicate row", "NAME\nROWS\n N obj\n L c\n G c\nENDATA\n", 5, "row c declared twice"},
		{"bad row type", "NAME\nROWS\n X c\nENDATA\n", 3, `unknown row type "X"`},
		{"unknown bound", head + " x c 1\nBOUNDS\n XX BND x 1\nENDATA\n", 8, `unknown bound type "XX"`},
		{"semi-continuous", head + " x c 1\nBOUNDS\n SC BND x 1\nENDATA\n", 8, "SC (column x) is not supported"},
		{"bound on unknown column", head + " x c 1\nBOUNDS\n UP BND y 1\nENDATA\n", 8, `column "y", which is not declared`},
		{"bound missing value", head + " x c 1\nBOUNDS\n UP\nENDATA\n", 8, "needs a column and a value"},
		{"crossed bounds", head + " x c 1\nBOUNDS\n UP BND x 1\n LO BND x 2\nENDATA\n", 9, "column x: lower bound 2 > upper bound 1"},
		{"binary with bounds", head + " x c 1\nBOUNDS\n BV BND x\n UP BND x 3\nENDATA\n", 9, "column x: binary"},
		{"row lower +Inf", head + " x c 1\nRHS\n R c -Inf\nENDATA\n", 8, "row c: upper bound is -Inf"},
		{"rhs undeclared row", head + " x c 1\nRHS\n R d 1\nENDATA\n", 8, `row "d" is not declared`},
		{"range not finite", head + " x c 1\nRANGES\n R c Inf\nENDATA\n", 8, "range Inf is not finite"},
		{"missing endata", head + " x c 1\n", 6, "missing ENDATA"},
		{"quadratic", head + " x c 1\nQUADOBJ\n x x 1\nENDATA\n", 7, "section QUADOBJ is not supported"},
		{"bad sense", "NAME\nOBJSENSE\n UP\n", 3, `unknown objective sense "UP"`},
		{"columns line shape", head + " x c\nENDATA\n", 6, "COLUMNS line must hold"},
		{"data before section", " x c 1\n", 1, "data line before the first section"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(c.text), "bad.mps")
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			prefix := "bad.mps:" + strconv.Itoa(c.line) + ": "
			if !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("error %q, want prefix %q and %q", err, prefix, c.msg)
			}
		})
	}
}

func TestReadFileMissing(t *testing.T) {
	if _, err := ReadFile(filepath.Join(t.TempDir(), "none.mps")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("error %v", err)
	}
}

func ExampleWrite() {
	b := model.NewBuilder("tiny")
	x := b.Integer("x", 0, 10)
	y := b.Continuous("y", -1, math.Inf(1))
	b.Maximize(ex(2, tm(x, 1), tm(y, 1)))
	b.AddConstr("cap", ex(0, tm(x, 1), tm(y, 2)), 1, 8)
	m, _ := b.Build()
	_ = Write(os.Stdout, m)
	// Output:
	// NAME tiny
	// OBJSENSE
	//     MAX
	// ROWS
	//  N  obj
	//  G  cap
	// COLUMNS
	//     MARKER0 'MARKER' 'INTORG'
	//     x obj 1
	//     x cap 1
	//     MARKER1 'MARKER' 'INTEND'
	//     y obj 1
	//     y cap 2
	// RHS
	//     RHS obj -2
	//     RHS cap 1
	// RANGES
	//     RNG cap 7
	// BOUNDS
	//  UP BND x 10
	//  LO BND y -1
	// ENDATA
}
