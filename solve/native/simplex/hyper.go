package simplex

// Hyper-sparse FTRAN and BTRAN.
//
// When the right-hand side has few nonzeros (a unit vector, a column of A, a
// row of B⁻¹), the result usually has few too, and a solve that loops over
// all m pivots wastes most of its time on zeros. The sparse solves below
// first compute the nonzero pattern of each stage's result by a depth-first
// search over the structure of the factor (the reach of the right-hand
// side's pattern, as in Gilbert and Peierls' sparse triangular solve), then
// solve over that pattern only, in a topological order of the search. A
// search that reaches more than hyperDensity·m nodes is abandoned for the
// dense loop of that stage: the result is dense anyway.

// hyperDensity is the predicted result density (fraction of m) above which
// a sparse solve switches to the dense loop.
const hyperDensity = 0.10

// svec is a vector of length m kept densely in val together with the list
// idx of the indices of its nonzeros: every index whose value is nonzero is
// listed (idx may also list a few zeros, and lists no index twice).
type svec struct {
	val []float64
	idx []int
	// density is a running average of the density (nonzeros / m) of the
	// results of the solves made with this vector: when it exceeds
	// hyperDensity the next solve goes straight to the dense loops.
	density float64
}

// densityMemory is the weight of the past in svec.density.
const densityMemory = 0.8

// record updates v.density with the density of its current value.
func (v *svec) record() {
	if m := len(v.val); m > 0 {
		v.density = densityMemory*v.density + (1-densityMemory)*float64(len(v.idx))/float64(m)
	}
}

func newSvec(m int) *svec { return &svec{val: make([]float64, m), idx: make([]int, 0, 16)} }

// reset zeroes v in time proportional to its listed nonzeros; the density
// history stays.
func (v *svec) reset() {
	if len(v.idx) > len(v.val)/4 {
		clear(v.val)
	} else {
		for _, i := range v.idx {
			v.val[i] = 0
		}
	}
	v.idx = v.idx[:0]
}

// set lists i as a nonzero (i must not be listed yet) and sets its value.
func (v *svec) set(i int, x float64) {
	v.val[i] = x
	v.idx = append(v.idx, i)
}

// rescan rebuilds idx from val by a dense scan.
func (v *svec) rescan() {
	v.idx = v.idx[:0]
	for i, x := range v.val {
		if x != 0 {
			v.idx = append(v.idx, i)
		}
	}
}

// hyperLimit is the number of reached nodes beyond which a stage is solved
// densely.
func (f *factor) hyperLimit() int { return int(hyperDensity * float64(f.m)) }

// buildHyper builds the structures the sparse solves need after a
// factorisation: the position of each pivot row, the L eta of each pivot
// row and a row-wise copy of L (for BTRAN).
func (f *factor) buildHyper() {
	m := f.m
	f.posOfRow = resizeInt(f.posOfRow, m)
	for p := 0; p < m; p++ {
		f.posOfRow[f.rowOf[p]] = p
	}
	f.lEtaOf = resizeInt(f.lEtaOf, m)
	for i := range f.lEtaOf {
		f.lEtaOf[i] = -1
	}
	for k, p := range f.lpiv {
		f.lEtaOf[p] = k
	}
	// Lᵀ by source row: entry (i → lpiv[k], lval) for every lidx = i of eta k.
	f.ltStart = resizeInt(f.ltStart, m+1)
	clear(f.ltStart)
	for _, i := range f.lidx {
		f.ltStart[i+1]++
	}
	for i := 0; i < m; i++ {
		f.ltStart[i+1] += f.ltStart[i]
	}
	nl := len(f.lidx)
	f.ltIdx = resizeInt(f.ltIdx, nl)
	f.ltVal = resizeFloat(f.ltVal, nl)
	next := resizeInt(f.dfsNext, m)
	copy(next, f.ltStart[:m])
	for k, p := range f.lpiv {
		for t := f.lstart[k]; t < f.lstart[k+1]; t++ {
			i := f.lidx[t]
			f.ltIdx[next[i]] = p
			f.ltVal[next[i]] = f.lval[t]
			next[i]++
		}
	}
	f.dfsNext = next
	if len(f.mark) < m {
		f.mark = make([]int, m)
		f.stamp = 0
	}
	f.dfsStack = resizeInt(f.dfsStack, m)
	f.dfsNext = resizeInt(f.dfsNext, m)
}

