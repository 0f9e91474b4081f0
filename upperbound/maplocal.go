package upperbound

import (
	"slices"

	"github.com/mrbound/mrbound/sim"
)

// mapLocal is srpt-hold's bookkeeping for its maps' locality: a job's last
// map, or any map of a job whose maps fit in one wave (waitsLocal), that
// srpt would start away from its block is left to a slot on a node holding
// the block when one frees sooner than the non-local penalty (offerMaps).
// On the FB-2009 day at 20 nodes (3 replicas), 4634 of the 5369 jobs with
// one reduce or none and one wave of maps ended their map phase with a
// non-local map, 0.42 s of the mean turnaround (docs/results.md, issue 26,
// s25maps).
type mapLocal struct {
	// ends are, per node, the foreseen ends of its running maps not yet
	// promised to a passed-over job (ends in the past are dropped as met).
	ends [][]float64
	// until is, per job, when the local slot its waiting map was left to
	// frees (−1: none): until then srpt's map order passes over it on
	// nodes without its block.
	until []float64
}

// localReduceQueue caps the jobs with a reduce waiting, as a share of the
// reduce slots, beyond which a job with reduces is not passed over: its
// earlier map end then does not start its reduce sooner, only reorders the
// reduce queue. Ungated, the rule lost 0.71 s at 10 nodes (reduce load
// about 2), over the search's seeds 0–4; with ⌈R/5⌉ as srpt-hold's
// reservation gate of s23reserve, it lost nothing there and kept most of
// its gain at 20 nodes (docs/results.md, issue 26, s25maps).
const localReduceQueue = 0.2

func (l *List) initMapLocal() {
	l.local = &mapLocal{ends: make([][]float64, len(l.c.w.Cluster.Nodes)), until: make([]float64, len(l.st))}
	for j := range l.local.until {
		l.local.until[j] = -1
	}
}

// launchedMap notes a map launched on x that ends at end (penalty
// included).
func (m *mapLocal) launchedMap(x int, end float64) {
	m.ends[x] = append(m.ends[x], end)
}

// offerMaps fills node x's free map slots in srpt's order, except that a
// job whose next map may wait (waitsLocal) and would run away from its
// block on x is passed over (the slot goes to the next job) when a map slot
// on a node holding that block frees within the penalty (deferMap): the map
// then starts there at most that much later and ends sooner than it would
// have here.
func (l *List) offerMaps(s *sim.Sim, x int) {
	m := l.local
	now := float64(s.Now())
	for s.Free(x).Map > 0 && l.maps.Len() > 0 {
		j := l.maps.top()
		t, local, ok := s.PickMap(j, x)
		passed := ok && !local && s.Fits(t, x) && (m.until[j] >= now || l.deferMap(s, j, t, now))
		if !passed {
			if !l.launchFrom(s, x, l.maps) {
				return
			}
			continue
		}
		if !l.launchPassing(s, x, now) {
			return
		}
	}
}

// deferMap reports whether job j's map t, to run away from its block,
// should wait for a slot on a node holding the block, and promises it that
// slot's end: when t may wait (waitsLocal), the reduce queue is short (or
// j has no reduce) and such a slot is free now (the engine offers it in
// this round) or frees within the penalty. The promised end is taken out of the
// node's ends, so that one freeing slot is promised once.
func (l *List) deferMap(s *sim.Sim, j int, t sim.TaskID, now float64) bool {
	m := l.local
	if !l.waitsLocal(j) || (l.st[j].pending[1] > 0 && float64(l.reds.Len()) > localReduceQueue*l.c.slots[1]) {
		return false
	}
	best, bestNode, bestIdx := now+float64(l.c.w.Cluster.NonLocalPenalty), -1, -1
	for _, y := range s.Replicas(t) {
		if y < 0 {
			break
		}
		if s.Free(int(y)).Map > 0 {
			m.until[j] = now
			return true
		}
		ends := m.ends[y][:0]
		for _, e := range m.ends[y] {
			if e > now {
				ends = append(ends, e)
			}
		}
		m.ends[y] = ends
		for k, e := range ends {
			if e < best {
				best, bestNode, bestIdx = e, int(y), k
			}
		}
	}
	if bestNode < 0 {
		return false
	}
	m.ends[bestNode] = slices.Delete(m.ends[bestNode], bestIdx, bestIdx+1)
	m.until[j] = best
	return true
}

// launchPassing launches on x a map of the best job not passed over there
// (one it would run away from a waiting map's block may be passed over in
// turn), and reports whether it launched one.
func (l *List) launchPassing(s *sim.Sim, x int, now float64) bool {
	m := l.local
	for {
		c, ct, cLocal := -1, sim.TaskID(-1), false
		for i := range l.maps.Len() {
			o := l.maps.at(i)
			if c >= 0 && !l.maps.less(o, c) {
				continue
			}
			if t, local, ok := s.PickMap(o, x); ok && s.Fits(t, x) && (local || m.until[o] < now) {
				c, ct, cLocal = o, t, local
			}
		}
		if c < 0 {
			return false
		}
		if !cLocal && l.deferMap(s, c, ct, now) {
			continue
		}
		return l.launch(s, x, c, ct)
	}
}

// waitsLocal reports whether job j's next map may wait for a local slot:
// its last map, or any map of a job whose maps fit in one wave of the map
// slots (its maps run at once, so the latest of them ends its map phase;
// over the search's seeds 0–4 this was lower than the last map alone at
// 10, 20, 40 and 100 nodes: docs/results.md, issue 26, s26local).
func (l *List) waitsLocal(j int) bool {
	return l.st[j].pending[0] == 1 || float64(len(l.c.dur[0][j])) <= l.c.slots[0]
}
