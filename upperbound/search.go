package upperbound

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/mrbound/mrbound/compare"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
)

// DefaultEvaluations is the local search's default budget of simulator runs:
// small instances take milliseconds each, the FB-2009 day 0.3–0.7 s of CPU
// (with the checker, which a candidate needs only when it would become the
// best, about half as much again; docs/results.md, issue 26, s9h26upper).
const DefaultEvaluations = 40

// Options configure Best.
type Options struct {
	// Metric is minimised (required).
	Metric lowerbound.Metric
	// Sim are the simulator options of every run: those the compared
	// policies ran with, so that every schedule is one of the same problem.
	Sim sim.Options
	// Evaluations caps the local search's runs after the constructions: 0
	// is DefaultEvaluations, negative turns the search off.
	Evaluations int
	// TimeLimit stops the constructions and the search when reached,
	// checked between simulator runs (0: none). Work it cuts short depends
	// on the machine; Result.Stopped says so.
	TimeLimit time.Duration
	// Seed seeds the search's stream.
	Seed uint64
	// Starts are other schedules (the verified policy runs) whose
	// completion order may start the search when one is the best so far.
	Starts []Start
	// Waits, when set (one per job, ms), are the waits beyond their
	// critical paths that a relaxation charges the jobs: the search around
	// srpt-hold ends by trying its offsets with the wide jobs demoted by
	// them (chargedFactors).
	Waits []float64
	// ChargedFirst makes the search around srpt-hold begin with the runs
	// that demote the wide jobs by Waits (chargedFactors) instead of
	// ending with them: the best of them, when no worse than srpt-hold's
	// own schedule, is where the search starts. compare sets it when the
	// relaxation that charged the waits decides the lower bound.
	ChargedFirst bool
	// Prices, when set, are a relaxation's prices of a reduce slot's time:
	// srpt-hold's hold over [now, e] then costs at least their integral
	// there (compare passes the interval Lagrangian's when every slot
	// weighs the same).
	Prices *SlotPrices
}

// Start is a known verified schedule: its name, value and completions.
type Start struct {
	Name       string
	Value      float64
	Completion []int64
}

// Schedule is one construction's run.
type Schedule struct {
	// By names the construction ("offline-srpt", …, "offline-search").
	By    string  `json:"by"`
	Value float64 `json:"value"`
	// Verified: the trace passed sim/check, no action was rejected and every
	// job completed; CheckError says what failed otherwise (Value is then
	// meaningless and the schedule is never an upper value).
	Verified   bool    `json:"verified"`
	CheckError string  `json:"check_error,omitempty"`
	Completion []int64 `json:"-"`
	fast       bool    // built by a "-fast" construction
	rule       Rule    // the construction's rule (RuleUnknown for a search)
	checkErr   error   // the run's verdict by the streaming checker
}

// Result is what Best found.
type Result struct {
	// Best is the verified construction with the least value (the first
	// such by Tried order on ties), nil when none verified.
	Best *Schedule
	// Tried lists every construction run, then the search's best (the
	// order search's when it ran; the search around a dynamic rule's only
	// when it beats the rule, since it starts from the rule's own
	// schedule), each with its verdict.
	Tried []Schedule
	// Evaluations counts every simulator run.
	Evaluations int
	// Stopped is "" or why the work stopped early ("time limit",
	// "cancelled").
	Stopped string
}

