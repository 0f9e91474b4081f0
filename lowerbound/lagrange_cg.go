package lowerbound

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"slices"

	"github.com/mrbound/mrbound/internal/sizelimit"
	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

// Column generation over the interval Lagrangian (docs/bounds.md §4f).
//
// The relaxation (P) of §4b, written over each job's own placements, is a
// Dantzig–Wolfe master: per job and kind a convex combination of fills
// (columns: a knapsack vertex's usage per capacity row and its mean busy
// time μ), the completion rows C_j ≥ Σ_s x_s·μ_s + h for each kind and
// C_j ≥ K_j, and the capacity rows. Its LP dual is the Lagrangian of §4b
// with α_j, β_j the completion rows' duals (not on a grid), so its capacity
// duals λ and completion duals α, β are a point at which the Lagrangian can
// be evaluated, and the fills that price out at them (the θ-knapsacks of
// §4b at θ = α_j, β_j) are its new columns (Kelley's cutting-plane method).
// A job may instead hold its §4c columns: each minimiser of the start-time
// term is a placement with a constant cost and a usage, linear in λ. Only
// one family per job is in the master (the larger of two minima is not a
// minimum of linear functions): the one that wins at the best point
// evaluated so far. The value reported is never the master's objective but
// the Lagrangian evaluated exactly at the best point, as in §4b.

// CGOptions configures IntervalLagrangianCG.
type CGOptions struct {
	// Rounds caps the master solves; 0 means defaultCGRounds. Each round is
	// one LP solve and one evaluation of the Lagrangian at its prices.
	Rounds int
	// Solve is passed to the master's LP solves (backend, threads, limits).
	Solve solve.Options
	// ThetaSteps is the grid of the completion weights α, β in every
	// evaluation (multiples of 1/ThetaSteps); 0 means thetaSteps (eighths,
	// the subgradient method's grid before s24alpha). Any grid gives a
	// valid value.
	ThetaSteps int
	// SeedEvery: the minimisers of every SeedEvery-th subgradient iterate
	// (and of its best one) seed the pool; 0 means 1, every iterate. More
	// seeds make a larger first master.
	SeedEvery int
	// Box is the box step's half-width around the best prices, relative
	// to each price plus their mean; 0 means defaultCGBox.
	Box float64
	// MasterNoStarts keeps every job's §4b columns in the master (the
	// Dantzig–Wolfe form of the LP (P), whatever term wins), while every
	// evaluation still takes the larger of the two terms per job.
	MasterNoStarts bool
	// MaxColumns caps the pool: no column is added beyond it and no
	// further master is solved (memory: at 20 nodes two rounds held
	// 86,000 columns); 0 means defaultCGMaxColumns.
	MaxColumns int
	// Log, when set, receives a line per round (progress only).
	Log func(round int, master, best float64, rows, cols int)
}

// defaultCGMaxColumns: the pool's cap when CGOptions.MaxColumns is 0.
const defaultCGMaxColumns = 400_000

// defaultCGRounds: master solves after the subgradient steps.
const defaultCGRounds = 20

// CGStats describes a column-generation run.
type CGStats struct {
	// Seed is the subgradient method's own value (its best iterate).
	Seed float64
	// Rounds run; Columns in the pool at the end (both families, with the
	// zero-usage tail columns); MasterRows of the last master.
	Rounds, Columns, MasterRows int
	// Master is the last master LP's optimum (+Inf when none was solved):
	// the cutting-plane model's value with the box step's penalties, an
	// estimate, never a bound.
	Master float64
	// Improving is the number of columns with negative reduced cost found
	// at the last round's prices (0: the master is optimal for the pool's
	// oracle).
	Improving int
}

