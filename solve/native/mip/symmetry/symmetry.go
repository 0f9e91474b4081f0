package symmetry

import (
	"math"
	"sort"

	"github.com/mrbound/mrbound/model"
)

const (
	// DefaultMaxWork is the default budget of refinement work, counted in
	// vertex and edge visits (a few hundred refinements of a model with
	// 100,000 nonzeros).
	DefaultMaxWork = 50_000_000
	// DefaultMaxPerms is the default number of permutations returned.
	DefaultMaxPerms = 64
	// maxSearchNodes bounds the individualisation nodes of one pair search.
	maxSearchNodes = 64
)

// Perm is a permutation of a model's columns: column j maps to Perm[j].
type Perm []int

// Moved returns the columns that p does not fix, in increasing order.
func (p Perm) Moved() []int {
	var out []int
	for j, k := range p {
		if j != k {
			out = append(out, j)
		}
	}
	return out
}

// Options bounds the search.
type Options struct {
	// MaxWork bounds the refinement work (vertex and edge visits); zero
	// means DefaultMaxWork.
	MaxWork int64
	// MaxPerms bounds the permutations returned; zero means
	// DefaultMaxPerms.
	MaxPerms int
	// Order lists the columns in the order in which their pairs are tried
	// (the columns of a colour are paired in this order, colours in the
	// order of their first column); nil means index order.
	Order []int
	// Stop, when not nil, ends the search early once it returns true (a wall
	// deadline); it is asked once per refinement round and pair tried. The
	// permutations found so far are returned, all verified.
	Stop func() bool
}

// Result is what Find established.
type Result struct {
	// Perms are verified automorphisms of the model, each found as the swap
	// of two columns with as many fixed points as the search could keep.
	Perms []Perm
	// Candidates is the number of columns that refinement left in a colour
	// with other columns (0: the model has no column symmetry at all).
	Candidates int
	// Work is the refinement work spent; Exhausted says the budget ran out.
	Work      int64
	Exhausted bool
	// Stopped says Options.Stop ended the search.
	Stopped bool
}

// graph is the model as a coloured bipartite graph: vertices 0..n-1 are the
// columns, n..n+r-1 the rows.
type graph struct {
	m        *model.Model
	n, r     int
	start    []int   // adjacency offsets per vertex
	adj      []int32 // neighbours
	coef     []int32 // coefficient class of each adjacency entry
	rowCols  [][]int // per row: columns, sorted
	rowVals  [][]float64
	initCol  []int32
	numInitC int
}

func newGraph(m *model.Model) *graph {
	n, r := m.NumCols(), m.NumRows()
	g := &graph{m: m, n: n, r: r}
	// Coefficient classes by exact value.
	vals := append([]float64(nil), m.Value...)
	sort.Float64s(vals)
	class := map[float64]int32{}
	for _, v := range vals {
		if _, ok := class[v]; !ok {
			class[v] = int32(len(class))
		}
	}
	deg := make([]int, n+r)
	for j := 0; j < n; j++ {
		for k := m.ColStart[j]; k < m.ColStart[j+1]; k++ {
			deg[j]++
			deg[n+m.RowIndex[k]]++
		}
	}
	g.start = make([]int, n+r+1)
	for v := 0; v < n+r; v++ {
		g.start[v+1] = g.start[v] + deg[v]
	}
	fill := append([]int(nil), g.start[:n+r]...)
	g.adj = make([]int32, g.start[n+r])
	g.coef = make([]int32, g.start[n+r])
	g.rowCols = make([][]int, r)
	g.rowVals = make([][]float64, r)
	for j := 0; j < n; j++ {
		for k := m.ColStart[j]; k < m.ColStart[j+1]; k++ {
			i, c := m.RowIndex[k], class[m.Value[k]]
			g.adj[fill[j]], g.coef[fill[j]] = int32(n+i), c
			fill[j]++
			g.adj[fill[n+i]], g.coef[fill[n+i]] = int32(j), c
			fill[n+i]++
			g.rowCols[i] = append(g.rowCols[i], j)
			g.rowVals[i] = append(g.rowVals[i], m.Value[k])
		}
	}
	// Initial colours: columns by (integrality, bounds, objective), rows by
	// their bounds, numbered in sorted key order so that the numbering
	// depends on the model only.
	type key struct {
		kind        int
		isInt       int
		lo, up, obj float64
		vertex      int
	}
	keys := make([]key, n+r)
	for j := 0; j < n; j++ {
		isInt := 0
		if m.ColType[j].IsInteger() {
			isInt = 1
		}
		keys[j] = key{0, isInt, m.ColLower[j], m.ColUpper[j], m.Obj[j], j}
	}
	for i := 0; i < r; i++ {
		keys[n+i] = key{1, 0, m.RowLower[i], m.RowUpper[i], 0, n + i}
	}
	less := func(a, b key) bool {
		if a.kind != b.kind {
			return a.kind < b.kind
		}
		if a.isInt != b.isInt {
			return a.isInt < b.isInt
		}
		if a.lo != b.lo {
			return a.lo < b.lo
		}
		if a.up != b.up {
			return a.up < b.up
		}
		return a.obj < b.obj
	}
	sorted := append([]key(nil), keys...)
	sort.SliceStable(sorted, func(a, b int) bool { return less(sorted[a], sorted[b]) })
	g.initCol = make([]int32, n+r)
	c := int32(-1)
	for k, e := range sorted {
		if k == 0 || less(sorted[k-1], e) {
			c++
		}
		g.initCol[e.vertex] = c
	}
	g.numInitC = int(c) + 1
	return g
}

