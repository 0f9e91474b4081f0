package bnb

import (
	"math"

	"github.com/mrbound/mrbound/solve"
)

// bfNode is an expanded node of the best-first phase, kept as the job
// whose next task its parent's child placed: applying the jobs from the
// root rebuilds the node (every child is a function of its parent's state).
// An open node is a bfOpen, which carries the same fields: a node gets a
// bfNode only when it is popped, so the nodes made and never expanded —
// more than half of them on the MRCP streams — cost their 16 bytes in the
// heap while open and nothing after.
type bfNode struct {
	parent int32
	j      int16
	depth  int16
}

// bfOpen is an open node in the heap: its keys (bound, depth) and what
// rebuilds it (the expanded parent and the job placed). Comparing keys
// there reads no bfNode (a random access into millions of them).
type bfOpen struct {
	lb     float64
	parent int32
	j      int16
	depth  int16
}

// bfChunkBits sets the entries per chunk of the best-first arrays: 2^14
// (256 KB of open nodes), so that a search of a few nodes makes little and
// one of millions grows by whole chunks, never copying what it holds.
const bfChunkBits = 14

// chunked is an array that grows by chunks of 2^bfChunkBits entries: an
// append never copies the entries held (a doubling slice's copies, and
// the garbage they left until a collection, were a tenth of the time and
// most of the peak memory of the MRCP streams' sums, s18fast).
type chunked[T any] struct {
	c [][]T
	n int
}

// small makes the first chunk hold n entries (at most a whole chunk).
func (a *chunked[T]) small(n int) {
	if len(a.c) == 0 {
		a.c = append(a.c, make([]T, max(1, min(n, 1<<bfChunkBits))))
	}
}

func (a *chunked[T]) at(i int) *T {
	return &a.c[i>>bfChunkBits][i&(1<<bfChunkBits-1)]
}

func (a *chunked[T]) push(v T) {
	switch {
	case a.n>>bfChunkBits == len(a.c):
		a.c = append(a.c, make([]T, 1<<bfChunkBits))
	case len(a.c) == 1 && a.n == len(a.c[0]):
		// The first chunk starts small and doubles up to a whole one, so
		// that the many tiny best-first searches (split groups, the
		// improvement phase's last subtrees) do not each zero 384 KB
		// (rev18a: 1.1 GB for 3,000 tiny problems).
		c := make([]T, min(2*a.n, 1<<bfChunkBits))
		copy(c, a.c[0])
		a.c[0] = c
	}
	*a.at(a.n) = v
	a.n++
}

// bfHeap is a binary min-heap of open nodes in before's order: its sifts
// are container/heap's, step for step (TestHeapOrder), so that nodes of
// equal keys come out in the same order, without the interface calls and
// a boxed index per push. Its chunks stay made as it shrinks: it holds at
// most the phase's cap of nodes.
type bfHeap struct {
	open chunked[bfOpen]
}

// before orders open nodes by bound, then deeper first, then the children
// of the later expanded parent first. Bounds are pushed rounded up to the
// grid (as prune and the Result take them), so that ties are many and the
// next node is most often a child of the last one expanded, a short
// rebuild: on seed 5's sums of the 20-job MRCP streams (dives of 6) the
// raw bounds took 7.5 M nodes to the proof, the rounded ones 6.9 M, at the
// same CPU per node (docs/results.md, issue 26, s29shift).
func (x *bfOpen) before(y *bfOpen) bool {
	if x.lb != y.lb {
		return x.lb < y.lb
	}
	if x.depth != y.depth {
		return x.depth > y.depth
	}
	return x.parent > y.parent
}

func (h *bfHeap) len() int { return h.open.n }

func (h *bfHeap) top() *bfOpen { return h.open.at(0) }

func (h *bfHeap) push(o bfOpen) {
	h.open.push(o)
	for j := h.open.n - 1; j > 0; {
		i := (j - 1) / 2
		x, y := h.open.at(j), h.open.at(i)
		if !x.before(y) {
			break
		}
		*x, *y = *y, *x
		j = i
	}
}

func (h *bfHeap) pop() bfOpen {
	n := h.open.n - 1
	r, l := h.open.at(0), h.open.at(n)
	*r, *l = *l, *r
	for i := 0; ; {
		j := 2*i + 1
		if j >= n {
			break
		}
		c := h.open.at(j)
		if j2 := j + 1; j2 < n {
			if c2 := h.open.at(j2); c2.before(c) {
				j, c = j2, c2
			}
		}
		p := h.open.at(i)
		if !c.before(p) {
			break
		}
		*p, *c = *c, *p
		i = j
	}
	x := *h.open.at(n)
	h.open.n = n
	return x
}

