package bnb

import (
	"context"
	"math"
	"slices"

	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/native/simplex"
)

// Multipliers of the sums' Lagrangian (§14e) from an LP: column generation
// over the jobs' own subproblems (docs/bounds.md §14g).
//
// The Lagrangian dual max_{λ,μ ≥ 0} Σ_j V_j(λ, μ) − Σ_t (λ_t cap_t + μ_t
// capR_t) is the LP
//
//	max Σ_j π_j − Σ_t (λ_t cap_t + μ_t capR_t)
//	s.t. π_j − Σ_t λ_t U_s(t) − Σ_t μ_t W_s(t) ≤ cost_s   for every column s of job j,
//
// a column s being one of job j's relaxed schedules (chains and reduces, as
// the dynamic program of §14e minimises over), cost_s its C_j − a_j and
// U_s, W_s its map and reduce use per cell; the master of the column
// generation is this LP's dual. Kelley's cutting planes solve it: the LP over
// the columns found so far gives prices, each job's dynamic program at those
// prices gives its least column (a cut when it beats π_j), and the loop
// repeats. The LP's prices are only a proposal: each is rounded to the grid
// of lagQuantum and clamped at 0, and its certified value is the Lagrangian
// evaluated at it (value, less lagSlack) — never the LP's objective — so the
// bound is valid whatever the simplex returns or when the loop stops early.
// Two stabilisations: the point priced is 0.7 of the best prices so far
// and 0.3 of the LP's (Wentges' smoothing; the LP's own prices only when
// that point cuts nothing off), and a box around the best prices bounds
// the LP away from the root's FIFO columns.
//
// What it is for: the search keeps the subgradient's multipliers (§14e).
// On the 20-job MRCP streams the generation raises their root value by
// 0–5.7 s at 10–200 times their CPU, and its master, an upper estimate of
// the Lagrangian dual, shows that no multipliers could raise it by more
// than 0.4–15 s (docs/results.md, s16dw): the root gap is the
// relaxation's. RootLagrangian reports both, for bench/mrcpexact
// -lag-root and the tests.

const (
	// cgRounds is the number of LP solves of RootLagrangian's column
	// generation by default: a count, so that the result is a function of
	// the data. On the 20-job MRCP streams 400 solves raise the
	// subgradient's root by 0–5.7 s at 5–170 s of CPU, two of them
	// converging (docs/results.md, s16dw).
	cgRounds = 400
	// cgBox is the half width of the box around the best prices at the
	// root, in grid steps u per task and cell (a price is in time units per
	// task and cell): wide enough that the prices never reach it on the
	// MRCP streams (at most 5u there), so the master's value bounds the
	// Lagrangian dual from above; the FIFO columns keep the LP bounded
	// without it.
	cgBox = 1000
	// cgSmooth is the weight of the best prices in the point priced
	// (Wentges' smoothing): the LP's own prices swing from cell to cell
	// and price far below the best (seed 1: 2274 s at the first LP,
	// against 2570 s), while the smoothed point approaches from the best.
	cgSmooth = 0.7
	// cgIterPerUnknown caps the simplex's iterations of one LP solve per
	// row and column (a capped solve ends the generation).
	cgIterPerUnknown = 20
	// cgGap ends the generation once the master's value exceeds the best
	// certified value by at most this many grid steps u: no price in the
	// box can gain more.
	cgGap = 0.5
	// cgCutTol: a column enters only when its reduced cost at the LP's
	// prices is below −cgCutTol (time units), so that float noise adds no
	// cut twice.
	cgCutTol = 1e-6
)

// cgColumn is one job's relaxed schedule: its cost C_j − a_j (ms) and its
// use per cell (maps then reduces), as sparse (cell, count) pairs.
type cgColumn struct {
	cost   float64
	cellsM []int
	countM []float64
	cellsR []int
	countR []float64
	job    int
}

// sparse appends the non-zero cells of use (cleared on the way).
func sparse(use []float64) (cells []int, counts []float64) {
	for c, x := range use {
		if x != 0 {
			cells, counts = append(cells, c), append(counts, x)
			use[c] = 0
		}
	}
	return cells, counts
}

