package bnb

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/solve"
)

// DefaultMaxOpen is Options.MaxOpen when 0: 16 bytes per node open and 8
// per node expanded, about 200 MB at the cap typically and at most about
// 290 MB (the open nodes' chunks stay at their high-water mark). Raised from 4 M with
// compare's node budget (s17fast): on the 20-job MRCP streams' sums a cap
// of 16 M took more CPU for bounds 1–3 s higher (docs/results.md, issue
// 26, s17fast).
const DefaultMaxOpen = 12_000_000

// DefaultNodeLimit is the node limit when Options.NodeLimit is 0.
const DefaultNodeLimit = 2_000_000

// MaxTasks is the most tasks Solve takes: the search recurses once per
// task and each node's bound costs about a task per job and slot, so a
// larger stream would spend compare's time on nodes far from closing (the
// 20-job MRCP streams have 150–400 tasks).
const MaxTasks = 2_000

// ctxEvery is how many nodes pass between two looks at the context.
const ctxEvery = 1024

// fluidTol (ms) is the slack a fluid completion time must exceed a deadline
// by before EDF declares it missed: the fluid times are float sums of at most
// a few thousand terms below 2^40 ms, exact to far better than this.
const fluidTol = 1e-3

// Options configure Solve.
type Options struct {
	// Incumbent > 0 is the metric value (ms, or ms per job for the mean) of
	// a schedule verified elsewhere: the search looks only for strictly
	// better ones, and when it finds none, the incumbent is the optimum.
	Incumbent float64
	// Known ≥ 0 is a proven lower bound on the optimum from elsewhere (same
	// unit): the search stops as soon as its best schedule reaches it.
	Known float64
	// NodeLimit caps the nodes visited (DefaultNodeLimit when 0); the
	// maxima spend half on probes and half on rounds of three orders
	// (decide.go).
	NodeLimit int64
	// MemoEntries caps the partial schedules remembered for dominance
	// (DefaultMemoEntries when 0, none when negative).
	MemoEntries int
	// BoundNodes > 0 runs, after a depth-first search stopped by its node
	// limit, a best-first search from the root of at most that many nodes
	// (and MaxOpen open ones), which prunes with the incumbent found so far:
	// the least bound of its open nodes is a bound too, and on the sums far
	// better than the depth-first one's (docs/results.md, issue 26, s12bnb).
	BoundNodes int64
	// ImproveNodes > 0 runs, on the sums, after a depth-first search
	// stopped by its node limit and before the best-first phase, an
	// improvement phase of at most that many nodes — a beam, then
	// best-first searches of the subtrees along the best schedule's path
	// (improve.go, §14h) — that only looks for better schedules; the
	// best-first phase gets the nodes it leaves. Off in compare: on the
	// 20-job MRCP streams it moved the brackets both ways and proved none
	// (docs/results.md, s17inc).
	ImproveNodes int64
	// DiveNodesPerTask caps each dive of the best-first phase at that many
	// nodes per task left (DefaultDiveNodesPerTask when 0): longer dives
	// find better schedules below the nodes of least bound, at the cost of
	// nodes the budget does not count.
	DiveNodesPerTask int64
	// MaxOpen caps the nodes the best-first phase makes (DefaultMaxOpen
	// when 0; 16 bytes each while open, 8 once expanded).
	MaxOpen int
	// whole: search the sums without splitting the stream (splitSolve's
	// own searches).
	whole bool
	// noLag leaves the time-indexed Lagrangian out of the sums' node
	// bound (tests and measurements).
	noLag bool
	// noTwins leaves the identical jobs' order (§14f) out of the tree
	// (tests and measurements).
	noTwins bool
	// noBeam leaves the beam out of the improvement phase (tests: the
	// subtree searches then start from the depth-first phase's schedule).
	noBeam bool
	// noShift keeps the memo to Lemma 3's dominance on the sums, without
	// Lemma 3′'s shift (tests and measurements).
	noShift bool
	// plain runs the search's reference forms (plain.go: every best-first
	// node replayed from the root, the bound's kernels as first written):
	// the tests require the same Result from both.
	plain bool
}

