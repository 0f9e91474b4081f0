package mip

import "math"

const (
	// maxPropRows bounds the row visits of one node's propagation.
	maxPropRows = 20000
	// propTol is the activity slack below which a row counts as violated by
	// the bounds (scaled by max(1, |side|)).
	propTol = 1e-9
)

// propagate tightens the bounds of integer columns at node nd by activity
// arguments on the rows of the columns whose bounds the node changed, as
// presolve does globally. Tightened bounds are appended to nd.chg (so the
// children inherit them) and installed in the LP. It reports false when some
// row cannot be satisfied: the node is infeasible.
func (s *search) propagate(nd *node) bool {
	path := nd.path()
	if len(path) == 0 {
		return true
	}
	m := s.m
	lo, up := s.curLo, s.curUp
	if len(s.propQueued) != m.NumRows() {
		s.propQueued = make([]bool, m.NumRows())
	}
	queued := s.propQueued
	queue := s.propQueue[:0]
	defer func() {
		for _, i := range queue {
			queued[i] = false
		}
		s.propQueue = queue[:0]
	}()
	push := func(j int) {
		for k := m.ColStart[j]; k < m.ColStart[j+1]; k++ {
			if i := m.RowIndex[k]; !queued[i] {
				queued[i] = true
				queue = append(queue, i)
			}
		}
	}
	for _, c := range path {
		push(c.Col)
	}
	changed := false
	visits := 0
	for head := 0; head < len(queue) && visits < maxPropRows; head++ {
		i := queue[head]
		queued[i] = false
		visits++
		a, b := s.rowm.RowStart[i], s.rowm.RowStart[i+1]
		cols, vals := s.rowm.ColIndex[a:b], s.rowm.Value[a:b]
		act := rowActivity(cols, vals, lo, up)
		rl, ru := m.RowLower[i], m.RowUpper[i]
		if act.infeasible(rl, ru) {
			s.reapply(nd) // keep curLo/curUp in step with the LP
			return false
		}
		if !act.canTighten(rl, ru) {
			continue
		}
		for k, j := range cols {
			if !s.isInt[j] {
				continue
			}
			v := vals[k]
			l, u := lo[j], up[j]
			nl, nu := act.intBounds(v, l, u, rl, ru)
			if nl <= l && nu >= u {
				continue
			}
			if nl > nu {
				s.reapply(nd)
				return false
			}
			nd.chg = append(nd.chg, bndChg{j, nl, nu})
			lo[j], up[j] = nl, nu // provisional; apply installs them in the LP
			changed = true
			push(j)
			// Activities changed: recompute this row on its next visit.
			if !queued[i] {
				queued[i] = true
				queue = append(queue, i)
			}
			break
		}
	}
	if changed {
		// Reset the provisional values so that apply sees the LP's state.
		return s.reapply(nd)
	}
	return true
}

// reapply installs nd's bounds after propagation changed curLo/curUp
// provisionally: it forces every column of nd.chg to be set again.
func (s *search) reapply(nd *node) bool {
	for _, c := range nd.path() {
		s.curLo[c.Col], s.curUp[c.Col] = math.NaN(), math.NaN()
	}
	return s.apply(nd)
}
