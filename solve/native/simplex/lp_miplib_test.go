package simplex

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/model/mps"
	"github.com/mrbound/mrbound/solve"
)

// The LP relaxations of the MIPLIB 3 test set, against HiGHS.
func TestMiplibRelaxations(t *testing.T) {
	h := oracle(t)
	ents, err := os.ReadDir(filepath.Join(testsetDir, "miplib"))
	if err != nil {
		t.Skip(err)
	}
	for _, e := range ents {
		name := strings.TrimSuffix(e.Name(), ".mps")
		t.Run(name, func(t *testing.T) {
			m, err := mps.ReadFile(filepath.Join(testsetDir, "miplib", e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			r := m.Relaxation()
			s, _ := New(r, Options{})
			if st := s.Solve(context.Background()); st != solve.Optimal {
				t.Fatalf("status %v", st)
			}
			checkOptimality(t, r, s)
			want, err := h.Solve(context.Background(), r, solve.Options{})
			if err != nil || want.Status != solve.Optimal {
				t.Skipf("HiGHS: %v %v", want.Status, err)
			}
			if math.Abs(s.Objective()-want.Objective) > 1e-6*math.Max(1, math.Abs(want.Objective)) {
				t.Fatalf("objective %.12g, HiGHS %.12g", s.Objective(), want.Objective)
			}
		})
	}
}
