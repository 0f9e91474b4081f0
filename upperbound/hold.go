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
// factors 0.25–4 (docs/results.md, issue 26, s13up).
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
// launched for d: its end as foreseen (exact in ideal runs; with
// heartbeats, noise or contention an estimate, so a hold may misjudge its
// gain, and still ends at its timer).
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
// (then it runs there) or the hold expires, and that srpt-hold may hold a
// slot (tryHold).
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
// reduce slot frees after e — at the earliest F, the first end of a running
// reduce or this slot's end with j's reduce, now + p — so it saves F − e of
// its turnaround; the hold may cost δ = e − now to each of the n jobs with a
// reduce waiting. It holds for the candidate of the largest saving beyond
// holdCost·δ·n/√R (R reduce slots), among the jobs srpt would rank before
// j: those whose maps are all launched (ready at their last map's end) and
// those arriving before F (ready at arrival plus their maps in waves on
// every map slot — an estimate: their maps may wait for slots; the hold
// then expires at the estimate and the slot is offered again).
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
	f := now + l.c.dur[1][j][s.Task(t).Index]
	for h.redEnds.Len() > 0 && h.redEnds[0] <= now {
		heap.Pop(&h.redEnds)
	}
	if h.redEnds.Len() > 0 {
		f = math.Min(f, h.redEnds[0])
	}
	n := float64(l.reds.Len())
	sqrtR := math.Sqrt(math.Max(1, l.c.slots[1]))
	best, bestGain, bestE := -1, 0.0, 0.0
	consider := func(i int, e float64) {
		if e <= now || e >= f || h.reserved[i] >= l.st[i].pending[1] || l.dynamicKey(i) >= l.key[j] {
			return
		}
		if gain := (f - e) - holdCost*(e-now)*n/sqrtR; gain > bestGain {
			best, bestGain, bestE = i, gain, e
		}
	}
	for _, i := range h.inFlight {
		consider(i, h.mapEnd[i])
	}
	for h.next < len(h.byArrival) && l.st[h.byArrival[h.next]].arrival <= now {
		h.next++
	}
	for _, i := range h.byArrival[h.next:] {
		st := &l.st[i]
		if st.arrival >= f {
			break
		}
		// Its maps in waves on every map slot from its arrival.
		consider(i, st.arrival+math.Ceil(float64(st.pending[0])/math.Max(1, l.c.slots[0]))*st.maxTask[0])
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