// refiner holds the scratch space of colour refinement and the work count.
type refiner struct {
	g       *graph
	work    int64
	maxWork int64
	stop    func() bool
	stopped bool     // stop returned true
	sig     []uint64 // per adjacency entry: neighbour colour << 32 | coef class
	order   []int32
}

// partition is a colouring with its number of colours.
type partition struct {
	col []int32
	k   int
}

func (p partition) clone() partition {
	return partition{append([]int32(nil), p.col...), p.k}
}

func (f *refiner) exhausted() bool {
	if f.work > f.maxWork || f.stopped {
		return true
	}
	if f.stop != nil && f.stop() {
		f.stopped = true
	}
	return f.stopped
}

// refine splits colours until every vertex of a colour sees the same
// multiset of (neighbour colour, coefficient) pairs. Colours are renumbered
// by sorting (old colour, signature), so equal inputs up to a relabelling of
// the vertices give equal outputs up to the same relabelling.
func (f *refiner) refine(p *partition) {
	g := f.g
	nv := g.n + g.r
	if f.sig == nil {
		f.sig = make([]uint64, len(g.adj))
		f.order = make([]int32, nv)
	}
	for !f.exhausted() {
		f.work += int64(len(g.adj) + nv)
		for v := 0; v < nv; v++ {
			s := f.sig[g.start[v]:g.start[v+1]]
			for k := range s {
				s[k] = uint64(p.col[g.adj[g.start[v]+k]])<<32 | uint64(g.coef[g.start[v]+k])
			}
			sort.Slice(s, func(a, b int) bool { return s[a] < s[b] })
			f.order[v] = int32(v)
		}
		cmp := func(a, b int32) int {
			if p.col[a] != p.col[b] {
				if p.col[a] < p.col[b] {
					return -1
				}
				return 1
			}
			sa := f.sig[g.start[a]:g.start[a+1]]
			sb := f.sig[g.start[b]:g.start[b+1]]
			for k := 0; k < len(sa) && k < len(sb); k++ {
				if sa[k] != sb[k] {
					if sa[k] < sb[k] {
						return -1
					}
					return 1
				}
			}
			return len(sa) - len(sb)
		}
		sort.Slice(f.order, func(a, b int) bool {
			if c := cmp(f.order[a], f.order[b]); c != 0 {
				return c < 0
			}
			return f.order[a] < f.order[b]
		})
		next := make([]int32, nv)
		c := int32(0)
		for k, v := range f.order {
			if k > 0 && cmp(f.order[k-1], v) != 0 {
				c++
			}
			next[v] = c
		}
		k := int(c) + 1
		if k == p.k {
			return
		}
		p.col, p.k = next, k
	}
}

// individualise gives vertex v a colour of its own and refines.
func (f *refiner) individualise(p *partition, v int) {
	p.col[v] = int32(p.k)
	p.k++
	f.refine(p)
}

// sameShape reports whether a and b have the same number of vertices in
// every colour.
func sameShape(a, b partition) bool {
	if a.k != b.k {
		return false
	}
	ca := make([]int, a.k)
	for _, c := range a.col {
		ca[c]++
	}
	for _, c := range b.col {
		if int(c) >= len(ca) {
			return false
		}
		ca[c]--
	}
	for _, v := range ca {
		if v != 0 {
			return false
		}
	}
	return true
}

// Find returns verified automorphisms of m that swap pairs of columns of the
// same refined colour.
func Find(m *model.Model, opt Options) (res Result) {
	if opt.MaxWork <= 0 {
		opt.MaxWork = DefaultMaxWork
	}
	if opt.MaxPerms <= 0 {
		opt.MaxPerms = DefaultMaxPerms
	}
	n := m.NumCols()
	if n == 0 {
		return res
	}
	g := newGraph(m)
	f := &refiner{g: g, maxWork: opt.MaxWork, stop: opt.Stop}
	base := partition{append([]int32(nil), g.initCol...), g.numInitC}
	f.refine(&base)
	defer func() { res.Work, res.Exhausted, res.Stopped = f.work, f.work > f.maxWork, f.stopped }()
	if f.exhausted() {
		return res
	}
	order := opt.Order
	if order == nil {
		order = make([]int, n)
		for j := range order {
			order[j] = j
		}
	}
	// Column colours with more than one column, in the order of their first
	// column in order; their columns in order.
	cells := map[int32][]int{}
	var cellOrder []int32
	for _, j := range order {
		c := base.col[j]
		if _, ok := cells[c]; !ok {
			cellOrder = append(cellOrder, c)
		}
		cells[c] = append(cells[c], j)
	}
	for _, c := range cellOrder {
		if len(cells[c]) > 1 {
			res.Candidates += len(cells[c])
		}
	}
	if res.Candidates == 0 {
		return res
	}
	swapped := func(a, b int) bool {
		for _, p := range res.Perms {
			if p[a] == b && p[b] == a {
				return true
			}
		}
		return false
	}
	for _, c := range cellOrder {
		cell := cells[c]
		for x := 0; x < len(cell); x++ {
			for y := x + 1; y < len(cell); y++ {
				if f.exhausted() || len(res.Perms) >= opt.MaxPerms {
					return res
				}
				a, b := cell[x], cell[y]
				if swapped(a, b) {
					continue
				}
				if p := f.swap(base, a, b); p != nil && !contains(res.Perms, p) {
					res.Perms = append(res.Perms, p)
				}
			}
		}
	}
	return res
}

