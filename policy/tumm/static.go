package tumm

import (
	"fmt"

	"github.com/mrbound/mrbound/formulations/tumm"
	"github.com/mrbound/mrbound/sim"
)

// SplitKind says where a static split comes from. The zero value is unknown.
type SplitKind uint8

// Split kinds.
const (
	SplitUnknown SplitKind = iota
	SplitRatio             // map:reduce per node (1:3, 2:2, 3:1 on 4-slot nodes)
	SplitAlg1              // Algorithm 1's cluster split, spread evenly over the nodes
	SplitNodes             // each node's own MapSlots/ReduceSlots (Table 3's configuration)
)

// Static is FIFO with a fixed map/reduce split per node on a fungible
// cluster: node x runs at most mapCap[x] maps and redCap[x] reduces at once,
// exactly as fixed slots would (§6.2.1's static baselines).
type Static struct {
	core
	kind           SplitKind
	ratioM, ratioR int
	mapCap, redCap []int
	// Alg1MapSlots is Algorithm 1's s_m (SplitAlg1, once decided).
	Alg1MapSlots int
	decided      bool
}

// NewStaticRatio is the per-node ratio m:r (each node's slots split in that
// proportion, rounded, at least one slot of each kind when it has two).
func NewStaticRatio(m, r int) *Static { return &Static{kind: SplitRatio, ratioM: m, ratioR: r} }

// NewStaticAlg1 takes Algorithm 1's best static split of the whole cluster,
// computed at the first offer from the jobs that have arrived (the batch)
// and their mean estimated task times (task counts alone without
// estimates), spread evenly over the nodes (§4.4: s_m = 5 on two 6-slot
// nodes gives 2 and 3 map slots).
func NewStaticAlg1() *Static { return &Static{kind: SplitAlg1} }

// NewStaticNodes uses each node's configured MapSlots/ReduceSlots.
func NewStaticNodes() *Static { return &Static{kind: SplitNodes} }

// Name is "static:M:R", "static:alg1" or "static:nodes".
func (p *Static) Name() string {
	switch p.kind {
	case SplitRatio:
		return fmt.Sprintf("static:%d:%d", p.ratioM, p.ratioR)
	case SplitAlg1:
		return "static:alg1"
	}
	return "static:nodes"
}

// Init sets the per-node caps (Algorithm 1's at the first offer).
func (p *Static) Init(s *sim.Sim) error {
	if err := p.core.init(s, p.Name()); err != nil {
		return err
	}
	nodes := s.Cluster().Nodes
	p.mapCap, p.redCap = make([]int, len(nodes)), make([]int, len(nodes))
	p.decided = p.kind != SplitAlg1
	for x, n := range nodes {
		switch p.kind {
		case SplitRatio:
			if p.ratioM < 0 || p.ratioR < 0 || p.ratioM+p.ratioR == 0 {
				return fmt.Errorf("%s: a ratio needs non-negative parts, not both 0", p.Name())
			}
			m := (2*n.TotalSlots*p.ratioM + p.ratioM + p.ratioR) / (2 * (p.ratioM + p.ratioR)) // rounded half up
			if n.TotalSlots >= 2 {
				m = clamp(m, 1, n.TotalSlots-1)
			}
			p.mapCap[x], p.redCap[x] = m, n.TotalSlots-m
		case SplitNodes:
			if n.MapSlots+n.ReduceSlots > n.TotalSlots {
				return fmt.Errorf("%s: node %d: %d map + %d reduce slots exceed its %d slots", p.Name(), x, n.MapSlots, n.ReduceSlots, n.TotalSlots)
			}
			p.mapCap[x], p.redCap[x] = n.MapSlots, n.ReduceSlots
		}
	}
	p.Alg1MapSlots = 0
	if p.kind == SplitAlg1 {
		// Algorithm 1's s_m is clamped at the first offer to leave a slot
		// of each kind the workload has; a single slot cannot hold both.
		if p.needMap && p.needRed && p.slots < 2 {
			return fmt.Errorf("%s: a split of this 1-slot cluster leaves no slot for maps or for reduces, and the workload has both", p.Name())
		}
		return nil
	}
	maps, reds := 0, 0
	for x := range nodes {
		maps += p.mapCap[x]
		reds += p.redCap[x]
	}
	if p.kind == SplitNodes && maps+reds == 0 {
		return fmt.Errorf("%s: the nodes have no configured split (map_slots, reduce_slots)", p.Name())
	}
	// A split without one kind starves that kind, as fixed slots would:
	// legitimate for a workload without it (Fig 6's map-only static:nodes),
	// a run that cannot finish otherwise.
	return p.refuseEmptyKind(maps, reds)
}

