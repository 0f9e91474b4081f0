package lowerbound

import (
	"context"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/mrbound/mrbound/internal/sizelimit"
)

// LagrangeOptions configures IntervalLagrangian. Every field only trades
// strength for time: any grid, block layout, step rule or stopping point
// gives a valid bound.
type LagrangeOptions struct {
	// Intervals is the number of equal steps of the grid (the jobs'
	// releases and heads are added as breakpoints); 0 means
	// min(defaultLagrangeIntervals, intervalsPerJob·#jobs).
	Intervals int
	// Iterations is the number of subgradient steps. 0 lets the work
	// budget decide: steps run until Work is spent or the best value has
	// stopped rising (it gains less than plateauGain of itself over
	// plateauSteps steps), at most maxLagrangeIters.
	Iterations int
	// Work is the budget in work units: the intervals the per-job minima
	// scan, plus the grid's intervals once per step (a count that follows
	// the CPU time, about 40 ns a unit on FB-2009 day 0, yet does not
	// depend on the machine). 0 means defaultLagrangeWork when Iterations
	// is 0, and no budget when Iterations is set (with both, whichever
	// ends first). The steps stop before the first one that would start
	// with the budget spent.
	Work int64
	// TimeLimit stops the iterations early (0: none); the best value so far
	// is returned and stays valid. With a limit the result may depend on the
	// machine's speed; Iterations and Work keep it deterministic.
	TimeLimit time.Duration
	// Target is an upper estimate of the optimal Σ_j (C_j − a_j) in ms (for
	// example the best policy's), used only for the step length; 0 means
	// an estimate from the bound itself.
	Target float64
	// NoStarts leaves out the start-time subproblem (docs/bounds.md §4c),
	// in which each reduce runs in one piece: the relaxation of §4b alone,
	// as before s10lower. Preemptive problems never use it.
	NoStarts bool
	// visit, when set, is called with the multipliers at the start of
	// every iteration (IntervalLagrangianCG collects its columns there).
	visit func(lambda [][]float64)
}