// jobColumn is job j's least column at the current multipliers at the
// node of s with last start t0, and its value V_j; ok is false for a job
// with nothing left to place (its term is a constant).
func (ls *lagSum) jobColumn(s *searcher, j int, t0 int64, useM, useR []float64) (col cgColumn, v float64, ok bool) {
	jb := &s.jobs[j]
	lj := &ls.jobs[j]
	tc := ls.cell(t0)
	switch {
	case s.mapsDone[j] < jb.nMaps:
		v = ls.mapVal(lj, jb.nMaps-s.mapsDone[j], max(lj.aCell, tc), useM, useR)
	case s.redsDone[j] < jb.nReds:
		L := max(ls.cell(s.lme[j]), tc, lj.aCell)
		v = ls.gAt(lj, jb.nReds-s.redsDone[j], L)
		ls.reduceUse(lj, jb.nReds-s.redsDone[j], L, useR)
	default:
		return col, float64(s.done[j] - jb.arrival), false
	}
	col.job = j
	col.cellsM, col.countM = sparse(useM)
	col.cellsR, col.countR = sparse(useR)
	col.cost = v
	for i, c := range col.cellsM {
		col.cost -= ls.lam[c] * col.countM[i]
	}
	for i, c := range col.cellsR {
		col.cost -= ls.mu[c] * col.countR[i]
	}
	return col, v, true
}

// fifoColumns are the jobs' columns in the FIFO list schedule of fifoList
// (at the root): a schedule of the whole problem, so together they meet
// every capacity row and the LP is bounded even without the box.
func (ls *lagSum) fifoColumns(s *searcher) []cgColumn {
	free := [2][]int64{make([]int64, len(s.slots[0])), make([]int64, len(s.slots[1]))}
	order := jobsByArrival(s)
	useM, useR := make([]float64, ls.h), make([]float64, ls.h)
	add := func(use []float64, start int64, d int) {
		for c := ls.cell(start); c < ls.cell(start)+d && c < ls.h; c++ {
			use[c]++
		}
	}
	var cols []cgColumn
	for _, j := range order {
		jb := &s.jobs[j]
		lj := &ls.jobs[j]
		l := jb.arrival
		for range jb.nMaps {
			i := argMin(free[0])
			st := max(free[0][i], jb.arrival)
			add(useM, st, lj.p)
			free[0][i] = st + jb.pMap
			l = max(l, free[0][i])
		}
		c := l
		for range jb.nReds {
			i := argMin(free[1])
			st := max(free[1][i], l)
			add(useR, st, lj.q)
			free[1][i] = st + jb.pRed
			c = max(c, free[1][i])
		}
		col := cgColumn{cost: float64(c - jb.arrival), job: j}
		col.cellsM, col.countM = sparse(useM)
		col.cellsR, col.countR = sparse(useR)
		cols = append(cols, col)
	}
	return cols
}