// Best runs every construction of Rules(o.Metric) on w and then the local
// search, each through the simulator with o.Sim and verified by sim/check,
// and returns the best verified value. p is the compared problem (its
// arrivals and deadlines define the metric, as for the policies' runs).
// The error is for a failed call (a bad workload, an unknown metric), not
// for a construction the checker rejects.
func Best(ctx context.Context, w *sim.Workload, p *lowerbound.Problem, o Options) (*Result, error) {
	if o.Metric == lowerbound.MetricUnknown {
		return nil, fmt.Errorf("upperbound: no metric")
	}
	if len(p.Jobs) != len(w.Jobs) {
		return nil, fmt.Errorf("upperbound: the problem has %d jobs, the workload %d", len(p.Jobs), len(w.Jobs))
	}
	e := &evaluator{ctx: ctx, w: w, p: p, o: o, c: newClair(w), res: &Result{}}
	if o.Waits != nil {
		if len(o.Waits) != len(w.Jobs) {
			return nil, fmt.Errorf("upperbound: %d waits for %d jobs", len(o.Waits), len(w.Jobs))
		}
		for j, wt := range o.Waits {
			if math.IsNaN(wt) || math.IsInf(wt, 0) {
				return nil, fmt.Errorf("upperbound: job %d's wait is %v, not a finite value", j, wt)
			}
		}
	}
	if o.Prices != nil {
		if err := o.Prices.validate(); err != nil {
			return nil, err
		}
		e.c.reducePrice = newPriceCurve(o.Prices)
	}
	if o.TimeLimit > 0 {
		e.deadline = time.Now().Add(o.TimeLimit)
	}
	variants := []bool{false}
	if e.c.hetero {
		variants = append(variants, true)
	}
	var ran []*List
	for _, r := range Rules(o.Metric) {
		if r == SRPTHold && !e.c.holdable() {
			continue // it would be srpt's run again
		}
		for _, fast := range variants {
			if e.stop() {
				break
			}
			pol, err := newList(e.c, r, fast)
			if err != nil {
				return nil, err
			}
			if slices.ContainsFunc(ran, pol.same) {
				continue // the same keys give the same schedule (edf without deadlines is arrival)
			}
			ran = append(ran, pol)
			sc, err := e.run(pol)
			if err != nil {
				return nil, err
			}
			e.consider(sc)
		}
	}
	if o.Evaluations >= 0 && len(w.Jobs) > 1 && !e.stop() {
		if err := e.search(); err != nil {
			return nil, err
		}
	}
	return e.res, nil
}

type evaluator struct {
	ctx      context.Context
	w        *sim.Workload
	p        *lowerbound.Problem
	o        Options
	c        *clair
	deadline time.Time
	res      *Result
}

// stop reports (and records) a time limit or a cancelled context.
func (e *evaluator) stop() bool {
	switch {
	case e.ctx.Err() != nil:
		e.res.Stopped = "cancelled"
	case !e.deadline.IsZero() && time.Now().After(e.deadline):
		e.res.Stopped = "time limit"
	default:
		return false
	}
	return true
}

// run simulates pol and checks the trace.
func (e *evaluator) run(pol *List) (Schedule, error) {
	sc, res, err := e.simulate(pol)
	if err != nil {
		return sc, err
	}
	e.verify(&sc, res)
	return sc, nil
}

// verifyTrace, when set (a test that makes the checker reject), checks
// each schedule's kept trace instead of the streaming checker.
var verifyTrace func(*sim.Workload, *sim.Result) error

// simulate runs pol and computes the metric from the run's completions. The
// run's trace goes to a check.Stream as it is made and is not kept (on a day
// of millions of tasks a kept trace and its check were the peak of compare);
// the verdict waits in the schedule, which is not Verified yet: the search
// marks only the candidates it would keep (verify). CheckError is set when
// the run itself failed (an invalid action, a job left unfinished).
func (e *evaluator) simulate(pol *List) (Schedule, *sim.Result, error) {
	e.res.Evaluations++
	sc := Schedule{By: pol.Name(), fast: pol.fast}
	if pol.offset == nil && pol.rule != Order {
		sc.rule = pol.rule
	}
	so := e.o.Sim
	var st *check.Stream
	if verifyTrace == nil {
		st = check.NewStream(e.w, so)
		so.Sink = st
	}
	res, err := sim.Run(e.w, pol, so)
	if err != nil {
		return sc, nil, err
	}
	if st != nil {
		sc.checkErr = st.Finish(res)
	}
	switch {
	case res.Rejected > 0:
		sc.CheckError = fmt.Sprintf("%d invalid actions", res.Rejected)
	case res.Metrics.CompletedJobs != len(e.w.Jobs):
		sc.CheckError = fmt.Sprintf("%d of %d jobs completed (%s)", res.Metrics.CompletedJobs, len(e.w.Jobs), res.Incomplete())
	}
	if sc.CheckError != "" {
		return sc, res, nil
	}
	sc.Completion = make([]int64, len(res.Jobs))
	for j, jo := range res.Jobs {
		sc.Completion[j] = int64(jo.Completion)
	}
	sc.Value, err = compare.Value(e.p, e.o.Metric, sc.Completion)
	return sc, res, err
}

