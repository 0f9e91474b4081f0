package mip

import (
	"container/heap"
	"context"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/native/mip/cuts"
	"github.com/mrbound/mrbound/solve/native/simplex"
)

const (
	// intTol is the distance from an integer below which an LP value of an
	// integer column counts as integral.
	intTol = 1e-6
	// boundRoundTol is subtracted before rounding an LP bound up to the next
	// integer when the objective is integral at integer points.
	boundRoundTol = 1e-6
	// plungeFactor: keep plunging into a child while its bound is within
	// this fraction of the gap between the best open bound and the
	// incumbent.
	plungeFactor = 0.25
	// maxBasisBytes bounds the memory spent on the bases stored with open
	// nodes; beyond it new nodes start from whatever basis the LP holds
	// (still dual feasible, so the dual simplex applies).
	maxBasisBytes = 256 << 20
	// logEvery is the interval between progress lines.
	logEvery = 2 * time.Second
	// rcFixTol is the smallest reduced cost used for reduced-cost fixing.
	rcFixTol = 1e-7
	// cutoffRoundTol is subtracted before rounding a cutoff up to the next
	// integer when the objective is integral at integer points: a cutoff
	// already sits boundRoundTol above the whole value it stands for.
	cutoffRoundTol = 1e-9
	// maxNodeResolves bounds the number of times a node LP is re-solved after
	// strong branching tightened a bound.
	maxNodeResolves = 10
)

// bndChg is a bound change made by branching: column Col in [Lo, Up].
type bndChg struct {
	Col    int
	Lo, Up float64
}

// chgLink holds the bound changes of one processed node, linked to those of
// its ancestors; the children of a node share it instead of copying the
// whole path (an open node then costs its own changes, not its depth times
// them: mas74 keeps millions of open nodes).
type chgLink struct {
	chg []bndChg
	up  *chgLink
}

type node struct {
	id     int64
	parent int64
	depth  int
	// bound is a lower bound (minimisation) on every point of the subtree.
	bound float64
	// estimate orders children when plunging.
	estimate float64
	// chg are the node's own bound changes (its branching bound, then what
	// propagation, strong branching and reduced-cost fixing added); anc
	// those of its ancestors.
	chg   []bndChg
	anc   *chgLink
	basis simplex.Basis
	// Pseudo-cost bookkeeping of the branching that created the node.
	bvar      int
	bup       bool
	bdist     float64
	parentObj float64
}

type nodeHeap []*node

func (h nodeHeap) Len() int { return len(h) }
func (h nodeHeap) Less(a, b int) bool {
	if h[a].bound != h[b].bound {
		return h[a].bound < h[b].bound
	}
	if h[a].depth != h[b].depth {
		return h[a].depth > h[b].depth
	}
	return h[a].id < h[b].id
}
func (h nodeHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *nodeHeap) Push(x any)   { *h = append(*h, x.(*node)) }
func (h *nodeHeap) Pop() any {
	old := *h
	n := old[len(old)-1]
	*h = old[:len(old)-1]
	return n
}