// Placement is one task of the schedule found: map (Reduce false) or reduce
// Index of Problem.Jobs[Job] on Problem.Nodes[Node] over [Start, End) ms.
type Placement struct {
	Job, Index, Node int
	Reduce           bool
	Start, End       int64
}

// Result is what the search established.
type Result struct {
	Metric lowerbound.Metric `json:"metric"`
	// Status is Optimal when every node was closed (or the best schedule met
	// Options.Known), NodeLimit or Interrupted when a limit stopped it.
	Status solve.Status `json:"status"`
	// Value is the best schedule's metric: the search's own (Placements) or,
	// when it found nothing better, Options.Incumbent (Placements nil); NaN
	// when there is neither.
	Value float64 `json:"value"`
	// Bound is a proven lower bound on the optimum (= Value when Optimal).
	Bound float64 `json:"bound"`
	// Nodes is the number of nodes visited, Dominated how many of them the
	// memo closed.
	Nodes     int64 `json:"nodes"`
	Dominated int64 `json:"dominated"`
	// shifted is how many of the Dominated needed a shift (Lemma 3′).
	shifted    int64
	Placements []Placement `json:"-"`
}

// job is one job of the pooled problem.
type job struct {
	arrival      int64
	nMaps, nReds int
	pMap, pRed   int64
	// tail is the job's least reduce span after its last map,
	// ⌈nReds / reduce slots⌉·pRed (the node bound's, integer-exact).
	tail float64
	// mapIdx and redIdx are the global index of the job's first map and
	// first reduce: every map's index is below every reduce's (the build
	// order's tie-break at equal starts, as in lowerbound.Exact).
	mapIdx, redIdx int
}

type slot struct {
	free int64
	node int
}

// searcher is the depth-first search.
type searcher struct {
	ctx    context.Context
	metric lowerbound.Metric
	jobs   []job
	minA   int64
	sumA   int64
	// slots[0] maps, slots[1] reduces.
	slots [2][]slot
	// per job: maps and reduces placed, last map end, completion so far.
	mapsDone, redsDone []int
	lme, done          []int64
	placed, nTasks     int
	lastStart          int64
	lastIdx            int
	unit               int64 // the gcd of every arrival and duration (≥ 1)
	stack              []Placement
	hash               uint64 // zobrist hash of the placed counts
	memo               *memo
	lag                *lagSum // the sums' Lagrangian bound (§14e), or nil
	// twin[k] is the identical job that precedes k (§14f: lower index, no
	// later arrival), which places all its tasks of a kind before k places
	// one; -1 when none or when the rule is off.
	twin      []int
	vbuf      []int64
	dominated int64
	keyShift  uint // the memo keys' shift, keyShift(s)

	inc      int64 // best score so far (math.MaxInt64: none)
	known    int64 // stop once inc ≤ known
	best     []Placement
	own      bool // best came from this search
	nodes    int64
	limit    int64
	stopped  solve.Status
	openMin  float64 // least bound of the nodes left open by a stop
	finished bool    // inc reached known
	// closed: the improvement phase's search from the root closed every
	// node (the incumbent is optimal); maxOpen caps its searches' nodes
	// as Options.MaxOpen does the best-first phase's.
	closed  bool
	maxOpen int
	// diveNodes is Options.DiveNodesPerTask (its default when 0).
	diveNodes int64

	// scratch for the bounds
	avail     [2][]int64
	ends      []int64 // listEnd's
	act       []int32 // fluid's
	fl        []fluidJob
	critG, eG []float64
	arrG      []int64
	// dueSum's: the jobs' due dates, their order, the least candidate
	// per rank, the prefix of jobs (by due date and by release) and its
	// fluid ends.
	dueD, tau      []float64
	dueOrd         []int32
	dueSub, dueRel []fluidJob
	dueE           []float64
	candidates     [][]cand
	dec            decideScratch // cannotBeat's (bound_max.go)
	order          maxOrder      // the maxima's child order at a tie (decide.go)
	// restartOn makes a better schedule unwind the search (restart) so
	// that runMax starts again from the root with the tighter deadlines.
	restartOn, restart bool
	plain              bool  // Options.plain
	noShift            bool  // Options.noShift
	shifted            int64 // nodes the memo closed by a positive shift only
}

