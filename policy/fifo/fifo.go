package fifo

import (
	"slices"

	"github.com/mrbound/mrbound/sim"
)

// Order is the queue key. The zero value is unknown.
type Order uint8

// Queue orders.
const (
	OrderUnknown  Order = iota
	OrderArrival        // FIFO
	OrderDeadline       // EDF
)

// Policy is FIFO or EDF.
type Policy struct {
	order Order
	// H1Caps applies Hadoop 1's per-heartbeat caps (§1.6); it only makes
	// sense with heartbeats.
	H1Caps bool

	// mapQ holds the arrived jobs whose map phase is not over, redQ those
	// with reduces not all done, both in key order. A job whose tasks all
	// run stays: a kill by a wrapping policy may give it work again.
	mapQ, redQ []int
	keys       []key // per job, set at arrival
	s          *sim.Sim
	// mapDirty, redDirty: a map phase or a job ended since the last prune.
	mapDirty, redDirty bool
	// remainingMaps counts the unfinished maps of arrived jobs (the load
	// factor's numerator, §1.6).
	remainingMaps int
}

// New returns FIFO.
func New() *Policy { return &Policy{order: OrderArrival} }

// NewEDF returns MRCP's EDF.
func NewEDF() *Policy { return &Policy{order: OrderDeadline} }

// Name is "fifo" or "edf".
func (p *Policy) Name() string {
	if p.order == OrderDeadline {
		return "edf"
	}
	return "fifo"
}

// Init resets the queue.
func (p *Policy) Init(s *sim.Sim) error {
	p.s = s
	p.mapQ, p.redQ = p.mapQ[:0], p.redQ[:0]
	p.keys = make([]key, s.NumJobs())
	p.remainingMaps = 0
	return nil
}

// key is a job's queue key, kept at arrival so that comparisons are cheap.
type key struct {
	deadline, arrival sim.Time
	priority          int
}

func (p *Policy) less(a, b int) bool {
	ja, jb := &p.keys[a], &p.keys[b]
	if p.order == OrderDeadline && ja.deadline != jb.deadline {
		return ja.deadline < jb.deadline
	}
	if p.order == OrderArrival && ja.priority != jb.priority {
		return ja.priority > jb.priority
	}
	if ja.arrival != jb.arrival {
		return ja.arrival < jb.arrival
	}
	return a < b
}

// JobArrival inserts j in key order.
func (p *Policy) JobArrival(s *sim.Sim, j int) {
	v := s.Job(j)
	p.keys[j] = key{deadline: v.Deadline, arrival: v.Arrival, priority: v.Priority}
	p.mapQ = p.insert(p.mapQ, j)
	if v.NumReduces > 0 {
		p.redQ = p.insert(p.redQ, j)
	}
	p.remainingMaps += v.NumMaps
}

func (p *Policy) insert(q []int, j int) []int {
	i, _ := slices.BinarySearchFunc(q, j, func(a, j int) int {
		if p.less(a, j) {
			return -1
		}
		return 1
	})
	return slices.Insert(q, i, j)
}

// TaskEnd counts finished maps for the load factor and notes completions.
func (p *Policy) TaskEnd(s *sim.Sim, t sim.TaskID, _ sim.Time) {
	v := s.Task(t)
	if v.Kind == sim.Map {
		p.remainingMaps--
	}
	if jv := s.Job(v.Job); jv.MapPhaseDone && v.Kind == sim.Map {
		p.mapDirty = true
	} else if jv.Done {
		p.redDirty = true
	}
}

// Timer is unused.
func (p *Policy) Timer(*sim.Sim, int64) {}

// prune drops finished jobs from the heads of the queues: map phases and
// jobs end roughly in queue order, and a finished job further back costs a
// skipped entry until it reaches the head (removing it there keeps a prune
// O(1) amortised instead of O(queue)).
func (p *Policy) prune() {
	if p.mapDirty {
		p.mapDirty = false
		p.mapQ = trimHead(p.mapQ, func(j int) bool { return p.s.Job(j).MapPhaseDone })
	}
	if p.redDirty {
		p.redDirty = false
		p.redQ = trimHead(p.redQ, func(j int) bool { return p.s.Job(j).Done })
	}
}

// trimHead drops the leading jobs that are over, moving the rest down in
// place so that the queue keeps its capacity (no allocation per prune).
func trimHead(q []int, over func(int) bool) []int {
	k := 0
	for k < len(q) && over(q[k]) {
		k++
	}
	if k == 0 {
		return q
	}
	return append(q[:0], q[k:]...)
}

// Offer fills node x's free slots (§2.1).
func (p *Policy) Offer(s *sim.Sim, x int, free sim.Free) {
	p.prune()
	if p.H1Caps && !free.Fungible {
		p.offerCapped(s, x, free)
		return
	}
	if free.Fungible {
		for n := free.Map; n > 0; n-- {
			if !p.launchMap(s, x, false) && !p.launchReduce(s, x) {
				return
			}
		}
		return
	}
	for n := free.Map; n > 0; n-- {
		if !p.launchMap(s, x, false) {
			break
		}
	}
	for n := free.Reduce; n > 0; n-- {
		if !p.launchReduce(s, x) {
			break
		}
	}
}

// launchMap launches pickTask of the first job with map work; with
// localOnly it takes a local map or nothing from that job.
func (p *Policy) launchMap(s *sim.Sim, x int, localOnly bool) bool {
	if s.Launchable(sim.Map) == 0 {
		return false
	}
	for _, j := range p.mapQ {
		if !s.HasWork(j, sim.Map) {
			continue
		}
		t, local, ok := s.PickMap(j, x)
		if !ok {
			continue
		}
		if localOnly && !local || !s.Fits(t, x) {
			return false
		}
		return s.Launch(t, x) == nil
	}
	return false
}

func (p *Policy) launchReduce(s *sim.Sim, x int) bool {
	if s.Launchable(sim.Reduce) == 0 {
		return false
	}
	for _, j := range p.redQ {
		if !s.HasWork(j, sim.Reduce) {
			continue
		}
		if t, ok := s.PickReduce(j); ok {
			return s.Fits(t, x) && s.Launch(t, x) == nil
		}
	}
	return false
}

// offerCapped is Hadoop 1's assignTasks with the load-factor cap [H1].
func (p *Policy) offerCapped(s *sim.Sim, x int, free sim.Free) {
	node := s.Cluster().Nodes[x]
	remaining, clusterMapSlots := p.remainingMaps, 0
	for _, n := range s.Cluster().Nodes {
		clusterMapSlots += n.MapSlots
	}
	if clusterMapSlots > 0 && !free.Fungible {
		capX := min((remaining*node.MapSlots+clusterMapSlots-1)/clusterMapSlots, node.MapSlots)
		running := node.MapSlots - free.Map
		for slot := running; slot < capX; slot++ {
			launched := false
			for _, j := range p.mapQ {
				t, local, ok := s.PickMap(j, x)
				if !ok {
					continue
				}
				if !s.Fits(t, x) || s.Launch(t, x) != nil {
					return
				}
				if !local {
					slot = capX // a non-local map ends map assignment
				}
				launched = true
				break
			}
			if !launched {
				break
			}
		}
	}
	if free.Reduce > 0 {
		p.launchReduce(s, x)
	}
}