// IntervalLagrangianCG bounds total turnaround by the interval Lagrangian of
// docs/bounds.md §4b–§4c at prices found by column generation (§4f): the
// subgradient method of IntervalLagrangian runs first (o), its iterates'
// minimisers seed the master LP, and each master's duals (smoothed towards
// the best point) are evaluated and priced for new columns, for co.Rounds
// rounds. The value is
// the Lagrangian at the best prices evaluated — the subgradient method's
// best included — so it is at least IntervalLagrangian's with o, and valid
// whenever the rounds stop (their limit, a cancelled ctx, a master not solved
// to optimality). The error is non-nil only for an invalid problem or a
// master solve that failed as a call (an unknown backend, say).
func IntervalLagrangianCG(ctx context.Context, p *Problem, o LagrangeOptions, co CGOptions) (LagrangeResult, CGStats, error) {
	st := CGStats{Master: math.Inf(1)}
	if err := p.Validate(); err != nil {
		return LagrangeResult{}, st, err
	}
	if o.Intervals > 0 {
		if err := sizelimit.Check("LagrangeOptions.Intervals", float64(o.Intervals), lagIntervalBytes, "grid intervals"); err != nil {
			return LagrangeResult{}, st, err
		}
	}
	pr := newPrep(p)
	if len(pr.jobs) == 0 {
		return LagrangeResult{}, st, nil
	}
	return pr.intervalLagrangianCG(ctx, o, co)
}

// intervalLagrangianCG runs the column generation on a non-empty problem.
func (pr *prep) intervalLagrangianCG(ctx context.Context, o LagrangeOptions, co CGOptions) (LagrangeResult, CGStats, error) {
	st := CGStats{Master: math.Inf(1)}
	steps := co.ThetaSteps
	if steps <= 0 {
		steps = thetaSteps
	}
	box := co.Box
	if box <= 0 {
		box = defaultCGBox
	}
	rounds := co.Rounds
	if rounds <= 0 {
		rounds = defaultCGRounds
	}
	maxCols := co.MaxColumns
	if maxCols <= 0 {
		maxCols = defaultCGMaxColumns
	}
	lm := pr.newLagModel(o)
	ev := newCGEval(lm, steps, !o.NoStarts && !pr.p.Preemptive)
	pool := newCGPool(ev)
	best := LagrangeResult{Value: math.Inf(-1)}
	var win []bool // the families at the best prices
	consider := func(lambda [][]float64, ab [][2]float64) []cgJob {
		jobs := make([]cgJob, len(pr.jobs))
		v, cert := ev.eval(lambda, ab, jobs)
		if v > best.Value {
			best.Value, best.Certificate = v, cert
			win = slices.Clone(cert.Starts)
		}
		return jobs
	}
	// The subgradient steps: every iterate's minimisers seed the pool.
	so := o
	every := max(1, co.SeedEvery)
	visits := 0
	so.visit = func(lambda [][]float64) {
		if visits++; ctx.Err() == nil && (visits-1)%every == 0 && pool.size() < maxCols {
			pool.add(consider(lambda, nil), nil)
		}
	}
	sub := pr.intervalLagrangian(ctx, so)
	st.Seed = sub.Value
	if sub.Certificate != nil && ctx.Err() == nil {
		pool.add(consider(sub.Certificate.Lambda, nil), nil)
	}
	for it := 0; it < rounds && ctx.Err() == nil && pool.size() < maxCols; it++ {
		fams := win
		if co.MasterNoStarts {
			fams = nil
		}
		d, obj, rows, err := pool.master(ctx, fams, boxAround(best.Certificate, box), co.Solve)
		if err != nil {
			if ctx.Err() != nil {
				break // cancelled during the solve: keep what is evaluated
			}
			return LagrangeResult{}, st, err
		}
		if d == nil {
			break // no optimal master: keep what is evaluated
		}
		st.Rounds, st.Master, st.MasterRows = it+1, obj, rows
		if co.Log != nil {
			co.Log(it, obj, best.Value, rows, pool.size())
		}
		// Wentges's smoothing: the oracle is called at a point between the
		// best one and the master's, since the master's duals swing far
		// while its cutting-plane model is coarse (a price on a row that
		// no column crowds yet is arbitrary). When the smoothed point
		// yields no improving column, the master's own point is priced.
		if sm := smoothed(best.Certificate, d, cgSmoothing); sm != nil {
			if st.Improving = pool.add(consider(sm.lambda, sm.ab), d); st.Improving > 0 {
				continue
			}
		}
		st.Improving = pool.add(consider(d.lambda, d.ab), d)
		if st.Improving == 0 {
			break
		}
	}
	st.Columns = pool.size()
	best.Iterations = sub.Iterations + st.Rounds
	if sub.Value >= best.Value || best.Certificate == nil {
		// The subgradient method's own evaluation is what a stopped run
		// keeps when nothing better was evaluated.
		best = sub
		best.Iterations += st.Rounds
	}
	best.Value = math.Max(0, best.Value)
	return best, st, nil
}

