package mip

import (
	"math"
	"time"

	"github.com/mrbound/mrbound/solve"
)

const (
	// diveFreq: a dive is started every diveFreq nodes.
	diveFreq = 100
	// maxDiveDepth bounds the LPs solved by one dive.
	maxDiveDepth = 200
	// diveIterLimit bounds the simplex iterations of one dive LP, and
	// diveIterBudget those of a whole dive (a count, not a clock, so that
	// the search stays deterministic).
	diveIterLimit  = 500
	diveIterBudget = 5000
	// rinsFreq: RINS first runs after rinsFreq nodes once an incumbent
	// exists; the interval doubles after every run that finds nothing.
	rinsFreq = 250
	// rinsMinFixed is the smallest fraction of integer columns RINS must fix.
	rinsMinFixed = 0.3
	// rinsNodes is the node limit of a RINS sub-MIP.
	rinsNodes = 200
	// rootRinsIters: RINS runs at the root, once an incumbent exists, when
	// the root LP and its cut rounds took at least this many iterations.
	rootRinsIters = 2000
	// diveQuota and diveQuotaBase bound the simplex iterations of the dives
	// in the tree by diveQuota times the node LPs' plus diveQuotaBase: on
	// small LPs (mas74: ~7 iterations a node) a 5000-iteration dive every
	// diveFreq nodes would cost more than the tree.
	diveQuota     = 0.1
	diveQuotaBase = 10000
	// maxFPGap caps the interval of fix-and-propagate in the tree, which
	// doubles after every run that finds nothing.
	maxFPGap = 32 * diveFreq
)

// treeHeuristics runs fix-and-propagate and a dive at a tree node (every
// diveFreq nodes), each within its own budget: fix-and-propagate on an
// interval that doubles after each run without a better incumbent (up to
// maxFPGap) and returns to diveFreq after a success; a dive while the dives'
// iterations stay within diveQuota of the node LPs' (plus diveQuotaBase).
func (s *search) treeHeuristics(x []float64, depth int) {
	if s.nodes >= s.fpNext {
		if s.fixAndPropagate(x) {
			s.fpGap = diveFreq
		} else {
			s.fpGap = min(2*s.fpGap, maxFPGap)
		}
		s.fpNext = s.nodes + s.fpGap
	}
	if float64(s.diveIters) <= diveQuota*float64(s.treeIters)+diveQuotaBase {
		it := s.extraIters
		s.dive(x, depth)
		s.diveIters += s.extraIters - it
	}
}

// roundingHeuristic rounds every fractional integer column in a direction in
// which it locks no row (simple rounding); if some column locks both ways it
// tries nearest rounding (ZI-style shifting is not attempted). It runs at
// every node, so it works in a buffer and checks the objective and then the
// rows (stopping at the first violated one) before the full check of
// setIncumbent.
func (s *search) roundingHeuristic(x []float64) {
	y := append(s.roundBuf[:0], x...)
	s.roundBuf = y
	simple := true
	for _, j := range s.intCols {
		v := y[j]
		if math.Abs(v-math.Round(v)) <= intTol {
			y[j] = math.Round(v)
			continue
		}
		switch {
		case s.downLocks[j] == 0:
			y[j] = math.Floor(v)
		case s.upLocks[j] == 0:
			y[j] = math.Ceil(v)
		default:
			simple = false
			y[j] = math.Round(v)
		}
		y[j] = math.Max(s.curLo[j], math.Min(s.curUp[j], y[j]))
	}
	tag := "R"
	if !simple {
		tag = "N"
	}
	if s.objValue(y) < s.incObj-1e-9 && s.rowsHold(y) {
		s.setIncumbent(y, tag)
	}
}

// objValue is the internal (sigma-scaled) objective of x, offset included.
func (s *search) objValue(x []float64) float64 {
	z := s.m.ObjOffset
	for j, c := range s.m.Obj {
		if c != 0 {
			z += c * x[j]
		}
	}
	return s.sigma * z
}

