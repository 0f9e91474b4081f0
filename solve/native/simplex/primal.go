package simplex

import (
	"context"
	"math"

	"github.com/mrbound/mrbound/solve"
)

// primalSimplex runs the bounded primal simplex (phase 2, Devex pricing,
// Harris ratio test) on the working costs from a primal feasible basis.
func (e *engine) primalSimplex(ctx context.Context) (phaseResult, solve.Status) {
	ptol, dtol := e.opts.PrimalTol, e.opts.DualTol
	alphaV, rhoV := e.alphaV, e.rhoV
	alpha := alphaV.val
	for k := range e.devex {
		e.devex[k] = 1
	}
	if e.maxPrimalInfeas() > ptol {
		return phaseRestart, solve.StatusUnknown
	}
	startIters := e.lastIters
	degenerate := 0
	for {
		if st := e.limit(ctx); st != solve.StatusUnknown {
			return phaseLimit, st
		}
		if e.lastIters-startIters > int64(phaseCapFactor*(e.m+e.n)+phaseCapBase) {
			return phaseRestart, solve.NumericalTrouble
		}
		if e.needFactor || e.fac.numUpdates() >= refactorEvery || e.fac.filled() {
			e.refactor()
			e.computePrimal()
			e.computeDual()
			if e.maxPrimalInfeas() > ptol {
				return phaseRestart, solve.StatusUnknown
			}
		}
		// Pricing (Devex); once the primal stalls (primalStallIters
		// degenerate steps in a row) a random improving candidate, which
		// breaks any cycle with probability one.
		q, best := -1, 0.0
		seen := 0
		for k := 0; k < e.n+e.m; k++ {
			if e.stat[k] == stBasic {
				continue
			}
			inf := e.dualInfeas(k)
			if inf <= dtol {
				continue
			}
			if degenerate > primalStallIters {
				seen++
				if e.rng.Intn(seen) == 0 {
					q = k
				}
				continue
			}
			if sc := inf * inf / e.devex[k]; sc > best {
				best, q = sc, k
			}
		}
		if q < 0 {
			return phaseOptimal, solve.Optimal
		}
		dir := 1.0
		if e.d[q] > 0 {
			dir = -1
		}
		alphaV.reset()
		e.setColumnS(alphaV, q)
		e.fac.ftranSpikeS(alphaV)
		// Harris pass 1.
		rangeQ := e.up[q] - e.lo[q]
		thMax := math.Inf(1)
		for _, p := range alphaV.idx {
			k := e.head[p]
			a := alpha[p]
			if math.Abs(a) <= pivotTol {
				continue
			}
			rate := -dir * a
			if rate < 0 && !math.IsInf(e.lo[k], -1) {
				thMax = math.Min(thMax, (e.x[k]-e.lo[k]+ptol)/(-rate))
			} else if rate > 0 && !math.IsInf(e.up[k], 1) {
				thMax = math.Min(thMax, (e.up[k]-e.x[k]+ptol)/rate)
			}
		}
		if math.IsInf(thMax, 1) && math.IsInf(rangeQ, 1) {
			e.setPrimalRay(q, dir, alpha)
			return phaseUnbounded, solve.Unbounded
		}
		// Pass 2.
		r, bestA, theta := -1, 0.0, 0.0
		toLower := false
		for _, p := range alphaV.idx {
			k := e.head[p]
			a := alpha[p]
			if math.Abs(a) <= pivotTol {
				continue
			}
			rate := -dir * a
			var ratio float64
			var lower bool
			if rate < 0 && !math.IsInf(e.lo[k], -1) {
				ratio, lower = (e.x[k]-e.lo[k])/(-rate), true
			} else if rate > 0 && !math.IsInf(e.up[k], 1) {
				ratio, lower = (e.up[k]-e.x[k])/rate, false
			} else {
				continue
			}
			if ratio <= thMax && math.Abs(a) > bestA {
				bestA, r, theta, toLower = math.Abs(a), p, ratio, lower
			}
		}
		if rangeQ <= thMax || r < 0 {
			if math.IsInf(rangeQ, 1) {
				// Only through rounding: refactor and retry.
				if e.fac.numUpdates() > 0 {
					e.refactor()
					e.computePrimal()
					e.computeDual()
					continue
				}
				return phaseRestart, solve.NumericalTrouble
			}
			// Bound flip of the entering variable.
			step := dir * rangeQ
			if e.stat[q] == stLower {
				e.stat[q], e.x[q] = stUpper, e.up[q]
			} else {
				e.stat[q], e.x[q] = stLower, e.lo[q]
			}
			for _, p := range alphaV.idx {
				e.x[e.head[p]] -= step * alpha[p]
			}
			e.lastIters++
			e.totalIters++
			continue
		}
		if theta < 0 {
			theta = 0
		}
		if theta <= 1e-12 {
			degenerate++
		} else {
			degenerate = 0
		}
		// Pivot row for the dual update.
		rhoV.reset()
		rhoV.set(r, 1)
		e.fac.btranS(rhoV)
		e.pivotRowS(rhoV.val, rhoV.idx)
		arow := e.prow[q]
		if math.Abs(alpha[r]-arow) > alphaRelErr*(1+math.Abs(arow)) {
			if e.fac.numUpdates() > 0 {
				e.refactor()
				e.computePrimal()
				e.computeDual()
				continue
			}
		}
		leave := e.head[r]
		// Primal update.
		e.x[q] += dir * theta
		for _, p := range alphaV.idx {
			e.x[e.head[p]] -= dir * theta * alpha[p]
		}
		if toLower {
			e.x[leave], e.stat[leave] = e.lo[leave], stLower
		} else {
			e.x[leave], e.stat[leave] = e.up[leave], stUpper
		}
		// Dual update.
		ar := alpha[r]
		thd := e.d[q] / ar
		for _, k := range e.plist {
			e.d[k] -= thd * e.prow[k]
		}
		e.d[q] = 0
		e.d[leave] = -thd
		// Devex reference weights.
		wq := e.devex[q]
		for _, k := range e.plist {
			ratio := e.prow[k] / ar
			if w := ratio * ratio * wq; w > e.devex[k] {
				e.devex[k] = w
			}
		}
		e.devex[leave] = math.Max(wq/(ar*ar), 1)
		e.pos[leave] = -1
		e.head[r] = q
		e.pos[q] = r
		e.stat[q] = stBasic
		if !e.fac.update(r) {
			e.needFactor = true
		}
		e.lastIters++
		e.totalIters++
	}
}

// setPrimalRay stores the unscaled primal ray over the columns: x_q moves
// by dir, x_B by −dir·α.
func (e *engine) setPrimalRay(q int, dir float64, alpha []float64) {
	e.ray = make([]float64, e.n)
	if q < e.n {
		e.ray[q] = dir * e.colScale[q]
	}
	for p, k := range e.head {
		if k < e.n {
			e.ray[k] = -dir * alpha[p] * e.colScale[k]
		}
	}
}
