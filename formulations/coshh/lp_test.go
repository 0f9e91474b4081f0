package coshh

import (
	"context"
	"math"
	"os"
	"reflect"
	"testing"

	"github.com/mrbound/mrbound/solve"
)

// paperLambda is the paper's λ: class 1 needs 2.45λ ≤ 5·0.5 = 2.5, so
// λ = 2.5/2.45 = 1.020408...
const paperLambda = 2.5 / 2.45

func TestPaperExample(t *testing.T) {
	data, err := os.ReadFile("../../examples/coshh-paper.json")
	if err != nil {
		t.Fatal(err)
	}
	forEachBackend(t, func(t *testing.T, opts solve.Options) {
		r, err := Run(context.Background(), "coshh-paper.json", data, Options{Solve: opts})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Allocations) != 1 {
			t.Fatalf("%d allocations, want 1", len(r.Allocations))
		}
		a := r.Allocations[0]
		if a.Status != solve.Optimal {
			t.Fatalf("status %v", a.Status)
		}
		if math.Abs(a.Lambda-paperLambda) > 1e-4 || math.Abs(a.Lambda-1.020408) > 1e-4 {
			t.Errorf("λ = %.7f, want 1.020408", a.Lambda)
		}
		want := [][]float64{{0, 0.5}, {1, 0.5}}
		for i := range want {
			for j := range want[i] {
				if math.Abs(a.Delta[i][j]-want[i][j]) > 1e-6 {
					t.Errorf("δ = %v, want %v", a.Delta, want)
				}
			}
		}
		if got := a.Suggested; !reflect.DeepEqual(got, [][]int{{1}, {0, 1}}) {
			t.Errorf("suggested %v, want SC_1 = {C2}, SC_2 = {C1, C2}", got)
		}
		if !a.Check.Verified {
			t.Errorf("check: %s", a.Check.Problem)
		}
		rep := r.JSON()
		if !reflect.DeepEqual(rep.Suggested, [][]string{{"C2"}, {"C1", "C2"}}) || rep.Status != "optimal" || rep.Solver != opts.Solver {
			t.Errorf("report: suggested %v status %s solver %s", rep.Suggested, rep.Status, rep.Solver)
		}
	})
}
