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
	if len(nd.chg) == 0 {
		return true
	}
	m := s.m
	lo, up := s.curLo, s.curUp
	queued := map[int]bool{}
	var queue []int
	push := func(j int) {
		for k := m.ColStart[j]; k < m.ColStart[j+1]; k++ {
			if i := m.RowIndex[k]; !queued[i] {
				queued[i] = true
				queue = append(queue, i)
			}
		}
	}
	for _, c := range nd.chg {
		push(c.Col)
	}
	changed := false
	visits := 0
	for len(queue) > 0 && visits < maxPropRows {
		i := queue[0]
		queue = queue[1:]
		queued[i] = false
		visits++
		a, b := s.rowm.RowStart[i], s.rowm.RowStart[i+1]
		cols, vals := s.rowm.ColIndex[a:b], s.rowm.Value[a:b]
		var minF, maxF float64
		var minInf, maxInf int
		for k, j := range cols {
			v := vals[k]
			l, u := lo[j], up[j]
			if v < 0 {
				l, u = u, l
			}
			if math.IsInf(l, 0) {
				minInf++
			} else {
				minF += v * l
			}
			if math.IsInf(u, 0) {
				maxInf++
			} else {
				maxF += v * u
			}
		}
		rl, ru := m.RowLower[i], m.RowUpper[i]
		if minInf == 0 && minF > ru+propTol*math.Max(1, math.Abs(ru)) && !math.IsInf(ru, 1) ||
			maxInf == 0 && maxF < rl-propTol*math.Max(1, math.Abs(rl)) && !math.IsInf(rl, -1) {
			s.reapply(nd) // keep curLo/curUp in step with the LP
			return false
		}
		for k, j := range cols {
			if !s.isInt[j] {
				continue
			}
			v := vals[k]
			l, u := lo[j], up[j]
			cl, cu := l, u // the column's contribution to min and max
			if v < 0 {
				cl, cu = u, l
			}
			// Residual activities without column j.
			rMin, rMinOK := minF, minInf == 0
			if math.IsInf(cl, 0) {
				rMinOK = minInf == 1
			} else if rMinOK {
				rMin -= v * cl
			}
			rMax, rMaxOK := maxF, maxInf == 0
			if math.IsInf(cu, 0) {
				rMaxOK = maxInf == 1
			} else if rMaxOK {
				rMax -= v * cu
			}
			nl, nu := l, u
			if rMinOK && !math.IsInf(ru, 1) {
				if t := (ru - rMin) / v; v > 0 {
					nu = math.Min(nu, math.Floor(t+intTol))
				} else {
					nl = math.Max(nl, math.Ceil(t-intTol))
				}
			}
			if rMaxOK && !math.IsInf(rl, -1) {
				if t := (rl - rMax) / v; v > 0 {
					nl = math.Max(nl, math.Ceil(t-intTol))
				} else {
					nu = math.Min(nu, math.Floor(t+intTol))
				}
			}
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
	for _, c := range nd.chg {
		s.curLo[c.Col], s.curUp[c.Col] = math.NaN(), math.NaN()
	}
	return s.apply(nd)
}
