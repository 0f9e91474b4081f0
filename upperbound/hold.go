package upperbound

import (
	"container/heap"
	"math"
	"slices"

	"github.com/mrbound/mrbound/sim"
)

// holdCost weighs srpt-hold's price of idling a reduce slot: a hold of δ
// is taken when the short job's wait it saves exceeds holdCost·δ·n/√R, n
// the jobs with a reduce ready now (the idle δ may delay each of them) and
// R the reduce slots (with more slots, the next to free comes sooner and a
// waiting job loses less of the δ). The form and the factor were chosen by
// measurement, on bench/looseside's small day-like family (2 reduce slots,
// where the optimum is proven) and on the FB-2009 day at 20 nodes: holdCost
// 1 with n/√R was best on both among δ·n, δ·(1 + κ(n−1)) and n/√R with
// factors 0.25–4 (docs/results.md, issue 26, s13up), and still with the
// finer estimate of the wait saved (firstFreeFor; s15hold: factors 0.5–2,
// n/R, √n/√R, 1 + (n−1)/√R). Replacing it by the exact change of the
// waiting jobs' completions in a list schedule of the foreseen instants
// without later holds was worse (s24holdcost): the cost stays a fit. Given
// a relaxation's prices of reduce time (Options.Prices: the interval
// Lagrangian's duals), a hold costs the larger of the fit and the prices'
// integral over the idle δ (idleCost; s26cost).
const holdCost = 1.0

// hold is a reduce slot kept idle on one node for a job whose reduce will
// be ready soon.
type hold struct {
	job   int // −1: none
	until sim.Time
}

// holdState is srpt-hold's bookkeeping: what it needs to foresee when a
// job's reduce becomes ready and when a busy reduce slot frees.
type holdState struct {
	on       []hold    // per node
	reserved []int     // per job: slots held for it
	mapEnd   []float64 // per job: the latest end of its launched maps
	// inFlight are the jobs whose maps are all launched, with a reduce
	// still to run and none ready: their reduces are ready at mapEnd (with
	// slow-start 1; a lower one readies them earlier, and its crossing
	// brings a new offer).
	inFlight []int
	// redEnds are the ends of the running reduces (a min-heap; ends in the
	// past are dropped as they are met).
	redEnds floatHeap
	// byArrival are the jobs in arrival order, next the first not yet
	// passed.
	byArrival []int
	next      int
	// cands, frees and rivals are tryHold's buffers: the candidates (job
	// and ready time), holdHorizon's free instants and rivals; others and
	// ready are sameInstantEnds'.
	cands, rivals []rival
	frees, others []float64
	ready         []int
	// instants is completionFor's heap of free instants.
	instants floatHeap
}

// holdable reports whether srpt-hold can foresee this workload: fixed
// slots, the same duration on every node, every arrival known in advance.
func (c *clair) holdable() bool {
	return !c.hetero && !c.chained && !c.w.Cluster.Fungible
}

func (l *List) initHold() {
	n := len(l.st)
	h := &holdState{on: make([]hold, len(l.c.w.Cluster.Nodes)), reserved: make([]int, n), mapEnd: make([]float64, n)}
	for x := range h.on {
		h.on[x].job = -1
	}
	h.byArrival = make([]int, n)
	for j := range h.byArrival {
		h.byArrival[j] = j
	}
	slices.SortStableFunc(h.byArrival, func(a, b int) int { return cmpFloat(l.st[a].arrival, l.st[b].arrival) })
	l.hold = h
}