type search struct {
	ctx   context.Context
	m     *model.Model
	opts  solve.Options
	cfg   config
	start time.Time
	// deadline is zero without a time limit.
	deadline time.Time
	sigma    float64
	n        int
	isInt    []bool
	intCols  []int
	relGap   float64
	absGap   float64
	objInt   bool
	offset   float64 // internal (sigma-scaled) objective offset

	lp         LP
	lpOpts     simplex.Options
	extraIters int64
	// sbIters counts strong-branching iterations, treeIters the node LP
	// iterations after the root; strong branching stops while sbIters
	// exceeds sbIterRatio·treeIters + sbIterBase.
	sbIters, treeIters int64
	// sbCands and sbCutoffs count strong-branching candidates and those
	// with a child cut off (infeasible or past the cutoff).
	sbCands, sbCutoffs int64
	glo, gup           []float64 // global bounds
	curLo              []float64 // bounds currently in the LP
	curUp              []float64
	dirty              []int
	mark               []bool
	lastSolved         int64 // id of the node whose LP solution the LP holds

	upLocks, downLocks []int
	rowm               model.CSR
	// propQueued and propQueue are node propagation's work space.
	propQueued []bool
	propQueue  []int

	prob    *cuts.Problem
	cliques *cuts.CliqueTable
	pool    *cuts.Pool
	numCuts int
	cutKind []int8 // per pool cut: 0 clique, 1 cover, 2 MIR, 3 Gomory

	rootLo, rootUp []float64
	rootZ          float64
	rootRC         []float64

	pc pseudoCosts

	// rinsNext is the node count at which RINS runs next; rinsGap the
	// current interval, doubled after each unsuccessful run.
	rinsNext, rinsGap int64
	// fpNext and fpGap schedule fix-and-propagate in the tree the same way;
	// diveIters counts the simplex iterations of the dives in the tree.
	fpNext, fpGap int64
	diveIters     int64
	// nodeRCFixed counts the bounds tightened by reduced-cost fixing at the
	// nodes.
	nodeRCFixed int64
	// explored is the fraction of the tree closed so far: 2^−depth summed
	// over the nodes that ended without children.
	explored float64
	// lex are the symmetry-breaking constraints (sym.go); symFixed counts
	// the bounds they tightened.
	lex      []lexOrder
	symFixed int64
	// cutRows are the pool indices of the cuts in the LP, in row order
	// after the model's rows.
	cutRows []int
	// proofs are the node proofs propagated at later nodes (proof.go);
	// proofFixed counts the bounds they tightened.
	proofs     proofPool
	proofFixed int64

	incumbent []float64
	incObj    float64
	// roundBuf is the rounding heuristic's work vector.
	roundBuf []float64

	open    nodeHeap
	nextID  int64
	nodes   int64
	trouble float64 // smallest bound of a subtree abandoned for numerical trouble
	// pruned is the least bound of a region discarded because it could not
	// beat the incumbent by more than pruneTol (a node, a strong-branching
	// child, a region a cutoff proof excluded). Those regions may hold
	// points better than the incumbent, so the dual bound must include it.
	pruned  float64
	status  solve.Status
	message string
	log     io.Writer
	lastLog time.Time
	stopped bool
	curNode *node // the node in process, nil between nodes
}

func newSearch(ctx context.Context, m *model.Model, opts solve.Options, cfg config, start time.Time) (*search, error) {
	s := &search{ctx: ctx, m: m, opts: opts, cfg: cfg, start: start, sigma: 1, n: m.NumCols(),
		incObj: math.Inf(1), trouble: math.Inf(1), pruned: math.Inf(1)}
	if m.Sense == model.Maximize {
		s.sigma = -1
	}
	if opts.TimeLimit > 0 {
		s.deadline = start.Add(opts.TimeLimit)
	}
	if !cfg.sub && opts.Verbosity > 0 {
		s.log = opts.Log
	}
	s.relGap, s.absGap = opts.Gaps()
	s.offset = s.sigma * m.ObjOffset
	s.isInt = make([]bool, s.n)
	s.objInt = true
	for j, t := range m.ColType {
		s.isInt[j] = t.IsInteger()
		if s.isInt[j] {
			s.intCols = append(s.intCols, j)
			if m.Obj[j] != math.Round(m.Obj[j]) {
				s.objInt = false
			}
		} else if m.Obj[j] != 0 {
			s.objInt = false
		}
	}
	s.glo = append([]float64(nil), m.ColLower...)
	s.gup = append([]float64(nil), m.ColUpper...)
	s.curLo = append([]float64(nil), m.ColLower...)
	s.curUp = append([]float64(nil), m.ColUpper...)
	s.mark = make([]bool, s.n)
	s.lpOpts = simplex.Options{Deadline: s.deadline, Seed: opts.Seed}
	lp, err := newLP(m, s.lpOpts)
	if err != nil {
		return nil, err
	}
	s.lp = lp
	s.lastSolved = -1
	s.rowm = m.RowMatrix()
	s.computeLocks()
	s.detectSymmetry()
	s.prob = cuts.NewProblem(m)
	s.prob.Lower, s.prob.Upper = s.glo, s.gup
	s.pool = cuts.NewPool()
	s.pc = newPseudoCosts(s.n)
	s.rinsNext, s.rinsGap = rinsFreq, rinsFreq
	s.fpNext, s.fpGap = diveFreq, diveFreq
	return s, nil
}

