package mip

import (
	"math"
)

const (
	// maxProofs bounds the pool of stored proofs; the oldest is replaced.
	maxProofs = 300
	// proofDualTol is the smallest |y_i| of a dual or Farkas vector used in
	// an aggregation.
	proofDualTol = 1e-9
	// proofCoefTol drops aggregated coefficients below this fraction of the
	// largest (relaxing the right-hand side by the column's global bound).
	proofCoefTol = 1e-9
	// proofViolTol is how far the node's maximum activity must fall short
	// of the right-hand side for a proof to be kept.
	proofViolTol = 1e-6
)

// proof is a valid inequality Σ vals·x ≥ beta obtained from a node LP that
// was infeasible (a Farkas combination of the rows) or cut off (the dual
// combination plus the objective cutoff, valid for every point better than
// the incumbent). Other nodes propagate it like a row: when their bounds
// make it unsatisfiable they are pruned before their LP, and its integer
// columns get their bounds rounded, which the LP alone does not do.
type proof struct {
	cols []int
	vals []float64
	beta float64
	// cutoff is the objective cutoff a cutoff proof assumed (internal
	// sense): what it excludes holds no point better than that, and only
	// that. +Inf for a Farkas proof, which excludes no point at all.
	cutoff float64
}

// proofPool is a ring of proofs.
type proofPool struct {
	rows []proof
	next int
	// added and pruned count proofs stored and nodes they pruned.
	added, pruned int64
}

func (p *proofPool) add(pr proof) {
	p.added++
	if len(p.rows) < maxProofs {
		p.rows = append(p.rows, pr)
		return
	}
	p.rows[p.next] = pr
	p.next = (p.next + 1) % maxProofs
}

// aggregate returns yᵀA over the LP's rows (model rows, then the root cuts
// in LP order) and the matching lower bound β with yᵀA·x ≥ β for every x
// that satisfies the rows. Entries of y whose sign would need an infinite
// row bound are dropped, so the result is valid for any y.
func (s *search) aggregate(y []float64) ([]float64, float64) {
	coef := make([]float64, s.n)
	beta := 0.0
	m := s.m
	mr := m.NumRows()
	for i := 0; i < mr && i < len(y); i++ {
		yi := y[i]
		if math.Abs(yi) <= proofDualTol {
			continue
		}
		var side float64
		if yi > 0 {
			side = m.RowLower[i]
		} else {
			side = m.RowUpper[i]
		}
		if math.IsInf(side, 0) {
			continue
		}
		beta += yi * side
		for k := s.rowm.RowStart[i]; k < s.rowm.RowStart[i+1]; k++ {
			coef[s.rowm.ColIndex[k]] += yi * s.rowm.Value[k]
		}
	}
	for q, k := range s.cutRows {
		if mr+q >= len(y) {
			break
		}
		yi := y[mr+q]
		if yi >= -proofDualTol { // cuts are ≤ rows: only y < 0 combines
			continue
		}
		c := s.pool.Cuts[k]
		beta += yi * c.Rhs
		for t, j := range c.Ind {
			coef[j] += yi * c.Coef[t]
		}
	}
	return coef, beta
}

// storeProof sparsifies Σ coef·x ≥ beta and keeps it when the node's bounds
// violate it (the proof explains the node); cutoff is the objective cutoff
// the proof assumed, +Inf for none.
func (s *search) storeProof(coef []float64, beta, cutoff float64) bool {
	big := 0.0
	for _, v := range coef {
		big = math.Max(big, math.Abs(v))
	}
	if big == 0 || math.IsNaN(beta) {
		return false
	}
	var pr proof
	for j, v := range coef {
		if v == 0 {
			continue
		}
		if math.Abs(v) <= proofCoefTol*big {
			// Drop the term: v·x_j ≤ v·(bound) over the global box; on a
			// column without that bound the term is cancellation noise of
			// the aggregation and is dropped as such.
			b := s.gup[j]
			if v < 0 {
				b = s.glo[j]
			}
			if !math.IsInf(b, 0) {
				beta -= v * b
			}
			continue
		}
		pr.cols = append(pr.cols, j)
		pr.vals = append(pr.vals, v)
	}
	pr.beta = beta
	pr.cutoff = cutoff
	act := rowActivity(pr.cols, pr.vals, s.curLo, s.curUp)
	if act.maxInf > 0 || act.maxF >= beta-proofViolTol*math.Max(1, math.Abs(beta)) {
		return false
	}
	s.proofs.add(pr)
	return true
}