// launchedHold updates the bookkeeping after a task of job j (kind k)
// launched for d, non-local penalty included: its end as foreseen (exact in
// ideal runs; with heartbeats, noise or contention an estimate, so a hold
// may misjudge its gain, and still ends at its timer). Without the penalty
// a non-local map's job looked ready 0.54 s early on the FB-2009 day: a
// hold for it expired before its reduce was ready, and the job, its
// foreseen ready time now past, was no candidate for another
// (docs/results.md, issue 26, s23reserve).
func (l *List) launchedHold(s *sim.Sim, j, k int, d float64) {
	h := l.hold
	end := float64(s.Now()) + d
	if k == 0 {
		h.mapEnd[j] = math.Max(h.mapEnd[j], end)
		if l.st[j].pending[0] == 0 && l.st[j].pending[1] > 0 && !s.HasWork(j, sim.Reduce) {
			h.inFlight = append(h.inFlight, j)
		}
		return
	}
	heap.Push(&h.redEnds, end)
	h.dropInFlight(j)
	if h.reserved[j] > l.st[j].pending[1] {
		// The job's reduce went to another slot: free one held for it, and
		// have the engine offer the idle slot again.
		for x := range h.on {
			if h.on[x].job == j {
				h.release(x)
				s.Wake()
				break
			}
		}
	}
}

func (h *holdState) dropInFlight(j int) {
	if i := slices.Index(h.inFlight, j); i >= 0 {
		h.inFlight[i] = h.inFlight[len(h.inFlight)-1]
		h.inFlight = h.inFlight[:len(h.inFlight)-1]
	}
}

func (h *holdState) release(x int) {
	h.reserved[h.on[x].job]--
	h.on[x].job = -1
}

// offerReduces fills node x's free reduce slots as launchFrom does, except
// that a slot held for a job stays idle until that job's reduce is ready
// (then it runs there), a job srpt ranks before it has a reduce ready (it
// would have taken the slot from the held job anyway), or the hold expires;
// and that srpt-hold may hold a slot (tryHold).
func (l *List) offerReduces(s *sim.Sim, x int) {
	h := l.hold
	for s.Free(x).Reduce > 0 {
		if hd := h.on[x]; hd.job >= 0 {
			switch {
			case s.HasWork(hd.job, sim.Reduce):
				h.release(x)
				if t, ok := s.PickReduce(hd.job); ok && s.Fits(t, x) && l.launch(s, x, hd.job, t) {
					continue
				}
			case s.Now() >= hd.until:
				h.release(x)
				continue
			case !l.holdFirstFree && l.reds.Len() > 0 && l.key[l.reds.top()] < l.readyKey(hd.job):
				// A job srpt ranks before the held one is ready: it takes
				// the slot, as it would have taken it from the held job.
				h.release(x)
				continue
			case s.Free(x).Reduce == 1:
				return // the held slot stays idle
			}
			if !l.launchFrom(s, x, l.reds) {
				return
			}
			continue
		}
		if l.tryHold(s, x) {
			continue
		}
		if !l.launchFrom(s, x, l.reds) {
			return
		}
	}
}