// Solve runs the branch and bound on p for metric m (makespan, total, mean
// or max turnaround). It returns nil when p is outside the class of the
// package comment, an error for an invalid problem or an unsupported metric.
func Solve(ctx context.Context, p *lowerbound.Problem, m lowerbound.Metric, o Options) (*Result, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	switch m {
	case lowerbound.Makespan, lowerbound.TotalTurnaround, lowerbound.MeanTurnaround, lowerbound.MaxTurnaround:
	default:
		return nil, badinput.Errorf("bnb: no search for %v", m)
	}
	s := newSearcher(p)
	if s == nil {
		return nil, nil
	}
	if o.noTwins {
		for j := range s.twin {
			s.twin[j] = -1
		}
	}
	s.ctx, s.metric, s.plain, s.noShift = ctx, m, o.plain, o.noShift
	s.limit = o.NodeLimit
	if s.limit <= 0 {
		s.limit = DefaultNodeLimit
	}
	if o.DiveNodesPerTask > 0 {
		s.diveNodes = o.DiveNodesPerTask
	}
	// Scores are integers (ms; the mean is searched as the total): an
	// incumbent's floor is still no better than it, a known bound's ceiling
	// still no above the optimum.
	n := 1.0
	if m == lowerbound.MeanTurnaround {
		// A stream without jobs has mean 0, as lowerbound.Optimum has:
		// dividing by 0 reported NaN as optimal, and scaled any incumbent
		// to 0, which then stood as the optimum (s18audit).
		n = float64(max(1, len(p.Jobs)))
	}
	s.inc = math.MaxInt64
	if o.Incumbent > 0 {
		s.inc = int64(math.Floor(o.Incumbent*n + 1e-6))
	}
	s.known = -1
	if o.Known > 0 {
		s.known = int64(math.Ceil(o.Known*n - 1e-6*math.Max(1, o.Known*n)))
	}
	s.openMin = math.Inf(1)
	if s.inc != math.MaxInt64 && s.inc <= s.known {
		// The incumbent meets a proven bound: nothing to search.
		return &Result{Metric: m, Status: solve.Optimal, Value: o.Incumbent, Bound: o.Incumbent}, nil
	}
	if (m == lowerbound.TotalTurnaround || m == lowerbound.MeanTurnaround) && !o.whole {
		if res, err := splitSolve(ctx, p, m, o, s.known); err != nil || res != nil {
			return res, err
		}
	}
	if (m == lowerbound.TotalTurnaround || m == lowerbound.MeanTurnaround) && !o.noLag {
		// The steps aim at a FIFO schedule's total: a caller's better
		// incumbent as the target made the steps shorter and the root
		// value lower (by up to 40 s on the MRCP streams, s15lag).
		_, target := fifoList(s)
		s.lag = newLagSum(s, float64(target))
	}
	if o.MemoEntries >= 0 {
		me := o.MemoEntries
		if me == 0 {
			me = DefaultMemoEntries
		}
		s.memo = newMemo(me)
	}
	s.runMax()
	mo := o.MaxOpen
	if mo <= 0 {
		mo = DefaultMaxOpen
	}
	mo = min(mo, math.MaxInt32) // nodes are indexed by int32
	s.maxOpen = mo
	var bfExtra int64 // the improvement phase's nodes left unused (< 0: overspent by its dives)
	if o.ImproveNodes > 0 && s.stopped == solve.NodeLimit && (m == lowerbound.TotalTurnaround || m == lowerbound.MeanTurnaround) {
		used := s.improve(o.ImproveNodes, !o.noBeam)
		bfExtra = o.ImproveNodes - used
		switch {
		case s.finished || s.closed:
			s.stopped = solve.StatusUnknown // the incumbent is optimal
		case ctx.Err() != nil:
			s.stopped = solve.Interrupted
		}
	}
	bf := math.Inf(-1)
	if o.BoundNodes > 0 && s.stopped == solve.NodeLimit {
		limit := o.BoundNodes
		if bfExtra < math.MaxInt64-limit {
			limit += bfExtra // at most 0 when the phase overspent: bestFirst then makes the root only
		}
		b, stopped := s.bestFirst(limit, mo)
		if !stopped {
			s.stopped = solve.StatusUnknown // every node closed: the incumbent is optimal
		} else {
			bf = b
		}
	}
	res := &Result{Metric: m, Nodes: s.nodes, Dominated: s.dominated, shifted: s.shifted, Value: math.NaN()}
	if s.inc != math.MaxInt64 {
		res.Value = float64(s.inc) / n
		if s.own {
			res.Placements = s.best
		} else if o.Incumbent > 0 {
			res.Value = o.Incumbent // exactly the caller's
		}
	}
	if s.stopped == solve.StatusUnknown {
		res.Status = solve.Optimal
		res.Bound = res.Value
		if s.inc == math.MaxInt64 {
			// Every node closed without a schedule: impossible, since the
			// tree holds an optimum (§14); claim nothing.
			return nil, fmt.Errorf("bnb: the search closed every node without a schedule")
		}
		return res, nil
	}
	res.Status = s.stopped
	b := math.Min(math.Max(s.openMin, bf), float64(s.inc))
	res.Bound = math.Max(0, s.ceilGrid(b)) / n
	if s.inc != math.MaxInt64 && res.Bound >= res.Value {
		res.Status, res.Bound = solve.Optimal, res.Value
	}
	return res, nil
}