// bestFirst expands nodes in order of bound from the root, at most limit of
// them (and at most maxOpen made); it returns the least bound of the nodes
// left open (+Inf when none is: every node closed) and whether a limit
// stopped it. The incumbent prunes as in dfs. It keeps a memo of its own:
// a dominator must be a node expanded here, whose children are open or
// closed here (§14, Lemma 3).
func (s *searcher) bestFirst(limit int64, maxOpen int) (float64, bool) {
	var h bfHeap
	var nodes chunked[bfNode] // the expanded nodes, by id
	h.open.small(64)
	nodes.small(64)
	h.push(bfOpen{lb: s.bound(), parent: -1, j: -1})
	made := 1 // the nodes made: the root and the children pushed
	// The depth-first memo is dropped: its dominators' subtrees may have
	// been left open by the stop, which this phase does not search.
	var mm *memo
	if s.memo != nil {
		mm = newMemo(s.memo.max)
	}
	s.memo = mm
	// The state applied now is the node at[len(at)-1], reached from the
	// root by cands (undos to go back). A node is rebuilt from the deepest
	// of its ancestors on that path: the next node popped is most often a
	// child or near cousin of the last (deeper first at a tie), where a
	// replay from the root cost O(depth) child steps per node — 150–400
	// tasks deep on the MRCP streams. Every node is a function of its
	// path, and undo restores exactly what apply changed, so the state
	// reached is the replay's.
	at := []int32{0}
	var path []int32
	var undos []undoRec
	var cands []cand
	var cs []cand
	// unwind leaves the state at the depth-d ancestor of the current node.
	unwind := func(d int) {
		for len(cands) > d {
			q := len(cands) - 1
			s.undo(&cands[q], undos[q])
			cands, undos = cands[:q], undos[:q]
		}
		at = at[:d+1]
	}
	defer unwind(0) // the searcher's state back at the root
	for expanded := int64(0); ; expanded++ {
		if h.len() == 0 {
			return math.Inf(1), false
		}
		top := h.top().lb
		if s.prune(top) || s.finished {
			return math.Inf(1), false // every open node is no better than the incumbent
		}
		if expanded >= limit || made >= maxOpen {
			return top, true
		}
		if expanded%ctxEvery == 0 && s.ctx.Err() != nil {
			s.stopped = solve.Interrupted
			return top, true
		}
		o := h.pop()
		i := int32(nodes.n)
		nodes.push(bfNode{parent: o.parent, j: o.j, depth: o.depth})
		s.nodes++
		// Walk up from the node to the path applied now (the root is on
		// it; the node itself, new, is not), undo below that ancestor and
		// apply the way down.
		path = path[:0]
		x := i
		for d := int(o.depth); d >= len(at) || at[d] != x; d-- {
			path = append(path, x)
			x = nodes.at(int(x)).parent
		}
		unwind(int(nodes.at(int(x)).depth))
		for q := len(path) - 1; q >= 0; q-- {
			c := s.childOf(int(nodes.at(int(path[q])).j))
			cands = append(cands, c)
			undos = append(undos, s.apply(&cands[len(cands)-1]))
			at = append(at, path[q])
		}
		if mm != nil && s.placed < s.nTasks {
			s.vbuf = s.vector(s.vbuf)
		}
		switch {
		case s.placed == s.nTasks:
			s.leaf()
		case mm != nil && mm.dominated(s, s.vbuf):
			s.dominated++
		default:
			cs = s.children(cs[:0])
			d := o.depth + 1
			for _, c := range cs {
				if !s.prune(c.lb) {
					h.push(bfOpen{lb: s.ceilGrid(c.lb), parent: i, j: int16(c.j), depth: d})
					made++
				}
			}
			if expanded%diveEvery == 0 {
				s.dive()
			}
		}
		if s.plain {
			unwind(0) // the reference: every node replayed from the root
		}
	}
}

// childOf is the current node's child that places job j's next task.
func (s *searcher) childOf(j int) cand {
	k, idx, r, d, _ := s.next(j)
	sl := s.earliest(k)
	start := max(s.slots[k][sl].free, r, s.floor(idx))
	return cand{j: j, k: k, slot: sl, start: start, end: start + d, idx: idx}
}

// diveEvery is how many best-first expansions pass between two dives.
const diveEvery = 512

// DefaultDiveNodesPerTask is Options.DiveNodesPerTask when 0.
const DefaultDiveNodesPerTask = 2

// dive looks for a better incumbent below the current node: a depth-first
// search, children best bound first, of at most s.diveNodes nodes per task
// left. The best-first phase needs better incumbents to close its nodes
// (it rarely reaches a leaf itself), and the nodes of least bound are where
// better schedules lie. The dive's nodes are not searched completely, so it
// neither reads nor fills the memo, and its stop is not the search's: the
// node it starts from stays open in the heap through its children.
func (s *searcher) dive() {
	saved, limit, stopped, openMin := s.memo, s.limit, s.stopped, s.openMin
	s.memo, s.stopped = nil, solve.StatusUnknown
	s.limit = s.nodes + s.diveNodes*int64(s.nTasks-s.placed)
	s.dfs(s.bound())
	s.memo, s.limit, s.stopped, s.openMin = saved, limit, stopped, openMin
}
