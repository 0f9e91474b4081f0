package simplex

import (
	"bufio"
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/model/mps"
	"github.com/mrbound/mrbound/solve"
)

// testsetDir is where the shared NETLIB and MIPLIB instances live.
const testsetDir = "../../../../shared/testsets"

// netlibOptima reads the LP rows of optima.tsv.
func netlibOptima(t testing.TB) map[string]float64 {
	f, err := os.Open(filepath.Join(testsetDir, "optima.tsv"))
	if err != nil {
		t.Skipf("no test sets: %v", err)
	}
	defer f.Close()
	out := map[string]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) < 3 || fs[1] != "lp" {
			continue
		}
		v, err := strconv.ParseFloat(fs[2], 64)
		if err != nil {
			t.Fatalf("optima.tsv: %s: %v", fs[0], err)
		}
		out[fs[0]] = v
	}
	return out
}

func TestNetlib(t *testing.T) {
	opt := netlibOptima(t)
	for name, want := range opt {
		t.Run(name, func(t *testing.T) {
			m, err := mps.ReadFile(filepath.Join(testsetDir, "netlib", name+".mps"))
			if err != nil {
				t.Fatal(err)
			}
			s, err := New(m, Options{})
			if err != nil {
				t.Fatal(err)
			}
			st := s.Solve(context.Background())
			if st != solve.Optimal {
				t.Fatalf("status %v after %d iterations", st, s.Iterations())
			}
			got := s.Objective()
			if math.Abs(got-want) > 1e-6*math.Max(1, math.Abs(want)) {
				t.Fatalf("objective %.10g, want %.10g (%d iterations)", got, want, s.Iterations())
			}
			checkOptimality(t, m, s)
			t.Logf("%s: %d iterations", name, s.Iterations())
		})
	}
}
