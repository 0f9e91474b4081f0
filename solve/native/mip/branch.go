package mip

import (
	"math"
	"sort"

	"github.com/mrbound/mrbound/solve"
)

const (
	// reliabilityCount is the number of observations per direction after
	// which a column's pseudo-cost is trusted instead of strong branching.
	reliabilityCount = 4
	// strongIterLimit bounds the dual simplex iterations of one strong
	// branching LP.
	strongIterLimit = 100
	// maxStrongCands bounds the candidates strong-branched at one node.
	maxStrongCands = 10
	// strongLookahead stops strong branching after this many candidates in a
	// row did not improve the best score.
	strongLookahead = 4
	// sbIterRatio and sbIterBase bound the strong-branching effort relative
	// to the node LPs (see search.sbIters).
	sbIterRatio = 2
	sbIterBase  = 50000
	// maxFlatStrong stops strong branching at a node after this many
	// candidates in a row moved the bound in neither direction (a flat
	// objective, as in the makespan models: more candidates only tie).
	maxFlatStrong = 2
	// scoreEps keeps a zero gain from zeroing the product score.
	scoreEps = 1e-6
)

// pseudoCosts are the average objective gains per unit change of a column,
// downwards and upwards.
type pseudoCosts struct {
	sum   [2][]float64
	cnt   [2][]int
	total [2]float64
	n     [2]int
	// cutoffs counts children of each column found infeasible.
	cutoffs []int
}

func newPseudoCosts(n int) pseudoCosts {
	var p pseudoCosts
	for d := 0; d < 2; d++ {
		p.sum[d] = make([]float64, n)
		p.cnt[d] = make([]int, n)
	}
	p.cutoffs = make([]int, n)
	return p
}

func dir(up bool) int {
	if up {
		return 1
	}
	return 0
}

// update records an observed gain per unit for column j.
func (p *pseudoCosts) update(j int, up bool, perUnit float64) {
	if math.IsNaN(perUnit) || math.IsInf(perUnit, 0) {
		return
	}
	perUnit = math.Max(perUnit, 0)
	d := dir(up)
	p.sum[d][j] += perUnit
	p.cnt[d][j]++
	p.total[d] += perUnit
	p.n[d]++
}

// infeasible notes a child of column j that turned out infeasible.
func (p *pseudoCosts) infeasible(j int, _ bool) { p.cutoffs[j]++ }

// weight scales a pseudo-cost score by how often branching on j cut off a
// child and by the fractionality f (tie-breakers that matter when the
// objective gives no signal, as in feasibility problems).
func (p *pseudoCosts) weight(j int, f float64) float64 {
	obs := p.cnt[0][j] + p.cnt[1][j] + p.cutoffs[j]
	w := 1 + 0.1*math.Min(f, 1-f)
	if obs > 0 {
		w += float64(p.cutoffs[j]) / float64(obs)
	}
	return w
}

// get is the pseudo-cost of column j, or the average over all columns when
// j has no observation yet.
func (p *pseudoCosts) get(j int, up bool) float64 {
	d := dir(up)
	if p.cnt[d][j] > 0 {
		return p.sum[d][j] / float64(p.cnt[d][j])
	}
	if p.n[d] > 0 {
		return p.total[d] / float64(p.n[d])
	}
	return 1
}

func (p *pseudoCosts) reliable(j int) bool {
	return p.cnt[0][j] >= reliabilityCount && p.cnt[1][j] >= reliabilityCount
}

func score(down, up float64) float64 {
	return math.Max(down, scoreEps) * math.Max(up, scoreEps)
}

// selectBranch picks the branching column by reliability branching. When
// strong branching shows a direction to be infeasible or cut off it tightens
// the node instead (tightened) or proves it infeasible.
func (s *search) selectBranch(nd *node, x []float64, frac []int, z float64) (best int, tightened, infeasible bool) {
	type cand struct {
		j     int
		f     float64
		score float64
	}
	cs := make([]cand, len(frac))
	for k, j := range frac {
		f := x[j] - math.Floor(x[j])
		cs[k] = cand{j, f, score(s.pc.get(j, false)*f, s.pc.get(j, true)*(1-f)) * s.pc.weight(j, f)}
	}
	sort.SliceStable(cs, func(a, b int) bool {
		if cs[a].score != cs[b].score {
			return cs[a].score > cs[b].score
		}
		return cs[a].j < cs[b].j
	})
	best, bestScore := cs[0].j, math.Inf(-1)
	var clone LP
	var basis = s.lp.Basis()
	stale, strong, flat := 0, 0, 0
	cutoff := s.cutoff()
	for _, c := range cs {
		sc := c.score
		if !s.pc.reliable(c.j) && strong < maxStrongCands && flat < maxFlatStrong && s.sbIters <= sbIterRatio*s.treeIters+sbIterBase {
			strong++
			if clone == nil {
				clone = s.lp.Clone()
				o := s.lpOpts
				o.IterationLimit = strongIterLimit
				clone.SetOptions(o)
			}
			var gain [2]float64
			var cut [2]bool
			lo, up := s.curLo[c.j], s.curUp[c.j]
			for d := 0; d < 2; d++ {
				_ = clone.SetBasis(basis)
				if d == 0 {
					_ = clone.SetColBounds(c.j, lo, math.Floor(x[c.j]))
				} else {
					_ = clone.SetColBounds(c.j, math.Ceil(x[c.j]), up)
				}
				before := clone.Iterations()
				st := clone.Solve(s.ctx)
				s.extraIters += clone.Iterations() - before
				s.sbIters += clone.Iterations() - before
				switch st {
				case solve.Infeasible:
					cut[d] = true
				case solve.Optimal, solve.IterationLimit:
					zc := s.sigma * clone.Objective()
					gain[d] = math.Max(zc-z, 0)
					if st == solve.Optimal {
						if b := s.roundBound(zc); b >= cutoff {
							cut[d] = true
							s.discard(math.Max(b, nd.bound))
						}
						dist := c.f
						if d == 1 {
							dist = 1 - c.f
						}
						s.pc.update(c.j, d == 1, gain[d]/dist)
					}
				}
				_ = clone.SetColBounds(c.j, lo, up)
			}
			s.sbCands++
			for d := 0; d < 2; d++ {
				if cut[d] {
					s.pc.infeasible(c.j, d == 1)
				}
			}
			if cut[0] || cut[1] {
				s.sbCutoffs++
			}
			switch {
			case cut[0] && cut[1]:
				return -1, false, true
			case cut[0]:
				nd.chg = append(nd.chg, bndChg{c.j, math.Ceil(x[c.j]), math.Inf(1)})
				if !s.apply(nd) {
					return -1, false, true
				}
				return -1, true, false
			case cut[1]:
				nd.chg = append(nd.chg, bndChg{c.j, math.Inf(-1), math.Floor(x[c.j])})
				if !s.apply(nd) {
					return -1, false, true
				}
				return -1, true, false
			}
			if gain[0] <= scoreEps && gain[1] <= scoreEps {
				flat++
			} else {
				flat = 0
			}
			sc = score(gain[0], gain[1]) * s.pc.weight(c.j, c.f)
		}
		if sc > bestScore {
			best, bestScore = c.j, sc
			stale = 0
		} else {
			stale++
			if stale >= strongLookahead && strong > 0 {
				break
			}
		}
	}
	return best, false, false
}