// decideAlg1 runs Algorithm 1 over the arrived jobs in FIFO order.
func (p *Static) decideAlg1() {
	p.decided = true
	S := 0
	nodes := p.s.Cluster().Nodes
	for _, n := range nodes {
		S += n.TotalSlots
	}
	var jobs []tumm.Job
	for _, j := range p.queue {
		v := p.s.Job(j)
		tm, tr := meanEstimate(p.s, v.FirstMap, v.NumMaps), meanEstimate(p.s, v.FirstRed, v.NumReduces)
		if tm == 0 || tr == 0 { // no estimates (or no tasks): counts alone
			tm, tr = 1, 1
		}
		jobs = append(jobs, tumm.Job{Name: fmt.Sprint(j), MapTasks: v.NumMaps, ReduceTasks: v.NumReduces, MapTime: tm, ReduceTime: tr})
	}
	sm := S / 2
	if res, err := tumm.StaticConfig(jobs, S); err == nil {
		sm = res.MapSlots
	}
	// Leave a slot of each kind the workload has (Init refused S < 2 when
	// it has both).
	if p.needMap {
		sm = max(sm, 1)
	}
	if p.needRed {
		sm = min(sm, S-1)
	}
	p.Alg1MapSlots = sm
	caps := SpreadWithin(sm, nodes)
	for x, n := range nodes {
		m := caps[x]
		if n.TotalSlots >= 2 {
			m = clamp(m, 1, n.TotalSlots-1)
		}
		p.mapCap[x], p.redCap[x] = m, n.TotalSlots-m
	}
}

// SpreadWithin splits total slots over the nodes as evenly as possible
// (SpreadEvenly over the nodes with slots), never giving a node more than
// its TotalSlots: a slot that does not fit goes to the next node with room.
// With total ≤ the cluster's slots the parts sum to total.
func SpreadWithin(total int, nodes []sim.Node) []int {
	out := make([]int, len(nodes))
	for left := total; left > 0; {
		placed := false
		for x, n := range nodes {
			if left > 0 && out[x] < n.TotalSlots {
				out[x]++
				left--
				placed = true
			}
		}
		if !placed {
			break
		}
	}
	return out
}

// JobArrival queues j.
func (p *Static) JobArrival(_ *sim.Sim, j int) { p.arrive(j) }

// TaskEnd updates the running counts. Static never declines a slot with
// work for it in its caps, so it needs no wake.
func (p *Static) TaskEnd(_ *sim.Sim, t sim.TaskID, _ sim.Time) { p.ended(t) }

// Timer is unused.
func (p *Static) Timer(*sim.Sim, int64) {}

// MapCaps are the per-node map slot counts in force (nil before Init).
func (p *Static) MapCaps() []int { return p.mapCap }

// Offer fills node x's map slots then its reduce slots in FIFO order, within
// the node's split. Its decisions depend only on the node's own counts and
// the jobs' work, so it needs no wake beyond the engine's.
func (p *Static) Offer(s *sim.Sim, x int, free sim.Free) {
	p.prune()
	if !p.decided {
		p.decideAlg1()
	}
	n := free.Map
	for n > 0 && p.runMap[x] < p.mapCap[x] {
		if _, ok := p.launchKind(sim.Map, x); !ok {
			break
		}
		n--
	}
	for n > 0 && p.runRed[x] < p.redCap[x] {
		if _, ok := p.launchKind(sim.Reduce, x); !ok {
			break
		}
		n--
	}
}