// verify checks the trace of sc's run and marks sc Verified when it passes:
// only then may its value be an upper value.
func (e *evaluator) verify(sc *Schedule, res *sim.Result) {
	if sc.CheckError != "" {
		return
	}
	err := sc.checkErr
	if verifyTrace != nil {
		err = verifyTrace(e.w, res)
	}
	if err != nil {
		sc.CheckError = err.Error()
		return
	}
	sc.Verified = true
}

// consider lists sc and keeps it when it is the best verified one.
func (e *evaluator) consider(sc Schedule) {
	e.res.Tried = append(e.res.Tried, sc)
	if sc.Verified && (e.res.Best == nil || sc.Value < e.res.Best.Value) {
		b := sc
		e.res.Best = &b
	}
}

// completionOrder ranks the jobs by completion (then arrival, then index).
func (e *evaluator) completionOrder(c []int64) []int {
	order := make([]int, len(c))
	for j := range order {
		order[j] = j
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if c[a] != c[b] {
			return cmpInt(c[a], c[b])
		}
		return cmpInt(e.p.Jobs[a].Arrival, e.p.Jobs[b].Arrival)
	})
	return order
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// search is the local search over static job orders (package comment).
func (e *evaluator) search() error {
	start := e.res.Best
	var startC []int64
	fast := false
	if start != nil {
		startC, fast = start.Completion, start.fast
	}
	for _, s := range e.o.Starts {
		if start == nil || s.Value < start.Value {
			start = &Schedule{By: s.Name, Value: s.Value}
			startC = s.Completion
		}
	}
	if start == nil {
		return nil
	}
	budget := e.o.Evaluations
	if budget == 0 {
		budget = DefaultEvaluations
	}
	rng := sim.NewStream(e.o.Seed, "upperbound")
	// Around a dynamic rule the offsets keep its dynamics. Where replaying
	// its completion order as a static order is no worse than the rule
	// (small streams, the makespan) the order search runs first, with its
	// full budget, as it did before the offsets existed: its moves find
	// what the offsets miss (examples/scenario5.json: 257 against 276).
	// Where the replay is worse (the FB-2009 day at 20 nodes: 139.9
	// against 125.5 s) it stops after that one run, which draws nothing
	// from rng: the offsets' search is then exactly what it was.
	dynamic := start.rule.dynamic() && start.Verified
	replayLimit := math.Inf(1)
	if dynamic {
		replayLimit = start.Value
	}
	best, err := e.searchOrder(rng, startC, fast, budget, replayLimit)
	if err == nil && dynamic {
		var off *Schedule
		off, err = e.searchOffsets(rng, start, budget)
		if off != nil && (best == nil || off.Value <= best.Value) {
			best = off
		}
	}
	if best != nil {
		e.consider(*best)
	}
	return err
}

// searchOrder is the local search over static job orders from the order
// of completions c: at most budget candidates, each a move of the current
// order, kept when no worse. It gives up after its first candidate (the
// replay of c itself) when that is worse than replayLimit, and returns the
// best candidate the checker verified, if any.
func (e *evaluator) searchOrder(rng *rand.Rand, c []int64, fast bool, budget int, replayLimit float64) (*Schedule, error) {
	cur := e.completionOrder(c)
	curSc := Schedule{}
	var best *Schedule
	for n := 0; n < budget && !e.stop(); n++ {
		cand := cur
		if n > 0 {
			cand = e.move(rng, cur, curSc.Completion)
		}
		pol, err := newOrder(e.c, cand, fast)
		if err != nil {
			return nil, err
		}
		sc, res, err := e.simulate(pol)
		if err != nil {
			return nil, err
		}
		if n == 0 && sc.CheckError == "" && sc.Value > replayLimit {
			return nil, nil
		}
		if sc.CheckError == "" && n > 0 && sc.Value > curSc.Value {
			continue
		}
		// Only a candidate that would become the best is checked; one that
		// fails is dropped like a worse one (the start is always checked).
		if sc.CheckError == "" && (best == nil || sc.Value < best.Value) {
			e.verify(&sc, res)
			if sc.Verified {
				b := sc
				best = &b
			}
		}
		if sc.CheckError != "" {
			if n == 0 {
				e.res.Tried = append(e.res.Tried, sc)
				return nil, nil
			}
			continue
		}
		cur, curSc = cand, sc
	}
	return best, nil
}