func (s *search) computeLocks() {
	m := s.m
	s.upLocks = make([]int, s.n)
	s.downLocks = make([]int, s.n)
	for j := 0; j < s.n; j++ {
		for k := m.ColStart[j]; k < m.ColStart[j+1]; k++ {
			i, a := m.RowIndex[k], m.Value[k]
			hasUp, hasLo := !math.IsInf(m.RowUpper[i], 1), !math.IsInf(m.RowLower[i], -1)
			if a < 0 {
				hasUp, hasLo = hasLo, hasUp
			}
			if hasUp {
				s.upLocks[j]++
			}
			if hasLo {
				s.downLocks[j]++
			}
		}
	}
}

func (s *search) iterations() int64 { return s.lp.Iterations() + s.extraIters }

// roundBound strengthens an internal lower bound when the objective is
// integral at integer points.
func (s *search) roundBound(z float64) float64 {
	if !s.objInt || math.IsInf(z, 0) {
		return z
	}
	return s.offset + math.Ceil(z-s.offset-boundRoundTol)
}

// pruneTol is the amount by which a node must beat the incumbent to be kept.
func (s *search) pruneTol() float64 {
	if math.IsInf(s.incObj, 1) {
		return 0
	}
	t := math.Max(s.absGap, s.relGap*math.Abs(s.incObj))
	if s.objInt {
		// Any better point is better by at least 1.
		t = math.Max(t, 1-boundRoundTol)
	}
	return t
}

func (s *search) cutoff() float64 { return s.incObj - s.pruneTol() }

// discard records a region dropped for reaching the cutoff, with bound a
// valid lower bound on its points (an LP bound, rounded like one). Only a
// region that might still hold a point better than the incumbent (bound
// below it) lowers the dual bound.
func (s *search) discard(bound float64) {
	if bound = s.roundBound(bound); bound < s.incObj {
		s.pruned = math.Min(s.pruned, bound)
	}
}

// discardBeyond records a region dropped because it holds no point with an
// objective below cutoff (what a cutoff proof excludes).
func (s *search) discardBeyond(cutoff float64) {
	if s.objInt && !math.IsInf(cutoff, 0) {
		cutoff = s.offset + math.Ceil(cutoff-s.offset-cutoffRoundTol)
	}
	if cutoff < s.incObj {
		s.pruned = math.Min(s.pruned, cutoff)
	}
}

// dualBound is the best bound over the open nodes, the node in process, the
// subtrees abandoned for numerical trouble and the regions pruned within the
// gap tolerance (internal sense), never above the incumbent.
func (s *search) dualBound() float64 {
	b := math.Min(s.trouble, s.pruned)
	if s.curNode != nil {
		b = math.Min(b, s.curNode.bound)
	}
	if len(s.open) > 0 {
		b = math.Min(b, s.open[0].bound)
	}
	if math.IsInf(b, 1) {
		// Nothing open: the incumbent (or +Inf when infeasible) is optimal.
		return s.incObj
	}
	return math.Min(b, s.incObj)
}

func (s *search) gapClosed(bound float64) bool {
	if math.IsInf(s.incObj, 1) {
		return false
	}
	d := s.incObj - bound
	return d <= s.absGap || d <= s.relGap*math.Abs(s.incObj)
}

func (s *search) logf(format string, a ...any) {
	if s.log != nil {
		fmt.Fprintf(s.log, format, a...)
	}
}

func (s *search) progress(force bool, tag string) {
	if s.log == nil {
		return
	}
	now := time.Now()
	if !force && now.Sub(s.lastLog) < logEvery {
		return
	}
	s.lastLog = now
	b := s.dualBound()
	inc := s.sigma * s.incObj
	gap := "inf"
	if !math.IsInf(s.incObj, 1) && !math.IsInf(b, -1) {
		gap = fmt.Sprintf("%.2f%%", 100*solve.RelativeGap(s.incObj, b))
	}
	s.logf("%1s %8d nodes %7d open  incumbent %15.8g  bound %15.8g  gap %8s  %7d it  %6.2f%% tree  %6.1fs\n",
		tag, s.nodes, len(s.open), inc, s.sigma*b, gap, s.iterations(), 100*s.explored, now.Sub(s.start).Seconds())
}