const (
	// defaultLagrangeIntervals: on FB-2009 day 0 at 20 nodes, 120 steps on
	// 2,048 / 16,384 / 32,768 steps give 100.1 / 102.4 / 103.0 s mean in
	// 2.9 / 5.3 / 7.1 CPU s (docs/results.md, issue 26, s9h26lower). Since
	// the work budget decides the steps, 32,768 gives more for the same
	// CPU: 108.67 s after 240 steps in 19.7 CPU s against 108.52 s after
	// 480 in 26.8 s on 16,384 (s24lag).
	defaultLagrangeIntervals = 32768
	intervalsPerJob          = 64
	// defaultLagrangeWork is the budget of work units (LagrangeOptions.Work)
	// when no step count is given: about 30 CPU s on FB-2009 day 0 (at 20
	// nodes some 280 steps, at 10 nodes some 100), so that each of compare's
	// lines stays within a minute on one core with the offline side
	// (docs/results.md, issue 26, s24lag).
	defaultLagrangeWork = 800_000_000
	// maxLagrangeIters caps the steps of the work budget (small streams
	// take little work a step).
	maxLagrangeIters = 500
	// plateauSteps, plateauGain: under the work budget, the steps stop when
	// the best value has gained at most plateauGain of itself over the last
	// plateauSteps steps (lightly loaded days and small streams: an 8-job
	// stream stops after 300 steps).
	plateauSteps = 50
	plateauGain  = 1e-4
	// stepsPerPatience: in a run of n steps, n/stepsPerPatience steps
	// without improvement (at least lagrangeStall) halve the step factor.
	// At 20 nodes, halving after 5 stalls left the factor at 10^-4 by step
	// 250 and the value at 107.95 s through 1,920 steps; after 10, 15 or
	// 20 stalls 480 steps reach 108.52 / 108.54 / 108.54 s, but 120 steps
	// only 105.80 / 104.68 / 103.88 s (107.43 s after 5): the patience
	// follows the run's length (docs/results.md, issue 26, s24lag).
	stepsPerPatience = 30
	// workPatience is the patience under the work budget, whose step count
	// is not known in advance: 10, as for the some 300 steps the default
	// budget buys at 20 nodes. (Estimating the count from the work of the
	// steps so far overestimates it, the first steps being the cheapest:
	// 108.42 s there against 108.85 s with 10.)
	workPatience = 10
	// lagrangeStall is how many iterations without improvement halve the
	// Polyak step factor in runs of fewer than 6·stepsPerPatience steps.
	lagrangeStall = 5
	// stepGap is the assumed relative gap between the best value and the
	// dual optimum in Polyak's step rule (halved with the step factor on
	// stalls). 0.2 rose fastest of 0.02, 0.05, 0.1 and 0.2 on the loaded
	// test streams and on FB-2009 day 0 (docs/results.md, issue 26).
	stepGap = 0.2
	// thetaSteps: 1/thetaSteps is the weight at which a piece of weight 0
	// takes its usage (for the step's direction), and eighths are
	// IntervalLagrangianCG's default grid of weights. Until s24alpha the
	// subgradient method chose each job's α, β as the best pair in eighths;
	// it now maximises them by probes (bestWeights): 109.04 against
	// 108.84 s at 20 nodes on FB-2009 day 0 under the same work budget.
	thetaSteps = 8
	// deflection is the Camerini–Fratta–Maffioli factor of the step
	// direction (d = g + δ·d_prev, δ = deflection·max(0, −g·d_prev)/
	// |d_prev|²). On FB-2009 day 0 at 20 nodes, 120 steps deflected from
	// the start give 106.70 / 107.01 / 107.41 / 107.41 s mean with 1 / 1.5
	// / 2 / 3, against 106.04 s with plain subgradients; on the day's every
	// tenth job on 2 nodes 359.4 s at 2 against 349.6 s (docs/results.md,
	// issue 26, s12mean).
	deflection = 2.0
	// deflectFrom: the first steps go along the plain subgradient. From
	// λ = 0 the first Polyak steps overshoot (the target is 20 % above the
	// best value, far above what a lightly loaded day can gain), and a
	// deflected direction continues an overshoot when the next subgradient
	// reverses it (δ = 2 for an exact reversal gives d = d_prev). Deflected
	// from the start, FB-2009 day 0 at 100 nodes stays at Σ CP_j (67.65 s
	// mean against 68.01 s plain); after 10 plain steps a 20-job test
	// stream ends 4 % below the plain method; after 20, every instance
	// tried is at or above it (100 nodes 68.03 s, 40 nodes 77.00 s, 20
	// nodes 106.89 s against 106.04 s; docs/results.md, issue 26, s12mean).
	deflectFrom = 20
	// startRecheck: a job whose start-time term beat its α/β term is given
	// the start-time term alone, and compared again every startRecheck
	// iterations (either term alone is valid; skipping the α/β knapsacks
	// saves their time).
	startRecheck = 4
)

// patience is how many steps without improvement halve the step factor in
// a run of n steps: lagrangeStall, or n/stepsPerPatience when that is more.
func patience(n int) int { return max(lagrangeStall, n/stepsPerPatience) }

// LagrangeSafetyLimit is the wall-clock limit callers such as compare put on
// the Lagrangian as a safety net only: its step count or work budget decides
// the result (the default budget takes about 30 CPU s on FB-2009 day 0,
// docs/results.md, issue 26, s24lag), so that the bound does not depend on
// the machine's load; the limit stops it only where the steps would take far
// longer than that (a machine many times slower or loaded: a minute, the
// limit before s24lag, cut the budget's steps at load 11 on two cores).
const LagrangeSafetyLimit = 3 * time.Minute

// LagrangeComponent names the bound in Bound.Components.
const LagrangeComponent = "interval-lagrangian"

