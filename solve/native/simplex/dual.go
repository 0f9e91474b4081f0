package simplex

import (
	"context"
	"math"
	"time"

	"github.com/mrbound/mrbound/solve"
)

// phaseResult is the outcome of one simplex phase.
type phaseResult int8

const (
	phaseOptimal phaseResult = iota
	phaseInfeasible
	phaseUnbounded
	phaseLimit
	phaseRestart // numerical trouble or lost feasibility: restart the loop
)

// limit reports a reached limit as a status, or StatusUnknown.
func (e *engine) limit(ctx context.Context) solve.Status {
	if e.iterLimit > 0 && e.lastIters >= e.iterLimit {
		return solve.IterationLimit
	}
	if e.lastIters%16 == 0 {
		if err := ctx.Err(); err != nil {
			if err == context.DeadlineExceeded {
				return solve.TimeLimit
			}
			return solve.Interrupted
		}
		if !e.opts.Deadline.IsZero() && time.Now().After(e.opts.Deadline) {
			return solve.TimeLimit
		}
	}
	return solve.StatusUnknown
}

// makeDualFeasible flips boxed nonbasic variables with a wrong-signed
// reduced cost and shifts the working cost of the others; with perturb it
// also perturbs the working costs away from zero reduced costs. It reports
// whether any variable was flipped (x_B must then be recomputed).
func (e *engine) makeDualFeasible(perturb bool) bool {
	tol := e.opts.DualTol
	flipped := false
	for k := 0; k < e.n+e.m; k++ {
		if e.stat[k] == stBasic {
			continue
		}
		lo, up := e.lo[k], e.up[k]
		boxed := !math.IsInf(lo, -1) && !math.IsInf(up, 1)
		if lo == up {
			continue
		}
		dk := e.d[k]
		switch e.stat[k] {
		case stLower:
			if dk < -tol {
				if boxed {
					e.stat[k], e.x[k] = stUpper, up
					flipped = true
				} else {
					e.wcost[k] -= dk
					e.d[k] = 0
					e.shifted = true
				}
			}
		case stUpper:
			if dk > tol {
				if boxed {
					e.stat[k], e.x[k] = stLower, lo
					flipped = true
				} else {
					e.wcost[k] -= dk
					e.d[k] = 0
					e.shifted = true
				}
			}
		case stFree:
			if dk != 0 {
				e.wcost[k] -= dk
				e.d[k] = 0
				e.shifted = true
			}
		}
	}
	if perturb {
		e.perturbCosts()
	}
	return flipped
}

// perturbCosts moves the working costs of nonbasic columns away from
// zero reduced costs, in the direction that keeps dual feasibility, against
// dual degeneracy.
func (e *engine) perturbCosts() {
	for k := 0; k < e.n; k++ {
		if e.stat[k] == stBasic || e.lo[k] == e.up[k] {
			continue
		}
		xi := perturbBase * (1 + math.Abs(e.cost[k])) * (1 + e.rng.Float64())
		switch e.stat[k] {
		case stLower:
			e.wcost[k] += xi
			e.d[k] += xi
			e.shifted = true
		case stUpper:
			e.wcost[k] -= xi
			e.d[k] -= xi
			e.shifted = true
		}
	}
	e.perturbed = true
}

