package mps

import (
	"bufio"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/model/internal/modeltest"
)

// optima reads name → optimum for the LPs of optima.tsv.
func optima(t *testing.T) map[string]float64 {
	f, err := os.Open(filepath.Join(testsets, "optima.tsv"))
	if err != nil {
		t.Skip("no optima.tsv")
	}
	defer f.Close()
	out := map[string]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		c := strings.Split(sc.Text(), "\t")
		if len(c) < 3 || c[1] != "lp" {
			continue
		}
		v, err := strconv.ParseFloat(c[2], 64)
		if err != nil {
			t.Fatalf("optima.tsv: %v", err)
		}
		out[c[0]] = v
	}
	return out
}

// relTol is the relative agreement required with published optima
// (testsets/README.md: scagr7's published values differ at 2.4e-7).
const relTol = 1e-6

// TestWriteGLPKOracle writes every NETLIB LP with Write and has glpsol solve
// the file: the optimum must match optima.tsv. GLPK reads the objective row's
// RHS r as constant +r where we (and HiGHS, CPLEX) read −r, so its optimum is
// ours minus twice our offset (this matters for e226 only).
func TestWriteGLPKOracle(t *testing.T) {
	if _, err := exec.LookPath("glpsol"); err != nil {
		t.Skip("glpsol not installed")
	}
	if testing.Short() {
		t.Skip("short")
	}
	opt := optima(t)
	dir := t.TempDir()
	n := 0
	for name, want := range opt {
		m, err := ReadFile(filepath.Join(testsets, "netlib", name+".mps"))
		if err != nil {
			t.Fatal(err)
		}
		got := modeltest.GLPKOptimum(t, dir, name+".mps", m, Write, "--freemps")
		got += 2 * m.ObjOffset
		if math.Abs(got-want) > relTol*math.Max(1, math.Abs(want)) {
			t.Errorf("%s: glpsol optimum of our file %v (our convention), want %v", name, got, want)
		}
		n++
	}
	if n != 18 {
		t.Errorf("%d LPs checked, want 18", n)
	}
}

// TestWriteFixedBinary: a binary column fixed by its bounds is written as BV
// then FX (CBC 2.10 refuses LO or UP after BV), fractional bounds rounded
// inwards ([0.3, 1] fixes it at 1, [0, 0.5] at 0); it reads back as the same
// binary, fixed, and, where Debian's cbc is installed, CBC reads the file
// without an error and finds the optimum the fixings force.
func TestWriteFixedBinary(t *testing.T) {
	b := model.NewBuilder("fixedbin")
	x, y, z := b.Binary("x"), b.Binary("y"), b.Binary("z")
	up, down := b.Binary("up"), b.Binary("down")
	obj := model.NewExpr(5)
	obj.Add(x, 1).Add(y, 2).Add(z, 4).Add(up, 8).Add(down, -16)
	b.Minimize(obj)
	b.GreaterEq("c", model.Sum(x, y, z), 1)
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	m.ColUpper[0] = 0                   // x fixed at 0: y is the cheapest left
	m.ColLower[2], m.ColUpper[2] = 1, 1 // z fixed at 1
	m.ColLower[3] = 0.3                 // up: only 1 is left
	m.ColUpper[4] = 0.5                 // down: only 0 is left
	m2, text := roundTrip(t, m)
	want := m.Clone()
	want.ColLower[3], want.ColUpper[4] = 1, 0
	if d := modeltest.Diff(want, m2); d != "" {
		t.Fatalf("round trip differs from the rounded bounds: %s\n%s", d, text)
	}
	for _, want := range []string{" BV BND x\n FX BND x 0\n", " BV BND z\n FX BND z 1\n", " BV BND y\n",
		" BV BND up\n FX BND up 1\n", " BV BND down\n FX BND down 0\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	if strings.Contains(text, " UP BND") || strings.Contains(text, " LO BND") {
		t.Errorf("LO or UP after BV:\n%s", text)
	}
	if _, err := exec.LookPath("cbc"); err != nil {
		t.Skip("cbc not installed: the file's reading by CBC is not checked")
	}
	path := filepath.Join(t.TempDir(), "fixedbin.mps")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("cbc", path, "solve").CombinedOutput()
	if err != nil {
		t.Fatalf("cbc: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "read with 0 errors") || !strings.Contains(string(out), "Objective value:                12.00000000") {
		t.Errorf("cbc did not read the file cleanly or found another optimum (want 12: z = 1 covers the row, up = 1, down = 0):\n%s", out)
	}
}

// TestWriteEmptyBinary: a binary whose bounds hold no integer cannot be
// said with FX; it keeps LO and UP, and reads back exactly.
func TestWriteEmptyBinary(t *testing.T) {
	b := model.NewBuilder("emptybin")
	x := b.Binary("x")
	b.Minimize(model.Sum(x))
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	m.ColLower[0], m.ColUpper[0] = 0.3, 0.7
	m2, text := roundTrip(t, m)
	if d := modeltest.Diff(m, m2); d != "" {
		t.Fatalf("round trip differs: %s\n%s", d, text)
	}
	if !strings.Contains(text, " BV BND x\n LO BND x 0.3\n UP BND x 0.7\n") {
		t.Errorf("the empty binary is not written BV, LO, UP:\n%s", text)
	}
}