// limitStatus reports the limit reached, or StatusUnknown.
func (s *search) limitStatus() solve.Status {
	if s.ctx.Err() != nil {
		return solve.Interrupted
	}
	if !s.deadline.IsZero() && time.Now().After(s.deadline) {
		return solve.TimeLimit
	}
	if s.opts.NodeLimit > 0 && s.nodes >= s.opts.NodeLimit {
		return solve.NodeLimit
	}
	if s.opts.IterationLimit > 0 && s.iterations() >= s.opts.IterationLimit {
		return solve.IterationLimit
	}
	return solve.StatusUnknown
}

// setIncumbent records x (a reduced-model point) when it is feasible and
// better than the incumbent; it reports whether it was taken.
func (s *search) setIncumbent(x []float64, tag string) bool {
	x = append(make([]float64, 0, len(x)), x...)
	if ok, _ := check(s.m, x); !ok {
		return false
	}
	obj := s.sigma * s.m.Evaluate(x).Objective
	if obj >= s.incObj-1e-9*math.Max(1, math.Abs(s.incObj)) {
		return false
	}
	s.incumbent, s.incObj = x, obj
	s.reducedCostFix()
	s.progress(true, tag)
	return true
}

// run is the whole search: root, cuts, heuristics, tree.
func (s *search) run() {
	root := &node{id: s.nextID, parent: -1, bound: math.Inf(-1), bvar: -1}
	s.nextID++
	cur := root
	plunge := 0
	for {
		if cur == nil {
			if len(s.open) == 0 {
				break
			}
			cur = heap.Pop(&s.open).(*node)
			plunge = 0
			if cur.bound >= s.cutoff() {
				s.discard(cur.bound)
				s.explored += math.Ldexp(1, -cur.depth)
				cur = nil
				continue
			}
		}
		if st := s.limitStatus(); st != solve.StatusUnknown {
			heap.Push(&s.open, cur)
			s.status = st
			s.stopped = true
			break
		}
		s.curNode = cur
		if s.gapClosed(s.dualBound()) {
			heap.Push(&s.open, cur)
			break
		}
		children := s.process(cur)
		if s.stopped {
			break
		}
		if len(children) == 0 {
			s.explored += math.Ldexp(1, -cur.depth)
		}
		s.curNode = nil
		cur = nil
		if len(children) == 2 {
			a, b := children[0], children[1]
			if b.estimate < a.estimate {
				a, b = b, a
			}
			heap.Push(&s.open, b)
			best := a.bound
			if len(s.open) > 0 {
				best = math.Min(best, s.open[0].bound)
			}
			if math.IsInf(s.incObj, 1) || a.bound <= best+plungeFactor*(s.incObj-best) {
				cur = a
				plunge++
			} else {
				heap.Push(&s.open, a)
			}
		}
		s.curNode = cur
		s.progress(false, "")
	}
	s.curNode = nil
	if s.status == solve.StatusUnknown {
		switch {
		case s.status == solve.Unbounded:
		case !math.IsInf(s.incObj, 1) && (s.gapClosed(s.dualBound()) || len(s.open) == 0 && math.IsInf(s.trouble, 1)):
			// Every node was solved or pruned within pruneTol: optimal
			// within the tolerance (the dual bound, which holds the pruned
			// nodes, may differ from the incumbent by up to pruneTol).
			s.status = solve.Optimal
		case math.IsInf(s.incObj, 1) && math.IsInf(s.trouble, 1) && len(s.open) == 0:
			s.status = solve.Infeasible
		default:
			s.status = solve.NumericalTrouble
			if s.message == "" {
				s.message = "subtrees abandoned after LP failures"
			}
		}
	}
	if len(s.lex) > 0 || s.proofs.added > 0 {
		s.logf("propagation: %d bounds from symmetry; %d proofs stored, %d nodes pruned and %d bounds tightened by them; strong branching %d candidates, %d with a cut-off child\n",
			s.symFixed, s.proofs.added, s.proofs.pruned, s.proofFixed, s.sbCands, s.sbCutoffs)
	}
	s.progress(true, "*")
}

