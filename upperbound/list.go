package upperbound

import (
	"fmt"
	"math"
	"slices"

	"github.com/mrbound/mrbound/sim"
)

// List is a clairvoyant list-scheduling construction: a sim.Policy that
// fills every free slot with a task of the highest-priority job that has
// one ready (see the package comment). It is not in the policy registry: it
// reads true durations and arrivals from the workload it was built from.
type List struct {
	rule Rule
	c    *clair
	// static are the keys of a static rule or of an Order (nil for a
	// dynamic rule).
	static []float64
	// staticRed, when set, are the reduce queue's own static keys
	// (LatestStartKind). redKey, when set, are this run's reduce keys: a
	// copy of staticRed, or Johnson's, which change as reduces launch.
	staticRed, redKey []float64
	// fast leaves a task to faster nodes rather than run it more than
	// slowCap times slower than it could (heterogeneous clusters).
	fast bool
	// offset, when set, is added to a dynamic rule's key of each job: the
	// search's candidates perturb the rule job by job (nil: the rule).
	offset []float64
	// mapStatic are Johnson's static map keys (its reduce keys, redKey,
	// change as the job's reduces launch).
	mapStatic []float64

	// hold is srpt-hold's bookkeeping (nil for every other rule), local
	// that of its maps' locality (nil too when maps pay no penalty away
	// from their block).
	hold  *holdState
	local *mapLocal
	// noMapLocal turns srpt-hold's wait for a local map slot off (tests:
	// the schedule without it, to compare with).
	noMapLocal bool
	// holdFirstFree makes srpt-hold judge a hold as s13up's rule did: the
	// candidate's wait saved up to the first reduce slot to free, no rival
	// ranked before it, no candidate with maps left, no hold given up to
	// a better-ranked job (tests only: what the finer estimate beats).
	holdFirstFree bool
	// holdBias, when set, is added per job to the wait a hold for the job
	// saves, and holdScale (0: 1) multiplies a hold's cost: the search's
	// moves on srpt-hold's decisions.
	holdBias  []float64
	holdScale float64

	st         []jobStats // this run's unlaunched work per job
	key        []float64
	maps, reds *indexHeap // arrived jobs with a map (reduce) ready
}

// New returns rule r's construction for w. Order is built by NewOrder.
func New(w *sim.Workload, r Rule) (*List, error) {
	return newList(newClair(w), r, false)
}

// NewFast is New's variant that leaves a task to faster nodes rather than
// run it more than slowCap times slower than the fastest node would.
func NewFast(w *sim.Workload, r Rule) (*List, error) {
	return newList(newClair(w), r, true)
}

func newList(c *clair, r Rule, fast bool) (*List, error) {
	if r <= RuleUnknown || r == Order || int(r) >= len(ruleNames) {
		return nil, fmt.Errorf("upperbound: no construction %v", r)
	}
	l := &List{rule: r, c: c, fast: fast}
	if r == Johnson {
		l.mapStatic = c.johnsonKeys()
	}
	if !r.dynamic() {
		var err error
		if l.static, err = c.staticKeys(r); err != nil {
			return nil, err
		}
		if r == LatestStartKind {
			l.staticRed = c.reduceKeys()
		}
	}
	return l, nil
}

// NewOrder returns the construction that ranks the jobs of w in the given
// order (order[0] first; a permutation of 0..len(w.Jobs)−1).
func NewOrder(w *sim.Workload, order []int) (*List, error) {
	return newOrder(newClair(w), order, false)
}

func newOrder(c *clair, order []int, fast bool) (*List, error) {
	if len(order) != len(c.jobs) {
		return nil, fmt.Errorf("upperbound: an order of %d jobs for %d", len(order), len(c.jobs))
	}
	key := make([]float64, len(order))
	seen := make([]bool, len(order))
	for pos, j := range order {
		if j < 0 || j >= len(order) || seen[j] {
			return nil, fmt.Errorf("upperbound: the order is not a permutation (job %d at %d)", j, pos)
		}
		seen[j] = true
		key[j] = float64(pos)
	}
	return &List{rule: Order, c: c, static: key, fast: fast}, nil
}

// same reports whether l and m are static constructions that rank the
// jobs alike (and make the same -fast choice), hence give the same
// schedule: the simulator is deterministic and a static rule's decisions
// depend only on the order its keys and tie-breaks (arrival, then index)
// put the jobs in — edf without any deadline is arrival order. Where a job
// is chained, arrival-keyed rules re-key it on its arrival, so only the same
// rule counts as the same.
func (l *List) same(m *List) bool {
	if l.static == nil || m.static == nil || l.fast != m.fast || (l.rule != m.rule && l.c.chained) {
		return false
	}
	return slices.Equal(l.rank(l.static), m.rank(m.static)) &&
		slices.Equal(l.rank(l.reduceKeys()), m.rank(m.reduceKeys()))
}

