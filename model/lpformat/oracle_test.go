package lpformat

import (
	"bufio"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/model/mps"

	"github.com/mrbound/mrbound/model/internal/modeltest"
)

// relTol is the relative agreement required with published optima
// (testsets/README.md: scagr7's published values differ at 2.4e-7).
const relTol = 1e-6

// TestWriteGLPKOracle writes the NETLIB LPs in LP format and has glpsol
// solve them; the optima must match optima.tsv. GLPK refuses a constant in
// the objective, so e226 (the only one with one) is skipped.
func TestWriteGLPKOracle(t *testing.T) {
	if _, err := exec.LookPath("glpsol"); err != nil {
		t.Skip("glpsol not installed")
	}
	if testing.Short() {
		t.Skip("short")
	}
	f, err := os.Open(filepath.Join(testsets, "optima.tsv"))
	if err != nil {
		t.Skip("no optima.tsv")
	}
	defer f.Close()
	dir := t.TempDir()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		c := strings.Split(sc.Text(), "\t")
		if len(c) < 3 || c[1] != "lp" || c[0] == "e226" {
			continue
		}
		name := c[0]
		want, _ := strconv.ParseFloat(c[2], 64)
		m, err := mps.ReadFile(filepath.Join(testsets, "netlib", name+".mps"))
		if err != nil {
			t.Fatal(err)
		}
		got := modeltest.GLPKOptimum(t, dir, name+".lp", m, Write, "--lp")
		if math.Abs(got-want) > relTol*math.Max(1, math.Abs(want)) {
			t.Errorf("%s: glpsol optimum of our LP file %v, want %v", name, got, want)
		}
		n++
	}
	if n != 17 {
		t.Errorf("%d LPs checked, want 17", n)
	}
}
