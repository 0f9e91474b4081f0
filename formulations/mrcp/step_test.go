package mrcp

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/solve"
)

// stepLPTol is the difference allowed between two LP optima of one
// polytope solved from different matrices (the simplex's own tolerance is
// about 1e-9 relative).
const stepLPTol = 1e-6

// TestStepFormMatchesXForm: on small generated streams (pooled lanes,
// aggregated maps) and every objective, the step form (F columns only) has
// fewer columns and nonzeros than the x form it replaced, the same LP
// relaxation optimum (the same polytope, projected), and the same MILP
// optimum as the x form and as the per-resource model, each schedule
// passing the checker. windowbound's TestOptimumMatchesEnumeration checks
// the step form against the continuous-time enumerator on every metric.
func TestStepFormMatchesXForm(t *testing.T) {
	type stream struct {
		w    mrcpscenario.Workload
		jobs int
		seed uint64
	}
	streams := []stream{{mrcpscenario.Small, 2, 1}, {mrcpscenario.Small, 3, 2}, {mrcpscenario.Medium, 2, 7}}
	if testing.Short() {
		streams = streams[:2]
	}
	kinds := []ObjectiveKind{Product, Lexicographic, LateCount, TotalTurnaround, Makespan}
	for _, st := range streams {
		in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: st.w, Jobs: st.jobs, Lambda: 0.05, Seed: st.seed, TimeUnit: 10, Resources: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, kind := range kinds {
			name := fmt.Sprintf("%v %d jobs seed %d %v", st.w, st.jobs, st.seed, kind)
			obj := Objective{Kind: kind}
			step, err := Build(in, Options{Objective: obj})
			if err != nil {
				t.Fatal(err)
			}
			xf, err := Build(in, Options{Objective: obj, xForm: true})
			if err != nil {
				t.Fatal(err)
			}
			if !step.step || xf.step {
				t.Fatalf("%s: step form %v and %v", name, step.step, xf.step)
			}
			if step.Model.NumCols() >= xf.Model.NumCols() || step.Model.NumNonzeros() >= xf.Model.NumNonzeros() {
				t.Errorf("%s: step form %d columns %d nonzeros, x form %d, %d", name,
					step.Model.NumCols(), step.Model.NumNonzeros(), xf.Model.NumCols(), xf.Model.NumNonzeros())
			}
			var lp [2]float64
			for i, bt := range []*Built{step, xf} {
				res, err := solve.Solve(context.Background(), bt.Model.Relaxation(), solve.Options{Solver: "native", TimeLimit: testTimeLimit})
				if err != nil {
					t.Fatal(err)
				}
				if res.Status != solve.Optimal {
					t.Fatalf("%s: LP relaxation %v", name, res.Status)
				}
				lp[i] = res.Objective
			}
			if math.Abs(lp[0]-lp[1]) > stepLPTol*math.Max(1, math.Abs(lp[1])) {
				t.Errorf("%s: LP relaxation %v in step form, %v in x form", name, lp[0], lp[1])
			}
			var values []float64
			for _, o := range []Options{{Objective: obj}, {Objective: obj, xForm: true}, {Objective: obj, PerResource: true}} {
				out := run(t, in, "native", o, false)
				if out.Built.step != (!o.xForm && !o.PerResource) {
					t.Fatalf("%s: step form %v with %+v", name, out.Built.step, o)
				}
				values = append(values, obj.ScheduleValue(out.Schedule, 1e6))
			}
			if values[0] != values[1] || values[0] != values[2] {
				t.Errorf("%s: optima (step, x, per resource) %v", name, values)
			}
		}
	}
}
