package fair

import (
	"slices"
	"sort"

	"github.com/mrbound/mrbound/sim"
)

// maxDelay caps the auto-computed locality delay (Hadoop 1).
const maxDelay sim.Time = 15000

// idealHeartbeat is the H used for the auto delay in ideal mode.
const idealHeartbeat sim.Time = 3000

// Policy is the fair scheduler.
//
// Its state is kept incrementally so that an offer costs little even with
// thousands of waiting jobs: a job's counts are re-read only when a callback
// says they changed (arrival, task end, own launch), and each pool keeps its
// jobs with a launchable map and those with a launchable reduce in fair
// order. The order key (running tasks, arrival, id) is total, so the kept
// order is the one a full re-sort would give and no decision changes
// (TestSameAsResort compares with the plain re-sorting scheduler).
type Policy struct {
	// Delay is the locality wait W; 0 means the Hadoop 1 default.
	Delay sim.Time
	// NoDelay turns delay scheduling off ("Fair without delay", A-F3).
	NoDelay bool
	// H1Caps assigns at most one map and one reduce per offer.
	H1Caps bool
	// PoolFIFO orders jobs inside a pool by arrival instead of fairly.
	PoolFIFO bool

	w      sim.Time
	s      *sim.Sim
	waited []sim.Time // per job: when it was first skipped; -1 = not waiting
	pools  []pool
	order  []int // pool indices in fair order (scratch)
	jobs   []jobState
	dirty  []int // jobs whose counts may have changed since they were read
}

// jobState is what the policy last read of a job.
type jobState struct {
	pool            int32
	run, pend       int  // running tasks; launchable pending tasks
	hasMap, hasRed  bool // in the pool's maps / reduces list
	active, isDirty bool
	arrival         sim.Time
}

type pool struct {
	minShare int
	weight   float64
	running  int
	demand   int
	first    sim.Time // earliest arrival of a job with pending work; -1 none
	active   int      // arrived jobs not done
	// jobs with a launchable map / reduce, in fair order
	maps, reds []int
	rescan     bool // first must be recomputed
}

// New returns the fair scheduler with delay scheduling.
func New() *Policy { return &Policy{} }

// Name is "fair".
func (p *Policy) Name() string { return "fair" }

// Init sets up one pool per user (one pool when there are no users).
func (p *Policy) Init(s *sim.Sim) error {
	p.s = s
	p.waited = make([]sim.Time, s.NumJobs())
	p.jobs = make([]jobState, s.NumJobs())
	p.dirty = p.dirty[:0]
	for i := range p.waited {
		p.waited[i] = -1
	}
	users := s.Users()
	p.pools = make([]pool, max(1, len(users)))
	for i := range p.pools {
		p.pools[i].weight = 1
		p.pools[i].first = -1
		if i < len(users) {
			p.pools[i].minShare = users[i].MinShare
			if users[i].Weight > 0 {
				p.pools[i].weight = users[i].Weight
			}
		}
	}
	p.w = p.Delay
	if p.w == 0 {
		h := s.Options().Heartbeat
		if h == 0 {
			h = idealHeartbeat
		}
		p.w = min(h*3/2, maxDelay)
	}
	return nil
}

// JobArrival adds j to its pool.
func (p *Policy) JobArrival(s *sim.Sim, j int) {
	v := s.Job(j)
	u := v.User
	if u < 0 || u >= len(p.pools) {
		u = 0
	}
	js := &p.jobs[j]
	js.pool, js.active, js.arrival = int32(u), true, v.Arrival
	p.pools[u].active++
	p.markDirty(j)
}

// TaskEnd notes that the job's counts changed.
func (p *Policy) TaskEnd(s *sim.Sim, t sim.TaskID, _ sim.Time) { p.markDirty(s.Task(t).Job) }

// Timer: a locality wait ended; the engine re-offers idle slots.
func (p *Policy) Timer(*sim.Sim, int64) {}

func (p *Policy) markDirty(j int) {
	if js := &p.jobs[j]; js.active && !js.isDirty {
		js.isDirty = true
		p.dirty = append(p.dirty, j)
	}
}

// less is the order inside a pool: fewest running tasks first (min share 0,
// weight 1), then arrival, then id; or arrival, then id, with PoolFIFO.
func (p *Policy) less(a, b int) bool {
	ja, jb := &p.jobs[a], &p.jobs[b]
	if !p.PoolFIFO && ja.run != jb.run {
		return ja.run < jb.run
	}
	if ja.arrival != jb.arrival {
		return ja.arrival < jb.arrival
	}
	return a < b
}

// insert puts j into the ordered list l.
func (p *Policy) insert(l []int, j int) []int {
	i := sort.Search(len(l), func(i int) bool { return p.less(j, l[i]) })
	return slices.Insert(l, i, j)
}

// remove takes j out of the ordered list l (ordered by j's current key).
func (p *Policy) remove(l []int, j int) []int {
	i := sort.Search(len(l), func(i int) bool { return !p.less(l[i], j) })
	return slices.Delete(l, i, i+1)
}

