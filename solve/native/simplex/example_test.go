package simplex_test

import (
	"context"
	"fmt"
	"math"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve/native/simplex"
)

// Solve a small LP, then tighten a bound and resume from the optimal basis.
func Example() {
	b := model.NewBuilder("example")
	x := b.Continuous("x", 0, 3)
	y := b.Continuous("y", 0, math.Inf(1))
	obj := model.NewExpr(2)
	obj.Add(x, 3).Add(y, 2)
	b.Maximize(obj)
	r1 := model.NewExpr(2)
	r1.Add(x, 1).Add(y, 1)
	b.LessEq("capacity", r1, 4)
	r2 := model.NewExpr(2)
	r2.Add(x, 1).Add(y, 3)
	b.LessEq("labour", r2, 6)
	m, err := b.Build()
	if err != nil {
		panic(err)
	}
	lp, err := simplex.New(m, simplex.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(lp.Solve(context.Background()), lp.Objective(), lp.X(), lp.Duals())
	// Branch on x ≤ 2: the dual simplex resumes from the optimal basis.
	if err := lp.SetColBounds(x.Index(), 0, 2); err != nil {
		panic(err)
	}
	fmt.Println(lp.Solve(context.Background()), lp.Objective(), lp.X())
	// Output:
	// optimal 11 [3 1] [0 0.6666666666666666]
	// optimal 8.666666666666666 [2 1.3333333333333333]
}