// Graphs the depth-first search walks.
const (
	graphL  = iota // row p → rows of the L eta pivoting on p
	graphLT        // row i → pivot rows of the L etas with an entry in row i
	graphU         // row r → rows of U's column at the position pivoting on r
	graphUT        // position p → positions of U's row at p's pivot row
)

// newStamp starts a fresh marking of f.mark.
func (f *factor) newStamp() int {
	f.stamp++
	if f.stamp == int(^uint(0)>>1) {
		clear(f.mark)
		f.stamp = 1
	}
	return f.stamp
}

// reach lists in f.topo the nodes reachable in graph g from seeds, in a
// topological order (every node before the nodes it points to), and marks
// them with a new stamp, which it returns. It reports false (and f.topo is
// unusable) once more than limit nodes are reached.
func (f *factor) reach(g int, seeds []int, limit int) (int, bool) {
	st := f.newStamp()
	mark, stack, next := f.mark, f.dfsStack, f.dfsNext
	post := f.dfsPost[:0]
	count := 0
	for _, s := range seeds {
		if mark[s] == st {
			continue
		}
		mark[s] = st
		count++
		if count > limit {
			f.dfsPost = post
			return st, false
		}
		top := 0
		stack[0] = s
		next[0] = 0
		for top >= 0 {
			u := stack[top]
			t := next[top]
			child := -1
			switch g {
			case graphL:
				if k := f.lEtaOf[u]; k >= 0 {
					for a, b := f.lstart[k]+t, f.lstart[k+1]; a < b; a++ {
						t++
						if w := f.lidx[a]; mark[w] != st {
							child = w
							break
						}
					}
				}
			case graphLT:
				for a, b := f.ltStart[u]+t, f.ltStart[u+1]; a < b; a++ {
					t++
					if w := f.ltIdx[a]; mark[w] != st {
						child = w
						break
					}
				}
			case graphU:
				col := f.ucol[f.posOfRow[u]]
				for ; t < len(col); t++ {
					if w := col[t].row; mark[w] != st {
						child = w
						t++
						break
					}
				}
			case graphUT:
				row := f.urow[f.rowOf[u]]
				for ; t < len(row); t++ {
					if w := row[t].row; mark[w] != st {
						child = w
						t++
						break
					}
				}
			}
			next[top] = t
			if child < 0 {
				post = append(post, u)
				top--
				continue
			}
			mark[child] = st
			count++
			if count > limit {
				f.dfsPost = post
				return st, false
			}
			top++
			stack[top] = child
			next[top] = 0
		}
	}
	// Reverse postorder is topological.
	for a, b := 0, len(post)-1; a < b; a, b = a+1, b-1 {
		post[a], post[b] = post[b], post[a]
	}
	f.dfsPost = post
	return st, true
}

// ftranS is ftran on a sparse vector: v (indexed by row) becomes B⁻¹v
// (indexed by position), with its nonzero list.
func (f *factor) ftranS(v *svec) { f.solveFS(v, false) }

// ftranSpikeS is ftranS that also saves the spike for the next update.
func (f *factor) ftranSpikeS(v *svec) { f.solveFS(v, true) }

func (f *factor) solveFS(v *svec, save bool) {
	f.solveFS1(v, save)
	v.record()
}

