package jlassi

import (
	"errors"
	"math"
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

// TestCountSizeEstimate: the estimate of R_K is never below the built
// relaxation (plain, cumulative precedence, with the network, on scenario 5
// and the count tests' instances, K up to 2 past the least horizon), and
// K = 10^6 on scenario 5 — quadratic terms of 10^13 nonzeros — is refused
// before a variable is made, naming K and the budget, while scenario 5's
// own K passes.
func TestCountSizeEstimate(t *testing.T) {
	s5, err := jlassiscenario.Load("../../examples/scenario5.json")
	if err != nil {
		t.Fatal(err)
	}
	ins := countInstances(t)
	ins["scenario5"] = s5
	for name, in := range ins {
		classes := slotClasses(in, true)
		levels := len(countLevels(in, classes))
		for K := max(1, in.MinHorizon()); K <= in.MinHorizon()+2; K++ {
			for _, o := range []countOptions{{K: K, T: K + 1}, {K: K, T: K, CumulativePrecedence: true}, {K: K, T: K + 1, Network: true}} {
				o.Cutoff = math.Inf(1)
				cm, err := buildCount(in, o)
				if err != nil {
					t.Fatalf("%s %+v: %v", name, o, err)
				}
				cols, nnz := countSize(in, classes, levels, o)
				if float64(cm.Model.NumCols()) > cols || float64(cm.Model.NumNonzeros()) > nnz {
					t.Errorf("%s %+v: %d columns, %d nonzeros; estimated %v, %v", name, o, cm.Model.NumCols(), cm.Model.NumNonzeros(), cols, nnz)
				}
			}
		}
	}
	defer sizelimit.SetBudget(8 << 30)()
	_, err = buildCount(s5, countOptions{K: 1e6, T: 1e6, Cutoff: math.Inf(1)})
	if err == nil || !errors.Is(err, badinput.Err) || !errors.Is(err, sizelimit.ErrTooLarge) || !strings.HasPrefix(err.Error(), "interval count K = 1000000: ") ||
		!strings.Contains(err.Error(), "memory budget of 8 GiB") {
		t.Errorf("K = 10^6: %v, want a refusal naming K and the budget", err)
	}
	if _, err := buildCount(s5, countOptions{K: s5.Eq17(), T: s5.Eq17(), Cutoff: math.Inf(1)}); err != nil {
		t.Errorf("K = %d (eq. 17): %v", s5.Eq17(), err)
	}
}
