package coshh

import (
	"bytes"
	"math"
	"testing"

	"github.com/mrbound/mrbound/internal/golden"
	"github.com/mrbound/mrbound/model/lpformat"
)

func paperProblem() Problem {
	return Problem{Name: "paper", Classes: []string{"C1", "C2"}, Resources: []string{"R1", "R2"},
		Alpha: []float64{2.45, 2.45}, Mu: [][]float64{{9, 5}, {2, 1}}}
}

// TestGoldenLP compares the paper example's two LPs, in CPLEX LP text, with
// testdata/*.lp.golden (go test -update rewrites them).
func TestGoldenLP(t *testing.T) {
	p := paperProblem()
	for name, lmin := range map[string]float64{"paper-stage1": math.NaN(), "paper-stage2": 1} {
		m, _, err := Build(p, lmin)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := lpformat.Write(&buf, m); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, name+".lp.golden", buf.Bytes())
	}
}