// cgCol is one column: a placement of one job's work, its cost (the mean
// busy time μ of a fill; the constant C_j − a_j of a start-time minimiser,
// without the prices) and its usage per capacity row (index r·nInt + t,
// ascending).
type cgCol struct {
	cost float64
	idx  []int32
	val  []float64
}

// Column families of a job: its map fills and reduce fills (§4b) and its
// start-time minimisers (§4c).
const (
	famMap = iota
	famRed
	famStart
	nFam
)

// cgJob is what one evaluation returns for one job: new columns per family
// and whether the start-time term gave the job's value.
type cgJob struct {
	cols  [nFam][]cgCol
	start bool
}

// cgEval evaluates the Lagrangian of §4b–§4c at given prices, both terms of
// every job, as the subgradient method's full iterations do.
type cgEval struct {
	lm      *lagModel
	steps   int
	pieceOf [][2]*lagPiece
	subs    []startSub
	cumR    []float64
	buf     []lagItem
	sc      startScratch
	dense   [][]float64 // usage scratch per row, zero between columns
	side    [2][]float64
	touched []int32
}

func newCGEval(lm *lagModel, steps int, starts bool) *cgEval {
	n := len(lm.pr.jobs)
	nInt := len(lm.bp) - 1
	e := &cgEval{lm: lm, steps: steps, pieceOf: make([][2]*lagPiece, n)}
	for k := range 2 {
		for i := range lm.pieces[k] {
			pc := &lm.pieces[k][i]
			e.pieceOf[pc.job][k] = pc
		}
		e.side[k] = make([]float64, steps+1)
	}
	if starts {
		e.subs = lm.newStartSubs()
		e.cumR = make([]float64, nInt+1)
	}
	e.dense = make([][]float64, lm.nrow)
	for r := range lm.nrow {
		e.dense[r] = make([]float64, nInt)
	}
	return e
}