// path returns the bound changes from the root to nd, in that order.
func (nd *node) path() []bndChg {
	var links []*chgLink
	n := len(nd.chg)
	for l := nd.anc; l != nil; l = l.up {
		links = append(links, l)
		n += len(l.chg)
	}
	if len(links) == 0 {
		return nd.chg
	}
	out := make([]bndChg, 0, n)
	for k := len(links) - 1; k >= 0; k-- {
		out = append(out, links[k].chg...)
	}
	return append(out, nd.chg...)
}

// apply installs the bounds of nd in the LP; false when they are empty.
func (s *search) apply(nd *node) bool {
	path := nd.path()
	lo := make(map[int]float64, len(path))
	up := make(map[int]float64, len(path))
	for _, c := range path {
		l, u := s.glo[c.Col], s.gup[c.Col]
		if v, ok := lo[c.Col]; ok {
			l, u = v, up[c.Col]
		}
		lo[c.Col], up[c.Col] = math.Max(l, c.Lo), math.Min(u, c.Up)
	}
	empty := false
	var newDirty []int
	set := func(j int, l, u float64) {
		if l > u {
			empty = true
			u = l
		}
		if l != s.curLo[j] || u != s.curUp[j] {
			if err := s.lp.SetColBounds(j, l, u); err != nil {
				empty = true
				return
			}
			s.curLo[j], s.curUp[j] = l, u
		}
		if (l != s.glo[j] || u != s.gup[j]) && !s.mark[j] {
			s.mark[j] = true
			newDirty = append(newDirty, j)
		}
	}
	for _, c := range path {
		set(c.Col, lo[c.Col], up[c.Col])
	}
	for _, j := range s.dirty {
		if _, ok := lo[j]; !ok {
			set(j, s.glo[j], s.gup[j])
		}
	}
	for _, j := range s.dirty {
		s.mark[j] = false
	}
	for _, j := range newDirty {
		s.mark[j] = false
	}
	s.dirty = newDirty
	return !empty
}

// setGlobal tightens the global bounds of column j.
func (s *search) setGlobal(j int, lo, up float64) {
	if lo <= s.glo[j] && up >= s.gup[j] {
		return
	}
	s.glo[j] = math.Max(s.glo[j], lo)
	s.gup[j] = math.Min(s.gup[j], up)
	if !s.mark[j] {
		s.dirty = append(s.dirty, j)
	}
}

// solveLP solves the LP and accounts for iterations; it returns the status.
func (s *search) solveLP() solve.Status {
	return s.lp.Solve(s.ctx)
}

// fractional lists the integer columns whose LP value is fractional.
func (s *search) fractional(x []float64) []int {
	var out []int
	for _, j := range s.intCols {
		if math.Abs(x[j]-math.Round(x[j])) > intTol {
			out = append(out, j)
		}
	}
	return out
}