func (f *factor) solveFS1(v *svec, save bool) {
	limit := f.hyperLimit()
	b := v.val
	if len(v.idx) > limit || v.density > hyperDensity {
		f.solveF(b, save)
		v.rescan()
		return
	}
	// L etas over the reach of the right-hand side.
	st, ok := f.reach(graphL, v.idx, limit)
	if !ok {
		f.solveF(b, save)
		v.rescan()
		return
	}
	pat := append(f.pat[:0], f.dfsPost...)
	for _, p := range f.dfsPost {
		k := f.lEtaOf[p]
		if k < 0 {
			continue
		}
		x := b[p]
		if x == 0 {
			continue
		}
		for t := f.lstart[k]; t < f.lstart[k+1]; t++ {
			b[f.lidx[t]] -= f.lval[t] * x
		}
	}
	// R etas (at most refactorEvery of them): each may add its pivot row.
	mark := f.mark
	for k, p := range f.rpiv {
		x := b[p]
		for t := f.rstart[k]; t < f.rstart[k+1]; t++ {
			x -= f.rval[t] * b[f.ridx[t]]
		}
		b[p] = x
		if x != 0 && mark[p] != st {
			mark[p] = st
			pat = append(pat, p)
		}
	}
	f.pat = pat
	if save {
		f.saveSpike(b, pat)
	}
	// U over the reach of the pattern.
	if len(pat) > limit {
		f.solveU(b)
		v.rescan()
		return
	}
	if _, ok := f.reach(graphU, pat, limit); !ok {
		f.solveU(b)
		v.rescan()
		return
	}
	x := f.work
	topo := f.dfsPost
	for _, r := range topo {
		p := f.posOfRow[r]
		y := b[r]
		if y == 0 {
			x[p] = 0
			continue
		}
		y /= f.diag[p]
		x[p] = y
		for _, e := range f.ucol[p] {
			b[e.row] -= e.val * y
		}
	}
	for _, r := range topo {
		b[r] = 0
	}
	f.nHyper++
	v.idx = v.idx[:0]
	for _, r := range topo {
		p := f.posOfRow[r]
		if y := x[p]; y != 0 {
			b[p] = y
			v.idx = append(v.idx, p)
		}
	}
}

// saveSpike stores b (nonzero only on pat) as the spike of the next update.
func (f *factor) saveSpike(b []float64, pat []int) {
	for _, i := range f.spikeIdx {
		f.spike[i] = 0
	}
	f.spikeIdx = f.spikeIdx[:0]
	for _, i := range pat {
		if b[i] != 0 {
			f.spike[i] = b[i]
			f.spikeIdx = append(f.spikeIdx, i)
		}
	}
	f.hasSpike = true
}

// btranS is btran on a sparse vector: v (indexed by position) becomes
// B⁻ᵀv (indexed by row), with its nonzero list.
func (f *factor) btranS(v *svec) {
	f.btranS1(v)
	v.record()
}

func (f *factor) btranS1(v *svec) {
	limit := f.hyperLimit()
	c := v.val
	if len(v.idx) > limit || v.density > hyperDensity {
		f.btran(c)
		v.rescan()
		return
	}
	// Uᵀ over the reach of the right-hand side.
	if _, ok := f.reach(graphUT, v.idx, limit); !ok {
		f.btran(c)
		v.rescan()
		return
	}
	y := f.work
	topo := f.dfsPost
	for _, p := range topo {
		w := c[p]
		r := f.rowOf[p]
		if w == 0 {
			y[r] = 0
			continue
		}
		w /= f.diag[p]
		y[r] = w
		for _, e := range f.urow[r] {
			c[e.row] -= e.val * w
		}
	}
	for _, p := range topo {
		c[p] = 0
	}
	st := f.newStamp()
	mark := f.mark
	pat := f.pat[:0]
	for _, p := range topo {
		r := f.rowOf[p]
		if w := y[r]; w != 0 {
			c[r] = w
			mark[r] = st
			pat = append(pat, r)
		}
	}
	// Rᵀ etas in reverse: each may add nonzeros.
	for k := len(f.rpiv) - 1; k >= 0; k-- {
		w := c[f.rpiv[k]]
		if w == 0 {
			continue
		}
		for t := f.rstart[k]; t < f.rstart[k+1]; t++ {
			i := f.ridx[t]
			c[i] -= f.rval[t] * w
			if mark[i] != st {
				mark[i] = st
				pat = append(pat, i)
			}
		}
	}
	f.pat = pat
	// Lᵀ over the reach of the pattern.
	if len(pat) > limit {
		f.solveLT(c)
		v.rescan()
		return
	}
	if _, ok := f.reach(graphLT, pat, limit); !ok {
		f.solveLT(c)
		v.rescan()
		return
	}
	for _, i := range f.dfsPost {
		w := c[i]
		if w == 0 {
			continue
		}
		for t := f.ltStart[i]; t < f.ltStart[i+1]; t++ {
			c[f.ltIdx[t]] -= f.ltVal[t] * w
		}
	}
	f.nHyper++
	v.idx = v.idx[:0]
	for _, i := range f.dfsPost {
		if c[i] != 0 {
			v.idx = append(v.idx, i)
		}
	}
}
