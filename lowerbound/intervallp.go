package lowerbound

import (
	"context"
	"fmt"
	"math"

	"github.com/mrbound/mrbound/internal/sizelimit"
	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

// IntervalLP solves the relaxation (P) of docs/bounds.md §4b itself, as an
// LP, on the grid IntervalLagrangian would use with the same options (o's
// Intervals; its iteration, time and step fields are not read): per job and
// kind, the work y_t placed in each interval from the release at the job's
// rate cap, the tail z past the grid end, the capacity row of every interval
// and kind, and C_j ≥ A_j, B_j, K_j. It is the oracle that tells whether the
// subgradient method of §4b stops short of its relaxation's optimum
// (docs/bounds.md §4d): every value of IntervalLagrangian with NoStarts is
// at most this LP's optimum, since its α, β on a grid are feasible duals of
// the LP. It builds one column per job, kind and interval after the
// release, so it is meant for instances of a few hundred jobs and grids of a
// few hundred steps; the value is certified from the row duals as BucketLP's.
func IntervalLP(ctx context.Context, p *Problem, o LagrangeOptions, so solve.Options) (LPResult, error) {
	if err := p.Validate(); err != nil {
		return LPResult{}, err
	}
	pr := newPrep(p)
	if len(pr.jobs) == 0 {
		return LPResult{Status: solve.Optimal}, nil
	}
	lm := pr.newLagModel(o)
	m, err := lm.intervalModel()
	if err != nil {
		return LPResult{}, err
	}
	return solveLP(ctx, m, so)
}

// intervalModel builds (P) on lm's grid.
func (lm *lagModel) intervalModel() (*model.Model, error) {
	pr := lm.pr
	bp := lm.bp
	nInt := len(bp) - 1
	cols := float64(len(pr.jobs))
	for k := range 2 {
		for _, pc := range lm.pieces[k] {
			cols += float64(nInt-pc.first) + 1
		}
	}
	nnz := 3 * cols
	if err := sizelimit.CheckBytes("IntervalLP", cols*sizelimit.ModelColumn+nnz*sizelimit.ModelNonzero+float64(lm.nrow*nInt)*bucketRowBytes,
		fmt.Sprintf("an interval LP of about %.3g columns and %.3g nonzeros", cols, nnz)); err != nil {
		return nil, err
	}
	// C_j's upper bound, as in bucketModel: every column bounded, so that
	// safeDualBound holds for any duals.
	horizon := pr.semiActiveHorizon()
	b := model.NewBuilder("lowerbound-interval-lp")
	capRow := make([][]model.Expr, lm.nrow)
	for r := range lm.nrow {
		capRow[r] = make([]model.Expr, nInt)
	}
	cj := make([]model.Var, len(pr.jobs))
	var obj model.Expr
	for j := range pr.jobs {
		cj[j] = b.Continuous("", lm.k[j], math.Max(lm.k[j], horizon))
		obj.Add(cj[j], 1)
	}
	for k := range 2 {
		for _, pc := range lm.pieces[k] {
			total := model.NewExpr(nInt - pc.first + 1)
			busy := model.NewExpr(nInt - pc.first + 1) // W·μ: Σ τ_t·y_t + τ_N·z
			for t := pc.first; t < nInt; t++ {
				y := b.Continuous("", 0, math.Min(pc.w, pc.cap*(bp[t+1]-bp[t])))
				total.Add(y, 1)
				busy.Add(y, bp[t])
				capRow[pc.row][t].Add(y, 1)
			}
			z := b.Continuous("", 0, pc.w)
			total.Add(z, 1)
			busy.Add(z, bp[nInt])
			b.Equal("", total, pc.w)
			// C_j ≥ μ + h (h = W/(2c), plus R_j for maps).
			row := model.NewExpr(len(busy.Terms) + 1)
			row.Add(cj[pc.job], 1)
			row.AddExpr(busy, -1/pc.w)
			b.GreaterEq("", row, pc.h)
		}
	}
	for r := range lm.nrow {
		for t := range nInt {
			if len(capRow[r][t].Terms) > 0 {
				b.LessEq("", capRow[r][t], lm.rate[r]*(bp[t+1]-bp[t]))
			}
		}
	}
	obj.AddConst(-lm.sumA)
	b.Minimize(obj)
	m, err := b.Build()
	if err != nil {
		return nil, fmt.Errorf("lowerbound: interval LP: %w", err)
	}
	return m, nil
}
