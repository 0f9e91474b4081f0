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