// process solves a node and returns its children (nil when the node was
// pruned, infeasible or integral).
func (s *search) process(nd *node) []*node {
	s.nodes++
	if !s.apply(nd) || !s.propagate(nd) || !s.nodePropagate(nd) {
		return nil
	}
	if nd.parent != s.lastSolved && nd.basis.Cols != nil {
		_ = s.lp.SetBasis(nd.basis)
	}
	isRoot := nd.parent < 0
	for resolve := 0; ; resolve++ {
		before := s.lp.Iterations()
		st := s.solveLP()
		if !isRoot {
			s.treeIters += s.lp.Iterations() - before
		}
		s.lastSolved = nd.id
		switch st {
		case solve.Optimal:
		case solve.Infeasible:
			if nd.bvar >= 0 {
				s.pc.infeasible(nd.bvar, nd.bup)
			}
			if !isRoot && !s.cfg.noProofs {
				s.infeasibleProof()
			}
			return nil
		case solve.TimeLimit, solve.Interrupted:
			heap.Push(&s.open, nd)
			s.status = st
			s.stopped = true
			return nil
		case solve.Unbounded:
			if isRoot {
				s.rootUnbounded()
				return nil
			}
			fallthrough
		default:
			return s.troubleNode(nd, st)
		}
		z := s.sigma * s.lp.Objective()
		if nd.bvar >= 0 && resolve == 0 {
			s.pc.update(nd.bvar, nd.bup, (z-nd.parentObj)/nd.bdist)
		}
		nd.bound = math.Max(nd.bound, s.roundBound(z))
		if nd.bound >= s.cutoff() {
			s.discard(nd.bound)
			if !isRoot && !s.cfg.noProofs {
				s.cutoffProof()
			}
			return nil
		}
		if isRoot && resolve == 0 {
			s.progress(true, "r")
			if s.incumbent == nil && len(s.fractional(s.lp.X())) > 0 {
				// Cheap, and an incumbent before the cut rounds lets
				// reduced-cost fixing work while they run.
				s.fixAndPropagate(s.lp.X())
			}
			if !s.rootCuts(nd) {
				return nil
			}
			z = s.sigma * s.lp.Objective()
			nd.bound = math.Max(nd.bound, s.roundBound(z))
			s.saveRoot(z)
			s.progress(true, "c")
		}
		x := s.lp.X()
		frac := s.fractional(x)
		if len(frac) == 0 {
			if !s.setIncumbent(x, "L") {
				if z < s.incObj-s.pruneTol() {
					// Integral LP point that fails the check: cannot branch on it.
					return s.troubleNode(nd, solve.NumericalTrouble)
				}
				s.discard(nd.bound)
			}
			return nil
		}
		s.roundingHeuristic(x)
		if isRoot || s.nodes%ziFreq == 0 {
			s.ziRound(x)
		}
		if isRoot && resolve == 0 {
			s.fixAndPropagate(x)
			s.dive(x, 0)
			if s.incumbent == nil {
				s.pump(x, s.lp.Iterations())
			}
			if s.incumbent != nil && s.lp.Iterations() >= rootRinsIters {
				// An expensive root means slow nodes: run RINS right
				// away, the first rinsFreq nodes may never come. (Not
				// on cheap roots: on bell5 an early RINS incumbent
				// changes the tree from 7k nodes to over 100k.)
				s.rinsNext = 0
			}
			if nd.bound >= s.cutoff() {
				s.discard(nd.bound)
				return nil
			}
		} else if s.nodes%diveFreq == 0 {
			s.treeHeuristics(x, nd.depth)
		}
		if !s.cfg.sub && s.incumbent != nil && s.nodes >= s.rinsNext {
			s.rins(x)
		}
		if nd.bound >= s.cutoff() {
			s.discard(nd.bound)
			return nil
		}
		s.nodeReducedCostFix(nd, x, z)
		j, tightened, infeasible := s.selectBranch(nd, x, frac, z)
		if infeasible {
			return nil
		}
		if tightened && resolve < maxNodeResolves {
			continue
		}
		if j < 0 {
			j = frac[0]
		}
		return s.branch(nd, j, x[j], z)
	}
}

// troubleNode handles a node whose LP failed: branch on an unfixed integer
// column without an LP bound, or abandon the subtree keeping its bound.
func (s *search) troubleNode(nd *node, st solve.Status) []*node {
	for _, j := range s.intCols {
		if s.curUp[j]-s.curLo[j] >= 1 && !math.IsInf(s.curLo[j], 0) && !math.IsInf(s.curUp[j], 0) {
			mid := math.Floor((s.curLo[j] + s.curUp[j]) / 2)
			s.lastSolved = -1
			return s.branch(nd, j, mid+0.5, nd.bound)
		}
	}
	s.trouble = math.Min(s.trouble, nd.bound)
	s.message = fmt.Sprintf("LP status %v at a node with all integer columns fixed", st)
	return nil
}

// rootUnbounded decides between Unbounded, Infeasible and
// InfeasibleOrUnbounded when the root LP is unbounded: a feasible integer
// point makes the MIP unbounded.
func (s *search) rootUnbounded() {
	feas := s.m.Clone()
	for j := range feas.Obj {
		feas.Obj[j] = 0
	}
	sub := s.opts
	sub.Log = nil
	sub.Start = nil
	res := solveWith(s.ctx, feas, sub, config{sub: true})
	switch {
	case res.HasSolution:
		s.status = solve.Unbounded
		s.incumbent = nil
	case res.Status == solve.Infeasible:
		s.status = solve.Infeasible
	default:
		s.status = solve.InfeasibleOrUnbounded
	}
	s.stopped = true
}

