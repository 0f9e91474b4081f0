package bnb

import (
	"context"
	"math"
	"testing"

	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/solve"
)

// TestSolveEdgeInputs: edge inputs of Solve found by the audit (s18audit).
// A node of 2^40 map and reduce slots is searched as the same node with as
// many slots as tasks (no more are ever busy), for every metric, with the
// optimum Exact gives that one — the sums' split once allocated a FIFO
// table of 2^40 slots (8 TB) and ran out of memory. A stream without jobs
// has every optimum 0, the mean included (it was NaN, reported optimal,
// and an incumbent of 1 was scaled to 0 and reported as the optimum).
func TestSolveEdgeInputs(t *testing.T) {
	ctx := context.Background()
	one := func(d int64) []lowerbound.Task { return []lowerbound.Task{{Dur: []int64{d}}} }
	jobs := []lowerbound.Job{{Maps: append(one(3), one(3)...), Reduces: one(2)}, {Arrival: 1, Maps: one(1), Reduces: one(4)}}
	small := &lowerbound.Problem{Mode: lowerbound.Fixed, Groups: 1, Nodes: []lowerbound.Node{{MapSlots: 3, ReduceSlots: 2}}, Jobs: jobs}
	huge := &lowerbound.Problem{Mode: lowerbound.Fixed, Groups: 1, Nodes: []lowerbound.Node{{MapSlots: 1 << 40, ReduceSlots: 1 << 40}}, Jobs: jobs}
	opt, err := lowerbound.Exact(small)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range metrics {
		want := opt.Value(m, len(jobs))
		res, err := Solve(ctx, huge, m, Options{})
		if err != nil || res == nil || res.Status != solve.Optimal || res.Value != want {
			t.Fatalf("%v on 2^40 slots: %v %+v, exact %v", m, err, res, want)
		}
		if got, err := value(huge, m, res.Placements); err != nil || got != want {
			t.Fatalf("%v on 2^40 slots: schedule %v, value %v, want %v", m, err, got, want)
		}
	}
	empty := &lowerbound.Problem{Mode: lowerbound.Fixed, Groups: 1, Nodes: []lowerbound.Node{{MapSlots: 1, ReduceSlots: 1}}}
	for _, m := range metrics {
		for _, o := range []Options{{}, {Incumbent: 1}, {NodeLimit: 1, BoundNodes: 10}} {
			res, err := Solve(ctx, empty, m, o)
			if err != nil || res == nil || res.Status != solve.Optimal || res.Value != 0 || res.Bound != 0 || math.IsNaN(res.Value) {
				t.Fatalf("%v %+v without jobs: %v %+v, want optimal 0", m, o, err, res)
			}
		}
	}
}