// LagrangeResult is the outcome of IntervalLagrangian.
type LagrangeResult struct {
	// Value is the certified lower bound on Σ_j (C_j − a_j) (ms): the
	// Lagrangian value of the best iterate, computed exactly and lowered by
	// lagrangeSlack for floating-point error.
	Value float64 `json:"value"`
	// Iterations run, and at which one Value was found.
	Iterations int `json:"iterations"`
	BestAt     int `json:"bestAt"`
	// Work is the work units spent (LagrangeOptions.Work).
	Work int64 `json:"work"`
	// Certificate holds the multipliers that give Value.
	Certificate *LagrangeCertificate `json:"-"`
}

// LagrangeCertificate is the dual point of the best iterate: with it,
// Value can be recomputed by anyone from the relaxation in docs/bounds.md
// §4b.
type LagrangeCertificate struct {
	// Breakpoints τ_0 < … < τ_N of the fine grid (ms).
	Breakpoints []float64
	// Lambda[r][t] ≥ 0 is the price of capacity row r (map, reduce; one row
	// when fungible) in interval [τ_t, τ_{t+1}).
	Lambda [][]float64
	// Alpha[j], Beta[j] ≥ 0 with Alpha+Beta ≤ 1 weigh job j's map-side and
	// reduce-side completion rows; 1 − Alpha − Beta weighs C_j ≥ a_j + CP_j.
	Alpha, Beta []float64
	// Weighting is the speed weighting (index into prep.weights) used.
	Weighting int
	// Starts[j] (nil: none) says that job j's term is the start-time
	// subproblem's (§4c) rather than the α/β combination's.
	Starts []bool
}

// lagrangeSlack is subtracted from a Lagrangian value before it is reported:
// each of its ~10^7 products and sums has relative error ≤ 2^-53, so 1e-9
// of the magnitude of everything summed (plus 1e-6 ms) is a wide margin.
func lagrangeSlack(mag float64) float64 { return 1e-6 + 1e-9*mag }

// IntervalLagrangian bounds total turnaround by the Lagrangian relaxation of
// an interval-indexed LP (docs/bounds.md §4b): per job and kind, weighted work
// placed in intervals after its release at its parallelism cap, completion
// rows through mean busy times, and the capacity rows of every interval
// priced by multipliers that a subgradient method improves. Each job's term
// is the larger of that relaxation's and a start-time term that charges C_j
// itself, with reduces in one piece (§4c; not for preemptive problems). Each
// iterate's value is computed exactly from its multipliers, so the bound is
// valid whenever the method stops.
func IntervalLagrangian(ctx context.Context, p *Problem, o LagrangeOptions) (LagrangeResult, error) {
	if err := p.Validate(); err != nil {
		return LagrangeResult{}, err
	}
	// The grid's per-interval tables (breakpoints, multipliers and use per
	// capacity row, the knapsack's scan buffer) are allocated up front: a
	// grid of 10^10 intervals is refused here, not by the kernel.
	if o.Intervals > 0 {
		if err := sizelimit.Check("LagrangeOptions.Intervals", float64(o.Intervals), lagIntervalBytes, "grid intervals"); err != nil {
			return LagrangeResult{}, err
		}
	}
	pr := newPrep(p)
	if len(pr.jobs) == 0 {
		return LagrangeResult{}, nil
	}
	return pr.intervalLagrangian(ctx, o), nil
}

// lagIntervalBytes is what one grid interval costs: a breakpoint (8 B),
// a multiplier, a use and a step direction per capacity row (2 rows × 3 ×
// 8 B) and a scan item of the knapsack (24 B).
const lagIntervalBytes = 80

// lagPiece is one job's work of one kind.
type lagPiece struct {
	job, row int
	w, cap   float64 // weighted work and the job's rate cap
	h        float64 // added to the mean busy time: W/(2·cap) (+ R_j for maps)
	first    int     // first interval (it starts at the release)
}

// lagModel is the relaxation's data.
type lagModel struct {
	pr     *prep
	v      int
	bp     []float64 // breakpoints
	nrow   int
	rate   []float64 // per row
	pieces [2][]lagPiece
	k      []float64 // a_j + CP_j
	sumA   float64
	// work counts the intervals the minimisers have looked at (every
	// knapsack's and start-time scan's steps) plus the grid's intervals once
	// per iteration: a deterministic measure of the time spent
	// (LagrangeOptions.Work).
	work int64
}