// searchOffsets is the local search around a dynamic rule (srpt, …): a
// candidate adds a per-job offset to the rule's key, so it starts from the
// rule's own schedule and keeps its dynamics — replaying the rule's
// completion order as a static order loses them (on the FB-2009 day at 20
// nodes, srpt gives 125.5 s and its completion order 139.9 s). A move
// changes one job's offset by up to its total work (offsetMove): around
// srpt-hold on instances large enough to rank the longest waits, one of
// them promoted; otherwise half the time the job that waited longest
// beyond its critical path among a sample (promoted), else a random job
// either way. A candidate is kept when its value is no worse and checked
// only when it beats the best so far.
func (e *evaluator) searchOffsets(rng *rand.Rand, start *Schedule, budget int) (*Schedule, error) {
	n := len(e.c.jobs)
	cur := make([]float64, n)
	// Around srpt-hold, half the moves change its hold decisions instead
	// (holdMove); the other rules' searches draw exactly as before.
	holds := start.rule == SRPTHold && e.c.holdable()
	var hm holdMoves
	if holds {
		hm = holdMoves{bias: make([]float64, n), scale: 1}
	}
	curC, curVal, bestVal := start.Completion, start.Value, start.Value
	var best *Schedule
	var top, topOne []int // around srpt-hold: the jobs that waited longest
	ranked := false       // top and topOne are those of curC
	// Around srpt-hold with a relaxation's waits, the last runs try the
	// current offsets with the wide jobs demoted by them (chargedFactors).
	charged := 0
	if holds && e.o.Waits != nil {
		charged = min(budget, len(chargedFactors))
	}
	if charged > 0 && e.o.ChargedFirst {
		off, sc, res, err := e.chargedRuns(start, cur, hm, charged)
		if err != nil {
			return nil, err
		}
		budget, charged = budget-charged, 0
		if off != nil && sc.Value <= curVal {
			if sc.Value < bestVal {
				if e.verify(&sc, res); sc.Verified {
					b := sc
					best, bestVal = &b, sc.Value
				}
			}
			if sc.Verified || sc.Value == curVal {
				cur, curC, curVal = off, sc.Completion, sc.Value
			}
		}
	}
	for range budget - charged {
		if e.stop() {
			break
		}
		if holds && !ranked {
			top, topOne = e.longestWaits(curC)
			ranked = true
		}
		cand, candHold := cur, hm
		if holds && rng.IntN(2) == 0 {
			candHold = e.holdMove(rng, hm, curC, topOne)
		} else {
			cand = slices.Clone(cur)
			j, sign := e.offsetMove(rng, curC, top)
			st := &e.c.jobs[j]
			cand[j] += sign * rng.Float64() * max(st.work[0]+st.work[1], 1)
		}
		sc, res, err := e.runOffsets(start, cand, candHold)
		if err != nil {
			return nil, err
		}
		if sc.CheckError != "" || sc.Value > curVal {
			continue
		}
		if sc.Value < bestVal {
			if e.verify(&sc, res); !sc.Verified {
				continue // a candidate the checker rejects is dropped
			}
			b := sc
			best, bestVal = &b, sc.Value
		}
		cur, hm, curC, curVal = cand, candHold, sc.Completion, sc.Value
		ranked = false
	}
	if charged > 0 {
		off, sc, res, err := e.chargedRuns(start, cur, hm, charged)
		if err != nil {
			return nil, err
		}
		if off != nil && sc.Value < bestVal {
			if e.verify(&sc, res); sc.Verified {
				best = &sc
			}
		}
	}
	return best, nil
}

