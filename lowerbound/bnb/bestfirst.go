package bnb

import (
	"math"

	"github.com/mrbound/mrbound/solve"
)

// bfNode is a node of the best-first phase, kept as the job whose next
// task its parent's child placed: applying the jobs from the root rebuilds
// the node (every child is a function of its parent's state).
type bfNode struct {
	parent int32
	j      int16
	depth  int16
}

// bfOpen is an open node in the heap, with its keys: comparing them there
// reads no bfNode (a random access into millions of them), and bfNode
// keeps 8 bytes for the nodes closed.
type bfOpen struct {
	lb    float64
	id    int32
	depth int16
}

// bfHeap is a binary min-heap of open nodes by bound, deeper first at a
// tie: its sifts are container/heap's, step for step (TestHeapOrder), so
// that nodes of equal keys come out in the same order, without the
// interface calls and a boxed index per push.
type bfHeap struct {
	nodes []bfNode
	open  []bfOpen
}

func (x *bfOpen) before(y *bfOpen) bool {
	if x.lb != y.lb {
		return x.lb < y.lb
	}
	return x.depth > y.depth
}

func (h *bfHeap) push(o bfOpen) {
	h.open = append(h.open, o)
	for j := len(h.open) - 1; j > 0; {
		i := (j - 1) / 2
		if !h.open[j].before(&h.open[i]) {
			break
		}
		h.open[i], h.open[j] = h.open[j], h.open[i]
		j = i
	}
}

func (h *bfHeap) pop() bfOpen {
	n := len(h.open) - 1
	h.open[0], h.open[n] = h.open[n], h.open[0]
	for i := 0; ; {
		j := 2*i + 1
		if j >= n {
			break
		}
		if j2 := j + 1; j2 < n && h.open[j2].before(&h.open[j]) {
			j = j2
		}
		if !h.open[j].before(&h.open[i]) {
			break
		}
		h.open[i], h.open[j] = h.open[j], h.open[i]
		i = j
	}
	x := h.open[n]
	h.open = h.open[:n]
	return x
}

// bestFirst expands nodes in order of bound from the root, at most limit of
// them (and at most maxOpen made); it returns the least bound of the nodes
// left open (+Inf when none is: every node closed) and whether a limit
// stopped it. The incumbent prunes as in dfs. It keeps a memo of its own:
// a dominator must be a node expanded here, whose children are open or
// closed here (§14, Lemma 3).
func (s *searcher) bestFirst(limit int64, maxOpen int) (float64, bool) {
	// The nodes made are at most maxOpen and a last expansion's children
	// (one per job), or the root and every expansion's: made at that size
	// at once (up to bfReserve), the arrays are never copied as they grow
	// (a tenth of the search's time on the MRCP streams), and the pages
	// untouched cost nothing.
	made := int64(maxOpen) + int64(len(s.jobs))
	if n := int64(len(s.jobs)); n > 0 && limit < made/n {
		// A caller's limit may be spent already (the improvement phase's
		// dives count beyond its budget): then only the root is made.
		made = 1 + max(limit, 0)*n
	}
	made = min(made, bfReserve)
	h := &bfHeap{nodes: make([]bfNode, 1, made), open: make([]bfOpen, 1, made)}
	h.nodes[0], h.open[0] = bfNode{parent: -1, j: -1}, bfOpen{lb: s.bound()}
	// The depth-first memo is dropped: its dominators' subtrees may have
	// been left open by the stop, which this phase does not search.
	var mm *memo
	if s.memo != nil {
		mm = newMemo(s.memo.width, s.memo.max)
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
		if len(h.open) == 0 {
			return math.Inf(1), false
		}
		top := h.open[0]
		if s.prune(top.lb) || s.finished {
			return math.Inf(1), false // every open node is no better than the incumbent
		}
		if expanded >= limit || len(h.nodes) >= maxOpen {
			return top.lb, true
		}
		if expanded%ctxEvery == 0 && s.ctx.Err() != nil {
			s.stopped = solve.Interrupted
			return top.lb, true
		}
		i := h.pop().id
		s.nodes++
		// Walk up from the node to the path applied now (the root is on
		// it), undo below that ancestor and apply the way down.
		path = path[:0]
		x := i
		for d := int(h.nodes[x].depth); d >= len(at) || at[d] != x; d-- {
			path = append(path, x)
			x = h.nodes[x].parent
		}
		unwind(int(h.nodes[x].depth))
		for q := len(path) - 1; q >= 0; q-- {
			c := s.childOf(int(h.nodes[path[q]].j))
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
			for _, c := range cs {
				if !s.prune(c.lb) {
					d := h.nodes[i].depth + 1
					h.nodes = append(h.nodes, bfNode{parent: i, j: int16(c.j), depth: d})
					h.push(bfOpen{lb: c.lb, id: int32(len(h.nodes) - 1), depth: d})
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

// bfReserve caps the nodes the best-first arrays are made for at once
// (96 MB of address space); beyond, they grow by append.
const bfReserve = 1 << 22

// diveEvery is how many best-first expansions pass between two dives.
const diveEvery = 512

// dive looks for a better incumbent below the current node: a depth-first
// search, children best bound first, of at most twice as many nodes as tasks
// are left. The best-first phase needs better incumbents to close its nodes
// (it rarely reaches a leaf itself), and the nodes of least bound are where
// better schedules lie. The dive's nodes are not searched completely, so it
// neither reads nor fills the memo, and its stop is not the search's: the
// node it starts from stays open in the heap through its children.
func (s *searcher) dive() {
	saved, limit, stopped, openMin := s.memo, s.limit, s.stopped, s.openMin
	s.memo, s.stopped = nil, solve.StatusUnknown
	s.limit = s.nodes + 2*int64(s.nTasks-s.placed)
	s.dfs(s.bound())
	s.memo, s.limit, s.stopped, s.openMin = saved, limit, stopped, openMin
}