// colGen improves the multipliers at the node of s with last start t0 by
// at most rounds LP solves of the cutting-plane loop (above), the prices
// kept within box of the best so far, starting from the current
// multipliers with their own columns and cols as the first cuts. It leaves
// the best multipliers found in ls (the starting ones when none is
// better) and returns their certified value (the Lagrangian's, less the
// slack), the master's value at the last LP solved to optimality with no
// price at the box (+Inf if none: an upper estimate of the Lagrangian
// dual, not certified) and the LP solves made.
func (ls *lagSum) colGen(s *searcher, t0 int64, cols []cgColumn, rounds int, box float64) (cert, master float64, solves int) {
	h := ls.h
	nJ := len(s.jobs)
	// Columns of the LP: λ_0 … λ_{h−1}, μ_0 … μ_{h−1}, π_0 … π_{nJ−1}.
	nC := 2*h + nJ
	ls.prefix()
	v0, mag := ls.value(s, t0) // fills capM, capR
	best := v0 - lagSlack(mag)
	bestLam, bestMu := append([]float64(nil), ls.lam...), append([]float64(nil), ls.mu...)
	m := &model.Model{
		Sense:    model.Maximize,
		Obj:      make([]float64, nC),
		ColLower: make([]float64, nC),
		ColUpper: make([]float64, nC),
		ColType:  make([]model.VarType, nC),
		ColStart: make([]int, nC+1),
	}
	for c := range nC {
		m.ColType[c] = model.Continuous
	}
	for t := range h {
		m.Obj[t], m.Obj[h+t] = -ls.capM[t], -ls.capR[t]
	}
	// A job with nothing left to place keeps π_j at 0: its term is the
	// constant fixed below.
	for j := range nJ {
		m.Obj[2*h+j] = 1
	}
	useM, useR := make([]float64, h), make([]float64, h)
	active := make([]bool, nJ)
	// The starting prices' own columns are the first cuts with cols: every
	// active job has one, so the LP is bounded by the box.
	for j := range nJ {
		if col, _, ok := ls.jobColumn(s, j, t0, useM, useR); ok {
			active[j] = true
			m.ColLower[2*h+j], m.ColUpper[2*h+j] = math.Inf(-1), math.Inf(1)
			cols = append(cols, col)
		}
	}
	master = math.Inf(1)
	setBox := func(lp *simplex.Solver) {
		for t := range h {
			m.ColLower[t], m.ColUpper[t] = math.Max(0, bestLam[t]-box), bestLam[t]+box
			m.ColLower[h+t], m.ColUpper[h+t] = math.Max(0, bestMu[t]-box), bestMu[t]+box
			if lp != nil {
				_ = lp.SetColBounds(t, m.ColLower[t], m.ColUpper[t])
				_ = lp.SetColBounds(h+t, m.ColLower[h+t], m.ColUpper[h+t])
			}
		}
	}
	setBox(nil)
	cut := func(col cgColumn) simplex.Row {
		r := simplex.Row{Lower: math.Inf(-1), Upper: col.cost}
		for i, c := range col.cellsM {
			r.Index, r.Value = append(r.Index, c), append(r.Value, -col.countM[i])
		}
		for i, c := range col.cellsR {
			r.Index, r.Value = append(r.Index, h+c), append(r.Value, -col.countR[i])
		}
		r.Index = append(r.Index, 2*h+col.job)
		r.Value = append(r.Value, 1)
		return r
	}
	var rows []simplex.Row
	for _, col := range cols {
		if active[col.job] {
			rows = append(rows, cut(col))
		}
	}
	// The first cuts go into the model itself (column-wise), the later ones
	// by AddRows on the warm basis.
	setRows(m, rows)
	rows = rows[:0]
	lp, err := simplex.New(m, simplex.Options{})
	if err != nil {
		return best, master, 0
	}
	ctx := s.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	for solves < rounds {
		if s.ctx != nil && s.ctx.Err() != nil {
			break
		}
		if len(rows) > 0 {
			if lp.AddRows(rows) != nil {
				break
			}
			rows = rows[:0]
		}
		lp.SetOptions(simplex.Options{IterationLimit: int64(cgIterPerUnknown * (lp.NumRows() + nC))})
		st := lp.Solve(ctx)
		solves++
		if st != solve.Optimal {
			break
		}
		x := lp.X()
		obj := lp.Objective()
		if slices.ContainsFunc(x, notFinite) || notFinite(obj) {
			// A non-finite price would leave a job's argmin undefined:
			// keep the best prices evaluated so far.
			break
		}
		// price evaluates the Lagrangian at the quantised prices
		// w·best + (1 − w)·x and queues every job's least column there
		// that the LP's solution x violates.
		price := func(w float64) (v float64, cuts int) {
			for t := range h {
				ls.lam[t] = quantise(math.Max(0, w*bestLam[t]+(1-w)*x[t]))
				ls.mu[t] = quantise(math.Max(0, w*bestMu[t]+(1-w)*x[h+t]))
			}
			ls.prefix()
			var mg float64
			for j := range nJ {
				col, vj, ok := ls.jobColumn(s, j, t0, useM, useR)
				v += vj
				mg += math.Abs(vj)
				if !ok {
					continue
				}
				rc := col.cost - x[2*h+j]
				for i, c := range col.cellsM {
					rc += x[c] * col.countM[i]
				}
				for i, c := range col.cellsR {
					rc += x[h+c] * col.countR[i]
				}
				if rc < -cgCutTol {
					rows = append(rows, cut(col))
					cuts++
				}
			}
			for t := range h {
				v -= ls.lam[t]*ls.capM[t] + ls.mu[t]*ls.capR[t]
				mg += ls.lam[t]*ls.capM[t] + ls.mu[t]*ls.capR[t]
			}
			return v - lagSlack(mg), cuts
		}
		// gain keeps the prices just priced when they beat the best.
		gained := false
		gain := func(v float64) {
			if v > best {
				best, gained = v, true
				copy(bestLam, ls.lam)
				copy(bestMu, ls.mu)
			}
		}
		v, cuts := price(cgSmooth)
		gain(v)
		if cuts == 0 && cgSmooth > 0 {
			// A mispricing: the smoothed prices cut nothing off; the LP's
			// own prices do unless the LP is optimal over every column.
			v, cuts = price(0)
			gain(v)
		}
		atBox := false
		for t := range h {
			if x[t] >= m.ColUpper[t]-1e-9 || x[h+t] >= m.ColUpper[h+t]-1e-9 ||
				(m.ColLower[t] > 0 && x[t] <= m.ColLower[t]+1e-9) || (m.ColLower[h+t] > 0 && x[h+t] <= m.ColLower[h+t]+1e-9) {
				atBox = true
				break
			}
		}
		if !atBox {
			master = obj
		}
		if gained {
			setBox(lp)
		} else if !atBox && obj-best <= cgGap*float64(ls.u) {
			break // the LP over the box cannot gain more than cgGap
		}
		if cuts == 0 && !atBox {
			break // no column prices out: the LP's optimum is the dual's
		}
	}
	copy(ls.lam, bestLam)
	copy(ls.mu, bestMu)
	ls.prefix()
	v, mg := ls.value(s, t0)
	return v - lagSlack(mg), master, solves
}

