package simplex

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/mrbound/mrbound/solve"
)

// maxAttempts bounds the dual/primal rounds of one Solve before
// NumericalTrouble is reported.
const maxAttempts = 6

// minWorkTol is the smallest working feasibility tolerance used on retries.
const minWorkTol = 1e-12

// solve runs dual simplex (on shifted/perturbed costs) then primal cleanup
// until the unscaled final check passes.
func (e *engine) solve(ctx context.Context) solve.Status {
	start := time.Now()
	e.lastIters = 0
	e.ray = nil
	e.iterLimit = e.opts.IterationLimit
	perturb := !e.opts.NoPerturbation
	st := solve.NumericalTrouble
	ptol, dtol := e.opts.PrimalTol, e.opts.DualTol
	defer func() { e.opts.PrimalTol, e.opts.DualTol = ptol, dtol }()
	for attempt := 0; attempt < maxAttempts; attempt++ {
		// Each retry tightens the working tolerances tenfold (down to
		// minWorkTol): the final check failed at the previous ones.
		f := math.Pow(10, float64(attempt))
		e.opts.PrimalTol = math.Max(ptol/f, minWorkTol)
		e.opts.DualTol = math.Max(dtol/f, minWorkTol)
		st = e.round(ctx, perturb, attempt > 0)
		if st != solve.StatusUnknown {
			break
		}
		perturb = false
		st = solve.NumericalTrouble
	}
	e.status = st
	if e.opts.Log != nil && e.opts.Verbosity > 0 {
		fmt.Fprintf(e.opts.Log, "simplex: %v after %d iterations (%d rows, %d columns) in %v, objective %.10g\n",
			st, e.lastIters, e.m, e.n, time.Since(start).Round(time.Microsecond), e.objective())
	}
	return st
}

// round is one dual-then-primal pass; StatusUnknown asks for another round.
func (e *engine) round(ctx context.Context, perturb, fresh bool) solve.Status {
	if e.needFactor || fresh || e.fac.numUpdates() > refactorEvery/2 {
		e.refactor()
	}
	e.wcost = append(e.wcost[:0], e.cost...)
	e.shifted = false
	e.perturbed = false
	e.computePrimal()
	if !e.dualsFresh {
		e.computeDual()
	}
	e.dualsFresh = false
	dualInf := false
	for k := range e.d {
		if e.stat[k] != stBasic && e.dualInfeas(k) > e.opts.DualTol {
			dualInf = true
			break
		}
	}
	primalInf := e.maxPrimalInfeas() > e.opts.PrimalTol
	if primalInf || dualInf {
		// Perturb only when the dual simplex stalls.
		e.mayPerturb = perturb && primalInf
		if e.makeDualFeasible(false) {
			e.computePrimal()
		}
		res, st := e.dualSimplex(ctx)
		switch res {
		case phaseInfeasible:
			return solve.Infeasible
		case phaseLimit:
			e.restoreCosts()
			return st
		case phaseRestart:
			e.restoreCosts()
			return solve.StatusUnknown
		}
		e.restoreCosts()
	}
	res, st := e.primalSimplex(ctx)
	switch res {
	case phaseUnbounded:
		return solve.Unbounded
	case phaseLimit:
		return st
	case phaseRestart:
		return solve.StatusUnknown
	}
	if !e.finalCheck() {
		if e.opts.Log != nil && e.opts.Verbosity > 1 {
			fmt.Fprintf(e.opts.Log, "simplex: final check failed, re-solving\n")
		}
		return solve.StatusUnknown
	}
	return solve.Optimal
}

// restoreCosts drops shifts and perturbations and recomputes the duals.
func (e *engine) restoreCosts() {
	if e.shifted {
		copy(e.wcost, e.cost)
		e.shifted = false
		e.computeDual()
	}
}

// finalCheck recomputes x_B and y (with iterative refinement) and checks
// the unscaled primal and dual feasibility of the basic solution. It
// refactorises only after many updates; a failed check
// makes the next round start from a fresh factorisation.
func (e *engine) finalCheck() bool {
	// x_B is recomputed from x_N unless that was done with the same
	// factors after the last iteration (a solve without iterations).
	current := e.primalAt == e.totalIters
	if e.needFactor || e.fac.numUpdates() > refactorEvery/2 {
		e.refactor()
		current = false
	}
	actFresh := e.computePrimalRefined(current)
	copy(e.wcost, e.cost)
	e.computeDualRefined()
	for k := 0; k < e.n+e.m; k++ {
		// |x − bound|·σ against finalTol·(1 + |bound|·σ), unscaled.
		sg := e.scaleOf(k)
		x, lo, up := e.x[k], e.lo[k], e.up[k]
		if (x < lo && (lo-x)*sg > finalTol*(1+math.Abs(lo)*sg)) || (x > up && (x-up)*sg > finalTol*(1+math.Abs(up)*sg)) {
			e.logf(2, "simplex: final check: variable %d = %g outside [%g, %g] (status %d)\n", k, x*sg, lo*sg, up*sg, e.stat[k])
			return false
		}
	}
	// Row activities recomputed from the columns must agree with the
	// logicals (scaled residuals, compared unscaled).
	act, scale := e.wrk2, e.wrk3
	if !actFresh {
		e.activities(act, scale)
	}
	for i := 0; i < e.m; i++ {
		rs := e.rowScale[i]
		if math.Abs(act[i]-e.x[e.n+i])/rs > finalTol*(1+scale[i]/rs) {
			e.logf(2, "simplex: final check: row %d activity %g, logical %g\n", i, act[i]/rs, e.x[e.n+i]/rs)
			return false
		}
	}
	// Dual feasibility of the unscaled reduced costs.
	for k := 0; k < e.n+e.m; k++ {
		if e.stat[k] == stBasic || e.lo[k] == e.up[k] || e.dualInfeas(k) == 0 {
			continue
		}
		var dk, mag float64
		if k < e.n {
			// Relative to the magnitude of the terms of c_j − a_jᵀy: a
			// reduced cost is computed no more accurately than that.
			cs := e.colScale[k]
			dk = e.d[k] / cs
			mag = math.Abs(e.cost[k] / cs)
			for t := e.colStart[k]; t < e.colStart[k+1]; t++ {
				mag += math.Abs(e.val[t]*e.rowRho[e.rowIdx[t]]) / cs
			}
		} else {
			dk = e.d[k] * e.rowScale[k-e.n]
		}
		if math.Abs(dk) > finalTol*(1+mag) {
			e.logf(2, "simplex: final check: variable %d (status %d) has reduced cost %g\n", k, e.stat[k], dk)
			return false
		}
	}
	e.dualsFresh = true
	return true
}

// logf writes to the log at the given verbosity.
func (e *engine) logf(level int, format string, a ...any) {
	if e.opts.Log != nil && e.opts.Verbosity >= level {
		fmt.Fprintf(e.opts.Log, format, a...)
	}
}