// ceilSafe rounds a valid real lower bound of an integer score up, after a
// slack for float error (relative 1e-9 plus 1e-6 ms).
func ceilSafe(x float64) float64 {
	if math.IsInf(x, 1) {
		return x
	}
	return math.Ceil(x - 1e-6 - 1e-9*math.Abs(x))
}

// ceilGrid rounds a valid real lower bound on the best schedule of a node's
// subtree up to the data's grid: the least completion over Comp(N) is a
// schedule of the tree (§14, Lemma 1), whose starts and ends are multiples
// of unit, and so is then every metric's value (for the mean, the total).
func (s *searcher) ceilGrid(x float64) float64 {
	c := ceilSafe(x)
	if math.IsInf(c, 0) || s.unit <= 1 {
		return c
	}
	u := float64(s.unit)
	return math.Ceil(c/u) * u
}

// newSearcher pools p's slots and jobs, or returns nil outside the class.
func newSearcher(p *lowerbound.Problem) *searcher {
	if p.Preemptive || p.Mode != lowerbound.Fixed || p.NumTasks() > MaxTasks || len(p.Jobs) > math.MaxInt16 {
		// (The best-first and beam nodes hold a job as an int16; jobs
		// without tasks could otherwise pass MaxTasks in any number.)
		return nil
	}
	one := func(ts []lowerbound.Task) (int64, bool) {
		var d int64 = -1
		for _, t := range ts {
			for _, v := range t.Dur {
				if v < 1 || (d >= 0 && v != d) {
					return 0, false
				}
				d = v
			}
		}
		return d, true
	}
	// No incumbent yet (Solve sets the caller's): a zero one would close
	// every node that bound() tests against it.
	s := &searcher{maxOpen: DefaultMaxOpen, inc: math.MaxInt64, diveNodes: DefaultDiveNodesPerTask}
	var nk [2]int
	for j := range p.Jobs {
		pj := &p.Jobs[j]
		pm, ok1 := one(pj.Maps)
		pr, ok2 := one(pj.Reduces)
		if !ok1 || !ok2 {
			return nil
		}
		s.jobs = append(s.jobs, job{arrival: pj.Arrival, nMaps: len(pj.Maps), nReds: len(pj.Reduces), pMap: pm, pRed: pr})
		nk[0] += len(pj.Maps)
		nk[1] += len(pj.Reduces)
	}
	for _, jb := range s.jobs {
		s.unit = gcd(gcd(gcd(s.unit, jb.arrival), max(jb.pMap, 0)), max(jb.pRed, 0))
	}
	s.unit = max(s.unit, 1)
	idx := 0
	for j := range s.jobs {
		s.jobs[j].mapIdx = idx
		idx += s.jobs[j].nMaps
	}
	for j := range s.jobs {
		s.jobs[j].redIdx = idx
		idx += s.jobs[j].nReds
	}
	s.nTasks = idx
	s.twin = twins(s.jobs)
	// With identical durations on every node a slot's node never changes a
	// duration; at most nk[k] slots of kind k are ever busy, so more are
	// never chosen (each task takes the earliest-free one).
	for x, nd := range p.Nodes {
		for i := 0; i < nd.MapSlots && len(s.slots[0]) < nk[0]; i++ {
			s.slots[0] = append(s.slots[0], slot{node: x})
		}
		for i := 0; i < nd.ReduceSlots && len(s.slots[1]) < nk[1]; i++ {
			s.slots[1] = append(s.slots[1], slot{node: x})
		}
	}
	s.keyShift = keyShift(s)
	if nR := len(s.slots[1]); nR > 0 {
		for j := range s.jobs {
			jb := &s.jobs[j]
			jb.tail = float64(int64((jb.nReds+nR-1)/nR) * jb.pRed)
		}
	}
	n := len(s.jobs)
	s.mapsDone, s.redsDone = make([]int, n), make([]int, n)
	s.lme, s.done = make([]int64, n), make([]int64, n)
	for j, jb := range s.jobs {
		s.lme[j], s.done[j] = jb.arrival, jb.arrival
		if j == 0 || jb.arrival < s.minA {
			s.minA = jb.arrival
		}
		s.sumA += jb.arrival
	}
	s.lastStart, s.lastIdx = math.MinInt64, -1
	s.avail[0] = make([]int64, len(s.slots[0]))
	s.avail[1] = make([]int64, len(s.slots[1]))
	s.candidates = make([][]cand, s.nTasks+1)
	return s
}

