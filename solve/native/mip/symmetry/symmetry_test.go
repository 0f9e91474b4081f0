package symmetry

import (
	"fmt"
	"sort"
	"testing"

	"github.com/mrbound/mrbound/model"
)

// binPacking builds min Σ y_b s.t. each item in one bin, Σ_i w_i x_ib ≤ C_b y_b.
func binPacking(t *testing.T, w, capa []float64) *model.Model {
	t.Helper()
	b := model.NewBuilder("bins")
	y := make([]model.Var, len(capa))
	x := make([][]model.Var, len(w))
	obj := model.NewExpr(len(capa))
	for k := range capa {
		y[k] = b.Binary(fmt.Sprintf("y%d", k))
		obj.Add(y[k], 1)
	}
	for i := range w {
		x[i] = make([]model.Var, len(capa))
		for k := range capa {
			x[i][k] = b.Binary(fmt.Sprintf("x%d_%d", i, k))
		}
		b.Equal("", model.Sum(x[i]...), 1)
	}
	for k := range capa {
		e := model.NewExpr(len(w) + 1)
		for i := range w {
			e.Add(x[i][k], w[i])
		}
		e.Add(y[k], -capa[k])
		b.LessEq("", e, 0)
	}
	b.Minimize(obj)
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// isAutomorphism checks p independently of Find: renaming the columns by p
// gives the same objective, bounds, types and the same set of rows.
func isAutomorphism(m *model.Model, p Perm) bool {
	for j := range p {
		k := p[j]
		if m.Obj[j] != m.Obj[k] || m.ColLower[j] != m.ColLower[k] || m.ColUpper[j] != m.ColUpper[k] || m.ColType[j] != m.ColType[k] {
			return false
		}
	}
	rowKey := func(i int, ren func(int) int) string {
		csr := m.RowMatrix()
		var ts []string
		for q := csr.RowStart[i]; q < csr.RowStart[i+1]; q++ {
			ts = append(ts, fmt.Sprintf("%d:%g", ren(csr.ColIndex[q]), csr.Value[q]))
		}
		sort.Strings(ts)
		return fmt.Sprintf("%g %g %v", m.RowLower[i], m.RowUpper[i], ts)
	}
	count := map[string]int{}
	for i := 0; i < m.NumRows(); i++ {
		count[rowKey(i, func(j int) int { return j })]++
		count[rowKey(i, func(j int) int { return p[j] })]--
	}
	for _, c := range count {
		if c != 0 {
			return false
		}
	}
	return true
}

// TestIdenticalBins: 4 identical bins give the 6 transpositions of whole
// bins (y_b and x_·b together); distinct weights give no item swaps.
func TestIdenticalBins(t *testing.T) {
	m := binPacking(t, []float64{3, 4, 5, 6, 7}, []float64{10, 10, 10, 10})
	res := Find(m, Options{})
	if len(res.Perms) != 6 {
		t.Fatalf("%d permutations, want the 6 bin transpositions", len(res.Perms))
	}
	for _, p := range res.Perms {
		if !isAutomorphism(m, p) {
			t.Fatalf("permutation %v is not an automorphism", p)
		}
		if got := len(p.Moved()); got != 2*(1+5) {
			t.Fatalf("permutation moves %d columns, want two whole bins (12)", got)
		}
		for _, j := range p.Moved() {
			if p[p[j]] != j {
				t.Fatalf("permutation %v is not a swap", p)
			}
		}
	}
}

// TestNoSymmetry: bins of different capacities and distinct weights leave
// every column in its own colour, so the search does not even start.
func TestNoSymmetry(t *testing.T) {
	m := binPacking(t, []float64{3, 4, 5, 6, 7}, []float64{10, 11, 12, 13})
	res := Find(m, Options{})
	if len(res.Perms) != 0 || res.Candidates != 0 {
		t.Fatalf("%d permutations, %d candidates; want none", len(res.Perms), res.Candidates)
	}
}

// TestIdenticalItems: with distinct bins but two items of equal weight the
// only symmetry swaps those items' assignment columns.
func TestIdenticalItems(t *testing.T) {
	m := binPacking(t, []float64{3, 5, 5, 7}, []float64{10, 11, 12})
	res := Find(m, Options{})
	if len(res.Perms) != 1 {
		t.Fatalf("%d permutations, want 1", len(res.Perms))
	}
	p := res.Perms[0]
	if !isAutomorphism(m, p) {
		t.Fatal("not an automorphism")
	}
	for _, j := range p.Moved() {
		if name := m.ColName(j); name[:2] != "x1" && name[:2] != "x2" {
			t.Fatalf("moves %s, want only items 1 and 2", name)
		}
	}
}

// TestBudget: a zero-work budget (1 unit) finds nothing and says so.
func TestBudget(t *testing.T) {
	m := binPacking(t, []float64{3, 4, 5, 6, 7}, []float64{10, 10, 10, 10})
	res := Find(m, Options{MaxWork: 1})
	if len(res.Perms) != 0 || !res.Exhausted {
		t.Fatalf("%d permutations, exhausted %v; want none, exhausted", len(res.Perms), res.Exhausted)
	}
}