// branch creates the two children of nd on column j with LP value v.
func (s *search) branch(nd *node, j int, v, z float64) []*node {
	f := v - math.Floor(v)
	var basis simplex.Basis
	if int64(len(s.open)+1)*int64(s.n+s.lp.NumRows()) < maxBasisBytes {
		basis = s.lp.Basis()
	}
	// nd's changes are final now: both children link to them.
	anc := nd.anc
	if len(nd.chg) > 0 {
		anc = &chgLink{chg: nd.chg[:len(nd.chg):len(nd.chg)], up: nd.anc}
	}
	mk := func(up bool) *node {
		c := &node{id: s.nextID, parent: nd.id, depth: nd.depth + 1, bound: nd.bound, basis: basis,
			bvar: j, bup: up, parentObj: z}
		s.nextID++
		c.anc = anc
		if up {
			c.chg = append(c.chg, bndChg{j, math.Ceil(v), math.Inf(1)})
			c.bdist = 1 - f
			c.estimate = z + s.pc.get(j, true)*(1-f)
		} else {
			c.chg = append(c.chg, bndChg{j, math.Inf(-1), math.Floor(v)})
			c.bdist = f
			c.estimate = z + s.pc.get(j, false)*f
		}
		return c
	}
	return []*node{mk(false), mk(true)}
}

// saveRoot records the root LP for reduced-cost fixing.
func (s *search) saveRoot(z float64) {
	s.rootZ = z
	rc := s.lp.ReducedCosts()
	if rc == nil {
		return
	}
	s.rootRC = make([]float64, len(rc))
	for j, d := range rc {
		s.rootRC[j] = s.sigma * d
	}
	s.rootLo = append([]float64(nil), s.curLo...)
	s.rootUp = append([]float64(nil), s.curUp...)
	s.reducedCostFix()
}

// nodeReducedCostFix tightens, for the subtree of nd, the bounds of the
// integer columns that the node LP's reduced costs and the incumbent keep at
// their bounds: a column at its lower bound l with reduced cost d > 0 cannot
// exceed l + ⌊(incumbent − z)/d⌋ in any better point of the subtree (and
// symmetrically at the upper bound). The new bounds go into nd.chg, so the
// children inherit them; the node's own LP solution is unchanged by them.
func (s *search) nodeReducedCostFix(nd *node, x []float64, z float64) {
	if math.IsInf(s.incObj, 1) || s.cfg.noNodeRC {
		return
	}
	gap := s.incObj - z
	if s.objInt {
		gap = s.incObj - 1 + boundRoundTol - z
	}
	if gap < 0 {
		return
	}
	rc := s.lp.ReducedCosts()
	if rc == nil {
		return
	}
	for _, j := range s.intCols {
		lo, up := s.curLo[j], s.curUp[j]
		if lo == up {
			continue
		}
		d := s.sigma * rc[j]
		switch {
		case d > rcFixTol && !math.IsInf(lo, -1) && x[j] <= lo+intTol:
			if nu := lo + math.Floor(gap/d+1e-9); nu < up {
				nd.chg = append(nd.chg, bndChg{j, math.Inf(-1), nu})
				s.nodeRCFixed++
			}
		case d < -rcFixTol && !math.IsInf(up, 1) && x[j] >= up-intTol:
			if nl := up - math.Floor(gap/(-d)+1e-9); nl > lo {
				nd.chg = append(nd.chg, bndChg{j, nl, math.Inf(1)})
				s.nodeRCFixed++
			}
		}
	}
}

// reducedCostFix tightens global bounds of integer columns using the root
// reduced costs and the incumbent: a column at its lower bound with reduced
// cost d > 0 cannot move more than (incumbent − root bound)/d.
func (s *search) reducedCostFix() {
	if s.rootRC == nil || math.IsInf(s.incObj, 1) {
		return
	}
	gap := s.incObj - s.rootZ
	if s.objInt {
		gap = s.incObj - 1 + boundRoundTol - s.rootZ
	}
	if gap < 0 {
		return
	}
	for _, j := range s.intCols {
		d := s.rootRC[j]
		if d > 1e-7 && !math.IsInf(s.rootLo[j], -1) {
			s.setGlobal(j, math.Inf(-1), s.rootLo[j]+math.Floor(gap/d+1e-9))
		} else if d < -1e-7 && !math.IsInf(s.rootUp[j], 1) {
			s.setGlobal(j, s.rootUp[j]-math.Floor(gap/(-d)+1e-9), math.Inf(1))
		}
	}
}