// eval returns the certified Lagrangian value at lambda and its
// certificate, and fills jobs (one per job) with each job's minimisers as
// columns. ab, when not nil, holds per job a pair α, β (the master's
// completion duals) tried besides the grid's, whose fills are the master's
// pricing columns.
func (e *cgEval) eval(lambda [][]float64, ab [][2]float64, jobs []cgJob) (float64, *LagrangeCertificate) {
	lm := e.lm
	nInt := len(lm.bp) - 1
	n := len(lm.pr.jobs)
	cert := &LagrangeCertificate{Breakpoints: lm.bp, Alpha: make([]float64, n), Beta: make([]float64, n), Weighting: lm.v}
	for r := range lm.nrow {
		cert.Lambda = append(cert.Lambda, slices.Clone(lambda[r]))
	}
	val, mag := -lm.sumA, lm.sumA
	for r := range lm.nrow {
		for t, l := range lambda[r] {
			c := l * lm.rate[r] * (lm.bp[t+1] - lm.bp[t])
			val -= c
			mag += c
		}
	}
	if e.subs != nil {
		cert.Starts = make([]bool, n)
		lamR := lambda[lm.nrow-1]
		for t := range nInt {
			e.cumR[t+1] = e.cumR[t] + lamR[t]*(lm.bp[t+1]-lm.bp[t])
		}
	}
	steps := e.steps
	for j := range n {
		jobs[j] = cgJob{}
		// §4b: each kind's minimum at every grid weight, then the best pair.
		for k := range 2 {
			pc := e.pieceOf[j][k]
			flat := false
			for g := steps; g >= 0; g-- {
				e.side[k][g] = 0
				if pc == nil || g == 0 {
					continue
				}
				th := float64(g) / float64(steps)
				if flat {
					e.side[k][g] = th * e.side[k][steps]
					continue
				}
				var v float64
				v, _, flat, e.buf = lm.pieceMin(pc, th, lambda[pc.row], e.buf, nil)
				flat = flat && g == steps
				e.side[k][g] = v + th*pc.h
			}
		}
		bestV, ga, gb := math.Inf(-1), 0, 0
		for a := range steps + 1 {
			if a > 0 && e.pieceOf[j][kMap] == nil {
				break
			}
			for b := 0; a+b <= steps; b++ {
				if b > 0 && e.pieceOf[j][kRed] == nil {
					break
				}
				v := e.side[0][a] + e.side[1][b] + float64(steps-a-b)/float64(steps)*lm.k[j]
				if v > bestV {
					bestV, ga, gb = v, a, b
				}
			}
		}
		th := [2]float64{float64(ga) / float64(steps), float64(gb) / float64(steps)}
		var thAB [2]float64
		if ab != nil {
			// The master's pair, made a valid one (α, β ≥ 0, α + β ≤ 1;
			// any such pair gives a valid term).
			thAB = [2]float64{math.Max(0, ab[j][0]), math.Max(0, ab[j][1])}
			if sum := thAB[0] + thAB[1]; sum > 1 {
				thAB[0], thAB[1] = thAB[0]/sum, thAB[1]/sum
			}
			v := (1 - thAB[0] - thAB[1]) * lm.k[j]
			for k := range 2 {
				if pc := e.pieceOf[j][k]; pc != nil {
					var m float64
					m, _, _, e.buf = lm.pieceMin(pc, thAB[k], lambda[pc.row], e.buf, nil)
					v += m + thAB[k]*pc.h
				}
			}
			if v > bestV {
				bestV, th = v, thAB
			}
		}
		cert.Alpha[j], cert.Beta[j] = th[0], th[1]
		for k := range 2 {
			if e.pieceOf[j][k] == nil {
				continue
			}
			w := th[k]
			if w == 0 {
				// A weight 0 is indifferent to time (any fill on unpriced
				// intervals): the grid's smallest, as the subgradient's
				// direction takes it.
				w = 1 / float64(steps)
			}
			jobs[j].cols[k] = append(jobs[j].cols[k], e.fillCol(j, k, w, lambda))
			if ab != nil && thAB[k] != w {
				jobs[j].cols[k] = append(jobs[j].cols[k], e.fillCol(j, k, thAB[k], lambda))
			}
		}
		if e.subs != nil {
			sb := &e.subs[j]
			sv, arg := lm.startMin(sb, lambda[0], lambda[sb.row], e.cumR, &e.sc)
			mag += sb.nh * e.cumR[nInt]
			jobs[j].cols[famStart] = append(jobs[j].cols[famStart], e.startCol(sb, sv, arg, lambda))
			if sv+sb.a > bestV {
				// bestV counts C_j (the a_j are in −sumA), sv C_j − a_j.
				cert.Starts[j], jobs[j].start = true, true
				val += sv + sb.a
				mag += math.Abs(sv + sb.a)
				continue
			}
		}
		val += bestV
		mag += math.Abs(bestV)
	}
	return val - lagrangeSlack(mag), cert
}

// fillCol is job j's kind-k fill minimising θ·μ + λ·y (§4b's θ-knapsack)
// as a column: its usage and its mean busy time.
func (e *cgEval) fillCol(j, k int, theta float64, lambda [][]float64) cgCol {
	lm := e.lm
	nInt := len(lm.bp) - 1
	pc := e.pieceOf[j][k]
	var mean float64
	_, mean, _, e.buf = lm.pieceMin(pc, theta, lambda[pc.row], e.buf, e.dense[pc.row])
	e.touched = e.touched[:0]
	for _, it := range e.buf {
		if it.t < nInt {
			e.touched = append(e.touched, int32(pc.row*nInt+it.t))
		}
	}
	return e.harvest(mean, nil)
}