// twins returns, per job k, the identical job i < k with a_i ≤ a_k of
// largest index, or -1: the pairs of the twin rule (§14f). Identical means
// the same numbers and durations of maps and of reduces (the class has one
// duration per task on every node); a job without tasks has no twin.
func twins(jobs []job) []int {
	tw := make([]int, len(jobs))
	for k, b := range jobs {
		tw[k] = -1
		if b.nMaps+b.nReds == 0 {
			continue
		}
		for i := k - 1; i >= 0; i-- {
			a := jobs[i]
			if a.nMaps == b.nMaps && a.nReds == b.nReds && a.pMap == b.pMap && a.pRed == b.pRed && a.arrival <= b.arrival {
				tw[k] = i
				break
			}
		}
	}
	return tw
}

// overtakes reports whether job j's next task, of kind k, must wait for
// j's twin (§14f): j places no task of a kind while its twin has tasks of
// that kind left (some optimum gives the twin the earliest starts of both).
func (s *searcher) overtakes(j, k int) bool {
	i := s.twin[j]
	if i < 0 {
		return false
	}
	if k == 0 {
		return s.mapsDone[i] < s.jobs[i].nMaps
	}
	return s.redsDone[i] < s.jobs[i].nReds
}

// cand is one child: job j's next task of kind k at start on slot.
type cand struct {
	j, k       int
	slot       int
	start, end int64
	idx        int
	lb         float64
	tie        int64
}

// next is job j's next task: kind, global index, release and duration; ok
// false when the job is finished.
func (s *searcher) next(j int) (k, idx int, release, dur int64, ok bool) {
	jb := &s.jobs[j]
	if s.mapsDone[j] < jb.nMaps {
		return 0, jb.mapIdx + s.mapsDone[j], jb.arrival, jb.pMap, true
	}
	if s.redsDone[j] < jb.nReds {
		return 1, jb.redIdx + s.redsDone[j], max(jb.arrival, s.lme[j]), jb.pRed, true
	}
	return 0, 0, 0, 0, false
}

// floor is the least start of task idx whose key (start, idx) follows the
// last placed task's: every time is a multiple of unit.
func (s *searcher) floor(idx int) int64 {
	if s.lastStart == math.MinInt64 {
		return math.MinInt64
	}
	if idx < s.lastIdx {
		return s.lastStart + s.unit
	}
	return s.lastStart
}

// earliest is the earliest-free slot of kind k (lowest index at a tie).
func (s *searcher) earliest(k int) int {
	b := 0
	for i := 1; i < len(s.slots[k]); i++ {
		if s.slots[k][i].free < s.slots[k][b].free {
			b = i
		}
	}
	return b
}

