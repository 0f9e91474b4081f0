package mip

import (
	"math"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/native/mip/cuts"
	"github.com/mrbound/mrbound/solve/native/simplex"
)

const (
	// maxCutRounds bounds the separation rounds at the root.
	maxCutRounds = 30
	// maxStallRounds stops the root loop after this many rounds in a row
	// that improved the bound by less than stallGain (relative).
	maxStallRounds = 3
	stallGain      = 1e-4
	// maxGMIRows bounds the tableau rows used for Gomory cuts per round.
	maxGMIRows = 100
	// maxGMISupportFrac drops Gomory cuts denser than this fraction of the
	// columns (plus a constant), which slow the LP more than they help.
	maxGMISupportFrac = 0.5
	// cutSlackTol: a cut whose activity is below its right-hand side by more
	// than this (relative) is slack.
	cutSlackTol = 1e-6
)

// rootCuts runs separation rounds at the root; false when the LP became
// infeasible (the MIP is infeasible).
func (s *search) rootCuts(nd *node) bool {
	if len(s.intCols) == 0 || s.cfg.noCuts {
		return true
	}
	s.cliques = cuts.NewCliqueTable(s.prob)
	vub, hasVUB := cuts.FindVUBs(s.prob)
	mRows := s.m.NumRows()
	var active []int // pool indices of cuts in the LP, in LP row order
	z := s.sigma * s.lp.Objective()
	stall := 0
	var nClique, nCover, nMIR, nGMI int
	for round := 0; round < maxCutRounds; round++ {
		if s.limitStatus() != solve.StatusUnknown {
			break
		}
		x := s.lp.X()
		if len(s.fractional(x)) == 0 {
			break
		}
		var found []cuts.Cut
		cl := s.cliques.Separate(s.prob, x)
		cv := cuts.Cover(s.prob, x)
		mr := cuts.MIR(s.prob, x, vub, hasVUB)
		gm := s.gomory(x, active)
		found = append(append(append(append(found, cl...), cv...), mr...), gm...)
		var cand []int
		for q, c := range found {
			if k := s.pool.Add(c); k >= 0 {
				cand = append(cand, k)
				switch {
				case q < len(cl):
					s.cutKind = append(s.cutKind, 0)
				case q < len(cl)+len(cv):
					s.cutKind = append(s.cutKind, 1)
				case q < len(cl)+len(cv)+len(mr):
					s.cutKind = append(s.cutKind, 2)
				default:
					s.cutKind = append(s.cutKind, 3)
				}
			}
		}
		// Pool cuts removed earlier by aging and violated again.
		inLP := make(map[int]bool, len(active)+len(cand))
		for _, k := range active {
			inLP[k] = true
		}
		for _, k := range cand {
			inLP[k] = true
		}
		cand = append(cand, s.pool.Violated(x, inLP)...)
		maxAdd := 50 + mRows/2
		sel := s.pool.Select(cand, active, x, maxAdd)
		if len(sel) == 0 {
			break
		}
		rows := make([]simplex.Row, len(sel))
		for q, k := range sel {
			c := s.pool.Cuts[k]
			rows[q] = simplex.Row{Index: c.Ind, Value: c.Coef, Lower: math.Inf(-1), Upper: c.Rhs}
			switch s.cutKind[k] {
			case 0:
				nClique++
			case 1:
				nCover++
			case 2:
				nMIR++
			default:
				nGMI++
			}
		}
		if err := s.lp.AddRows(rows); err != nil {
			break
		}
		active = append(active, sel...)
		st := s.lp.Solve(s.ctx)
		if st == solve.Infeasible {
			return false
		}
		if st != solve.Optimal {
			s.logf("  cut round %d: LP status %v, backing out %d cuts\n", round, st, len(sel))
			// Back out this round's cuts and keep the previous LP.
			idx := make([]int, len(sel))
			for q := range sel {
				idx[q] = mRows + len(active) - len(sel) + q
			}
			_ = s.lp.RemoveRows(idx)
			active = active[:len(active)-len(sel)]
			if s.lp.Solve(s.ctx) != solve.Optimal {
				return true
			}
			break
		}
		nz := s.sigma * s.lp.Objective()
		if s.opts.Verbosity > 1 {
			s.logf("  round %d: %d cuts found, %d added, bound %.10g\n", round, len(found), len(sel), s.sigma*s.lp.Objective())
		}
		if nz-z < stallGain*math.Max(1, math.Abs(z)) {
			stall++
		} else {
			stall = 0
		}
		z = nz
		nd.bound = math.Max(nd.bound, s.roundBound(z))
		if nd.bound >= s.cutoff() {
			break
		}
		active = s.ageCuts(active, mRows, false)
		if stall >= maxStallRounds {
			break
		}
	}
	// Keep only the cuts that are tight at the final root point.
	active = s.ageCuts(active, mRows, true)
	s.numCuts = len(active)
	s.cutRows = active
	s.logf("root cuts: %d in LP (added %d clique, %d cover, %d MIR, %d Gomory), bound %.10g\n",
		len(active), nClique, nCover, nMIR, nGMI, s.sigma*s.lp.Objective())
	return true
}