// startCol is the §4c column of the minimiser arg (value sv at lambda):
// its usage from startUse, and as cost the value less the priced usage.
func (e *cgEval) startCol(s *startSub, sv float64, arg startArg, lambda [][]float64) cgCol {
	lm := e.lm
	bp := lm.bp
	nInt := len(bp) - 1
	lm.startUse(s, arg, lambda[0], lambda[s.row], e.dense[0], e.dense[s.row], &e.sc)
	// Where startUse can have written: the maps up to the last bucket's
	// end, the reduces from the head on (a common start's window, or the
	// fluid fill up to arg.t).
	e.touched = e.touched[:0]
	if s.mp != nil {
		for t := s.mp.first; t < min(s.head+startOffsets[len(startOffsets)-1], nInt); t++ {
			e.touched = append(e.touched, int32(t))
		}
	}
	if s.nh > 0 {
		lo, hi := s.head, min(arg.t+1, nInt)
		if !s.fluid {
			lo, hi = max(0, searchBreak(bp, arg.at)-1), min(nInt, searchBreak(bp, arg.at+s.q)+1)
		}
		for t := lo; t < hi; t++ {
			e.touched = append(e.touched, int32(s.row*nInt+t))
		}
	}
	return e.harvest(sv, lambda)
}

// harvest turns the dense usage at e.touched into a sorted sparse column
// and clears it. With lambda, the cost is taken as cost less the priced
// usage (a minimum's value turned into its constant part).
func (e *cgEval) harvest(cost float64, lambda [][]float64) cgCol {
	nInt := len(e.lm.bp) - 1
	slices.Sort(e.touched)
	col := cgCol{cost: cost}
	for i, x := range e.touched {
		if i > 0 && e.touched[i-1] == x {
			continue
		}
		r, t := int(x)/nInt, int(x)%nInt
		u := e.dense[r][t]
		if u == 0 {
			continue
		}
		e.dense[r][t] = 0
		col.idx = append(col.idx, x)
		col.val = append(col.val, u)
		if lambda != nil {
			col.cost -= lambda[r][t] * u
		}
	}
	return col
}

// cgPool holds every job's columns by family, without duplicates.
type cgPool struct {
	ev   *cgEval
	cols [][nFam][]cgCol
	seen []map[uint64]bool
	win  []bool // true: the job's master rows hold its §4c columns
}

func newCGPool(ev *cgEval) *cgPool {
	lm := ev.lm
	n := len(lm.pr.jobs)
	pl := &cgPool{ev: ev, cols: make([][nFam][]cgCol, n), seen: make([]map[uint64]bool, n)}
	nInt := len(lm.bp) - 1
	tauN := lm.bp[nInt]
	for j := range n {
		pl.seen[j] = map[uint64]bool{}
		// Zero-usage columns keep every master feasible, and are
		// placements of the job alone: all work past the grid end.
		for k := range 2 {
			if ev.pieceOf[j][k] != nil {
				pl.cols[j][k] = append(pl.cols[j][k], cgCol{cost: tauN})
			}
		}
		if ev.subs != nil {
			s := &ev.subs[j]
			eK := lm.bp[min(s.head+startOffsets[len(startOffsets)-1], nInt)]
			c := eK + s.r
			switch {
			case s.nh == 0:
			case s.fluid:
				c = math.Max(tauN, c)
			default:
				c = math.Max(tauN+s.q, c)
			}
			pl.cols[j][famStart] = append(pl.cols[j][famStart], cgCol{cost: c - s.a})
		}
	}
	return pl
}

func (pl *cgPool) size() int {
	s := 0
	for _, c := range pl.cols {
		for f := range nFam {
			s += len(c[f])
		}
	}
	return s
}

// inMaster reports whether family f of job j is in the master.
func (pl *cgPool) inMaster(j, f int) bool {
	start := pl.ev.subs != nil && pl.win != nil && pl.win[j]
	return (f == famStart) == start && len(pl.cols[j][f]) > 0
}

// cgDual is a master's dual solution: capacity prices, and per job the
// completion rows' duals (α, β) and each family's convexity dual (+Inf
// for a family not in the master).
type cgDual struct {
	lambda [][]float64
	ab     [][2]float64
	pi     [][nFam]float64
}

