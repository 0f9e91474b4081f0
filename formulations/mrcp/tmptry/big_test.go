package mrtry

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	fm "github.com/mrbound/mrbound/formulations/mrcp"
	inst "github.com/mrbound/mrbound/instances/mrcp"
	"github.com/mrbound/mrbound/solve"
)

func TestBig(t *testing.T) {
	var unit float64
	var jobs int
	fmt.Sscan(os.Getenv("UNIT"), &unit)
	fmt.Sscan(os.Getenv("JOBS"), &jobs)
	in, _ := inst.Generate(inst.GenOptions{Workload: inst.Mixed, Jobs: jobs, Lambda: 0.02, Seed: 1, TimeUnit: unit})
	for _, f := range []fm.Formulation{fm.TimeIndexed, fm.Disjunctive} {
		t0 := time.Now()
		bt, err := fm.Build(in, fm.Options{Formulation: f})
		if err != nil {
			t.Fatal(err)
		}
		st := bt.Model.Stats()
		tb := time.Since(t0)
		t0 = time.Now()
		res, err := solve.Solve(context.Background(), bt.Model, solve.Options{Solver: "highs", AbsGap: 0.99, RelGap: 1e-9, TimeLimit: 60 * time.Second})
		t.Logf("%v H %d Zmax %d rows %d cols %d nnz %d build %v: %v %v obj %v bound %v nodes %d in %v; heur %d/%d", f, bt.Horizon, bt.Zmax, st.Rows, st.Cols, st.Nonzeros, tb, res.Status, err, res.Objective, res.Bound, res.Nodes, time.Since(t0), bt.Heuristic.LateJobs, bt.Heuristic.MaxTurnaround)
		if res.HasSolution {
			s, err := bt.Decode(res.X)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("late %d maxT %d check %v", s.LateJobs, s.MaxTurnaround, fm.Check(in, s))
		}
	}
}
