package mip

import (
	"sort"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/native/mip/symmetry"
)

// maxSymPasses bounds the rounds of lexicographic propagation and row
// propagation at one node.
const maxSymPasses = 4

// lexOrder is one symmetry-breaking constraint x ≥lex σ(x) for an
// automorphism σ of the model: comparing, in the fixed column order of the
// search, x[pos[k]] with x[img[k]] = x[σ(pos[k])] over the columns σ moves.
// Among the images of a point under the group, the lexicographically
// largest satisfies all of them at once, and it has the same objective, so
// a search restricted to such points still finds an optimum.
type lexOrder struct {
	pos, img []int
}

// symOrder is the column order of the lexicographic constraints: binary
// columns first (branching fixes them, so the walk of lexPass gets past
// them), those in more rows first, then the other integer columns, then the
// continuous ones; ties by index.
func (s *search) symOrder() []int {
	order := make([]int, s.n)
	rank := func(j int) int {
		switch {
		case s.isInt[j] && s.glo[j] == 0 && s.gup[j] == 1:
			return 0
		case s.isInt[j]:
			return 1
		}
		return 2
	}
	deg := func(j int) int { return s.m.ColStart[j+1] - s.m.ColStart[j] }
	for j := range order {
		order[j] = j
	}
	sort.SliceStable(order, func(a, b int) bool {
		ja, jb := order[a], order[b]
		if rank(ja) != rank(jb) {
			return rank(ja) < rank(jb)
		}
		return deg(ja) > deg(jb)
	})
	return order
}

// The symmetry search's work budget scales with the model: on models whose
// refinement leaves many candidate columns but no automorphism (the Jlassi
// neighbourhood sub-MIPs, MRCP's late-set MILPs) the fixed default of
// symmetry.DefaultMaxWork cost 3–4 s per solve and found nothing, while the
// test set's symmetric models need at most 2.1·10⁶ (stein27; rgn 1.4·10⁶,
// misc07 1.2·10⁶, noswot 3.6·10⁵).
const (
	symWorkPerEntry = 500       // work per row, column and nonzero
	symWorkMin      = 2_500_000 // never less: small symmetric models need ~2·10⁶
)

// symmetryWork is the symmetry search's budget for m.
func symmetryWork(m *model.Model) int64 {
	w := int64(symWorkPerEntry) * int64(m.NumRows()+m.NumCols()+m.NumNonzeros())
	return min(max(w, symWorkMin), symmetry.DefaultMaxWork)
}

// detectSymmetry finds automorphisms of the (presolved) model and turns each
// into a lexicographic constraint.
func (s *search) detectSymmetry() {
	if s.cfg.sub || s.cfg.noSym || len(s.intCols) == 0 {
		return
	}
	order := s.symOrder()
	res := symmetry.Find(s.m, symmetry.Options{Order: order, Stop: s.wallStop, MaxWork: symmetryWork(s.m)})
	if len(res.Perms) == 0 {
		if res.Exhausted {
			s.logf("symmetry: none found among %d candidate columns before the work budget %d ran out\n", res.Candidates, symmetryWork(s.m))
		}
		return
	}
	rank := make([]int, s.n)
	for k, j := range order {
		rank[j] = k
	}
	for _, p := range res.Perms {
		pos := p.Moved()
		sort.Slice(pos, func(a, b int) bool { return rank[pos[a]] < rank[pos[b]] })
		img := make([]int, len(pos))
		for k, j := range pos {
			img[k] = p[j]
		}
		s.lex = append(s.lex, lexOrder{pos, img})
	}
	s.logf("symmetry: %d permutations of %d candidate columns (work %d)\n", len(res.Perms), res.Candidates, res.Work)
}

// wallStop reports whether the context ended or the wall deadline passed.
func (s *search) wallStop() bool {
	st := s.limitStatus()
	return st == solve.Interrupted || st == solve.TimeLimit
}

// nodePropagate enforces the lexicographic constraints and the stored
// proofs on the bounds of node nd, alternating with row propagation; false
// when nd is infeasible.
func (s *search) nodePropagate(nd *node) bool {
	if len(s.lex) == 0 && len(s.proofs.rows) == 0 {
		return true
	}
	for pass := 0; pass < maxSymPasses; pass++ {
		ok, changed := s.lexPass(nd)
		if ok && pass == 0 {
			// One pass over the proofs: they are many, and a second
			// pass rarely adds anything.
			var c2 bool
			ok, c2 = s.proofPass(nd)
			changed = changed || c2
		}
		if !ok {
			s.reapply(nd)
			return false
		}
		if !changed {
			return true
		}
		if !s.reapply(nd) || !s.propagate(nd) {
			return false
		}
	}
	return true
}

// lexPass walks each constraint: past the positions where both columns are
// fixed to the same value, the first other position must have
// x[pos] ≥ x[img], which tightens lo[pos] and up[img]; when that fixes
// both to the same value the walk goes on. Bounds are changed provisionally
// in curLo/curUp and recorded in nd.chg.
func (s *search) lexPass(nd *node) (ok, changed bool) {
	lo, up := s.curLo, s.curUp
	fixedEq := func(a, b int) bool { return lo[a] == up[a] && lo[b] == up[b] && lo[a] == lo[b] }
	for _, c := range s.lex {
		for k, a := range c.pos {
			b := c.img[k]
			if fixedEq(a, b) {
				continue
			}
			if lo[b] > lo[a] {
				lo[a] = lo[b]
				nd.chg = append(nd.chg, bndChg{a, lo[a], up[a]})
				changed = true
				s.symFixed++
			}
			if up[a] < up[b] {
				up[b] = up[a]
				nd.chg = append(nd.chg, bndChg{b, lo[b], up[b]})
				changed = true
				s.symFixed++
			}
			if lo[a] > up[a] || lo[b] > up[b] {
				return false, changed
			}
			if !fixedEq(a, b) {
				break
			}
		}
	}
	return true, changed
}
