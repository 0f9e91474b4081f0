package simplex

import (
	"math"
	"math/rand"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// verySparse returns the columns of a random m×m matrix with a permuted
// diagonal and about extra further entries per column.
func verySparse(rng *rand.Rand, m int, extra float64) [][]spEntry {
	perm := rng.Perm(m)
	cols := make([][]spEntry, m)
	for j := 0; j < m; j++ {
		cols[j] = append(cols[j], spEntry{perm[j], 1 + rng.Float64()*3})
		seen := map[int]bool{perm[j]: true}
		for k := rng.Intn(int(2*extra) + 1); k > 0; k-- {
			if i := rng.Intn(m); !seen[i] {
				seen[i] = true
				cols[j] = append(cols[j], spEntry{i, rng.NormFloat64()})
			}
		}
	}
	return cols
}

// sparseRHS is one of the right-hand sides the simplex solves with: a unit
// vector, a column of the matrix or a few random entries.
func sparseRHS(rng *rand.Rand, cols [][]spEntry, m int) *svec {
	v := newSvec(m)
	switch rng.Intn(3) {
	case 0:
		v.set(rng.Intn(m), 1)
	case 1:
		for _, e := range cols[rng.Intn(len(cols))] {
			v.set(e.row, e.val)
		}
	default:
		for k := 1 + rng.Intn(4); k > 0; k-- {
			if i := rng.Intn(m); v.val[i] == 0 {
				v.set(i, rng.NormFloat64())
			}
		}
	}
	return v
}

// checkSvec checks that got (sparse) equals want (dense) within tol and
// that got's index list is duplicate-free and covers its nonzeros.
func checkSvec(t *testing.T, what string, got *svec, want []float64, tol float64) {
	t.Helper()
	listed := make(map[int]bool, len(got.idx))
	for _, i := range got.idx {
		if listed[i] {
			t.Fatalf("%s: index %d listed twice", what, i)
		}
		listed[i] = true
	}
	for i, w := range want {
		g := got.val[i]
		if math.Abs(g-w) > tol*(1+math.Abs(w)) {
			t.Fatalf("%s: [%d] = %v, want %v", what, i, g, w)
		}
		if g != 0 && !listed[i] {
			t.Fatalf("%s: nonzero [%d] = %v not listed", what, i, g)
		}
	}
}

// solveBoth runs the sparse and the dense FTRAN and BTRAN on rhs and
// compares them, and with gonum's dense solve when a is given.
func solveBoth(t *testing.T, what string, f *factor, a *mat.Dense, rhs *svec, tol float64) {
	t.Helper()
	m := f.m
	b := append([]float64(nil), rhs.val...)
	// FTRAN.
	x := &svec{val: append([]float64(nil), b...), idx: append([]int(nil), rhs.idx...)}
	f.ftranS(x)
	xd := append([]float64(nil), b...)
	f.ftran(xd)
	checkSvec(t, what+" ftran vs dense path", x, xd, 1e-9)
	// BTRAN.
	y := &svec{val: append([]float64(nil), b...), idx: append([]int(nil), rhs.idx...)}
	f.btranS(y)
	yd := append([]float64(nil), b...)
	f.btran(yd)
	checkSvec(t, what+" btran vs dense path", y, yd, 1e-9)
	if a == nil {
		return
	}
	var want, wantT mat.VecDense
	if err := want.SolveVec(a, mat.NewVecDense(m, append([]float64(nil), b...))); err != nil {
		t.Fatalf("%s: gonum: %v", what, err)
	}
	checkSvec(t, what+" ftran vs gonum", x, want.RawVector().Data, tol)
	if err := wantT.SolveVec(a.T(), mat.NewVecDense(m, append([]float64(nil), b...))); err != nil {
		t.Fatalf("%s: gonum: %v", what, err)
	}
	checkSvec(t, what+" btran vs gonum", y, wantT.RawVector().Data, tol)
}

// TestHyperSparseSolves compares the hyper-sparse FTRAN and BTRAN with the
// dense loops and with gonum's dense solves on random sparse matrices and
// right-hand sides, before and after many Forrest–Tomlin updates (made
// through the sparse FTRAN's saved spike).
func TestHyperSparseSolves(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	hyper, checked := 0, 0
	for trial := 0; trial < 40; trial++ {
		m := 20 + rng.Intn(400)
		cols := verySparse(rng, m, 1+2*rng.Float64())
		f, bp, _ := factorOf(cols)
		if len(bp) > 0 {
			continue
		}
		withGonum := m <= 250
		dense := func() *mat.Dense {
			if withGonum {
				return denseOf(cols)
			}
			return nil
		}
		a := dense()
		for k := 0; k < 8; k++ {
			solveBoth(t, "fresh", f, a, sparseRHS(rng, cols, m), 1e-7)
		}
		// Forrest–Tomlin updates with sparse new columns.
		nup := 0
		for up := 0; up < 90; up++ {
			r := rng.Intn(m)
			nc := []spEntry{}
			seen := map[int]bool{}
			for k := rng.Intn(4); k >= 0; k-- {
				i := rng.Intn(m)
				if k == 0 {
					i = f.rowOf[r]
				}
				if !seen[i] {
					seen[i] = true
					nc = append(nc, spEntry{i, rng.NormFloat64() + 2})
				}
			}
			alpha := newSvec(m)
			for _, e := range nc {
				alpha.set(e.row, e.val)
			}
			f.ftranSpikeS(alpha)
			if math.Abs(alpha.val[r]) < 1e-2 {
				continue
			}
			if !f.update(r) {
				t.Fatalf("trial %d: update refused with pivot %v", trial, alpha.val[r])
			}
			cols[r] = nc
			nup++
			if nup%15 == 0 {
				a = dense()
				solveBoth(t, "updated", f, a, sparseRHS(rng, cols, m), 1e-6)
			}
		}
		a = dense()
		for k := 0; k < 8; k++ {
			solveBoth(t, "after updates", f, a, sparseRHS(rng, cols, m), 1e-6)
		}
		// A dense right-hand side takes the dense path and still agrees.
		rhs := newSvec(m)
		for i := 0; i < m; i++ {
			rhs.set(i, rng.NormFloat64())
		}
		solveBoth(t, "dense rhs", f, a, rhs, 1e-6)
		// The copy made by clone solves the same.
		g := f.clone()
		x, y := sparseRHS(rng, cols, m), newSvec(m)
		y.val = append(y.val[:0], x.val...)
		y.idx = append(y.idx, x.idx...)
		f.ftranS(x)
		g.ftranS(y)
		checkSvec(t, "clone", y, x.val, 1e-12)
		hyper += f.nHyper
		checked++
	}
	if checked < 30 {
		t.Fatalf("only %d of 40 random matrices were checked", checked)
	}
	if hyper < 1000 {
		t.Fatalf("only %d solves took the hyper-sparse path", hyper)
	}
}
