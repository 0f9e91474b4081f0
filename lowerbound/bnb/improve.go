package bnb

import (
	"math"
	"sort"

	"github.com/mrbound/mrbound/solve"
)

// improve is the improvement phase (Options.ImproveNodes, docs/bounds.md
// §14h): a beam search of width beamWidth from the root (when beam), then
// resolve along the best schedule's path, within budget nodes. It returns
// the nodes it used; the caller gives the rest to the best-first phase.
//
// The best-first phase closes a node only once the incumbent is at or
// below its bound, and it reaches leaves only through its dives, which on
// the 20-job MRCP streams improve the incumbent slowly: on seed 6, with no
// incumbent given, 2332 s after 400,000 nodes, 2287 s after 870,000, 2281 s
// after 2.7 M, and the optimum, 2270 s, only as the least open bound
// reaches it, after 5.4 M (docs/results.md, s17inc).
func (s *searcher) improve(budget int64, beam bool) int64 {
	// Without a schedule of its own better than the caller's incumbent
	// (compare passes its best verified value) the phase would have no
	// path to walk along: it then searches with the caller's value set
	// aside, so that its own schedules, worse at first, guide the walks.
	// Every schedule it meets is still a leaf with its true score, and the
	// caller's value comes back as the incumbent unless one beats it.
	caller := int64(math.MaxInt64)
	if !s.own {
		caller, s.inc = s.inc, math.MaxInt64
	}
	var used int64
	if beam {
		used = s.beam(beamWidth, budget)
	}
	used += s.resolve(budget - used)
	if s.inc >= caller {
		s.inc, s.own, s.best = caller, false, nil
	}
	return used
}

// resolve searches again, best first, the subtrees along the best
// schedule's path: it fixes the path's first d choices and runs the
// best-first phase from that node within sub nodes made, for d = n−1,
// n−1−n/resolveWalks, …, 0 (n tasks), from the leaf up; a better schedule
// starts the walk again along its own path. A walk that finds nothing is
// repeated with twice sub; a search from the root that closes every node
// ends the phase. It stops after budget nodes and returns the nodes used.
//
// A better schedule differs from the best one from some depth on; near the
// leaf the subtree is small and the best-first search closes it, so the
// walk tries the nearest differences first. Seed 6's optimum shares its
// first 181 of 201 choices with the schedule of 2271 s the search finds
// just before it, but only 36 with the dives' 2281 s (whose jobs end in
// the same order): the best-first phase from the root reaches such
// neighbours only when its bound does.
func (s *searcher) resolve(budget int64) int64 {
	if !s.own || budget <= 0 || s.placed != 0 {
		return 0
	}
	start := s.nodes
	// The subtree searches are bestFirst's from the current node: it
	// makes a memo of its own, and a context's stop is left for the
	// search's next phase to see.
	saved, stopped := s.memo, s.stopped
	defer func() { s.memo, s.stopped = saved, stopped }()
	path := make([]cand, s.nTasks)
	undos := make([]undoRec, s.nTasks)
	seq := make([]int, 0, s.nTasks)
	sub := int64(resolveFirst)
	for !s.finished && s.nodes-start < budget && s.ctx.Err() == nil {
		seq = seq[:0]
		for _, pl := range s.best {
			seq = append(seq, pl.Job)
		}
		inc := s.inc
		for d, j := range seq {
			path[d] = s.childOf(j)
			undos[d] = s.apply(&path[d])
		}
		next := len(seq) - 1
		for d := len(seq) - 1; d >= 0; d-- {
			s.undo(&path[d], undos[d])
			if (d > next && d > 0) || s.inc < inc || s.nodes-start >= budget || s.finished {
				continue // unwind to the root
			}
			next = d - max(1, s.nTasks/resolveWalks)
			left := budget - (s.nodes - start)
			n := min(sub, left, int64(s.maxOpen))
			if _, cut := s.bestFirst(n, int(n)+1); !cut && d == 0 {
				s.closed = true // every node closed: the incumbent is optimal
				return s.nodes - start
			}
		}
		if s.inc == inc {
			sub *= 2
		}
	}
	return s.nodes - start
}

// beamWidth is the improvement phase's beam width; resolveWalks the
// subtrees a walk of resolve searches (one every n/resolveWalks depths: 8
// on the 20-job MRCP streams), resolveFirst the nodes of each in its first
// walk.
const (
	beamWidth    = 16
	resolveWalks = 25
	resolveFirst = 20_000
)

// beamNode is a node of a beam: the job its parent's child placed (the
// parent in the level before), and its bound.
type beamNode struct {
	lb     float64
	parent int32
	j      int16
}

// beam is a beam search of width w from the root: level by level, it
// expands the w nodes of least bound of the level (children by the rules,
// pruned by the incumbent) and keeps the w children of least bound for the
// next; a child that completes the schedule is a leaf (s.leaf). It stops
// after budget nodes. It returns the nodes it used.
//
// The nodes of least bound at each depth are where the best-first phase
// would go, but the beam reaches the leaves below them in w·tasks nodes,
// where the best-first phase reaches leaves only through its dives.
func (s *searcher) beam(w int, budget int64) int64 {
	if s.placed != 0 || s.nTasks == 0 || budget <= 0 {
		return 0
	}
	start := s.nodes
	levels := [][]beamNode{{{lb: s.bound(), parent: -1, j: -1}}}
	path := make([]int16, 0, s.nTasks)
	cands := make([]cand, s.nTasks)
	undos := make([]undoRec, s.nTasks)
	var cs []cand
	for depth := 0; depth < s.nTasks; depth++ {
		var next []beamNode
		for i := range levels[depth] {
			if s.nodes-start >= budget || s.finished {
				return s.nodes - start
			}
			if (s.nodes-start)%ctxEvery == 0 && s.ctx.Err() != nil {
				s.stopped = solve.Interrupted
				return s.nodes - start
			}
			if s.prune(levels[depth][i].lb) {
				continue // the incumbent improved since the node was kept
			}
			// Replay the node from the root.
			path = path[:0]
			for d, x := depth, int32(i); d > 0; d-- {
				path = append(path, levels[d][x].j)
				x = levels[d][x].parent
			}
			for q := len(path) - 1; q >= 0; q-- {
				d := len(path) - 1 - q
				cands[d] = s.childOf(int(path[q]))
				undos[d] = s.apply(&cands[d])
			}
			s.nodes++
			cs = s.children(cs[:0])
			for _, c := range cs {
				if s.prune(c.lb) {
					continue
				}
				if s.placed+1 == s.nTasks {
					u := s.apply(&c)
					s.leaf()
					s.undo(&c, u)
					continue
				}
				next = append(next, beamNode{lb: c.lb, parent: int32(i), j: int16(c.j)})
			}
			for d := len(path) - 1; d >= 0; d-- {
				s.undo(&cands[d], undos[d])
			}
		}
		if len(next) == 0 {
			break
		}
		// The w least bounds; children of earlier nodes first at a tie.
		sort.SliceStable(next, func(a, b int) bool { return next[a].lb < next[b].lb })
		levels = append(levels, next[:min(w, len(next))])
	}
	return s.nodes - start
}