// add puts the new columns of jobs into the pool and, given the master's
// dual d, returns how many have a negative reduced cost in the master
// (d nil: 0).
func (pl *cgPool) add(jobs []cgJob, d *cgDual) int {
	improving := 0
	nInt := len(pl.ev.lm.bp) - 1
	var b [8]byte
	for j := range jobs {
		for f := range nFam {
			for _, col := range jobs[j].cols[f] {
				// A fixed hash (FNV-1a over the bits), so that runs repeat.
				h := fnv.New64a()
				put := func(u uint64) {
					binary.LittleEndian.PutUint64(b[:], u)
					h.Write(b[:])
				}
				put(uint64(f))
				put(math.Float64bits(col.cost))
				for i, x := range col.idx {
					put(uint64(x))
					put(math.Float64bits(col.val[i]))
				}
				key := h.Sum64()
				if pl.seen[j][key] {
					continue
				}
				pl.seen[j][key] = true
				pl.cols[j][f] = append(pl.cols[j][f], col)
				if d == nil || math.IsInf(d.pi[j][f], 1) {
					continue
				}
				// Reduced cost: a fill costs α·μ (β·μ) through its
				// completion row, a start-time column its constant.
				rc := col.cost - d.pi[j][f]
				if f != famStart {
					rc = d.ab[j][f]*col.cost - d.pi[j][f]
				}
				for i, x := range col.idx {
					rc += d.lambda[int(x)/nInt][int(x)%nInt] * col.val[i]
				}
				if rc < -cgReducedTol*math.Max(1, math.Abs(d.pi[j][f])) {
					improving++
				}
			}
		}
	}
	return improving
}

// cgReducedTol: a column counts as improving when its reduced cost is
// below −cgReducedTol·|π| (the LP's own tolerances are about 1e-7).
const cgReducedTol = 1e-7

// master solves the master LP over the families win and returns its dual
// (nil when the solve was not optimal), its objective and its row count.
//
// With box, capacity row i also has an overuse column at cost box[1][i],
// so that its price is at most that, and an idle column w_i ≤ cap_i at
// cost −box[0][i], so that a price below box[0][i] is penalised: a box
// step around the best point, which keeps the master's prices from
// swinging while its model is coarse. The objective is then a penalised
// value, not the cutting-plane model's.
func (pl *cgPool) master(ctx context.Context, win []bool, box [2][]float64, so solve.Options) (*cgDual, float64, int, error) {
	pl.win = win
	lm := pl.ev.lm
	nInt := len(lm.bp) - 1
	n := len(pl.cols)
	b := model.NewBuilder("lowerbound-cg-master")
	rowOf := map[int32]int{}
	var capIdx []int32
	var capExpr []model.Expr
	var objE model.Expr
	type rowRef struct{ job, f int } // f = nFam + k: kind k's completion row
	var refs []rowRef
	addCap := func(x model.Var, col *cgCol) {
		for i, id := range col.idx {
			r, ok := rowOf[id]
			if !ok {
				r = len(capIdx)
				rowOf[id] = r
				capIdx = append(capIdx, id)
				capExpr = append(capExpr, model.Expr{})
			}
			capExpr[r].Add(x, col.val[i])
		}
	}
	sumA := 0.0
	for j := range n {
		a := lm.pr.jobs[j].a
		sumA += a
		if pl.inMaster(j, famStart) {
			var conv model.Expr
			for i := range pl.cols[j][famStart] {
				col := &pl.cols[j][famStart][i]
				x := b.Continuous("", 0, 1)
				objE.Add(x, col.cost)
				conv.Add(x, 1)
				addCap(x, col)
			}
			b.Equal("", conv, 1)
			refs = append(refs, rowRef{j, famStart})
			objE.AddConst(a) // the a_j are subtracted once below
			continue
		}
		// C_j ≥ K_j, and C_j ≥ Σ_s x_s·μ_s + h for each kind.
		c := b.Continuous("", lm.k[j], math.Inf(1))
		objE.Add(c, 1)
		for k := range 2 {
			pc := pl.ev.pieceOf[j][k]
			if pc == nil {
				continue
			}
			var conv model.Expr
			comp := model.NewExpr(len(pl.cols[j][k]) + 1)
			comp.Add(c, 1)
			for i := range pl.cols[j][k] {
				col := &pl.cols[j][k][i]
				x := b.Continuous("", 0, 1)
				conv.Add(x, 1)
				comp.Add(x, -col.cost)
				addCap(x, col)
			}
			b.Equal("", conv, 1)
			b.GreaterEq("", comp, pc.h)
			refs = append(refs, rowRef{j, k}, rowRef{j, nFam + k})
		}
	}
	for r, id := range capIdx {
		row, t := int(id)/nInt, int(id)%nInt
		capT := lm.rate[row] * (lm.bp[t+1] - lm.bp[t])
		if box[1] != nil {
			s := b.Continuous("", 0, math.Inf(1))
			objE.Add(s, box[1][row*nInt+t])
			capExpr[r].Add(s, -1)
			if lo := box[0][row*nInt+t]; lo > 0 {
				w := b.Continuous("", 0, capT)
				objE.Add(w, -lo)
				capExpr[r].Add(w, 1)
			}
		}
		b.LessEq("", capExpr[r], capT)
	}
	objE.AddConst(-sumA)
	b.Minimize(objE)
	m, err := b.Build()
	if err != nil {
		return nil, 0, 0, fmt.Errorf("lowerbound: column generation master: %w", err)
	}
	res, err := solve.Solve(ctx, m, so)
	if err != nil {
		return nil, 0, 0, err
	}
	if res.Status != solve.Optimal || res.RowDuals == nil || slices.ContainsFunc(res.RowDuals, notFinite) {
		// A non-finite dual would make a price NaN: as no optimal master.
		return nil, 0, m.NumRows(), nil
	}
	d := &cgDual{lambda: make([][]float64, lm.nrow), ab: make([][2]float64, n), pi: make([][nFam]float64, n)}
	for r := range lm.nrow {
		d.lambda[r] = make([]float64, nInt)
	}
	for j := range n {
		d.pi[j] = [nFam]float64{math.Inf(1), math.Inf(1), math.Inf(1)}
	}
	for i, ref := range refs {
		y := res.RowDuals[i]
		if ref.f < nFam {
			d.pi[ref.job][ref.f] = y
		} else {
			d.ab[ref.job][ref.f-nFam] = math.Max(0, y) // a ≥ row's dual is ≥ 0
		}
	}
	for r, id := range capIdx {
		// A ≤ row's dual is ≤ 0 in a minimisation; its price is −dual.
		d.lambda[int(id)/nInt][int(id)%nInt] = math.Max(0, -res.RowDuals[len(refs)+r])
	}
	return d, res.Objective, m.NumRows(), nil
}

