package modeltest

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/mrbound/mrbound/model"
)

var glpkObjective = regexp.MustCompile(`Objective:\s+\S+ = (\S+)`)

// GLPKOptimum writes m with write to dir/name, has glpsol (an independent
// oracle from Debian's glpk-utils) solve it with the given format flag
// ("--freemps", "--lp") and returns the optimum glpsol prints. Callers skip
// when glpsol is not installed.
func GLPKOptimum(t *testing.T, dir, name string, m *model.Model, write func(io.Writer, *model.Model) error, format string) float64 {
	t.Helper()
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := write(f, m); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out := path + ".out"
	if b, err := exec.Command("glpsol", format, path, "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("%s: glpsol: %v\n%s", name, err, b)
	}
	text, _ := os.ReadFile(out)
	mm := glpkObjective.FindSubmatch(text)
	if mm == nil {
		t.Fatalf("%s: no objective in glpsol output:\n%s", name, text)
	}
	got, err := strconv.ParseFloat(string(mm[1]), 64)
	if err != nil {
		t.Fatalf("%s: glpsol objective %q: %v", name, mm[1], err)
	}
	return got
}
