package model_test

import (
	"fmt"
	"math"
	"os"

	"github.com/mrbound/mrbound/model"
)

// Two jobs, two slots: x[j,s] = 1 when job j runs in slot s; each job runs
// once, each slot holds at most one job, and slot s costs s+1 per job.
func Example() {
	type js struct{ Job, Slot int }
	b := model.NewBuilder("assign")
	x := model.NewFamily[js](b, "x")
	cost := model.NewExpr(4)
	for j := 0; j < 2; j++ {
		for s := 0; s < 2; s++ {
			cost.Add(x.Add(js{j, s}, 0, 1, 0, model.Binary), float64(s+1))
		}
	}
	b.Minimize(cost)
	once := model.NewRowFamily[int](b, "once")
	for j := 0; j < 2; j++ {
		a, _ := x.Get(js{j, 0})
		c, _ := x.Get(js{j, 1})
		once.Equal(j, model.Sum(a, c), 1)
	}
	slot := model.NewRowFamily[int](b, "slot")
	for s := 0; s < 2; s++ {
		a, _ := x.Get(js{0, s})
		c, _ := x.Get(js{1, s})
		slot.LessEq(s, model.Sum(a, c), 1)
	}
	m, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.ColNames)
	_ = m.Stats().Write(os.Stdout)
	ev := m.Evaluate([]float64{1, 0, 0, 1}) // job 0 in slot 0, job 1 in slot 1
	fmt.Println("objective", ev.Objective, "feasible", ev.Feasible(1e-9, true))
	ev = m.Evaluate([]float64{1, 0, 1, 0}) // both in slot 0
	fmt.Println("worst row", m.RowName(ev.WorstRow), "violation", ev.MaxRowViolation, math.IsInf(ev.MaxIntegrality, 0))
	// Output:
	// [x(0,0) x(0,1) x(1,0) x(1,1)]
	// rows         4 (2 equality, 2 inequality, 0 ranged, 0 free)
	// columns      4 (0 continuous, 0 integer, 4 binary)
	// nonzeros     8
	// matrix       [1e+00, 1e+00]
	// objective    [1e+00, 2e+00]
	// bounds       [1e+00, 1e+00]
	// rhs          [1e+00, 1e+00]
	// objective 3 feasible true
	// worst row slot(0) violation 1 false
}