func (pr *prep) newLagModel(o LagrangeOptions) *lagModel {
	nInt := o.Intervals
	if nInt <= 0 {
		nInt = min(defaultLagrangeIntervals, intervalsPerJob*len(pr.jobs))
	}
	lm := &lagModel{pr: pr, v: len(pr.weights) - 1, nrow: 2}
	if pr.fungible {
		lm.nrow = 1
	}
	lm.rate = make([]float64, lm.nrow)
	for r := range lm.nrow {
		lm.rate[r] = pr.rate[lm.v][r]
	}
	t0 := float64(pr.minArrival)
	end := t0
	for _, c := range pr.maxCompletion() {
		end = math.Max(end, c.Value)
	}
	for _, j := range pr.jobs {
		end = math.Max(end, j.a+j.head)
	}
	// Half as much again as the makespan bound: work pushed past the grid
	// end is still charged at the end, without capacity. The third past
	// the makespan bound is hardly ever priced, yet moving its steps inside
	// (or placing them by the jobs' load, or adding a_j + CP_j) left the
	// 20-node value at 108.9–109.04 s under the work budget: denser steps
	// where the work is make every scan longer (docs/results.md, issue 26,
	// s25grid).
	end = t0 + 1.5*(end-t0) + 1
	step := (end - t0) / float64(nInt)
	bp := make([]float64, 0, nInt+2*len(pr.jobs)+1)
	for i := range nInt {
		bp = append(bp, t0+float64(i)*step)
	}
	for _, j := range pr.jobs {
		bp = append(bp, j.a, j.a+j.head)
	}
	slices.Sort(bp)
	bp = slices.Compact(bp)
	bp = append(bp, end)
	lm.bp = bp
	lm.k = make([]float64, len(pr.jobs))
	for j := range pr.jobs {
		ji := &pr.jobs[j]
		lm.k[j] = ji.a + ji.cp
		lm.sumA += ji.a
		for k := range 2 {
			w := ji.work[lm.v][k]
			if w <= 0 {
				continue
			}
			c := pr.jobRateCap(j, k, lm.v)
			pc := lagPiece{job: j, row: min(k, lm.nrow-1), w: w, cap: c, h: w / (2 * c)}
			release := ji.a
			if k == kRed {
				release = ji.a + ji.head
			} else {
				pc.h += ji.tail
			}
			pc.first = sort.SearchFloat64s(bp, release)
			lm.pieces[k] = append(lm.pieces[k], pc)
		}
	}
	return lm
}

// lagItem is one candidate interval of a piece's work.
type lagItem struct {
	cost, room float64
	t          int // interval, or nInt for the uncapacitated tail
}

// lagWorse orders items for the knapsack's max-heap: the more expensive
// first, and on equal cost the later one (so that earlier intervals are
// preferred on ties, and the tail, t = nInt, comes last).
func lagWorse(a, b lagItem) bool {
	if a.cost != b.cost {
		return a.cost > b.cost
	}
	return a.t > b.t
}