// sync re-reads job j's counts and updates its pool: running tasks, demand,
// the earliest pending arrival and the two ordered lists.
func (p *Policy) sync(j int) {
	js := &p.jobs[j]
	q := &p.pools[js.pool]
	v := p.s.Job(j)
	run, pend := v.RunningMaps+v.RunningReds, v.MapsPending
	if v.ReducesEligible {
		pend += v.RedsPending
	}
	hasMap, hasRed := v.MapsPending > 0, v.ReducesEligible && v.RedsPending > 0
	if v.Done {
		run, pend, hasMap, hasRed = 0, 0, false, false
	}
	// take j out of the lists under its old key, put it back under the new
	if js.hasMap {
		q.maps = p.remove(q.maps, j)
	}
	if js.hasRed {
		q.reds = p.remove(q.reds, j)
	}
	q.running += run - js.run
	q.demand += run + pend - js.run - js.pend
	hadPend := js.pend > 0
	js.run, js.pend, js.hasMap, js.hasRed = run, pend, hasMap, hasRed
	if hasMap {
		q.maps = p.insert(q.maps, j)
	}
	if hasRed {
		q.reds = p.insert(q.reds, j)
	}
	switch {
	case pend > 0 && (q.first < 0 || js.arrival < q.first):
		q.first = js.arrival
	case hadPend && pend == 0 && js.arrival == q.first:
		q.rescan = true
	}
	if v.Done {
		js.active = false
		q.active--
	}
}

// refresh brings every pool up to date with the jobs that changed.
func (p *Policy) refresh() {
	for _, j := range p.dirty {
		p.jobs[j].isDirty = false
		if p.jobs[j].active {
			p.sync(j)
		}
	}
	p.dirty = p.dirty[:0]
	p.rescanFirst()
}

// rescanFirst recomputes the earliest pending arrival of the pools that
// lost theirs: the jobs with pending work are those in the two lists.
func (p *Policy) rescanFirst() {
	for i := range p.pools {
		q := &p.pools[i]
		if !q.rescan {
			continue
		}
		q.rescan, q.first = false, -1
		for _, l := range [2][]int{q.maps, q.reds} {
			for _, j := range l {
				if a := p.jobs[j].arrival; q.first < 0 || a < q.first {
					q.first = a
				}
			}
		}
	}
}

// sortPools puts the pool indices in fair order (§2.2).
func (p *Policy) sortPools() {
	p.order = p.order[:0]
	for i := range p.pools {
		if p.pools[i].active > 0 {
			p.order = append(p.order, i)
		}
	}
	key := func(i int) (needy bool, ratio float64) {
		q := &p.pools[i]
		if m := min(q.minShare, q.demand); q.running < m {
			return true, float64(q.running) / float64(m)
		}
		return false, float64(q.running) / q.weight
	}
	slices.SortFunc(p.order, func(a, b int) int {
		na, ra := key(a)
		nb, rb := key(b)
		switch {
		case na != nb:
			if na {
				return -1
			}
			return 1
		case ra != rb:
			if ra < rb {
				return -1
			}
			return 1
		}
		fa, fb := p.pools[a].first, p.pools[b].first
		if fa != fb && fa >= 0 && fb >= 0 {
			return int(fa - fb)
		}
		return a - b
	})
}

// Offer assigns node x's free slots in fair order.
func (p *Policy) Offer(s *sim.Sim, x int, free sim.Free) {
	maps, reds := free.Map, free.Reduce
	if p.H1Caps {
		maps, reds = min(maps, 1), min(reds, 1)
	}
	p.refresh()
	if free.Fungible {
		for n := free.Map; n > 0; n-- {
			if !p.assignMap(s, x) && !p.assignReduce(s, x) {
				return
			}
		}
		return
	}
	for ; maps > 0; maps-- {
		if !p.assignMap(s, x) {
			break
		}
	}
	for ; reds > 0; reds-- {
		if !p.assignReduce(s, x) {
			break
		}
	}
}

// launched books a launch of job j's task.
func (p *Policy) launched(j int) {
	p.sync(j)
	p.rescanFirst()
}

// assignMap launches one map on x by the delay-scheduling rule.
func (p *Policy) assignMap(s *sim.Sim, x int) bool {
	if s.Launchable(sim.Map) == 0 {
		return false
	}
	p.sortPools()
	now := s.Now()
	for _, i := range p.order {
		for _, j := range p.pools[i].maps {
			t, local, ok := s.PickMap(j, x)
			if !ok || !s.Fits(t, x) {
				continue
			}
			switch {
			case local || p.NoDelay:
				p.waited[j] = -1
			case p.waited[j] >= 0 && now-p.waited[j] >= p.w:
				// keeps waiting: non-local launches go on until a local one
			default:
				if p.waited[j] < 0 {
					p.waited[j] = now
					_ = s.SetTimer(now+p.w, int64(j))
				}
				continue
			}
			if s.Launch(t, x) != nil {
				return false
			}
			p.launched(j)
			return true
		}
	}
	return false
}

func (p *Policy) assignReduce(s *sim.Sim, x int) bool {
	if s.Launchable(sim.Reduce) == 0 {
		return false
	}
	p.sortPools()
	for _, i := range p.order {
		for _, j := range p.pools[i].reds {
			if t, ok := s.PickReduce(j); ok && s.Fits(t, x) {
				if s.Launch(t, x) != nil {
					return false
				}
				p.launched(j)
				return true
			}
		}
	}
	return false
}