func contains(ps []Perm, p Perm) bool {
	for _, q := range ps {
		same := true
		for j := range q {
			if q[j] != p[j] {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	return false
}

// swap searches for an automorphism that maps a to b and b to a.
func (f *refiner) swap(base partition, a, b int) Perm {
	pa, pb := base.clone(), base.clone()
	f.individualise(&pa, a)
	f.individualise(&pb, b)
	if !sameShape(pa, pb) {
		return nil
	}
	f.individualise(&pa, b)
	f.individualise(&pb, a)
	if !sameShape(pa, pb) {
		return nil
	}
	nodes := 0
	return f.search(pa, pb, &nodes)
}

// search extends the correspondence of the equal-shaped partitions pa and pb
// until both are discrete, individualising in pa the first vertex of the
// first non-singleton colour and trying in pb the same vertex first (to keep
// fixed points), then the others of that colour.
func (f *refiner) search(pa, pb partition, nodes *int) Perm {
	nv := len(pa.col)
	if pa.k == nv {
		return f.verify(pa, pb)
	}
	*nodes++
	if *nodes > maxSearchNodes || f.exhausted() {
		return nil
	}
	size := make([]int, pa.k)
	for _, c := range pa.col {
		size[c]++
	}
	target := int32(-1)
	for c, s := range size {
		if s > 1 {
			target = int32(c)
			break
		}
	}
	u := -1
	for v, c := range pa.col {
		if c == target {
			u = v
			break
		}
	}
	cands := []int{}
	if pb.col[u] == target {
		cands = append(cands, u)
	}
	for v, c := range pb.col {
		if c == target && v != u {
			cands = append(cands, v)
		}
	}
	for _, v := range cands {
		na, nb := pa.clone(), pb.clone()
		f.individualise(&na, u)
		f.individualise(&nb, v)
		if !sameShape(na, nb) {
			continue
		}
		if p := f.search(na, nb, nodes); p != nil {
			return p
		}
		if *nodes > maxSearchNodes || f.exhausted() {
			return nil
		}
	}
	return nil
}

// verify turns two discrete partitions into a vertex map and checks that it
// is an automorphism of the model; it returns the column permutation or nil.
func (f *refiner) verify(pa, pb partition) Perm {
	g := f.g
	nv := g.n + g.r
	byColour := make([]int, nv)
	for v, c := range pb.col {
		byColour[c] = v
	}
	pi := make([]int, nv)
	for v, c := range pa.col {
		pi[v] = byColour[c]
	}
	m := g.m
	cols := make(Perm, g.n)
	for j := 0; j < g.n; j++ {
		k := pi[j]
		if k >= g.n || m.ColType[j].IsInteger() != m.ColType[k].IsInteger() ||
			!same(m.ColLower[j], m.ColLower[k]) || !same(m.ColUpper[j], m.ColUpper[k]) || m.Obj[j] != m.Obj[k] {
			return nil
		}
		cols[j] = k
	}
	type ent struct {
		col int
		val float64
	}
	var mapped []ent
	for i := 0; i < g.r; i++ {
		k := pi[g.n+i] - g.n
		if k < 0 || !same(m.RowLower[i], m.RowLower[k]) || !same(m.RowUpper[i], m.RowUpper[k]) ||
			len(g.rowCols[i]) != len(g.rowCols[k]) {
			return nil
		}
		mapped = mapped[:0]
		for t, j := range g.rowCols[i] {
			mapped = append(mapped, ent{cols[j], g.rowVals[i][t]})
		}
		sort.Slice(mapped, func(a, b int) bool { return mapped[a].col < mapped[b].col })
		for t, e := range mapped {
			if g.rowCols[k][t] != e.col || g.rowVals[k][t] != e.val {
				return nil
			}
		}
	}
	return cols
}

// same compares bounds, infinities included.
func same(a, b float64) bool {
	return a == b || (math.IsInf(a, 1) && math.IsInf(b, 1)) || (math.IsInf(a, -1) && math.IsInf(b, -1))
}
