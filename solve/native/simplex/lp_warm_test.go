package simplex

import (
	"context"
	"math"
	"math/rand"
	"path/filepath"
	"testing"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/model/mps"
	"github.com/mrbound/mrbound/solve"
)

// warmProblems are NETLIB LPs used for the warm-start tests.
var warmProblems = []string{"afiro", "sc50a", "adlittle", "share2b", "blend", "scagr7", "stocfor1", "sc105"}

func readNetlib(t *testing.T, name string) *model.Model {
	t.Helper()
	netlibOptima(t) // skips without the test sets
	m, err := mps.ReadFile(filepath.Join(testsetDir, "netlib", name+".mps"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func mustSolve(t *testing.T, s *Solver, want solve.Status) {
	t.Helper()
	if st := s.Solve(context.Background()); st != want {
		t.Fatalf("status %v, want %v", st, want)
	}
}

func coldSolve(t *testing.T, m *model.Model) *Solver {
	t.Helper()
	s, err := New(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Solve(context.Background())
	return s
}

func sameObjective(a, b float64) bool { return math.Abs(a-b) <= 1e-7*(1+math.Abs(a)) }

// branchColumn picks the basic column whose value is farthest from its
// bounds and returns a tightened upper bound that cuts off the current
// value.
func branchColumn(s *Solver) (j int, lo, up float64, ok bool) {
	x := s.X()
	best := 0.0
	for k := 0; k < s.NumCols(); k++ {
		if s.VarStatus(k) != solve.Basic {
			continue
		}
		l, u := s.ColBounds(k)
		gap := math.Min(x[k]-l, u-x[k])
		if gap > best {
			best, j, ok = gap, k, true
		}
	}
	if !ok {
		return 0, 0, 0, false
	}
	l, _ := s.ColBounds(j)
	return j, l, l + (x[j]-l)/2, true
}

func TestWarmStartAfterBoundChange(t *testing.T) {
	for _, name := range warmProblems {
		t.Run(name, func(t *testing.T) {
			m := readNetlib(t, name)
			s := coldSolve(t, m)
			if s.Status() != solve.Optimal {
				t.Fatalf("cold status %v", s.Status())
			}
			j, lo, up, ok := branchColumn(s)
			if !ok {
				t.Skip("no basic column strictly inside its bounds")
			}
			if err := s.SetColBounds(j, lo, up); err != nil {
				t.Fatal(err)
			}
			st := s.Solve(context.Background())
			m2 := m.Clone()
			m2.ColLower[j], m2.ColUpper[j] = lo, up
			cold := coldSolve(t, m2)
			if st != cold.Status() {
				t.Fatalf("warm status %v, cold %v", st, cold.Status())
			}
			if st != solve.Optimal {
				return
			}
			if !sameObjective(s.Objective(), cold.Objective()) {
				t.Fatalf("warm objective %.12g, cold %.12g", s.Objective(), cold.Objective())
			}
			checkOptimality(t, m2, s)
			if s.LastIterations() >= cold.Iterations() {
				t.Fatalf("warm solve took %d iterations, cold %d", s.LastIterations(), cold.Iterations())
			}
			t.Logf("warm %d iterations, cold %d", s.LastIterations(), cold.Iterations())
		})
	}
}

// addRowToModel returns m with one more row.
func addRowToModel(m *model.Model, r Row) *model.Model {
	m2 := m.Clone()
	i := m2.NumRows()
	m2.RowLower = append(m2.RowLower, r.Lower)
	m2.RowUpper = append(m2.RowUpper, r.Upper)
	if m2.RowNames != nil {
		m2.RowNames = append(m2.RowNames, "cut")
	}
	coef := map[int]float64{}
	for k, j := range r.Index {
		coef[j] = r.Value[k]
	}
	var ri []int
	var rv []float64
	starts := []int{0}
	for j := 0; j < m2.NumCols(); j++ {
		ri = append(ri, m.RowIndex[m.ColStart[j]:m.ColStart[j+1]]...)
		rv = append(rv, m.Value[m.ColStart[j]:m.ColStart[j+1]]...)
		if v, ok := coef[j]; ok {
			ri = append(ri, i)
			rv = append(rv, v)
		}
		starts = append(starts, len(ri))
	}
	m2.ColStart, m2.RowIndex, m2.Value = starts, ri, rv
	return m2
}

// violatedCut builds a row over the nonzero columns of the optimum that
// cuts it off: Σ x_j ≤ (current sum)·0.9 (or ≥ ·1.1 when negative).
func violatedCut(s *Solver, rng *rand.Rand) (Row, bool) {
	x := s.X()
	var r Row
	sum := 0.0
	for j, v := range x {
		if math.Abs(v) > 1e-6 && len(r.Index) < 8 && rng.Intn(2) == 0 {
			r.Index = append(r.Index, j)
			c := float64(1 + rng.Intn(3))
			r.Value = append(r.Value, c)
			sum += c * v
		}
	}
	if len(r.Index) == 0 {
		return r, false
	}
	r.Lower, r.Upper = math.Inf(-1), sum-0.1*math.Abs(sum)
	return r, true
}

func TestWarmStartAfterAddRowsAndRemoveRows(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for _, name := range warmProblems {
		t.Run(name, func(t *testing.T) {
			m := readNetlib(t, name)
			s := coldSolve(t, m)
			base := s.Objective()
			cut, ok := violatedCut(s, rng)
			if !ok {
				t.Skip("optimum is zero")
			}
			if err := s.AddRows([]Row{cut}); err != nil {
				t.Fatal(err)
			}
			if s.NumRows() != m.NumRows()+1 {
				t.Fatalf("NumRows %d after AddRows, want %d", s.NumRows(), m.NumRows()+1)
			}
			st := s.Solve(context.Background())
			m2 := addRowToModel(m, cut)
			cold := coldSolve(t, m2)
			if st != cold.Status() {
				t.Fatalf("warm status %v, cold %v", st, cold.Status())
			}
			if st == solve.Optimal {
				if !sameObjective(s.Objective(), cold.Objective()) {
					t.Fatalf("warm objective %.12g, cold %.12g", s.Objective(), cold.Objective())
				}
				checkOptimality(t, m2, s)
				if s.LastIterations() >= cold.Iterations() {
					t.Fatalf("warm solve took %d iterations, cold %d", s.LastIterations(), cold.Iterations())
				}
				t.Logf("cut: warm %d iterations, cold %d", s.LastIterations(), cold.Iterations())
			}
			// Removing the cut restores the original optimum.
			if err := s.RemoveRows([]int{m.NumRows()}); err != nil {
				t.Fatal(err)
			}
			mustSolve(t, s, solve.Optimal)
			if !sameObjective(s.Objective(), base) {
				t.Fatalf("after RemoveRows objective %.12g, want %.12g", s.Objective(), base)
			}
			checkOptimality(t, m, s)
		})
	}
}

func TestRemoveOriginalRows(t *testing.T) {
	m := readNetlib(t, "sc50a")
	s := coldSolve(t, m)
	// Remove the first tight rows (nonbasic logicals) and a basic one.
	var del []int
	for i := 0; i < s.NumRows() && len(del) < 5; i++ {
		if s.VarStatus(s.NumCols()+i) != solve.Basic || len(del) == 0 {
			del = append(del, i)
		}
	}
	if err := s.RemoveRows(del); err != nil {
		t.Fatal(err)
	}
	st := s.Solve(context.Background())
	m2 := m.Clone()
	keep := map[int]bool{}
	for i := 0; i < m.NumRows(); i++ {
		keep[i] = true
	}
	for _, i := range del {
		keep[i] = false
	}
	m2 = dropRows(m, keep)
	cold := coldSolve(t, m2)
	if st != cold.Status() {
		t.Fatalf("status %v, cold %v", st, cold.Status())
	}
	if st == solve.Optimal {
		if !sameObjective(s.Objective(), cold.Objective()) {
			t.Fatalf("objective %.12g, cold %.12g", s.Objective(), cold.Objective())
		}
		checkOptimality(t, m2, s)
	}
}

func dropRows(m *model.Model, keep map[int]bool) *model.Model {
	m2 := m.Clone()
	newIdx := make([]int, m.NumRows())
	m2.RowLower, m2.RowUpper, m2.RowNames = nil, nil, nil
	n := 0
	for i := 0; i < m.NumRows(); i++ {
		newIdx[i] = -1
		if keep[i] {
			newIdx[i] = n
			n++
			m2.RowLower = append(m2.RowLower, m.RowLower[i])
			m2.RowUpper = append(m2.RowUpper, m.RowUpper[i])
		}
	}
	starts := []int{0}
	var ri []int
	var rv []float64
	for j := 0; j < m.NumCols(); j++ {
		for k := m.ColStart[j]; k < m.ColStart[j+1]; k++ {
			if ni := newIdx[m.RowIndex[k]]; ni >= 0 {
				ri = append(ri, ni)
				rv = append(rv, m.Value[k])
			}
		}
		starts = append(starts, len(ri))
	}
	m2.ColStart, m2.RowIndex, m2.Value = starts, ri, rv
	return m2
}

func TestCloneAndSetBasis(t *testing.T) {
	m := readNetlib(t, "adlittle")
	s := coldSolve(t, m)
	base := s.Objective()
	b := s.Basis().Clone()
	c := s.Clone()
	j, lo, up, ok := branchColumn(c)
	if !ok {
		t.Skip("no branching column")
	}
	if err := c.SetColBounds(j, lo, up); err != nil {
		t.Fatal(err)
	}
	c.Solve(context.Background())
	// The original is unaffected.
	if l, u := s.ColBounds(j); l == lo && u == up {
		t.Fatal("Clone shares bounds with the original")
	}
	mustSolve(t, s, solve.Optimal)
	if !sameObjective(s.Objective(), base) || s.LastIterations() != 0 {
		t.Fatalf("original after clone: objective %v (want %v), %d iterations", s.Objective(), base, s.LastIterations())
	}
	// A fresh solver given the optimal basis needs no iteration.
	f, _ := New(m, Options{})
	if err := f.SetBasis(b); err != nil {
		t.Fatal(err)
	}
	mustSolve(t, f, solve.Optimal)
	if !sameObjective(f.Objective(), base) || f.LastIterations() != 0 {
		t.Fatalf("from optimal basis: objective %v (want %v), %d iterations", f.Objective(), base, f.LastIterations())
	}
	bad := b.Clone()
	bad.Rows = bad.Rows[1:]
	if err := f.SetBasis(bad); err == nil {
		t.Fatal("SetBasis accepted a basis of the wrong size")
	}
}

// The tableau row identity x_B + Σ row_k x_k = 0 holds for every point of
// the system A·x = r, not only for the current one.
func TestTableauRow(t *testing.T) {
	m := readNetlib(t, "share2b")
	s := coldSolve(t, m)
	rng := rand.New(rand.NewSource(5))
	n := s.NumCols()
	x := make([]float64, n)
	for j := range x {
		x[j] = rng.NormFloat64()
	}
	r := make([]float64, m.NumRows())
	for j := 0; j < n; j++ {
		for k := m.ColStart[j]; k < m.ColStart[j+1]; k++ {
			r[m.RowIndex[k]] += m.Value[k] * x[j]
		}
	}
	val := func(k int) float64 {
		if k < n {
			return x[k]
		}
		return r[k-n]
	}
	var row []float64
	for pos := 0; pos < s.NumRows(); pos++ {
		row = s.TableauRow(pos, row)
		kb := s.BasicVar(pos)
		if row[kb] != 1 || s.BasisPos(kb) != pos {
			t.Fatalf("pos %d: basic variable %d has coefficient %v", pos, kb, row[kb])
		}
		sum, scale := 0.0, 0.0
		sumCur := 0.0
		for k, a := range row {
			sum += a * val(k)
			sumCur += a * s.VarValue(k)
			scale = math.Max(scale, math.Abs(a*val(k)))
		}
		if math.Abs(sum) > 1e-8*(1+scale) || math.Abs(sumCur) > 1e-6*(1+scale) {
			t.Fatalf("pos %d: tableau identity off by %g (random point), %g (current point)", pos, sum, sumCur)
		}
	}
}