// rowsHold reports whether x satisfies every row within feasTol; it stops at
// the first violated row (a cheap filter before setIncumbent's full check).
func (s *search) rowsHold(x []float64) bool {
	m, r := s.m, &s.rowm
	for i := 0; i < m.NumRows(); i++ {
		a := 0.0
		for k := r.RowStart[i]; k < r.RowStart[i+1]; k++ {
			a += r.Value[k] * x[r.ColIndex[k]]
		}
		if a < m.RowLower[i]-feasTol || a > m.RowUpper[i]+feasTol {
			return false
		}
	}
	return true
}

// dive runs a fractional dive from the current LP point on a clone of the LP:
// repeatedly bound the least fractional column to its nearest integer (the
// other side when that LP is infeasible) until the LP is integral, infeasible
// or worse than the incumbent.
func (s *search) dive(x []float64, depth int) {
	if len(s.intCols) == 0 {
		return
	}
	lp := s.lp.Clone()
	o := s.lpOpts
	o.IterationLimit = diveIterLimit
	lp.SetOptions(o)
	it0 := lp.Iterations()
	defer func() { s.extraIters += lp.Iterations() - it0 }()
	lo := append([]float64(nil), s.curLo...)
	up := append([]float64(nil), s.curUp...)
	for step := 0; step < maxDiveDepth; step++ {
		if s.ctx.Err() != nil || (!s.deadline.IsZero() && time.Now().After(s.deadline)) {
			return
		}
		if lp.Iterations()-it0 > diveIterBudget {
			return
		}
		best, bestF := -1, 2.0
		for _, j := range s.intCols {
			f := x[j] - math.Floor(x[j])
			if f <= intTol || f >= 1-intTol {
				continue
			}
			d := math.Min(f, 1-f)
			// Prefer directions free of locks.
			if (f < 0.5 && s.downLocks[j] == 0) || (f >= 0.5 && s.upLocks[j] == 0) {
				d -= 1
			}
			if d < bestF {
				best, bestF = j, d
			}
		}
		if best < 0 {
			s.setIncumbent(x, "D")
			return
		}
		j := best
		v := x[j]
		down := v-math.Floor(v) < 0.5
		ok := false
		for attempt := 0; attempt < 2 && !ok; attempt++ {
			if down {
				_ = lp.SetColBounds(j, lo[j], math.Floor(v))
			} else {
				_ = lp.SetColBounds(j, math.Ceil(v), up[j])
			}
			st := lp.Solve(s.ctx)
			if st == solve.Optimal && s.roundBound(s.sigma*lp.Objective()) < s.cutoff() {
				ok = true
				if down {
					up[j] = math.Floor(v)
				} else {
					lo[j] = math.Ceil(v)
				}
				break
			}
			if st != solve.Optimal && st != solve.Infeasible {
				return
			}
			_ = lp.SetColBounds(j, lo[j], up[j])
			down = !down
		}
		if !ok {
			return
		}
		x = lp.X()
		s.roundingHeuristic(x)
	}
}

// rins solves a sub-MIP in which the integer columns whose LP value equals
// the incumbent's are fixed.
func (s *search) rins(x []float64) {
	sub := s.m.Clone()
	fixed := 0
	for _, j := range s.intCols {
		v := s.incumbent[j]
		if math.Abs(x[j]-v) <= intTol {
			sub.ColLower[j], sub.ColUpper[j] = v, v
			fixed++
		} else {
			sub.ColLower[j], sub.ColUpper[j] = s.glo[j], s.gup[j]
		}
	}
	if float64(fixed) < rinsMinFixed*float64(len(s.intCols)) || fixed == len(s.intCols) {
		s.rinsNext = s.nodes + s.rinsGap
		return
	}
	opts := s.opts
	opts.Log = nil
	opts.NodeLimit = rinsNodes
	// The incumbent is the sub-MIP's start: its objective prunes the sub-tree.
	opts.Start = s.incumbent
	if !s.deadline.IsZero() {
		opts.TimeLimit = time.Until(s.deadline)
		if opts.TimeLimit <= 0 {
			return
		}
	}
	res := solveWith(s.ctx, sub, opts, config{sub: true})
	s.extraIters += res.Iterations
	if !(res.HasSolution && s.setIncumbent(res.X, "I")) {
		s.rinsGap *= 2
	}
	s.rinsNext = s.nodes + s.rinsGap
}