// chargedRuns simulates start's rule with the offsets off demoted by each
// of the first n chargedFactors (charge) and returns the offsets, schedule
// and result of the least-valued run that completed (off nil: none did).
func (e *evaluator) chargedRuns(start *Schedule, off []float64, hm holdMoves, n int) ([]float64, Schedule, *sim.Result, error) {
	var bestOff []float64
	var bestSc Schedule
	var bestRes *sim.Result
	for _, k := range chargedFactors[:n] {
		if e.stop() {
			break
		}
		cand := e.charge(off, k)
		sc, res, err := e.runOffsets(start, cand, hm)
		if err != nil {
			return nil, Schedule{}, nil, err
		}
		if sc.CheckError == "" && (bestOff == nil || sc.Value < bestSc.Value) {
			bestOff, bestSc, bestRes = cand, sc, res
		}
	}
	return bestOff, bestSc, bestRes, nil
}

// runOffsets simulates start's rule with the key offsets off and
// srpt-hold's hold moves hm (the zero holdMoves, as for the other rules,
// changes nothing).
func (e *evaluator) runOffsets(start *Schedule, off []float64, hm holdMoves) (Schedule, *sim.Result, error) {
	pol, err := newList(e.c, start.rule, start.fast)
	if err != nil {
		return Schedule{}, nil, err
	}
	pol.offset = off
	pol.holdBias, pol.holdScale = hm.bias, hm.scale
	return e.simulate(pol)
}

// chargedFactors scale a relaxation's charged waits into srpt-hold's key
// offsets (charge): the search around srpt-hold ends with one run for
// each. A wide job's reduces hold slots for waves; the relaxation charges
// the wide jobs that meet a crowded reduce side long waits, and srpt's
// key, their work alone, ranks them before the narrow jobs they then
// delay. On the FB-2009 day at 20 nodes, srpt-hold with the wide jobs
// demoted by ½–1 of their waits gave 120.41–120.51 s against 120.79 s,
// and with the search's usual first find (a job with a 12,406-s reduce
// promoted) 120.19–120.27 s against 120.34 s; demoting the narrow jobs
// too changed nothing. Starting the search from such a run instead of
// trying it at the end gained more there (120.14 against 120.28 s over
// five seeds) but lost 1 s at 10 nodes and one instance of
// bench/looseside's 2-node family (docs/results.md, issue 26, s25price).
// Taken as the start only when no worse than srpt-hold's schedule
// (Options.ChargedFirst), they let the search's later moves build on the
// demotion, which the runs at the end cannot; at 10 nodes, where the
// Lagrangian is not the bound, that still lost, and on a 12-job instance
// too (s27margin), so compare asks for it only where the Lagrangian
// decides the bound on an instance that RanksWaits.
var chargedFactors = [...]float64{0.5, 0.75, 1}

// charge returns off with k·Waits[j] added for each job j that has more
// reduces than the cluster has reduce slots.
func (e *evaluator) charge(off []float64, k float64) []float64 {
	out := slices.Clone(off)
	for j, wt := range e.o.Waits {
		if float64(len(e.w.Jobs[j].Reduces)) > e.c.slots[1] {
			out[j] += k * wt
		}
	}
	return out
}

// holdMoves are a search candidate's changes to srpt-hold's decisions: a
// per-job bias added to the wait a hold for the job saves, and a factor on
// every hold's cost.
type holdMoves struct {
	bias  []float64
	scale float64
}

// holdMove changes srpt-hold's decisions: a quarter of the time the cost
// of every hold, by a factor between ½ and 2 (the cost's weight was chosen
// on average; an instance may want more or fewer holds); otherwise one
// job's bias, raised by up to its wait beyond its critical path for one of
// the one-reduce jobs that waited longest (topOne: a hold for it may have
// been judged just not worth it) — or, on instances too small to rank
// them (topOne empty), half the time so for the longest in a sample and
// otherwise a random job's, either way by up to its critical path.
func (e *evaluator) holdMove(rng *rand.Rand, cur holdMoves, c []int64, topOne []int) holdMoves {
	if rng.IntN(4) == 0 {
		return holdMoves{bias: cur.bias, scale: cur.scale * math.Exp2(2*rng.Float64()-1)}
	}
	out := holdMoves{bias: slices.Clone(cur.bias), scale: cur.scale}
	n := len(e.c.jobs)
	if len(topOne) > 0 || rng.IntN(2) == 0 {
		best := -1
		if len(topOne) > 0 {
			best = topOne[rng.IntN(len(topOne))]
		} else {
			for range min(n, 16) {
				j := rng.IntN(n)
				if len(e.w.Jobs[j].Reduces) == 1 && (best < 0 || e.excess(c, j) > e.excess(c, best)) {
					best = j
				}
			}
		}
		if best >= 0 {
			out.bias[best] += rng.Float64() * max(e.excess(c, best), 0)
			return out
		}
	}
	j := rng.IntN(n)
	out.bias[j] += (2*rng.Float64() - 1) * e.c.jobs[j].cp
	return out
}

