package jlassi

import (
	"errors"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/instances/jlassiscenario"
	"github.com/mrbound/mrbound/internal/sizelimit"
)

// TestModelSizeEstimate: the estimate is never below the built model on
// the scenario-5 example (both forms), and a horizon of 10^9 intervals is
// refused before a variable is made, naming the horizon and the budget.
func TestModelSizeEstimate(t *testing.T) {
	in, err := jlassiscenario.Load("../../examples/scenario5.json")
	if err != nil {
		t.Fatal(err)
	}
	T := in.Eq17()
	for _, f := range []Form{Strong, Published} {
		m, err := Build(in, BuildOptions{T: T, Form: f})
		if err != nil {
			t.Fatal(err)
		}
		cols, nnz := modelSize(in, T, m.classes)
		if float64(m.Model.NumCols()) > cols || float64(m.Model.NumNonzeros()) > nnz {
			t.Errorf("%v: %d columns, %d nonzeros; estimated %v, %v", f, m.Model.NumCols(), m.Model.NumNonzeros(), cols, nnz)
		}
	}
	defer sizelimit.SetBudget(8 << 30)()
	_, err = Build(in, BuildOptions{T: 1e9})
	if err == nil || !errors.Is(err, badinput.Err) || !errors.Is(err, sizelimit.ErrTooLarge) || !strings.HasPrefix(err.Error(), "horizon T = 1000000000: ") {
		t.Errorf("T = 10^9: %v, want a refusal naming the horizon", err)
	}
}