// reduceKeys are the reduce queue's static keys.
func (l *List) reduceKeys() []float64 {
	if l.staticRed != nil {
		return l.staticRed
	}
	return l.static
}

// rank is the jobs in the order key puts them, ties by arrival, then index
// (the heaps' order).
func (l *List) rank(key []float64) []int {
	order := make([]int, len(key))
	for j := range order {
		order[j] = j
	}
	slices.SortFunc(order, func(a, b int) int {
		switch {
		case key[a] != key[b]:
			return cmpFloat(key[a], key[b])
		case l.c.jobs[a].arrival != l.c.jobs[b].arrival:
			return cmpFloat(l.c.jobs[a].arrival, l.c.jobs[b].arrival)
		}
		return a - b
	})
	return order
}

func cmpFloat(a, b float64) int {
	if a < b {
		return -1
	}
	return 1
}

// Name is "offline-" and the rule's name, "-fast" for the variant that
// keeps tasks off much slower nodes.
func (l *List) Name() string {
	name := l.rule.String()
	if l.offset != nil {
		name = Order.String() // a search candidate
	}
	if l.fast {
		return "offline-" + name + "-fast"
	}
	return "offline-" + name
}

// Init resets the run's state.
func (l *List) Init(s *sim.Sim) error {
	if s.NumJobs() != len(l.c.jobs) {
		return fmt.Errorf("upperbound: built for %d jobs, the run has %d", len(l.c.jobs), s.NumJobs())
	}
	l.st = append(l.st[:0], l.c.jobs...)
	l.key = make([]float64, len(l.st))
	if l.static != nil {
		copy(l.key, l.static)
	}
	less := func(a, b int) bool {
		if l.key[a] != l.key[b] {
			return l.key[a] < l.key[b]
		}
		if l.st[a].arrival != l.st[b].arrival {
			return l.st[a].arrival < l.st[b].arrival
		}
		return a < b
	}
	l.maps, l.reds = newIndexHeap(len(l.st), less), newIndexHeap(len(l.st), less)
	switch {
	case l.staticRed != nil:
		l.redKey = append(l.redKey[:0], l.staticRed...)
	case l.rule == Johnson:
		l.redKey = make([]float64, len(l.st))
		for j := range l.redKey {
			l.redKey[j] = l.dynamicRedKey(j)
		}
	}
	l.hold, l.local = nil, nil
	if l.rule == SRPTHold && l.c.holdable() {
		l.initHold()
		if l.c.w.Cluster.NonLocalPenalty > 0 && !l.noMapLocal {
			l.initMapLocal()
		}
	}
	if l.redKey != nil {
		l.reds = newIndexHeap(len(l.st), func(a, b int) bool {
			if l.redKey[a] != l.redKey[b] {
				return l.redKey[a] < l.redKey[b]
			}
			return less(a, b)
		})
	}
	return nil
}

// dynamicKey is a dynamic rule's key of job j now, with its offset.
func (l *List) dynamicKey(j int) float64 {
	if l.offset != nil {
		return l.baseKey(j) + l.offset[j]
	}
	return l.baseKey(j)
}

// baseKey is the dynamic rule's own key of job j now.
func (l *List) baseKey(j int) float64 {
	st := &l.st[j]
	switch l.rule {
	case SRPT, SRPTHold:
		return st.work[0] + st.work[1]
	case SRPTSpan:
		return l.c.span(st)
	case LRPT:
		return -l.c.span(st)
	case Johnson:
		return l.mapStatic[j]
	}
	return l.key[j]
}

// dynamicRedKey is Johnson's reduce key of job j now, a_j minus the span of
// its unlaunched reduces, with its offset.
func (l *List) dynamicRedKey(j int) float64 {
	k := l.st[j].arrival - l.c.reduceSpan(&l.st[j])
	if l.offset != nil {
		k += l.offset[j]
	}
	return k
}

// JobArrival queues j. A chained job's arrival is known only now: the
// arrival-based keys take it.
func (l *List) JobArrival(s *sim.Sim, j int) {
	st := &l.st[j]
	if a := float64(s.Job(j).Arrival); a != st.arrival {
		st.arrival = a
		switch l.rule {
		case Arrival:
			l.key[j] = a
		case LatestStart:
			l.key[j] = a - st.cp
		case LatestStartKind:
			l.key[j] = a - st.cp
			l.redKey[j] = a - l.c.reduceSpan(st)
		}
	}
	if l.rule.dynamic() {
		l.key[j] = l.dynamicKey(j)
	}
	if l.rule == Johnson {
		l.redKey[j] = l.dynamicRedKey(j)
	}
	l.requeue(s, j)
}

