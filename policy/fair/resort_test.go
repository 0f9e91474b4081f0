package fair

import (
	"slices"

	"github.com/mrbound/mrbound/sim"
)

// resort is the fair scheduler as first written: it re-reads every active
// job at each offer and re-sorts pools and jobs before each assignment. The
// incremental Policy must make the same decisions.
type resort struct {
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
	active []int      // arrived, not done
	waited []sim.Time // per job: when it was first skipped; -1 = not waiting
	pools  []resortPool
	order  []int // pool indices in fair order (scratch)
	// per job, refreshed once per offer: running tasks and arrival (cheap
	// sort keys)
	run     []int
	arrival []sim.Time
	// doneSeen: a job completed since the last prune.
	doneSeen bool
}

type resortPool struct {
	minShare int
	weight   float64
	running  int
	demand   int
	first    sim.Time // earliest arrival of a job with pending work
	jobs     []int
}

func (p *resort) Name() string { return "fair" }

// Init sets up one pool per user (one pool when there are no users).
func (p *resort) Init(s *sim.Sim) error {
	p.s = s
	p.active = p.active[:0]
	p.waited = make([]sim.Time, s.NumJobs())
	p.run = make([]int, s.NumJobs())
	p.arrival = make([]sim.Time, s.NumJobs())
	for i := range p.waited {
		p.waited[i] = -1
	}
	users := s.Users()
	p.pools = make([]resortPool, max(1, len(users)))
	for i := range p.pools {
		p.pools[i].weight = 1
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

// JobArrival adds j to the active jobs.
func (p *resort) JobArrival(_ *sim.Sim, j int) { p.active = append(p.active, j) }

// TaskEnd notes completions.
func (p *resort) TaskEnd(s *sim.Sim, t sim.TaskID, _ sim.Time) {
	if s.Job(s.Task(t).Job).Done {
		p.doneSeen = true
	}
}

// Timer: a locality wait ended; the engine re-offers idle slots.
func (p *resort) Timer(*sim.Sim, int64) {}

func (p *resort) poolOf(j int) int {
	u := p.s.Job(j).User
	if u < 0 || u >= len(p.pools) {
		return 0
	}
	return u
}

// refresh recomputes each pool's jobs, running tasks and demand.
func (p *resort) refresh() {
	if p.doneSeen {
		p.doneSeen = false
		p.active = slices.DeleteFunc(p.active, func(j int) bool { return p.s.Job(j).Done })
	}
	for i := range p.pools {
		q := &p.pools[i]
		q.jobs, q.running, q.demand, q.first = q.jobs[:0], 0, 0, -1
	}
	for _, j := range p.active {
		v := p.s.Job(j)
		q := &p.pools[p.poolOf(j)]
		q.jobs = append(q.jobs, j)
		run := v.RunningMaps + v.RunningReds
		p.run[j], p.arrival[j] = run, v.Arrival
		pend := v.MapsPending
		if v.ReducesEligible {
			pend += v.RedsPending
		}
		q.running += run
		q.demand += run + pend
		if pend > 0 && (q.first < 0 || v.Arrival < q.first) {
			q.first = v.Arrival
		}
	}
}

// sortPools puts the pool indices in fair order (§2.2).
func (p *resort) sortPools() {
	p.order = p.order[:0]
	for i := range p.pools {
		if len(p.pools[i].jobs) > 0 {
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

// sortJobs orders a pool's jobs: fewest running tasks first (min share 0,
// weight 1), then arrival, then id; or arrival with PoolFIFO.
func (p *resort) sortJobs(q *resortPool) {
	slices.SortFunc(q.jobs, func(a, b int) int {
		if !p.PoolFIFO && p.run[a] != p.run[b] {
			return p.run[a] - p.run[b]
		}
		if p.arrival[a] != p.arrival[b] {
			return int(p.arrival[a] - p.arrival[b])
		}
		return a - b
	})
}

// Offer assigns node x's free slots in fair order.
func (p *resort) Offer(s *sim.Sim, x int, free sim.Free) {
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

// launched books a launch of job j's task in the per-offer counts.
func (p *resort) launched(j int) {
	p.run[j]++
	q := &p.pools[p.poolOf(j)]
	q.running++
	if p.s.HasWork(j, sim.Map) || p.s.HasWork(j, sim.Reduce) {
		return
	}
	// j has nothing pending any more: the pool's earliest pending arrival
	// (a tie-break) may move
	q.first = -1
	for _, k := range q.jobs {
		if (p.s.HasWork(k, sim.Map) || p.s.HasWork(k, sim.Reduce)) && (q.first < 0 || p.arrival[k] < q.first) {
			q.first = p.arrival[k]
		}
	}
}

// assignMap launches one map on x by the delay-scheduling rule.
func (p *resort) assignMap(s *sim.Sim, x int) bool {
	if s.Launchable(sim.Map) == 0 {
		return false
	}
	p.sortPools()
	now := s.Now()
	for _, i := range p.order {
		q := &p.pools[i]
		p.sortJobs(q)
		for _, j := range q.jobs {
			if !s.HasWork(j, sim.Map) {
				continue
			}
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

func (p *resort) assignReduce(s *sim.Sim, x int) bool {
	if s.Launchable(sim.Reduce) == 0 {
		return false
	}
	p.sortPools()
	for _, i := range p.order {
		q := &p.pools[i]
		p.sortJobs(q)
		for _, j := range q.jobs {
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