// dualSimplex runs the bounded dual simplex on the working costs from a
// dual feasible basis until primal feasibility (phaseOptimal), a proof of
// primal infeasibility, a limit or numerical trouble.
func (e *engine) dualSimplex(ctx context.Context) (phaseResult, solve.Status) {
	ptol, dtol := e.opts.PrimalTol, e.opts.DualTol
	m := e.m
	_ = m
	alphaV, tauV, flipV, rhoV := e.alphaV, e.tauV, e.flipV, e.rhoV
	alpha := alphaV.val
	tau := tauV.val
	var cands []int
	var flips []int
	freshInfeasRow := -1
	degenerate := 0
	startIters := e.lastIters
	pinf := e.pinf
	e.setPinfAll(ptol)
	for {
		if degenerate > stallIters && e.mayPerturb && !e.perturbed {
			e.perturbCosts()
		}
		if st := e.limit(ctx); st != solve.StatusUnknown {
			return phaseLimit, st
		}
		if e.lastIters-startIters > int64(phaseCapFactor*(e.m+e.n)+phaseCapBase) {
			return phaseRestart, solve.NumericalTrouble
		}
		if e.needFactor || e.fac.numUpdates() >= refactorEvery || e.fac.filled() {
			e.dualRefresh(ptol)
		}
		// Pricing: dual steepest edge over the kept squared
		// infeasibilities.
		r, best := -1, 0.0
		for p, v := range pinf {
			if v == 0 {
				continue
			}
			if sc := v / e.dse[p]; sc > best {
				best, r = sc, p
			}
		}
		if r < 0 {
			return phaseOptimal, solve.Optimal
		}
		leave := e.head[r]
		delta := e.primalInfeas(leave) // >0: below lower, <0: above upper
		s := 1.0
		if delta < 0 {
			s = -1
		}
		// rho = B⁻ᵀe_r and the pivot row.
		rhoV.reset()
		rhoV.set(r, 1)
		e.fac.btranS(rhoV)
		rho := rhoV.val
		e.pivotRowS(rho, rhoV.idx)
		// Candidates for the ratio test.
		cands = cands[:0]
		for _, k := range e.plist {
			a := -s * e.prow[k]
			if math.Abs(a) <= pivotTol || e.lo[k] == e.up[k] {
				continue
			}
			switch e.stat[k] {
			case stLower:
				if a > 0 {
					cands = append(cands, k)
				}
			case stUpper:
				if a < 0 {
					cands = append(cands, k)
				}
			case stFree:
				cands = append(cands, k)
			}
		}
		if len(cands) == 0 {
			if e.fac.numUpdates() > 0 && freshInfeasRow != leave {
				// Confirm with a fresh factorisation.
				freshInfeasRow = leave
				e.dualRefresh(ptol)
				continue
			}
			e.setDualRay(rho, s)
			return phaseInfeasible, solve.Infeasible
		}
		freshInfeasRow = -1
		// Bound-flipping Harris ratio test.
		var q int
		var t float64
		q, t, flips = e.dualRatioTest(cands, s, math.Abs(delta), dtol, flips[:0])
		if t < 0 {
			// Harris let a slightly infeasible d through: shift its cost.
			e.wcost[q] -= e.d[q]
			e.d[q] = 0
			e.shifted = true
			t = 0
		}
		if e.stat[q] == stFree {
			t = e.d[q] / (-s * e.prow[q])
		}
		// FTRAN the entering column and check the pivot.
		alphaV.reset()
		e.setColumnS(alphaV, q)
		e.fac.ftranSpikeS(alphaV)
		arow := e.prow[q]
		if math.Abs(alpha[r]-arow) > alphaRelErr*(1+math.Abs(arow)) || math.Abs(alpha[r]) < pivotTol {
			if e.fac.numUpdates() > 0 {
				e.dualRefresh(ptol)
				continue
			}
			if math.Abs(alpha[r]) < pivotTol {
				return phaseRestart, solve.NumericalTrouble
			}
		}
		// Bound flips: x_B −= B⁻¹·Σ a_j Δx_j.
		if len(flips) > 0 {
			flipV.reset()
			e.newMark()
			for _, k := range flips {
				var dx float64
				if e.stat[k] == stLower {
					dx = e.up[k] - e.lo[k]
					e.stat[k], e.x[k] = stUpper, e.up[k]
				} else {
					dx = e.lo[k] - e.up[k]
					e.stat[k], e.x[k] = stLower, e.lo[k]
				}
				e.addColumnS(flipV, k, dx)
			}
			e.fac.ftranS(flipV)
			for _, p := range flipV.idx {
				e.x[e.head[p]] -= flipV.val[p]
				e.setPinf(p, ptol)
			}
		}
		if t <= 1e-12 {
			degenerate++
		} else {
			degenerate = 0
		}
		// Dual update: d_j −= θ_d·α_rj with θ_d = −s·t.
		thd := -s * t
		if thd != 0 {
			for _, k := range e.plist {
				e.d[k] -= thd * e.prow[k]
			}
		}
		e.d[q] = 0
		// Primal update.
		var bound float64
		if s > 0 {
			bound = e.lo[leave]
		} else {
			bound = e.up[leave]
		}
		thp := (e.x[leave] - bound) / alpha[r]
		e.x[q] += thp
		for _, p := range alphaV.idx {
			e.x[e.head[p]] -= thp * alpha[p]
		}
		// DSE weights: τ = B⁻¹ρ.
		wr := 0.0
		for _, i := range rhoV.idx {
			wr += rho[i] * rho[i]
		}
		copySvec(tauV, rhoV)
		e.fac.ftranS(tauV)
		ar := alpha[r]
		for _, p := range alphaV.idx {
			if p == r || alpha[p] == 0 {
				continue
			}
			ratio := alpha[p] / ar
			w := e.dse[p] - 2*ratio*tau[p] + ratio*ratio*wr
			e.dse[p] = math.Max(w, math.Max(dseMin, ratio*ratio))
		}
		e.dse[r] = math.Max(wr/(ar*ar), dseMin)
		// Basis change.
		e.x[leave] = bound
		if s > 0 {
			e.stat[leave] = stLower
		} else {
			e.stat[leave] = stUpper
		}
		e.d[leave] = -thd
		e.pos[leave] = -1
		e.head[r] = q
		e.pos[q] = r
		e.stat[q] = stBasic
		for _, p := range alphaV.idx {
			e.setPinf(p, ptol)
		}
		e.setPinf(r, ptol)
		if !e.fac.update(r) {
			e.needFactor = true
		}
		e.lastIters++
		e.totalIters++
	}
}

// dualRefresh refactorises, recomputes x_B and the duals, restores dual
// feasibility and the kept infeasibilities.
func (e *engine) dualRefresh(ptol float64) {
	e.refactor()
	e.computePrimal()
	e.computeDual()
	if e.makeDualFeasible(false) {
		e.computePrimal()
	}
	e.setPinfAll(ptol)
}

// setPinf sets pinf[p] to the squared infeasibility of the basic variable
// at position p, or 0 when it is within ptol.
func (e *engine) setPinf(p int, ptol float64) {
	inf := e.primalInfeas(e.head[p])
	if math.Abs(inf) <= ptol {
		e.pinf[p] = 0
	} else {
		e.pinf[p] = inf * inf
	}
}

// setPinfAll sets pinf at every position.
func (e *engine) setPinfAll(ptol float64) {
	for p := range e.head {
		e.setPinf(p, ptol)
	}
}

// setDualRay stores the unscaled dual ray −s·ρ (model sense) over the rows.
func (e *engine) setDualRay(rho []float64, s float64) {
	e.ray = make([]float64, e.m)
	for i := range e.ray {
		e.ray[i] = -s * rho[i] * e.rowScale[i] * e.sense
	}
}
