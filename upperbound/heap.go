package upperbound

// indexHeap is a binary min-heap of job ids 0..n−1 under less, each id at
// most once, with its position kept so that a changed key is fixed in
// O(log n).
type indexHeap struct {
	ids  []int
	pos  []int // pos[j] is j's index in ids, −1 when absent
	less func(a, b int) bool
}

func newIndexHeap(n int, less func(a, b int) bool) *indexHeap {
	h := &indexHeap{pos: make([]int, n), less: less}
	for j := range h.pos {
		h.pos[j] = -1
	}
	return h
}

func (h *indexHeap) Len() int             { return len(h.ids) }
func (h *indexHeap) has(j int) bool       { return h.pos[j] >= 0 }
func (h *indexHeap) top() int             { return h.ids[0] }
func (h *indexHeap) at(i int) int         { return h.ids[i] }
func (h *indexHeap) lessAt(a, b int) bool { return h.less(h.ids[a], h.ids[b]) }

func (h *indexHeap) swap(a, b int) {
	h.ids[a], h.ids[b] = h.ids[b], h.ids[a]
	h.pos[h.ids[a]], h.pos[h.ids[b]] = a, b
}

func (h *indexHeap) push(j int) {
	if h.has(j) {
		return
	}
	h.ids = append(h.ids, j)
	h.pos[j] = len(h.ids) - 1
	h.up(len(h.ids) - 1)
}

func (h *indexHeap) pop() int { j := h.ids[0]; h.remove(j); return j }

func (h *indexHeap) remove(j int) {
	i := h.pos[j]
	if i < 0 {
		return
	}
	last := len(h.ids) - 1
	h.swap(i, last)
	h.ids = h.ids[:last]
	h.pos[j] = -1
	if i < last {
		h.down(i)
		h.up(i)
	}
}

// fix restores the order after j's key changed (no-op when j is absent).
func (h *indexHeap) fix(j int) {
	if i := h.pos[j]; i >= 0 {
		h.down(i)
		h.up(i)
	}
}

func (h *indexHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.lessAt(i, p) {
			return
		}
		h.swap(i, p)
		i = p
	}
}

func (h *indexHeap) down(i int) {
	n := len(h.ids)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && h.lessAt(r, l) {
			m = r
		}
		if !h.lessAt(m, i) {
			return
		}
		h.swap(i, m)
		i = m
	}
}
