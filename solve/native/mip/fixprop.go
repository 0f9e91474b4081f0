package mip

import (
	"math"
	"sort"

	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/native/simplex"
)

const (
	// fixPropMaxVisits bounds the row visits of one fix-and-propagate run
	// (a count, so that the search stays deterministic).
	fixPropMaxVisits = 2_000_000
	// fixPropIterLimit bounds the simplex iterations of the LP over the
	// continuous columns that completes a fix-and-propagate point.
	fixPropIterLimit = 5000
	// fixPropMaxBacktracks bounds the decisions undone by one run.
	fixPropMaxBacktracks = 100
)

// bndTrail records bound changes so that a failed fixing can be undone.
type bndTrail struct {
	col    int
	lo, up float64
}

// boundProp propagates activity bounds on local copies of the column bounds
// (no LP): the state of fix-and-propagate.
type boundProp struct {
	s      *search
	lo, up []float64
	trail  []bndTrail
	queued []bool
	queue  []int
	visits int
}

func newBoundProp(s *search, lo, up []float64) *boundProp {
	return &boundProp{s: s, lo: lo, up: up, queued: make([]bool, s.m.NumRows())}
}

// set changes the bounds of column j, recording the old ones, and queues its
// rows.
func (p *boundProp) set(j int, lo, up float64) {
	p.trail = append(p.trail, bndTrail{j, p.lo[j], p.up[j]})
	p.lo[j], p.up[j] = lo, up
	m := p.s.m
	for k := m.ColStart[j]; k < m.ColStart[j+1]; k++ {
		if i := m.RowIndex[k]; !p.queued[i] {
			p.queued[i] = true
			p.queue = append(p.queue, i)
		}
	}
}

// undo restores the bounds to the trail length mark.
func (p *boundProp) undo(mark int) {
	for k := len(p.trail) - 1; k >= mark; k-- {
		t := p.trail[k]
		p.lo[t.col], p.up[t.col] = t.lo, t.up
	}
	p.trail = p.trail[:mark]
	for _, i := range p.queue {
		p.queued[i] = false
	}
	p.queue = p.queue[:0]
}

// run propagates the queued rows; false when some row cannot be satisfied
// (or the visit budget ran out).
func (p *boundProp) run() bool {
	s := p.s
	m := s.m
	for len(p.queue) > 0 {
		i := p.queue[len(p.queue)-1]
		p.queue = p.queue[:len(p.queue)-1]
		p.queued[i] = false
		if p.visits++; p.visits > fixPropMaxVisits {
			return false
		}
		a, b := s.rowm.RowStart[i], s.rowm.RowStart[i+1]
		cols, vals := s.rowm.ColIndex[a:b], s.rowm.Value[a:b]
		act := rowActivity(cols, vals, p.lo, p.up)
		rl, ru := m.RowLower[i], m.RowUpper[i]
		if act.infeasible(rl, ru) {
			return false
		}
		// Skip rows that cannot force anything.
		if !act.canTighten(rl, ru) {
			continue
		}
		for k, j := range cols {
			if !s.isInt[j] {
				continue
			}
			v := vals[k]
			l, u := p.lo[j], p.up[j]
			if l == u {
				continue
			}
			nl, nu := act.intBounds(v, l, u, rl, ru)
			if nl <= l && nu >= u {
				continue
			}
			if nl > nu {
				return false
			}
			// The row's activities change: revisit it after this change.
			p.set(j, nl, nu)
			break
		}
	}
	return true
}

// fixAndPropagate is a primal heuristic without LP solves in its main loop:
// it visits the fractional and integral integer columns by decreasing LP
// value (so that the assignment columns the LP likes are set to 1 first),
// fixes each still-free column at its rounded LP value (the other rounding
// when propagation shows a conflict), propagates the bounds through every
// row, and finally solves the LP over the continuous columns with all
// integers fixed. On set-partitioning rows a fixing at 1 zeroes the row's
// other columns at once, which single-column diving learns one LP at a time.
//
// It tries two roundings: first every fractional value up (greedy: the
// columns the LP uses are taken while propagation allows), then, when that
// meets a conflict on both values of a column, nearest rounding.
func (s *search) fixAndPropagate(x []float64) bool {
	if len(s.intCols) == 0 {
		return false
	}
	return s.fixProp(x, true) || s.fixProp(x, false)
}