// tryHold decides whether to keep node x's free reduce slot idle for a job
// whose reduce will be ready at e, soon, rather than start the next reduce
// of srpt's choice j (length p) now. Without the hold the job waits until a
// reduce slot frees after e and is not taken by a job srpt ranks before it
// (firstFreeFor: among the running reduces' ends, this slot's end with j's
// reduce, now + p, and the ends of the other slots free now
// (sameInstantEnds), the first left over by the rivals ready by then), at
// F, so the hold saves it F − e (holdSaving: the saving of its completion
// when it has more reduces, less srpt's choice's loss when this reduce is
// its last); it may cost δ = e − now to each of the n jobs with a reduce
// waiting. It holds for the candidate of the largest saving beyond the
// idle slot's cost (idleCost: holdCost·δ·n/√R, R reduce slots, or a
// relaxation's prices over δ when more), among the jobs srpt
// will rank before j once their reduce is ready (readyKey; rivals are
// ranked so too) whose reduce will be ready before any reduce slot
// frees: those whose maps are all launched (ready at their last map's
// end), those with maps left (their launched maps' end, or the rest in
// waves on every map slot from now) and those arriving (their arrival plus
// their maps in waves) — the last two estimates: their maps may wait for
// slots; the hold then expires at the estimate and the slot is offered
// again.
func (l *List) tryHold(s *sim.Sim, x int) bool {
	if l.reds.Len() == 0 {
		return false
	}
	h := l.hold
	j := l.reds.top()
	t, ok := s.PickReduce(j)
	if !ok {
		return false
	}
	now := float64(s.Now())
	own := now + l.c.dur[1][j][s.Task(t).Index]
	f := own
	for h.redEnds.Len() > 0 && h.redEnds[0] <= now {
		heap.Pop(&h.redEnds)
	}
	if h.redEnds.Len() > 0 {
		f = math.Min(f, h.redEnds[0])
	}
	// c is the hold's cost per second idle.
	c := holdCost * float64(l.reds.Len()) / math.Sqrt(math.Max(1, l.c.slots[1]))
	if l.holdScale > 0 {
		c *= l.holdScale
	}
	for h.next < len(h.byArrival) && l.st[h.byArrival[h.next]].arrival <= now {
		h.next++
	}
	// The candidates first; the horizon of free instants and rivals, the
	// costlier part, only when there is one (most offers have none).
	h.cands = h.cands[:0]
	consider := func(i int, e float64) {
		if e > now && e < f && h.reserved[i] < l.st[i].pending[1] && l.readyKey(i) < l.key[j] {
			h.cands = append(h.cands, rival{job: i, ready: e})
		}
	}
	l.soonReady(now, f, !l.holdFirstFree, len(h.byArrival), consider)
	if len(h.cands) == 0 {
		return false
	}
	// The other slots free now can only bring f forward: they are looked
	// at once there is a candidate, and drop those ready after f.
	for _, e := range l.sameInstantEnds(s, x, j, now) {
		f = math.Min(f, e)
	}
	h.cands = slices.DeleteFunc(h.cands, func(cd rival) bool { return cd.ready >= f })
	if len(h.cands) == 0 {
		return false
	}
	if !l.holdFirstFree {
		l.holdHorizon(now, own)
	}
	best, bestGain, bestE := -1, 0.0, 0.0
	for _, cd := range h.cands {
		i, e := cd.job, cd.ready
		saving := f - e
		if !l.holdFirstFree {
			saving = l.holdSaving(i, j, e, now, own, c)
		}
		gain := saving - l.idleCost(now, e, c)
		if l.holdBias != nil {
			gain += l.holdBias[i]
		}
		if gain > bestGain {
			best, bestGain, bestE = i, gain, e
		}
	}
	if best < 0 {
		return false
	}
	until := sim.Time(math.Ceil(bestE))
	if err := s.SetTimer(until, 0); err != nil {
		return false
	}
	h.on[x] = hold{job: best, until: until}
	h.reserved[best]++
	return true
}

// idleCost is the cost of keeping a reduce slot idle over [now, e]: the
// fit, c per second, or, given a relaxation's prices (Options.Prices),
// their integral over [now, e] when it is more (scaled by the search's
// factor as the fit is). Where the relaxation finds reduce time scarce the
// price exceeds the fit (at 20 nodes on the FB-2009 day, 0.05–1.6 per
// slot-ms on half the day); elsewhere the fit decides.
func (l *List) idleCost(now, e, c float64) float64 {
	fit := (e - now) * c
	if l.c.reducePrice == nil {
		return fit
	}
	p := l.c.reducePrice.over(now, e)
	if l.holdScale > 0 {
		p *= l.holdScale
	}
	return math.Max(fit, p)
}