// setRows makes rows the rows of m (whose columns are set), in m's
// column-wise layout.
func setRows(m *model.Model, rows []simplex.Row) {
	n := len(m.Obj)
	count := make([]int, n+1)
	for _, r := range rows {
		for _, c := range r.Index {
			count[c+1]++
		}
	}
	for c := range n {
		count[c+1] += count[c]
	}
	m.ColStart = append([]int(nil), count...)
	m.RowIndex = make([]int, count[n])
	m.Value = make([]float64, count[n])
	m.RowLower, m.RowUpper = make([]float64, len(rows)), make([]float64, len(rows))
	for i, r := range rows {
		m.RowLower[i], m.RowUpper[i] = r.Lower, r.Upper
		for k, c := range r.Index {
			m.RowIndex[count[c]] = i
			m.Value[count[c]] = r.Value[k]
			count[c]++
		}
	}
}

// LagRoot is the sums' time-indexed Lagrangian (docs/bounds.md §14e) at the
// root of a problem: its certified value with the subgradient's multipliers
// (what the search uses) and with the column generation's (§14g), both
// total turnarounds in the problem's time units.
type LagRoot struct {
	// Subgradient is the root value with the multipliers of the fixed
	// subgradient steps, less the slack: a lower bound on the least total
	// turnaround.
	Subgradient float64 `json:"subgradient"`
	// ColGen is the root value with the column generation's best prices,
	// started from the subgradient's and its columns and a FIFO list
	// schedule's, less the slack: a lower bound, at least Subgradient.
	ColGen float64 `json:"colgen"`
	// Master is the master LP's value at its last solve with no price at
	// the box: an upper estimate of the Lagrangian dual's optimum (+Inf if
	// none), not a bound on the problem — how much better multipliers
	// could still gain is at most Master − ColGen.
	Master float64 `json:"master"`
	// Solves is the number of LP solves made.
	Solves int `json:"solves"`
}

// RootLagrangian evaluates the sums' Lagrangian at the root of p with the
// subgradient's multipliers and improves them by at most rounds LP solves
// of column generation (cgRounds when rounds ≤ 0). It returns nil for a
// problem outside the search's class or where the bound is not built
// (§14e's budgets), an error for an invalid problem. A cancelled ctx stops
// both with the best multipliers so far.
func RootLagrangian(ctx context.Context, p *lowerbound.Problem, rounds int) (*LagRoot, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	s := newSearcher(p)
	if s == nil {
		return nil, nil
	}
	s.ctx, s.metric = ctx, lowerbound.TotalTurnaround
	s.inc, s.lastStart = math.MaxInt64, math.MinInt64
	_, target := fifoList(s)
	ls := newLagSum(s, float64(target))
	if ls == nil {
		return nil, nil
	}
	if rounds <= 0 {
		rounds = cgRounds
	}
	r := &LagRoot{Subgradient: ls.root}
	r.ColGen, r.Master, r.Solves = ls.colGen(s, s.minA, ls.fifoColumns(s), rounds, cgBox*float64(ls.u))
	return r, nil
}

// notFinite reports whether v is NaN or infinite.
func notFinite(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }
