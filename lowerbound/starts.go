package lowerbound

import "math"

// The start-time terms of the interval Lagrangian (docs/bounds.md §4c).
//
// The relaxation of §4b lets a job's work spread over any intervals at its
// parallelism cap and charges its completion through the mean busy time: a
// job may do part of its work early in a cheap interval and the rest late,
// and be charged the average. Here a job's term is instead a lower bound on
//
//	V_j(λ) = min over schedules of job j alone of  C_j − a_j + Σ_{k,t} λ_kt·u_jkt,
//
// u_jkt its weighted slot-time of kind k in interval t, that charges C_j
// itself: the maps are fluid at the cap inside [a_j, E] (E = lastMapEnd_j ≥
// a_j + M_j), the reduces start at or after E and end by C_j ≥ E + R_j —
// each in one piece, from a common start, when the job has no more reduces
// than there are reduce slots; fluid at the cap otherwise. The term of §4b
// is also a lower bound on V_j(λ), so each job takes the larger of the two.

// startOffsets are the breakpoint offsets, from the job's head a_j + M_j,
// of the candidate map ends e_0 < e_1 < … < e_K: E in [e_k, e_{k+1}) costs at
// least mapCost(e_{k+1}) + redCost(e_k), and E ≥ e_K at least redCost(e_K)
// (the map work may then lie past the grid, unpriced). Any increasing offsets
// give a valid bound; more of them only cost time.
var startOffsets = [...]int{0, 1, 3, 7, 15, 31}

// startSub is one job's data for its start-time term.
type startSub struct {
	a float64
	// head is the breakpoint index of a_j + M_j, the least lastMapEnd_j.
	head int
	// mp and rp are the job's fluid map and reduce work (nil without).
	mp, rp *lagPiece
	// nh is the number of reduces times h, the least weight of a reduce
	// slot (a reduce on a slot of group g uses v_g ≥ h per ms); q is the
	// shortest reduce duration (pmin) and r the tail R_j.
	nh, q, r float64
	row      int
	// fluid: more reduces than reduce slots, so that a common start would
	// run more of them at once than can run; the reduce work is then
	// placed fluidly at the cap (redFluid) instead of in pieces (redPieces).
	fluid bool
}

// newStartSubs builds every job's start-time data in lm's weighting.
func (lm *lagModel) newStartSubs() []startSub {
	pr := lm.pr
	out := make([]startSub, len(pr.jobs))
	for k := range 2 {
		for i := range lm.pieces[k] {
			pc := &lm.pieces[k][i]
			if k == kMap {
				out[pc.job].mp = pc
			} else {
				out[pc.job].rp = pc
			}
		}
	}
	h := math.Inf(1)
	for g, ok := range pr.eligible[kRed] {
		if ok {
			h = math.Min(h, pr.weights[lm.v][kRed][g])
		}
	}
	for j := range pr.jobs {
		ji := &pr.jobs[j]
		s := &out[j]
		s.a, s.r = ji.a, ji.tail
		s.row = min(kRed, lm.nrow-1)
		s.head = searchBreak(lm.bp, ji.a+ji.head)
		red := pr.p.Jobs[j].Reduces
		if len(red) > 0 {
			s.q = math.Inf(1)
			for i := range red {
				s.q = math.Min(s.q, pr.pmin(&red[i], kRed))
			}
			s.nh = float64(len(red)) * h
			s.fluid = len(red) > pr.slots[kRed] && s.rp != nil
		}
	}
	return out
}