// holdSaving is how much sooner job i (ready at e) and srpt's choice j
// complete together when node x's slot is held for i rather than given to
// j now (own: its end with j's reduce), before the cost of the idle slot.
//   - i completes with its last reduce. Without the hold its r reduces
//     start on the free instants rivals ranked before it leave
//     (firstFreeFor's rule), each freeing its slot again; with it, its first
//     runs on x from e and the others follow on the instants left. For
//     r = 1 the saving is firstFreeFor's wait saved; for r > 1 the wait of
//     the first reduce overstated it: the last, which one hold may barely
//     move, decides. Only when x is the one slot free now: otherwise the
//     next ones are offered at this instant and may be held for i's other
//     reduces too, which the instants left do not see (counted so, the day
//     at 100 nodes lost 0.05 s; docs/results.md, issue 26, s24holdcost).
//   - When this reduce is j's last, the hold swaps the two: j starts when i
//     would have (fi) or on x after i's reduce (e + q), whichever is first,
//     instead of now. Its δ = e − now of that is in the cost (j is one of
//     the n waiting); the rest, min(fi, e + q) − e, is lost. On one slot
//     this makes the trade exact for the two jobs: hold when the wait saved
//     exceeds n·δ + q, not n·δ.
func (l *List) holdSaving(i, j int, e, now, own, c float64) float64 {
	h := l.hold
	fi := l.firstFreeFor(i, c)
	saving := fi - e
	if r := l.st[i].pending[1] - h.reserved[i]; r > 1 && len(h.others) == 0 {
		saving = l.completionFor(i, c, r, -1, 0, now) - l.completionFor(i, c, r, e, own, now)
	}
	if l.st[j].pending[1]-h.reserved[j] == 1 {
		saving -= math.Max(0, math.Min(fi, e+l.c.dur[1][i][l.nextReduce(i)])-e)
	}
	return saving
}

// completionFor is when job i's r reduces would all have ended: without a
// hold (e < 0) on the free instants (h.frees) left by the rivals srpt ranks
// before i, as firstFreeFor, each of i's freeing its slot again; with one
// (e ≥ 0), its first reduce on the held slot from e, in place of own, that
// slot's end with srpt's choice. Past the last known instant, the last: an
// underestimate without the hold.
func (l *List) completionFor(i int, c float64, r int, e, own, now float64) float64 {
	h := l.hold
	durs := l.c.dur[1][i]
	next := l.nextReduce(i)
	h.instants = h.instants[:0]
	skipOwn := e >= 0
	for _, t := range h.frees {
		if skipOwn && t == own {
			skipOwn = false
			continue
		}
		h.instants = append(h.instants, t) // sorted: a heap
	}
	done := math.Inf(-1)
	if e >= 0 {
		done = e + durs[next]
		heap.Push(&h.instants, done)
		next++
		r--
	}
	ki := l.readyKey(i)
	avail, k, last := 0, 0, now
	for r > 0 && h.instants.Len() > 0 {
		t := heap.Pop(&h.instants).(float64)
		last = t
		reach := t
		if h.instants.Len() > 0 {
			reach = t + (h.instants[0]-t)/(1+c)
		}
		var tasks int
		tasks, k = l.rivalTasksBy(i, ki, reach, k)
		if avail += tasks; avail > 0 {
			avail--
			continue
		}
		end := t + durs[next]
		next++
		r--
		done = math.Max(done, end)
		heap.Push(&h.instants, end)
	}
	for ; r > 0; r-- {
		done = math.Max(done, last+durs[next])
		next++
	}
	return done
}

// nextReduce is the index of job o's next reduce no slot is held for: a
// job's reduces launch lowest index first (PickReduce), the slots held for
// it taking the first unlaunched ones.
func (l *List) nextReduce(o int) int {
	return len(l.c.dur[1][o]) - l.st[o].pending[1] + l.hold.reserved[o]
}