// pieceMin solves min Σ_t (θ·τ_t/W + λ_t)·y_t over Σ y = W,
// 0 ≤ y_t ≤ cap·(τ_{t+1} − τ_t) for the intervals from the piece's release,
// plus the uncapacitated tail at the grid end at cost θ·τ_end/W: a
// fractional knapsack whose optimum takes the cheapest items first (ties:
// earlier first, the tail last).
//
// It walks the intervals in time order keeping, in a max-heap by cost, the
// cheapest items seen whose rooms cover W: a new item enters when it is
// cheaper than the heap's dearest, which leaves as soon as the others cover
// W without it (it is then never needed: later entries only make the set
// cheaper). The walk stops when the interval's cost floor θ·τ_t/W (λ ≥ 0)
// is not below the dearest item held, since no later interval (nor the tail,
// at θ·τ_end/W) can then undercut it; it reaches the tail only when the
// intervals cannot cover W more cheaply. The heap holds a handful of items
// for most pieces, where sorting every scanned interval (the method before)
// cost most of the Lagrangian's time.
//
// It returns the minimum and the mean start Σ τ·y/W, adds y_t to use (when
// not nil), and reports flat when every interval it looked at is unpriced:
// then the fill is the same for every θ > 0 (all costs and the stopping test
// scale with θ), so the minimum is θ times its value at θ = 1.
func (lm *lagModel) pieceMin(pc *lagPiece, theta float64, lam []float64, buf []lagItem, use []float64) (val, mean float64, flat bool, _ []lagItem) {
	bp := lm.bp
	nInt := len(bp) - 1
	h := buf[:0]
	room := 0.0 // Σ room over h
	flat = true
	t := pc.first
	for ; t < nInt; t++ {
		floor := theta * bp[t] / pc.w
		if room >= pc.w && floor >= h[0].cost {
			break
		}
		flat = flat && lam[t] == 0
		it := lagItem{cost: floor + lam[t], room: pc.cap * (bp[t+1] - bp[t]), t: t}
		h, room = lagOffer(h, room, it, pc.w)
	}
	lm.work += int64(t - pc.first + 1)
	if room < pc.w || h[0].cost > theta*bp[nInt]/pc.w {
		// The tail covers whatever is left: every held item dearer than it
		// leaves, the rest stay whole.
		tail := lagItem{cost: theta * bp[nInt] / pc.w, room: math.Inf(1), t: nInt}
		for len(h) > 0 && lagWorse(h[0], tail) {
			room -= h[0].room
			h = lagPop(h)
		}
		h = lagPush(h, tail)
	}
	// Every held item is filled whole but the dearest, h[0], which takes
	// what is left of W.
	left := pc.w
	for i := len(h) - 1; i >= 1; i-- {
		left -= h[i].room
	}
	for i, it := range h {
		y := it.room
		if i == 0 {
			y = left
		}
		if y <= 0 {
			continue
		}
		val += it.cost * y
		mean += bp[it.t] * y
		if use != nil && it.t < nInt {
			use[it.t] += y
		}
	}
	return val, mean / pc.w, flat, h
}

// lagOffer offers interval item it to the fill h of work w, whose rooms
// sum to room: it is kept when the fill is short or it is cheaper than the
// dearest item held, and the dearest items are dropped while the rest still
// hold w. It returns the fill and its room.
func lagOffer(h []lagItem, room float64, it lagItem, w float64) ([]lagItem, float64) {
	if room >= w && !lagWorse(h[0], it) {
		return h, room
	}
	h = lagPush(h, it)
	room += it.room
	for len(h) > 1 && room-h[0].room >= w {
		room -= h[0].room
		h = lagPop(h)
	}
	return h, room
}

// lagPush adds it to the max-heap h (by lagWorse).
func lagPush(h []lagItem, it lagItem) []lagItem {
	h = append(h, it)
	for i := len(h) - 1; i > 0; {
		up := (i - 1) / 2
		if !lagWorse(h[i], h[up]) {
			break
		}
		h[i], h[up] = h[up], h[i]
		i = up
	}
	return h
}