// excess is job j's wait beyond its critical path in the schedule of
// completions c.
func (e *evaluator) excess(c []int64, j int) float64 {
	return float64(c[j]-e.p.Jobs[j].Arrival) - e.c.jobs[j].cp
}

// topWaits is how many of the longest waits the moves around srpt-hold
// draw from, at most: one per waitsPerTop jobs. On the FB-2009 day a move
// drawn from a sample of 16 of its 5,894 jobs almost never meets one of
// the few that wait longest — one job with a single 12,406-s reduce waits
// 7,562 s under srpt-hold, 1.3 s of the mean — while promoting it alone
// gains 0.45 s; on a dozen jobs the sample's longest is nearly always the
// longest, and drawing from more than it lost the 2-node looseside family
// 0.3 % (docs/results.md, issue 26, s15hold). The offset moves draw the
// longest wait half the time, the next a quarter, and so on
// (topIndex), and only from the jobs that fit in one wave (oneWave).
const (
	topWaits    = 16
	waitsPerTop = 32
)

// RanksWaits reports whether the search around srpt-hold ranks the longest
// waits on an instance of n jobs (at least 2·waitsPerTop of them): there
// its moves draw from the longest waits only, and compare lets it begin
// with the charged runs (Options.ChargedFirst). On fewer jobs the moves
// draw from samples, and a charged start lost: one instance of
// bench/looseside's 2-node family (12 jobs) went from 142.83 to 146.67 s
// against an optimum of 141.67 s (docs/results.md, issue 26, s27margin).
func RanksWaits(n int) bool {
	return n/waitsPerTop >= 2
}

// oneWave reports whether job j fits in one wave of the cluster: no more
// maps than map slots and no more reduces than reduce slots. The moves
// around srpt-hold promote only such jobs: promoting one that does not
// fit hands it every slot of a kind for a wave or more, which every job
// behind it waits for — on the FB-2009 day at 20 nodes, promoting one of
// the wide jobs (more than 50 reduces) that waited longest made the mean
// worse in 42 of 47 tries, by up to 15 s, and the job with 112,523 maps
// that waited longest of the others by 1,500 s (docs/results.md, issue
// 26, s24search).
func (e *evaluator) oneWave(j int) bool {
	jb := &e.w.Jobs[j]
	return float64(len(jb.Maps)) <= e.c.slots[0] && float64(len(jb.Reduces)) <= e.c.slots[1]
}

// longestWaits are the jobs with the longest waits beyond their critical
// paths in the schedule c (topWaits, fewer on small instances, none below
// 2·waitsPerTop jobs, where the moves draw from a sample), longest first:
// among the jobs that fit in one wave (oneWave), and among the one-reduce
// jobs.
func (e *evaluator) longestWaits(c []int64) (all, one []int) {
	if !RanksWaits(len(c)) {
		return nil, nil // the sample's longest is nearly always the longest
	}
	k := min(topWaits, len(c)/waitsPerTop)
	order := make([]int, len(c))
	for j := range order {
		order[j] = j
	}
	ex := make([]float64, len(c))
	for j := range ex {
		ex[j] = e.excess(c, j)
	}
	slices.SortFunc(order, func(a, b int) int {
		if ex[a] != ex[b] {
			return cmpFloat(ex[b], ex[a])
		}
		return a - b
	})
	for _, j := range order {
		if len(all) < k && e.oneWave(j) {
			all = append(all, j)
		}
		if len(one) < k && len(e.w.Jobs[j].Reduces) == 1 {
			one = append(one, j)
		}
		if len(all) == k && len(one) == k {
			break
		}
	}
	return all, one
}