// sameInstantEnds fills h.others with the ends of the reduce slots other
// than the one decided that are free at this instant and not held: node x's
// other free slots and those of the nodes the engine offers next in this
// round. List scheduling fills them now with srpt's next ready reduces
// after j's (their ends), or leaves them free (now) once none is left —
// then a candidate finds a free slot when its reduce is ready, and a hold
// saves it nothing. Without them tryHold foresaw the first slot to free
// later than it does whenever several slots free at once, so it held for a
// wait the next slot would have ended sooner.
func (l *List) sameInstantEnds(s *sim.Sim, x, j int, now float64) []float64 {
	h := l.hold
	h.others = h.others[:0]
	// The ready reduces after j's one: once the free slots outnumber them,
	// one stays free now, which is all tryHold needs to know (on a lightly
	// loaded cluster the scan of the nodes stops early).
	left := -1
	for k := range l.reds.Len() {
		o := l.reds.at(k)
		left += l.st[o].pending[1] - h.reserved[o]
	}
	n := s.Free(x).Reduce - 1
	for y := 0; y < len(h.on) && n <= left; y++ {
		if y != x && h.on[y].job < 0 {
			n += s.Free(y).Reduce
		}
	}
	if n <= 0 {
		return nil
	}
	if n > left {
		return append(h.others, now)
	}
	h.ready = h.ready[:0]
	for k := range l.reds.Len() {
		h.ready = append(h.ready, l.reds.at(k))
	}
	slices.SortFunc(h.ready, func(a, b int) int {
		if l.reds.less(a, b) {
			return -1
		}
		return 1
	})
	for _, o := range h.ready {
		// A job's reduces launch lowest index first (PickReduce): the
		// unlaunched ones are the last pending of them, the first going to
		// the slots held for the job, and one of j's to node x.
		durs := l.c.dur[1][o]
		next := len(durs) - l.st[o].pending[1] + h.reserved[o]
		if o == j {
			next++
		}
		for ; next < len(durs) && len(h.others) < n; next++ {
			h.others = append(h.others, now+durs[next])
		}
		if len(h.others) == n {
			break
		}
	}
	return h.others
}

// readyKey is srpt's key of job i once its reduces are ready: by then its
// maps have all launched, so its unlaunched work is its reduces' alone. A
// job with maps left or not yet arrived ranks by it against the jobs ready
// now (its key now counts its maps as well).
func (l *List) readyKey(i int) float64 {
	k := l.st[i].work[1]
	if l.offset != nil {
		k += l.offset[i]
	}
	return k
}

// floatHeap is a min-heap of float64 for container/heap.
type floatHeap []float64

func (f floatHeap) Len() int           { return len(f) }
func (f floatHeap) Less(a, b int) bool { return f[a] < f[b] }
func (f floatHeap) Swap(a, b int)      { f[a], f[b] = f[b], f[a] }
func (f *floatHeap) Push(x any)        { *f = append(*f, x.(float64)) }
func (f *floatHeap) Pop() any {
	old := *f
	v := old[len(old)-1]
	*f = old[:len(old)-1]
	return v
}

// rival is a job whose reduces will be ready at ready, with tasks of them
// to run: in srpt's order it takes a freed reduce slot before any job it
// ranks before.
type rival struct {
	job   int
	ready float64
	tasks int
}

// maxLookahead caps the arrived jobs with maps left and the arrivals that
// tryHold looks at on each offer: on the FB-2009 day a busy hour has
// hundreds queued, and those past the first few dozen rank far back.
const maxLookahead = 64

// holdHorizon fills h.frees with the reduce slots' next free instants
// after now (the running reduces' ends, own, this slot's end with srpt's
// choice, and the other slots free at this instant, h.others), in order, and h.rivals with the jobs whose reduces will
// be ready before the last of them (maps all launched, maps left to
// launch, or arriving), by ready time.
func (l *List) holdHorizon(now, own float64) {
	h := l.hold
	h.frees = append(append(h.frees[:0], own), h.others...)
	for _, t := range h.redEnds {
		if t > now {
			h.frees = append(h.frees, t)
		}
	}
	slices.Sort(h.frees)
	last := h.frees[len(h.frees)-1]
	h.rivals = h.rivals[:0]
	add := func(i int, e float64) {
		if r := l.st[i].pending[1] - h.reserved[i]; r > 0 && e < last {
			h.rivals = append(h.rivals, rival{i, e, r})
		}
	}
	l.soonReady(now, last, true, maxLookahead, add)
	slices.SortFunc(h.rivals, func(a, b rival) int { return cmpFloat(a.ready, b.ready) })
}