// searchBreak is the index of the first breakpoint ≥ x, or len(bp)−1 when
// there is none (a head past the grid's end is then taken at the end, which
// only lowers the term).
func searchBreak(bp []float64, x float64) int {
	lo, hi := 0, len(bp)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if bp[mid] < x {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// startScratch is reusable scratch space of startMin.
type startScratch struct {
	ends  [len(startOffsets) - 1]int
	costs [len(startOffsets) - 1]float64
	heap  []lagItem
}

// startArg locates a start-time term's minimiser: the bucket k of the map
// end, and the common reduce start (pieces) or the last interval t of the
// reduce fill (fluid).
type startArg struct {
	k  int
	at float64
	t  int
}

// startMin returns job s's start-time term, a lower bound on V_j(λ) (min
// C_j − a_j + priced usage), given the map row's prices lamM, the reduce
// row's lamR and its cumulative sums cumR (cumR[t] = Σ_{u<t} λ_u·ℓ_u), and
// where it is attained.
func (lm *lagModel) startMin(s *startSub, lamM, lamR, cumR []float64, sc *startScratch) (float64, startArg) {
	bp := lm.bp
	nInt := len(bp) - 1
	K := len(startOffsets) - 1
	for i := range K {
		sc.ends[i] = min(s.head+startOffsets[i+1], nInt)
	}
	if s.mp != nil {
		sc.heap = lm.mapCosts(s.mp, lamM, sc.ends[:], sc.costs[:], sc.heap)
	} else {
		clear(sc.costs[:])
	}
	val, arg := math.Inf(1), startArg{}
	red := math.Inf(-1) // the reduce side at the last bucket computed
	for i := 0; i <= K; i++ {
		mc := 0.0 // E ≥ e_K: the map work may lie past the grid, unpriced
		if i < K {
			mc = sc.costs[i]
		}
		from := min(s.head+startOffsets[i], nInt)
		e := bp[from]
		// The reduce side costs at least e + max(q, R) − a, and at least
		// what it cost from an earlier end (it can only rise with e): skip
		// a bucket that cannot win.
		if mc+math.Max(red, e+math.Max(s.q, s.r)-s.a) >= val {
			continue
		}
		var rc, at float64
		last := 0
		if s.fluid {
			rc, last = lm.redFluid(s, from, lamR, &sc.heap)
		} else {
			rc, at = lm.redPieces(s, e, lamR, cumR)
		}
		red = rc
		if mc+rc < val {
			val, arg = mc+rc, startArg{k: i, at: at, t: last}
		}
	}
	return val, arg
}

// startUse adds to useM and useR the usage of the minimiser arg of s's
// start-time term under the prices lamM and lamR (the subgradient's
// direction): the map fill of bucket k (none for the last bucket, whose maps
// may lie past the grid), and the reduces at their common start, or their
// fill up to interval t.
func (lm *lagModel) startUse(s *startSub, arg startArg, lamM, lamR, useM, useR []float64, sc *startScratch) {
	bp := lm.bp
	nInt := len(bp) - 1
	K := len(startOffsets) - 1
	var c [1]float64
	if s.mp != nil && arg.k < K {
		end := []int{min(s.head+startOffsets[arg.k+1], nInt)}
		sc.heap = lm.mapCosts(s.mp, lamM, end, c[:], sc.heap)
		addFill(sc.heap, s.mp.w, useM)
	}
	switch {
	case s.nh == 0:
	case s.fluid:
		// The fill is recomputed as mapCosts does it, from the bucket's
		// start to the last interval the minimum used.
		from := min(s.head+startOffsets[arg.k], nInt)
		if arg.t >= from && arg.t < nInt {
			fp := *s.rp
			fp.first = from
			sc.heap = lm.mapCosts(&fp, lamR, []int{arg.t + 1}, c[:], sc.heap)
			addFill(sc.heap, fp.w, useR)
		}
	default:
		lo, hi := arg.at, arg.at+s.q
		for t := max(0, searchBreak(bp, lo)-1); t < nInt && bp[t] < hi; t++ {
			if ov := math.Min(hi, bp[t+1]) - math.Max(lo, bp[t]); ov > 0 {
				useR[t] += s.nh * ov
			}
		}
	}
}

// addFill adds to use the fill of w held in h by mapCosts: every item whole
// but the dearest, h[0], which takes what is left (nothing when h cannot
// cover w).
func addFill(h []lagItem, w float64, use []float64) {
	room := 0.0
	for _, it := range h {
		room += it.room
	}
	if room < w {
		return
	}
	for i, it := range h {
		y := it.room
		if i == 0 {
			y -= room - w
		}
		use[it.t] += y
	}
}

// mapCosts sets costs[i] to min Σ λ_t·y_t over 0 ≤ y_t ≤ cap·ℓ_t, Σ y = W,
// over the intervals from the piece's release up to (not including) ends[i]
// (+Inf when they cannot hold W); ends is non-decreasing. It walks the
// intervals in time order keeping, in a max-heap by price, the cheapest ones
// seen whose rooms cover W (as pieceMin, without its time term): the fill is
// every held interval whole but the dearest, which takes what is left.
func (lm *lagModel) mapCosts(pc *lagPiece, lam []float64, ends []int, costs []float64, buf []lagItem) []lagItem {
	bp := lm.bp
	h := buf[:0]
	room := 0.0 // Σ room over h
	t := pc.first
	for i, end := range ends {
		for ; t < end; t++ {
			h, room = lagOffer(h, room, lagItem{cost: lam[t], room: pc.cap * (bp[t+1] - bp[t]), t: t}, pc.w)
		}
		if room < pc.w {
			costs[i] = math.Inf(1)
			continue
		}
		sum := 0.0
		for _, it := range h {
			sum += it.cost * it.room
		}
		costs[i] = math.Max(0, sum-(room-pc.w)*h[0].cost)
	}
	lm.work += int64(t - pc.first + 1)
	return h
}

// redFluid is a lower bound on min over C of C − a + min Σ λ_t·y_t, the
// reduce work W placed at rate ≤ cap inside [e, C], e = bp[from], with C ≥
// e + R. For C in [τ_t, τ_{t+1}) the fill may use all of interval t (more
// room only lowers its cost) and C ≥ τ_t; past the grid the work is
// unpriced. It walks the intervals from e keeping the cheapest cover of W
// (as mapCosts), and stops once max(τ_t, e + R) − a alone reaches the best.
// It also returns the t of the minimum.
func (lm *lagModel) redFluid(s *startSub, from int, lam []float64, buf *[]lagItem) (best float64, last int) {
	bp := lm.bp
	nInt := len(bp) - 1
	pc := s.rp
	floor := bp[from] + s.r
	best, last = math.Inf(1), nInt
	h := (*buf)[:0]
	room, sum := 0.0, 0.0 // Σ room and Σ price·room over h
	t := from
	for ; t <= nInt; t++ {
		c := math.Max(bp[t], floor) - s.a
		if c >= best {
			break
		}
		if t == nInt {
			best, last = c, nInt
			break
		}
		it := lagItem{cost: lam[t], room: pc.cap * (bp[t+1] - bp[t]), t: t}
		if room < pc.w || lagWorse(h[0], it) {
			h = lagPush(h, it)
			room += it.room
			sum += it.cost * it.room
			for len(h) > 1 && room-h[0].room >= pc.w {
				room -= h[0].room
				sum -= h[0].cost * h[0].room
				h = lagPop(h)
			}
		}
		if v := c + math.Max(0, sum-(room-pc.w)*h[0].cost); room >= pc.w && v < best {
			best, last = v, t
		}
	}
	lm.work += int64(t - from + 1)
	*buf = h
	return best, last
}

// priceAt is Λ(x) = ∫ λ from the grid's start to x, for x ≥ bp[*ptr],
// advancing *ptr to x's interval (so calls with increasing x take linear
// time in all). No price applies after the grid's end.
func priceAt(bp, lam, cum []float64, x float64, ptr *int) float64 {
	nInt := len(bp) - 1
	if x >= bp[nInt] {
		*ptr = nInt
		return cum[nInt]
	}
	t := *ptr
	for t+1 < nInt && bp[t+1] <= x {
		t++
	}
	*ptr = t
	if x <= bp[t] {
		return cum[t]
	}
	return cum[t] + lam[t]*(x-bp[t])
}

// redPieces is min over s ≥ e of max(s + q, e + R) − a + nh·(Λ(s+q) − Λ(s)):
// the reduce side when the maps end at e and the reduces run in one piece
// each. Every reduce lies in [e, C] and costs at least h·(Λ(s+q) − Λ(s)) for
// the cheapest start s in [e, C − q] (λ ≥ 0, durations ≥ q), and C ≥ s + q,
// so putting them all at that s is a lower bound for any placement. The
// function of s is piecewise linear with kinks where s or s + q is a
// breakpoint or s + q = e + R, so its minimum is at e or at one of those; the
// scan stops once s + q − a alone reaches the best value. It also returns
// the start of the minimum.
func (lm *lagModel) redPieces(s *startSub, e float64, lam, cum []float64) (best, at float64) {
	bp := lm.bp
	nInt := len(bp) - 1
	q := s.q
	floor := e + s.r - s.a
	if s.nh == 0 {
		return floor, e
	}
	i0 := searchBreak(bp, e)
	p1, p2 := max(0, i0-1), max(0, i0-1) // interval pointers of s and s + q
	eval := func(x float64) float64 {
		lo := priceAt(bp, lam, cum, x, &p1)
		hi := priceAt(bp, lam, cum, x+q, &p2)
		return math.Max(x+q-s.a, floor) + s.nh*math.Max(0, hi-lo)
	}
	best, at = eval(e), e
	kink := e + s.r - q // where max(s + q, e + R) turns to s + q
	// The candidates after e, in increasing order: breakpoints as starts
	// (next: bp[i1]), breakpoints as ends (bp[i2] − q) and the kink.
	i1 := i0
	if i1 <= nInt && bp[i1] <= e {
		i1++
	}
	i2 := searchBreak(bp, e+q)
	if i2 <= nInt && bp[i2]-q <= e {
		i2++
	}
	for {
		x := math.Inf(1)
		if i1 <= nInt {
			x = bp[i1]
		}
		if i2 <= nInt {
			x = math.Min(x, bp[i2]-q)
		}
		if kink > e {
			x = math.Min(x, kink)
		}
		if math.IsInf(x, 1) || x+q-s.a >= best {
			break
		}
		lm.work++
		if c := eval(x); c < best {
			best, at = c, x
		}
		for i1 <= nInt && bp[i1] <= x {
			i1++
		}
		for i2 <= nInt && bp[i2]-q <= x {
			i2++
		}
		if kink <= x {
			kink = e // taken
		}
		if x >= bp[nInt] {
			break // unpriced from here: later starts only end later
		}
	}
	return best, at
}
