package lowerbound

import (
	"context"
	"testing"

	"github.com/mrbound/mrbound/solve"
)

// TestEdgeInputsEveryOption: edge inputs through ComputeWith with every
// optional component (s18audit): no job, jobs without tasks, nodes of
// 2^62 slots each (whose sum wrapped round to a negative capacity: the
// bucketed LP had a row bound of +Inf and the column generation master a
// NaN coefficient), a single slot. Each call succeeds and no bound of any
// metric exceeds Exact's optimum.
func TestEdgeInputsEveryOption(t *testing.T) {
	one := func(d int64) []Task { return []Task{{Dur: []int64{d}}} }
	cases := map[string]*Problem{
		"no job":        {Mode: Fixed, Groups: 1, Nodes: []Node{{MapSlots: 1, ReduceSlots: 1}}},
		"no task":       {Mode: Fixed, Groups: 2, Nodes: []Node{{MapSlots: 1}, {Group: 1}}, Jobs: []Job{{Arrival: 5}, {Arrival: 9, HasDeadline: true, Deadline: 3}}},
		"2^62 slots":    {Mode: Fixed, Groups: 1, Nodes: []Node{{MapSlots: 1 << 62, ReduceSlots: 1 << 62}, {MapSlots: 1 << 62, ReduceSlots: 1 << 62}}, Jobs: []Job{{Maps: one(3), Reduces: one(2)}, {Arrival: 1, Maps: append(one(2), one(2)...)}}},
		"2^62 fungible": {Mode: Fungible, Groups: 2, Nodes: []Node{{Slots: 1 << 62}, {Group: 1, Slots: 1 << 62}}, Jobs: []Job{{Maps: one(3), Reduces: one(2)}}},
		"one slot":      {Mode: Fungible, Groups: 1, Nodes: []Node{{Slots: 1}}, Jobs: []Job{{Maps: one(3), Reduces: one(2)}, {Arrival: 1, Maps: one(1), HasDeadline: true, Deadline: 2}}},
	}
	native := solve.Options{Solver: "native"}
	lag := LagrangeOptions{Intervals: 64, Iterations: 30}
	for name, p := range cases {
		opt, err := Exact(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i, o := range []Options{{}, {LP: &LPOptions{Solve: native}}, {Lagrange: &lag},
			{Lagrange: &lag, LagrangeCG: &CGOptions{Rounds: 5, Solve: native}}, {TimeIndexed: &TimeIndexedOptions{Solve: native}}} {
			b, err := ComputeWith(context.Background(), p, o)
			if err != nil {
				t.Fatalf("%s, options %d: %v", name, i, err)
			}
			for _, m := range Metrics() {
				if v, o := b.Get(m).Certified, opt.Value(m, len(p.Jobs)); v > o {
					t.Fatalf("%s, options %d: %v bound %v > optimum %v (by %s)", name, i, m, v, o, b.Get(m).By)
				}
			}
		}
	}
}