// soonReady calls visit with each job whose reduces may be ready soon and
// the estimate of when: the jobs with every map launched (their last map's
// end), when withLeft the first maxLookahead arrived jobs with maps left in
// srpt's map order (mapsLeftEstimate), and at most limit of the jobs
// arriving before until (readyEstimate), in that order.
func (l *List) soonReady(now, until float64, withLeft bool, limit int, visit func(i int, e float64)) {
	h := l.hold
	for _, i := range h.inFlight {
		visit(i, h.mapEnd[i])
	}
	if withLeft {
		for k := range min(l.maps.Len(), maxLookahead) {
			i := l.maps.at(k)
			visit(i, l.mapsLeftEstimate(i, now))
		}
	}
	for k, i := range h.byArrival[h.next:] {
		if l.st[i].arrival >= until || k >= limit {
			break
		}
		visit(i, l.readyEstimate(i))
	}
}

// firstFreeFor is when job i's reduce would start without a hold: the
// first of the free instants (h.frees) not taken by a rival (h.rivals)
// srpt ranks before i. A rival takes instant t if its reduce is ready by t, or soon
// enough after t that srpt-hold would hold the slot for it — by t + (t' −
// t)/(1 + c), t' the next instant and c the hold's cost per second of
// idling (a hold of δ is worth it when it saves more than δ·c, and it
// saves at most t' − t − δ). i's own reduce is ready before the first
// instant (tryHold's candidates), so the first instant left is i's. Past
// the last known instant, the last: an underestimate of the wait saved.
func (l *List) firstFreeFor(i int, c float64) float64 {
	frees := l.hold.frees
	ki := l.readyKey(i)
	avail, r := 0, 0
	for k, t := range frees {
		reach := t
		if k+1 < len(frees) {
			reach = t + (frees[k+1]-t)/(1+c)
		}
		var tasks int
		tasks, r = l.rivalTasksBy(i, ki, reach, r)
		if avail += tasks; avail == 0 {
			return t
		}
		avail--
	}
	return frees[len(frees)-1]
}

// rivalTasksBy counts the reduces of the rivals from h.rivals[k] on (they
// are sorted by ready time) that are ready by reach and that srpt ranks
// before job i (its readyKey ki), and returns the count and the index of
// the first rival not ready by then.
func (l *List) rivalTasksBy(i int, ki, reach float64, k int) (tasks, next int) {
	rivals := l.hold.rivals
	for ; k < len(rivals) && rivals[k].ready <= reach; k++ {
		if o := rivals[k].job; o != i && l.readyKey(o) < ki {
			tasks += rivals[k].tasks
		}
	}
	return tasks, k
}

// readyEstimate is when a job not yet arrived will have its reduces
// ready: its arrival plus its maps in waves on every map slot.
func (l *List) readyEstimate(i int) float64 {
	st := &l.st[i]
	return st.arrival + math.Ceil(float64(st.pending[0])/math.Max(1, l.c.slots[0]))*st.maxTask[0]
}

// mapsLeftEstimate is when an arrived job with maps still to launch will
// have its reduces ready: its launched maps' end, or its unlaunched maps in
// waves on every map slot from now, whichever is later.
func (l *List) mapsLeftEstimate(i int, now float64) float64 {
	st := &l.st[i]
	return math.Max(l.hold.mapEnd[i], now+math.Ceil(float64(st.pending[0])/math.Max(1, l.c.slots[0]))*st.maxTask[0])
}