func (s *searcher) run() {
	if s.nTasks == 0 {
		s.leaf()
		return
	}
	lb := s.bound()
	if s.prune(lb) {
		return
	}
	s.dfs(lb)
}

// prune reports whether a node of bound lb cannot hold a schedule better
// than the incumbent (scores are integers).
func (s *searcher) prune(lb float64) bool {
	return s.inc != math.MaxInt64 && s.ceilGrid(lb) >= float64(s.inc)
}

func (s *searcher) stop(st solve.Status, lb float64) {
	if s.stopped == solve.StatusUnknown {
		s.stopped = st
	}
	s.openMin = math.Min(s.openMin, lb)
}

// halted reports whether the search must unwind.
func (s *searcher) halted() bool { return s.stopped != solve.StatusUnknown || s.finished || s.restart }

// dfs expands the current node, whose bound is lb.
func (s *searcher) dfs(lb float64) {
	s.nodes++
	if s.nodes > s.limit {
		s.stop(solve.NodeLimit, lb)
		return
	}
	if s.nodes%ctxEvery == 0 && s.ctx.Err() != nil {
		s.stop(solve.Interrupted, lb)
		return
	}
	if s.placed == s.nTasks {
		s.leaf()
		return
	}
	if s.memo != nil {
		s.vbuf = s.vector(s.vbuf)
		if s.memo.dominated(s, s.vbuf) {
			s.dominated++
			return
		}
	}
	cs := s.children(s.candidates[s.placed][:0])
	s.candidates[s.placed] = cs
	for i := range cs {
		c := cs[i]
		if s.prune(c.lb) {
			continue
		}
		if s.halted() {
			if !s.finished {
				s.openMin = math.Min(s.openMin, c.lb) // an open sibling
			}
			continue
		}
		undo := s.apply(&c)
		s.dfs(c.lb)
		s.undo(&c, undo)
	}
}

// tie orders children of equal bound: the sums take the job of least
// remaining work first (SRPT), the maxima by their round's order (decide.go).
func (s *searcher) tie(c *cand) int64 {
	jb := &s.jobs[c.j]
	w := int64(jb.nMaps-s.mapsDone[c.j])*jb.pMap + int64(jb.nReds-s.redsDone[c.j])*jb.pRed
	switch s.metric {
	case lowerbound.MaxTurnaround, lowerbound.Makespan:
		return s.maxTie(jb.arrival, w)
	}
	return w
}

type undoRec struct {
	free, lme, done, lastStart int64
	lastIdx                    int
}

func (s *searcher) apply(c *cand) undoRec {
	u := undoRec{s.slots[c.k][c.slot].free, s.lme[c.j], s.done[c.j], s.lastStart, s.lastIdx}
	s.slots[c.k][c.slot].free = c.end
	if c.k == 0 {
		s.stack = append(s.stack, Placement{Job: c.j, Index: s.mapsDone[c.j], Node: s.slots[0][c.slot].node, Start: c.start, End: c.end})
		s.hash ^= zobrist(c.j, 0, s.mapsDone[c.j]) ^ zobrist(c.j, 0, s.mapsDone[c.j]+1)
		s.mapsDone[c.j]++
		s.lme[c.j] = max(s.lme[c.j], c.end)
	} else {
		s.stack = append(s.stack, Placement{Job: c.j, Index: s.redsDone[c.j], Node: s.slots[1][c.slot].node, Reduce: true, Start: c.start, End: c.end})
		s.hash ^= zobrist(c.j, 1, s.redsDone[c.j]) ^ zobrist(c.j, 1, s.redsDone[c.j]+1)
		s.redsDone[c.j]++
	}
	s.done[c.j] = max(s.done[c.j], c.end)
	s.lastStart, s.lastIdx = c.start, c.idx
	s.placed++
	return u
}

