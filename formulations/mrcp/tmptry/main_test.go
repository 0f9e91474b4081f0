package mrtry

import (
	"context"
	"testing"
	"time"

	fm "github.com/mrbound/mrbound/formulations/mrcp"
	inst "github.com/mrbound/mrbound/instances/mrcp"
	"github.com/mrbound/mrbound/solve"
	_ "github.com/mrbound/mrbound/solve/highs"
)

func TestTry(t *testing.T) {
	in, _ := inst.Generate(inst.GenOptions{Workload: inst.Small, Jobs: 3, Lambda: 0.02, Seed: 1, TimeUnit: 10})
	for _, f := range []fm.Formulation{fm.TimeIndexed, fm.Disjunctive} {
		bt, err := fm.Build(in, fm.Options{Formulation: f})
		if err != nil {
			t.Fatal(err)
		}
		st := bt.Model.Stats()
		t0 := time.Now()
		res, err := solve.Solve(context.Background(), bt.Model, solve.Options{Solver: "highs", AbsGap: 0.99, RelGap: 1e-9})
		t.Logf("%v rows %d cols %d: %v %v obj %v bound %v in %v; heur %d/%d", f, st.Rows, st.Cols, res.Status, err, res.Objective, res.Bound, time.Since(t0), bt.Heuristic.LateJobs, bt.Heuristic.MaxTurnaround)
		if res.HasSolution {
			s, err := bt.Decode(res.X)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("late %d maxT %d check %v", s.LateJobs, s.MaxTurnaround, fm.Check(in, s))
		}
	}
}