// requeue puts j in or out of each heap by whether it has a ready task.
func (l *List) requeue(s *sim.Sim, j int) {
	for k, h := range [2]*indexHeap{l.maps, l.reds} {
		if s.HasWork(j, [2]sim.Kind{sim.Map, sim.Reduce}[k]) {
			h.push(j)
		} else {
			h.remove(j)
		}
	}
}

// TaskEnd queues the job's reduces once slow-start lets them run.
func (l *List) TaskEnd(s *sim.Sim, t sim.TaskID, _ sim.Time) {
	if j := s.Task(t).Job; s.HasWork(j, sim.Reduce) {
		l.reds.push(j)
		if l.hold != nil {
			l.hold.dropInFlight(j)
		}
	}
}

// Timer is unused.
func (l *List) Timer(*sim.Sim, int64) {}

// Offer fills node x's free slots in priority order.
func (l *List) Offer(s *sim.Sim, x int, free sim.Free) {
	if free.Fungible {
		for s.Free(x).Map > 0 {
			first, second := l.maps, l.reds
			if l.maps.Len() == 0 || (l.reds.Len() > 0 && l.reds.less(l.reds.top(), l.maps.top())) {
				first, second = l.reds, l.maps
			}
			if !l.launchFrom(s, x, first) && !l.launchFrom(s, x, second) {
				return
			}
		}
		return
	}
	if l.local != nil {
		l.offerMaps(s, x)
	} else {
		for s.Free(x).Map > 0 && l.launchFrom(s, x, l.maps) {
		}
	}
	if l.hold != nil {
		l.offerReduces(s, x)
		return
	}
	for s.Free(x).Reduce > 0 && l.launchFrom(s, x, l.reds) {
	}
}

// launchFrom launches on x a ready task of the best job of h that fits
// (RAM and disk), and reports whether it did.
func (l *List) launchFrom(s *sim.Sim, x int, h *indexHeap) bool {
	kind := sim.Map
	if h == l.reds {
		kind = sim.Reduce
	}
	k := 0
	if kind == sim.Reduce {
		k = 1
	}
	pick := func(j int) (sim.TaskID, bool) {
		var t sim.TaskID
		var ok bool
		if kind == sim.Map {
			t, _, ok = s.PickMap(j, x)
		} else {
			t, ok = s.PickReduce(j)
		}
		if ok && l.fast && l.c.slow(j, k, s.Task(t).Index, x) {
			return t, false // wait for a faster node
		}
		return t, ok
	}
	if h.Len() == 0 {
		return false
	}
	j := h.top()
	t, ok := pick(j)
	if !ok || !s.Fits(t, x) {
		// Rare (node limits): the best fitting job, by a scan.
		j, t, ok = -1, -1, false
		for i := range h.Len() {
			c := h.at(i)
			if ct, cok := pick(c); cok && s.Fits(ct, x) && (j < 0 || h.less(c, j)) {
				j, t, ok = c, ct, true
			}
		}
		if !ok {
			return false
		}
	}
	return l.launch(s, x, j, t)
}

// launch launches task t of job j on x and updates the job's keys; it
// reports whether the engine took it.
func (l *List) launch(s *sim.Sim, x, j int, t sim.TaskID) bool {
	if err := s.Launch(t, x); err != nil {
		return false
	}
	st := &l.st[j]
	v := s.Task(t)
	k := 0
	if v.Kind == sim.Reduce {
		k = 1
	}
	d := l.c.dur[k][j][v.Index]
	st.work[k] = math.Max(0, st.work[k]-d)
	st.pending[k]--
	if l.hold != nil {
		if k == 0 && !v.Local {
			d += float64(l.c.w.Cluster.NonLocalPenalty) // the engine's time for a map away from its block
		}
		l.launchedHold(s, j, k, d)
		if k == 0 && l.local != nil {
			l.local.launchedMap(x, float64(s.Now())+d)
		}
	}
	if l.rule.dynamic() {
		l.key[j] = l.dynamicKey(j)
		if l.rule == Johnson {
			l.redKey[j] = l.dynamicRedKey(j)
		}
		l.maps.fix(j)
		l.reds.fix(j)
	}
	l.requeue(s, j)
	return true
}