// infeasibleProof stores the Farkas proof of an infeasible node LP.
func (s *search) infeasibleProof() {
	y := s.lp.Ray()
	if y == nil {
		return
	}
	coef, beta := s.aggregate(y)
	if s.storeProof(coef, beta, math.Inf(1)) {
		return
	}
	for i := range y {
		y[i] = -y[i]
	}
	coef, beta = s.aggregate(y)
	s.storeProof(coef, beta, math.Inf(1))
}

// cutoffProof stores the proof of a node LP whose bound reached the
// cutoff: with duals y (internal sense) every row-feasible x has
// yᵀA·x ≥ β, and a point worth finding has c·x < cutoff − offset, so
// (yᵀA − c)·x ≥ β − cutoff + offset.
func (s *search) cutoffProof() {
	if math.IsInf(s.incObj, 1) {
		return
	}
	y := s.lp.Duals()
	if y == nil {
		return
	}
	for i := range y {
		y[i] *= s.sigma
	}
	coef, beta := s.aggregate(y)
	for j := range coef {
		coef[j] -= s.sigma * s.m.Obj[j]
	}
	cutoff := s.cutoff()
	s.storeProof(coef, beta-(cutoff-s.offset), cutoff)
}

// proofMax returns the maximum activity of a proof under bounds lo, up
// (its finite part and the number of infinite contributions) and the
// largest |v|·(u − l) of its columns.
func proofMax(pr *proof, lo, up []float64) (maxF float64, maxInf int, span float64) {
	for k, j := range pr.cols {
		v := pr.vals[k]
		l, u := lo[j], up[j]
		b := u
		if v < 0 {
			b = l
		}
		if math.IsInf(b, 0) {
			maxInf++
			if maxInf > 1 {
				return maxF, maxInf, math.Inf(1)
			}
			span = math.Inf(1)
			continue
		}
		maxF += v * b
		if w := math.Abs(v) * (u - l); w > span {
			span = w
		}
	}
	return maxF, maxInf, span
}

// proofPass propagates the stored proofs at node nd: false when one cannot
// hold; tightened integer bounds go to nd.chg and curLo/curUp
// provisionally.
func (s *search) proofPass(nd *node) (ok, changed bool) {
	lo, up := s.curLo, s.curUp
	for r := range s.proofs.rows {
		pr := &s.proofs.rows[r]
		maxF, maxInf, span := proofMax(pr, lo, up)
		if maxInf > 0 {
			continue // only a column without a bound could move
		}
		slack := maxF - pr.beta
		if slack < -propTol*math.Max(1, math.Abs(pr.beta)) {
			s.proofs.pruned++
			s.discardBeyond(math.Max(pr.cutoff, nd.bound))
			return false, changed
		}
		// A column can be tightened only if its range exceeds the slack;
		// tightening moves the bound that the maximum does not use, so the
		// slack stays as it is.
		if slack > span*(1+propTol)+propTol {
			continue
		}
		for k, j := range pr.cols {
			if !s.isInt[j] {
				continue
			}
			v, l, u := pr.vals[k], lo[j], up[j]
			if math.Abs(v)*(u-l) <= slack {
				continue
			}
			nl, nu := l, u
			if v > 0 {
				nl = math.Ceil(u - slack/v - intTol)
			} else {
				nu = math.Floor(l + slack/(-v) + intTol)
			}
			if nl <= l && nu >= u {
				continue
			}
			if nl > nu {
				s.proofs.pruned++
				s.discardBeyond(math.Max(pr.cutoff, nd.bound))
				return false, changed
			}
			// The part of the node cut away holds no point better than
			// the proof's cutoff.
			s.discardBeyond(math.Max(pr.cutoff, nd.bound))
			nd.chg = append(nd.chg, bndChg{j, nl, nu})
			lo[j], up[j] = nl, nu
			changed = true
			s.proofFixed++
		}
	}
	return true, changed
}