// ageCuts ages slack cuts and removes those past the pool's age limit (all
// slack ones when final).
func (s *search) ageCuts(active []int, mRows int, final bool) []int {
	if len(active) == 0 {
		return active
	}
	x := s.lp.X()
	var remove []int
	keep := active[:0:0]
	for q, k := range active {
		c := s.pool.Cuts[k]
		slack := c.Rhs - c.Activity(x)
		if slack > cutSlackTol*math.Max(1, math.Abs(c.Rhs)) {
			s.pool.Age[k]++
			if final || s.pool.Age[k] > s.pool.MaxAge {
				remove = append(remove, mRows+q)
				continue
			}
		} else {
			s.pool.Age[k] = 0
		}
		keep = append(keep, k)
	}
	if len(remove) == 0 {
		return active
	}
	if err := s.lp.RemoveRows(remove); err != nil {
		return active
	}
	// Removing slack rows keeps the basis optimal; re-solve to refresh the
	// solution arrays.
	s.lp.Solve(s.ctx)
	return keep
}

// gomory separates Gomory mixed-integer cuts from the tableau rows of
// fractional basic integer columns.
func (s *search) gomory(x []float64, active []int) []cuts.Cut {
	nr := s.lp.NumRows()
	// The LP's rows: model rows then active cuts.
	p := s.lpProblem(active)
	type fr struct {
		pos int
		f   float64
	}
	var rows []fr
	for pos := 0; pos < nr; pos++ {
		k := s.lp.BasicVar(pos)
		if k >= s.n || !s.isInt[k] {
			continue
		}
		f := x[k] - math.Floor(x[k])
		if f < 0.01 || f > 0.99 {
			continue
		}
		rows = append(rows, fr{pos, math.Abs(0.5 - f)})
	}
	// Most fractional first, deterministic ties.
	for a := 1; a < len(rows); a++ {
		for b := a; b > 0 && (rows[b].f < rows[b-1].f || rows[b].f == rows[b-1].f && rows[b].pos < rows[b-1].pos); b-- {
			rows[b], rows[b-1] = rows[b-1], rows[b]
		}
	}
	if len(rows) > maxGMIRows {
		rows = rows[:maxGMIRows]
	}
	var out []cuts.Cut
	var buf []float64
	maxSupport := int(maxGMISupportFrac*float64(s.n)) + 10
	for _, r := range rows {
		buf = s.lp.TableauRow(r.pos, buf)
		if buf == nil {
			return out
		}
		basic := s.lp.BasicVar(r.pos)
		tr := cuts.TableauRow{BasicValue: x[basic]}
		ok := true
		for k, a := range buf {
			if a == 0 || k == basic {
				continue
			}
			switch s.lp.VarStatus(k) {
			case solve.AtLower, solve.NonbasicFixed:
				tr.AtUpper = append(tr.AtUpper, false)
			case solve.AtUpper:
				tr.AtUpper = append(tr.AtUpper, true)
			case solve.Basic:
				continue
			default:
				ok = false
			}
			if !ok {
				break
			}
			tr.Ind = append(tr.Ind, k)
			tr.Alpha = append(tr.Alpha, a)
		}
		if !ok {
			continue
		}
		c, good := cuts.GMI(p, tr)
		if !good || len(c.Ind) > maxSupport || c.Violation(x) < cuts.MinViolation*math.Max(1, c.Norm()) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// lpProblem describes the LP's current rows (model rows and active cuts) and
// bounds for Gomory cuts.
func (s *search) lpProblem(active []int) *cuts.Problem {
	if len(active) == 0 {
		p := *s.prob
		p.Lower, p.Upper = s.curLo, s.curUp
		return &p
	}
	csr := model.CSR{
		RowStart: append([]int(nil), s.rowm.RowStart...),
		ColIndex: append([]int(nil), s.rowm.ColIndex...),
		Value:    append([]float64(nil), s.rowm.Value...),
	}
	lo := append([]float64(nil), s.m.RowLower...)
	up := append([]float64(nil), s.m.RowUpper...)
	for _, k := range active {
		c := s.pool.Cuts[k]
		csr.ColIndex = append(csr.ColIndex, c.Ind...)
		csr.Value = append(csr.Value, c.Coef...)
		csr.RowStart = append(csr.RowStart, len(csr.ColIndex))
		lo = append(lo, math.Inf(-1))
		up = append(up, c.Rhs)
	}
	return &cuts.Problem{NumCols: s.n, Lower: s.curLo, Upper: s.curUp, IsInt: s.prob.IsInt, Rows: csr, RowLower: lo, RowUpper: up}
}