// lagPop removes the dearest item h[0] from the max-heap h.
func lagPop(h []lagItem) []lagItem {
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	for i := 0; ; {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && lagWorse(h[c+1], h[c]) {
			c++
		}
		if !lagWorse(h[c], h[i]) {
			break
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
	return h
}

// intervalLagrangian runs the subgradient method on a non-empty problem.
func (pr *prep) intervalLagrangian(ctx context.Context, o LagrangeOptions) LagrangeResult {
	lm := pr.newLagModel(o)
	iters, budget := o.Iterations, o.Work
	byWork := iters <= 0
	if byWork {
		iters = maxLagrangeIters
		if budget <= 0 {
			budget = defaultLagrangeWork
		}
	}
	plateauFrom := math.Inf(-1) // the best value plateauSteps steps ago
	var deadline time.Time
	if o.TimeLimit > 0 {
		deadline = time.Now().Add(o.TimeLimit)
	}
	nInt := len(lm.bp) - 1
	n := len(pr.jobs)
	lambda := make([][]float64, lm.nrow)
	use := make([][]float64, lm.nrow)
	dir := make([][]float64, lm.nrow) // the last step's direction
	for r := range lm.nrow {
		lambda[r] = make([]float64, nInt)
		use[r] = make([]float64, nInt)
		dir[r] = make([]float64, nInt)
	}
	pieceOf := make([][2]*lagPiece, n)
	for k := range 2 {
		for i := range lm.pieces[k] {
			pc := &lm.pieces[k][i]
			pieceOf[pc.job][k] = pc
		}
	}
	alpha, beta := make([]float64, n), make([]float64, n)
	res := LagrangeResult{}
	best := math.Inf(-1)
	mu, stall := 1.0, 0
	stallLimit := patience(iters)
	if byWork {
		stallLimit = workPatience
	}
	var buf []lagItem
	// The start-time terms (§4c) place reduces in one piece: valid only
	// when tasks run in one piece.
	var subs []startSub
	var starts, startOnly []bool
	var cumR []float64
	var sc startScratch
	if !o.NoStarts && !pr.p.Preemptive {
		subs = lm.newStartSubs()
		starts = make([]bool, n)
		startOnly = make([]bool, n)
		cumR = make([]float64, nInt+1)
	}
	for it := 0; it < iters; it++ {
		if ctx.Err() != nil || (!deadline.IsZero() && time.Now().After(deadline)) {
			break
		}
		if budget > 0 && lm.work >= budget {
			break
		}
		if byWork && it > 0 && it%plateauSteps == 0 {
			// The work budget is a ceiling: where the method has converged
			// (lightly loaded instances, small streams) more steps gain
			// nothing.
			if best-plateauFrom <= plateauGain*math.Abs(best) {
				break
			}
			plateauFrom = best
		}
		if o.visit != nil {
			o.visit(lambda)
		}
		lm.work += int64(lm.nrow * nInt)
		for r := range lm.nrow {
			clear(use[r])
		}
		val, mag := -lm.sumA, lm.sumA
		if subs != nil {
			clear(starts)
			lamR := lambda[lm.nrow-1]
			for t := range nInt {
				cumR[t+1] = cumR[t] + lamR[t]*(lm.bp[t+1]-lm.bp[t])
			}
		}
		for r := range lm.nrow {
			for t, l := range lambda[r] {
				c := l * lm.rate[r] * (lm.bp[t+1] - lm.bp[t])
				val -= c
				mag += c
			}
		}
		for j := range n {
			if subs != nil && startOnly[j] && it%startRecheck != 0 {
				// The start-time term won the last comparison: take it
				// alone (valid by itself), comparing again every
				// startRecheck iterations.
				sb := &subs[j]
				sv, arg := lm.startMin(sb, lambda[0], lambda[sb.row], cumR, &sc)
				starts[j] = true
				lm.startUse(sb, arg, lambda[0], lambda[sb.row], use[0], use[sb.row], &sc)
				val += sv + sb.a
				mag += sb.nh*cumR[nInt] + math.Abs(sv+sb.a)
				continue
			}
			// The best weights, each kind's term concave in its own.
			has := [2]bool{pieceOf[j][kMap] != nil, pieceOf[j][kRed] != nil}
			var bestV float64
			alpha[j], beta[j], bestV = bestWeights(has, lm.k[j], pr.jobs[j].cp, [2]float64{alpha[j], beta[j]}, func(k int, th float64) (f, slope float64, flat bool) {
				pc := pieceOf[j][k]
				var v, mean float64
				v, mean, flat, buf = lm.pieceMin(pc, th, lambda[pc.row], buf, nil)
				return v + th*pc.h, mean + pc.h, flat
			})
			if subs != nil {
				// Both terms bound the same per-job minimum (§4c): take the
				// larger, and its minimiser's usage for the subgradient.
				sb := &subs[j]
				sv, arg := lm.startMin(sb, lambda[0], lambda[sb.row], cumR, &sc)
				sv += sb.a // bestV counts C_j; the a_j are in −sumA
				// Each reduce's price is a difference of cumulative sums:
				// count their size towards the rounding slack.
				mag += sb.nh * cumR[nInt]
				startOnly[j] = sv > bestV
				if sv > bestV {
					starts[j] = true
					lm.startUse(sb, arg, lambda[0], lambda[sb.row], use[0], use[sb.row], &sc)
					val += sv
					mag += math.Abs(sv)
					continue
				}
			}
			// The chosen minimisers' usage, for the subgradient. A piece of
			// weight 0 is indifferent to time and may sit in the free tail;
			// its usage is taken at the smallest positive weight instead, so
			// that crowding shows (a step direction only: the value above is
			// the exact minimum, whatever the direction).
			for k, th := range [2]float64{alpha[j], beta[j]} {
				if th == 0 {
					th = 1.0 / thetaSteps
				}
				if pc := pieceOf[j][k]; pc != nil {
					_, _, _, buf = lm.pieceMin(pc, th, lambda[pc.row], buf, use[pc.row])
				}
			}
			val += bestV
			mag += math.Abs(bestV)
		}
		res.Iterations, res.Work = it+1, lm.work
		cert := val - lagrangeSlack(mag)
		if cert > best {
			if cert > best+1e-9*math.Abs(best) {
				stall = 0
				mu = math.Min(2, mu*1.1)
			}
			best = cert
			res.BestAt = it
			res.Certificate = &LagrangeCertificate{Breakpoints: lm.bp, Alpha: slices.Clone(alpha), Beta: slices.Clone(beta), Weighting: lm.v, Starts: slices.Clone(starts)}
			for r := range lm.nrow {
				res.Certificate.Lambda = append(res.Certificate.Lambda, slices.Clone(lambda[r]))
			}
		} else if stall++; stall >= stallLimit {
			mu, stall = mu/2, 0
		}
		// Subgradient of the capacity rows: usage − capacity.
		for r := range lm.nrow {
			for t := range nInt {
				g := use[r][t] - lm.rate[r]*(lm.bp[t+1]-lm.bp[t])
				if g < 0 && lambda[r][t] == 0 {
					g = 0 // the projection would undo it: keep it out of the norm
				}
				use[r][t] = g // reuse as the gradient
			}
		}
		// Step length: Polyak's rule towards a target stepGap above the
		// best value (a far target, such as a policy's value, overshoots).
		gap := stepGap * math.Max(1, math.Abs(best))
		if o.Target > best {
			gap = math.Min(gap, o.Target-best)
		}
		// After deflectFrom plain steps, the step goes along the deflected
		// direction d = g + δ·d_prev (Camerini, Fratta and Maffioli 1975),
		// δ = −deflection·g·d_prev / |d_prev|² when the new subgradient
		// turns back on the last direction (g·d_prev < 0), else 0:
		// consecutive subgradients of the knapsacks' piecewise-linear
		// minima zigzag, and the plain steps stall below the relaxation's
		// optimum (docs/bounds.md §4d). Any
		// direction keeps every value valid.
		dd, gd := 0.0, 0.0
		for r := range lm.nrow {
			for t := range nInt {
				gd += use[r][t] * dir[r][t]
				dd += dir[r][t] * dir[r][t]
			}
		}
		defl := 0.0
		if dd > 0 && gd < 0 && it >= deflectFrom {
			defl = -deflection * gd / dd
		}
		norm := 0.0
		for r := range lm.nrow {
			for t := range nInt {
				d := use[r][t] + defl*dir[r][t]
				if d < 0 && lambda[r][t] == 0 {
					d = 0 // as for g: the projection would undo it
				}
				dir[r][t] = d
				norm += d * d
			}
		}
		if norm > 0 {
			s := mu * gap / norm
			for r := range lm.nrow {
				for t := range nInt {
					lambda[r][t] = math.Max(0, lambda[r][t]+s*dir[r][t])
				}
			}
		}
	}
	res.Value = math.Max(0, best)
	return res
}