// offsetMove picks the job whose offset a move changes and the direction
// (−1 promotes it): one of top when given (the longest waits, around
// srpt-hold, drawn by topIndex), promoted; otherwise half the time a
// random job either way, else the job that waited longest beyond its
// critical path among a sample, promoted. Where the longest waits are
// ranked, a random job's move (half the offset moves, and half the hold
// moves' biases) is wasted: on the FB-2009 day at 20 nodes, over seeds
// 0–4, none of 92 such runs improved and 85 left the value as it was
// (at 40 nodes 3 of 92 improved, by 0.008 s in all), while the
// promotions of the longest waits improved 20 of 41 runs; without them
// Best's mean over those seeds was 415.29 s instead of 415.95 s at 10
// nodes (docs/results.md, issue 26, s27margin).
func (e *evaluator) offsetMove(rng *rand.Rand, c []int64, top []int) (int, float64) {
	n := len(e.c.jobs)
	if len(top) > 0 {
		return top[topIndex(rng, len(top))], -1
	}
	if rng.IntN(2) == 0 {
		return rng.IntN(n), float64(1 - 2*rng.IntN(2))
	}
	best, bestEx := -1, 0.0
	for range min(n, 16) {
		j := rng.IntN(n)
		if ex := float64(c[j]-e.p.Jobs[j].Arrival) - e.c.jobs[j].cp; best < 0 || ex > bestEx {
			best, bestEx = j, ex
		}
	}
	return best, -1
}

// topIndex draws an index of a list of n ranked longest first: 0 half the
// time, 1 a quarter, …, the last as often as the one before it. On the
// FB-2009 day at 20 nodes the longest wait among the jobs that fit in one
// wave is the 12,406-s reduce above; drawn uniformly from 16, its
// promotion decided the search's spread over seeds (docs/results.md,
// issue 26, s24search).
func topIndex(rng *rand.Rand, n int) int {
	i := 0
	for i < n-1 && rng.IntN(2) == 1 {
		i++
	}
	return i
}

// move returns a copy of order with one job moved: often the job that
// decides the metric in the current schedule c (the last to finish, the
// longest turnaround, a late job sent to the back as in Moore–Hodgson),
// moved earlier; otherwise a random job moved a random short distance.
func (e *evaluator) move(rng *rand.Rand, order []int, c []int64) []int {
	n := len(order)
	pos := make([]int, n)
	for i, j := range order {
		pos[j] = i
	}
	from, to := rng.IntN(n), 0
	reach := max(1, n/10)
	targeted := rng.IntN(2) == 0
	if targeted {
		switch m := e.o.Metric; {
		case m == lowerbound.LateJobs || (m == lowerbound.MRCPProduct && rng.IntN(2) == 0):
			var late []int
			for j := range c {
				if e.p.Jobs[j].HasDeadline && c[j] > e.p.Jobs[j].Deadline {
					late = append(late, j)
				}
			}
			if len(late) > 0 {
				from = pos[late[rng.IntN(len(late))]]
				return moveTo(order, from, n-1)
			}
		case m == lowerbound.Makespan:
			from = pos[argmax(c, func(j int) int64 { return c[j] })]
		case m == lowerbound.MaxTurnaround || m == lowerbound.MRCPProduct:
			from = pos[argmax(c, func(j int) int64 { return c[j] - e.p.Jobs[j].Arrival })]
		default:
			targeted = false
		}
	}
	if targeted {
		to = max(0, from-1-rng.IntN(reach))
	} else {
		to = min(n-1, max(0, from+rng.IntN(2*reach+1)-reach))
	}
	return moveTo(order, from, to)
}

func argmax(c []int64, f func(j int) int64) int {
	best := 0
	for j := range c {
		if f(j) > f(best) {
			best = j
		}
	}
	return best
}

// moveTo returns a copy of order with the entry at from moved to to.
func moveTo(order []int, from, to int) []int {
	out := make([]int, 0, len(order))
	j := order[from]
	for i, k := range order {
		if i == from {
			continue
		}
		if len(out) == to {
			out = append(out, j)
		}
		out = append(out, k)
	}
	if len(out) < len(order) {
		out = append(out, j)
	}
	return out
}