func (s *searcher) undo(c *cand, u undoRec) {
	s.placed--
	s.lastStart, s.lastIdx = u.lastStart, u.lastIdx
	s.done[c.j], s.lme[c.j] = u.done, u.lme
	if c.k == 0 {
		s.mapsDone[c.j]--
		s.hash ^= zobrist(c.j, 0, s.mapsDone[c.j]) ^ zobrist(c.j, 0, s.mapsDone[c.j]+1)
	} else {
		s.redsDone[c.j]--
		s.hash ^= zobrist(c.j, 1, s.redsDone[c.j]) ^ zobrist(c.j, 1, s.redsDone[c.j]+1)
	}
	s.slots[c.k][c.slot].free = u.free
	s.stack = s.stack[:len(s.stack)-1]
}

// score is the metric of the complete schedule (the total for the mean).
func (s *searcher) score() int64 {
	var total, maxC, maxT int64
	for j, jb := range s.jobs {
		total += s.done[j] - jb.arrival
		maxC = max(maxC, s.done[j])
		maxT = max(maxT, s.done[j]-jb.arrival)
	}
	switch s.metric {
	case lowerbound.Makespan:
		return maxC - s.minA
	case lowerbound.MaxTurnaround:
		return maxT
	}
	return total
}

func (s *searcher) leaf() {
	v := s.score()
	if v < s.inc {
		s.inc, s.own = v, true
		s.best = slices.Clone(s.stack)
		if v <= s.known {
			s.finished = true
		}
		s.restart = s.restartOn
	}
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// children appends to cs the current node's children, each with its bound,
// best first: the rules of §14 (keys grow, starts clamped to the key's
// floor, the active rule) and §14f (twins in order).
func (s *searcher) children(cs []cand) []cand {
	var f [2]int64
	var fs [2]int
	for k := range 2 {
		if len(s.slots[k]) > 0 {
			fs[k] = s.earliest(k)
			f[k] = s.slots[k][fs[k]].free
		}
	}
	// The active rule (§14): no task starts on a slot after another
	// available task of its kind could have run there entirely. minEnd[k]
	// is the least such end, second[k] the next least, so a task is
	// compared with the others only.
	var minEnd, second [2]int64
	var minJob [2]int
	for k := range 2 {
		minEnd[k], second[k], minJob[k] = math.MaxInt64, math.MaxInt64, -1
	}
	// Starts are clamped to the least start whose key (start, index)
	// follows the last placed task's (§14: a node's subtree then holds a
	// best completion of every schedule that extends it with later keys,
	// which the memo's dominance needs).
	for j := range s.jobs {
		k, idx, r, d, ok := s.next(j)
		if !ok || s.overtakes(j, k) {
			// A task the twin rule holds back is no witness of the
			// active rule either (§14f: moving it earlier could break
			// the twins' order).
			continue
		}
		e := max(f[k], r, s.floor(idx)) + d
		if e < minEnd[k] {
			second[k] = minEnd[k]
			minEnd[k], minJob[k] = e, j
		} else if e < second[k] {
			second[k] = e
		}
	}
	for j := range s.jobs {
		k, idx, r, d, ok := s.next(j)
		if !ok || s.overtakes(j, k) {
			continue
		}
		start := max(f[k], r, s.floor(idx))
		other := minEnd[k]
		if minJob[k] == j {
			other = second[k]
		}
		if other <= start {
			continue // not active
		}
		cs = append(cs, cand{j: j, k: k, slot: fs[k], start: start, end: start + d, idx: idx})
	}
	for i := range cs {
		c := &cs[i]
		undo := s.apply(c)
		c.lb = s.bound()
		s.undo(c, undo)
		c.tie = s.tie(c)
	}
	// Insertion sort: a few dozen children at most, and sort.Slice's
	// reflection allocated per node. Children have distinct indices (one
	// per job) and no NaN bound, so the order is total and any sort gives
	// this one.
	for i := 1; i < len(cs); i++ {
		for k := i; k > 0 && cs[k].before(&cs[k-1]); k-- {
			cs[k], cs[k-1] = cs[k-1], cs[k]
		}
	}
	return cs
}

// before orders children: bound, then tie, then index.
func (c *cand) before(d *cand) bool {
	if c.lb != d.lb {
		return c.lb < d.lb
	}
	if c.tie != d.tie {
		return c.tie < d.tie
	}
	return c.idx < d.idx
}
