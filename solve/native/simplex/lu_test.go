package simplex

import (
	"math"
	"math/rand"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randomSparse returns the columns of a random sparse nonsingular-ish m×m
// matrix: a permuted diagonal plus random off-diagonal entries.
func randomSparse(rng *rand.Rand, m int, density float64) [][]spEntry {
	perm := rng.Perm(m)
	cols := make([][]spEntry, m)
	for j := 0; j < m; j++ {
		seen := map[int]bool{perm[j]: true}
		cols[j] = append(cols[j], spEntry{perm[j], 1 + rng.Float64()*3})
		for i := 0; i < m; i++ {
			if !seen[i] && rng.Float64() < density {
				seen[i] = true
				cols[j] = append(cols[j], spEntry{i, rng.NormFloat64()})
			}
		}
	}
	return cols
}

func factorOf(cols [][]spEntry) (*factor, []int, []int) {
	f := newFactor(len(cols))
	bp, br := f.factorize(func(p int) ([]int, []float64) {
		var ri []int
		var rv []float64
		for _, e := range cols[p] {
			ri = append(ri, e.row)
			rv = append(rv, e.val)
		}
		return ri, rv
	})
	return f, bp, br
}

func denseOf(cols [][]spEntry) *mat.Dense {
	m := len(cols)
	a := mat.NewDense(m, m, nil)
	for j, c := range cols {
		for _, e := range c {
			a.Set(e.row, j, e.val)
		}
	}
	return a
}

func TestLUFtranBtranAgainstDense(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	checked := 0
	for trial := 0; trial < 60; trial++ {
		m := 1 + rng.Intn(60)
		cols := randomSparse(rng, m, 0.08)
		f, bp, _ := factorOf(cols)
		if len(bp) > 0 {
			continue // numerically singular draw
		}
		a := denseOf(cols)
		b := make([]float64, m)
		for i := range b {
			if rng.Float64() < 0.3 {
				b[i] = rng.NormFloat64()
			}
		}
		// FTRAN: A x = b.
		x := append([]float64(nil), b...)
		f.ftran(x)
		var want mat.VecDense
		if err := want.SolveVec(a, mat.NewVecDense(m, append([]float64(nil), b...))); err != nil {
			continue
		}
		for i := 0; i < m; i++ {
			if math.Abs(x[i]-want.AtVec(i)) > 1e-8*(1+math.Abs(want.AtVec(i))) {
				t.Fatalf("trial %d: ftran x[%d] = %v, dense %v", trial, i, x[i], want.AtVec(i))
			}
		}
		// BTRAN: Aᵀ y = b.
		y := append([]float64(nil), b...)
		f.btran(y)
		var wantT mat.VecDense
		if err := wantT.SolveVec(a.T(), mat.NewVecDense(m, append([]float64(nil), b...))); err != nil {
			continue
		}
		for i := 0; i < m; i++ {
			if math.Abs(y[i]-wantT.AtVec(i)) > 1e-8*(1+math.Abs(wantT.AtVec(i))) {
				t.Fatalf("trial %d: btran y[%d] = %v, dense %v", trial, i, y[i], wantT.AtVec(i))
			}
		}
		checked++
		// Product-form updates: replace random columns and compare again.
		for up := 0; up < 30; up++ {
			r := rng.Intn(m)
			var nc []spEntry
			for i := 0; i < m; i++ {
				if rng.Float64() < 0.2 || i == r {
					nc = append(nc, spEntry{i, rng.NormFloat64() + 2})
				}
			}
			alpha := make([]float64, m)
			for _, e := range nc {
				alpha[e.row] = e.val
			}
			f.ftranSpike(alpha)
			if math.Abs(alpha[r]) < 1e-3 {
				continue
			}
			if !f.update(r) {
				t.Fatalf("trial %d: update refused with pivot %v", trial, alpha[r])
			}
			cols[r] = nc
		}
		a = denseOf(cols)
		x = append(x[:0], b...)
		f.ftran(x)
		if err := want.SolveVec(a, mat.NewVecDense(m, append([]float64(nil), b...))); err != nil {
			continue
		}
		for i := 0; i < m; i++ {
			if math.Abs(x[i]-want.AtVec(i)) > 1e-6*(1+math.Abs(want.AtVec(i))) {
				t.Fatalf("trial %d after updates: ftran x[%d] = %v, dense %v", trial, i, x[i], want.AtVec(i))
			}
		}
		y = append(y[:0], b...)
		f.btran(y)
		if err := wantT.SolveVec(a.T(), mat.NewVecDense(m, append([]float64(nil), b...))); err != nil {
			continue
		}
		for i := 0; i < m; i++ {
			if math.Abs(y[i]-wantT.AtVec(i)) > 1e-6*(1+math.Abs(wantT.AtVec(i))) {
				t.Fatalf("trial %d after updates: btran y[%d] = %v, dense %v", trial, i, y[i], wantT.AtVec(i))
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d of 60 random matrices were checked", checked)
	}
}

func TestLUSingularReportsPositions(t *testing.T) {
	// Columns 0 and 1 are equal: one of them cannot be pivoted.
	cols := [][]spEntry{
		{{0, 1}, {1, 2}},
		{{0, 1}, {1, 2}},
		{{2, 3}},
	}
	_, bp, br := factorOf(cols)
	if len(bp) != 1 || len(br) != 1 {
		t.Fatalf("singular positions %v rows %v, want one each", bp, br)
	}
}