// cgSmoothing is the weight of the best point in the smoothed one
// (Wentges 1997 uses 0.5–0.9).
const cgSmoothing = 0.5

// smoothed is w·(the best point) + (1 − w)·(the master's duals), in λ and in
// each job's α, β (nil without a best point).
func smoothed(c *LagrangeCertificate, d *cgDual, w float64) *cgDual {
	if c == nil {
		return nil
	}
	out := &cgDual{lambda: make([][]float64, len(d.lambda)), ab: make([][2]float64, len(d.ab)), pi: d.pi}
	for r := range d.lambda {
		out.lambda[r] = make([]float64, len(d.lambda[r]))
		for t, l := range d.lambda[r] {
			out.lambda[r][t] = w*c.Lambda[r][t] + (1-w)*l
		}
	}
	for j := range d.ab {
		out.ab[j] = [2]float64{w*c.Alpha[j] + (1-w)*d.ab[j][0], w*c.Beta[j] + (1-w)*d.ab[j][1]}
	}
	return out
}

// boxAround is the box step around the best point: per row (index r·nInt
// + t) the price range λ̂_i ± Δ_i, Δ_i = width·(λ̂_i + the mean positive
// price), as [lower, upper]. Nil without a best point.
func boxAround(c *LagrangeCertificate, width float64) [2][]float64 {
	if c == nil {
		return [2][]float64{}
	}
	sum, cnt := 0.0, 0
	for _, row := range c.Lambda {
		for _, l := range row {
			if l > 0 {
				sum, cnt = sum+l, cnt+1
			}
		}
	}
	mean := 1.0
	if cnt > 0 {
		mean = sum / float64(cnt)
	}
	var box [2][]float64
	for _, row := range c.Lambda {
		for _, l := range row {
			d := width * (l + mean)
			box[0] = append(box[0], l-d)
			box[1] = append(box[1], l+d)
		}
	}
	return box
}

// defaultCGBox is the box step's half-width relative to the price (plus
// the mean price).
const defaultCGBox = 0.25

// notFinite reports whether v is NaN or infinite.
func notFinite(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }
