package coshh_test

import (
	"context"
	"fmt"
	"math"

	"github.com/mrbound/mrbound/formulations/coshh"
	"github.com/mrbound/mrbound/solve"
	_ "github.com/mrbound/mrbound/solve/native"
)

// The worked example of §3.2: two classes, two resources.
func ExampleSolve() {
	p := coshh.Problem{Name: "paper", Classes: []string{"C1", "C2"}, Resources: []string{"R1", "R2"},
		Alpha: []float64{2.45, 2.45}, Mu: [][]float64{{9, 5}, {2, 1}}}
	m, _, _ := coshh.Build(p, math.NaN())
	fmt.Printf("%d columns, %d rows\n", m.NumCols(), m.NumRows())
	a, err := coshh.Solve(context.Background(), p, solve.Options{Solver: "native"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("lambda %.4f, verified %v\n", a.Lambda, a.Check.Verified)
	for j, sc := range a.Suggested {
		fmt.Printf("SC(%s) = %v\n", p.Resources[j], sc)
	}
	// Output:
	// 5 columns, 4 rows
	// lambda 1.0204, verified true
	// SC(R1) = [1]
	// SC(R2) = [0 1]
}