func (s *search) fixProp(x []float64, up1 bool) bool {
	lo := append([]float64(nil), s.curLo...)
	up := append([]float64(nil), s.curUp...)
	for _, j := range s.intCols {
		lo[j] = math.Ceil(lo[j] - intTol)
		up[j] = math.Floor(up[j] + intTol)
	}
	p := newBoundProp(s, lo, up)
	order := append([]int(nil), s.intCols...)
	sort.SliceStable(order, func(a, b int) bool { return x[order[a]] > x[order[b]] })
	// Depth-first over the decisions with chronological backtracking: a
	// column whose both values conflict undoes the latest decision that
	// still has its other value untried (at most fixPropMaxBacktracks times).
	type decision struct {
		pos, mark int
		alt       float64 // the untried value; NaN once both were tried
	}
	var stack []decision
	try := func(j int, v float64) bool {
		p.set(j, v, v)
		return p.run()
	}
	backtracks := 0
	for pos := 0; pos < len(order); {
		j := order[pos]
		if lo[j] == up[j] || (math.IsInf(lo[j], -1) && math.IsInf(up[j], 1)) {
			pos++
			continue
		}
		r := math.Round(x[j])
		if up1 && x[j]-math.Floor(x[j]) > intTol {
			r = math.Ceil(x[j])
		}
		v := math.Max(lo[j], math.Min(up[j], r))
		// The other value: the other rounding of a fractional value, the
		// neighbour inside the domain of an integral one.
		alt := v + 1
		if x[j] < v || v+1 > up[j] {
			alt = v - 1
		}
		if alt < lo[j] || alt > up[j] {
			alt = math.NaN()
		}
		mark := len(p.trail)
		if try(j, v) {
			stack = append(stack, decision{pos, mark, alt})
			pos++
			continue
		}
		p.undo(mark)
		if !math.IsNaN(alt) {
			if try(j, alt) {
				stack = append(stack, decision{pos, mark, math.NaN()})
				pos++
				continue
			}
			p.undo(mark)
		}
		// Backtrack.
		for {
			if len(stack) == 0 || backtracks >= fixPropMaxBacktracks || p.visits > fixPropMaxVisits {
				s.logv2("  fix-and-propagate: conflict at %s after %d backtracks\n", s.m.ColName(j), backtracks)
				return false
			}
			backtracks++
			d := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			p.undo(d.mark)
			if math.IsNaN(d.alt) {
				continue
			}
			if try(order[d.pos], d.alt) {
				stack = append(stack, decision{d.pos, d.mark, math.NaN()})
				pos = d.pos + 1
				break
			}
			p.undo(d.mark)
		}
	}
	y := make([]float64, s.n)
	cont := false
	for j := range y {
		if s.isInt[j] {
			if lo[j] != up[j] {
				return false // an unbounded integer column left free
			}
			y[j] = lo[j]
			continue
		}
		cont = true
		y[j] = math.Max(lo[j], math.Min(up[j], x[j]))
	}
	if !cont {
		return s.setIncumbent(y, "P")
	}
	if ok, _ := within(s.m, y); ok {
		return s.setIncumbent(y, "P")
	}
	f := s.m.Clone()
	copy(f.ColLower, lo)
	copy(f.ColUpper, up)
	lp, err := simplex.New(f, simplex.Options{Seed: s.opts.Seed, Deadline: s.deadline, IterationLimit: fixPropIterLimit})
	if err != nil {
		return false
	}
	st := lp.Solve(s.ctx)
	s.extraIters += lp.Iterations()
	if st != solve.Optimal {
		s.logv2("  fix-and-propagate: LP over the continuous columns %v\n", st)
		return false
	}
	return s.setIncumbent(lp.X(), "P")
}

// logv2 logs at verbosity 2.
func (s *search) logv2(format string, a ...any) {
	if s.opts.Verbosity > 1 {
		s.logf(format, a...)
	}
}
