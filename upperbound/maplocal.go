package upperbound

import (
	"slices"

	"github.com/mrbound/mrbound/sim"
)

// mapLocal is srpt-hold's bookkeeping for its maps' locality: a job's last
// map that srpt would start away from its block is left to a slot on a
// node holding the block when one frees sooner than the non-local penalty
// (offerMaps). On the FB-2009 day at 20 nodes (3 replicas), 4634 of the
// 5369 jobs with one reduce or none and one wave of maps ended their map
// phase with a non-local map, 0.42 s of the mean turnaround
// (docs/results.md, issue 26, s25maps).
type mapLocal struct {
	// ends are, per node, the foreseen ends of its running maps not yet
	// promised to a deferred job (ends in the past are dropped as met).
	ends [][]float64
	// until is, per job, when the local slot its last map was left to
	// frees: until then srpt's map order passes over it.
	until []float64
}

func (l *List) initMapLocal() {
	l.local = &mapLocal{ends: make([][]float64, len(l.c.w.Cluster.Nodes)), until: make([]float64, len(l.st))}
	for j := range l.local.until {
		l.local.until[j] = -1
	}
}

// launchedMap notes a map launched on x for d (penalty included).
func (m *mapLocal) launchedMap(x int, end float64) {
	m.ends[x] = append(m.ends[x], end)
}

// offerMaps fills node x's free map slots in srpt's order, except that a
// job whose last map would run away from its block on x is passed over
// (the slot goes to the next job) when a map slot on a node holding that
// block frees within the penalty: the map then starts there at most that
// much later and ends sooner than it would have here. The promised end is
// taken out of the node's ends, so that one freeing slot is promised once.
func (l *List) offerMaps(s *sim.Sim, x int) {
	m := l.local
	now := float64(s.Now())
	for s.Free(x).Map > 0 && l.maps.Len() > 0 {
		j := l.maps.top()
		t, local, ok := s.PickMap(j, x)
		passed := ok && !local && s.Fits(t, x) &&
			(m.until[j] >= now || (l.st[j].pending[0] == 1 && l.deferMap(s, j, t, now)))
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

// deferMap reports whether job j's last map t should wait for a slot on a
// node holding its block, and promises it that slot's end.
func (l *List) deferMap(s *sim.Sim, j int, t sim.TaskID, now float64) bool {
	m := l.local
	pen := float64(l.c.w.Cluster.NonLocalPenalty)
	best, bestNode, bestIdx := now+pen, -1, -1
	for _, y := range s.Replicas(t) {
		if y < 0 {
			break
		}
		if s.Free(int(y)).Map > 0 {
			// A local slot is free now: the engine offers it in this round.
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

// launchPassing launches on x a map of the best job not passed over (a job
// it would run away from its last map's block it may pass over in turn),
// and reports whether it launched one.
func (l *List) launchPassing(s *sim.Sim, x int, now float64) bool {
	m := l.local
	for {
		c, ct := -1, sim.TaskID(-1)
		for i := range l.maps.Len() {
			o := l.maps.at(i)
			if c >= 0 && !l.maps.less(o, c) {
				continue
			}
			if t, local, ok := s.PickMap(o, x); ok && s.Fits(t, x) && (local || m.until[o] < now) {
				c, ct = o, t
			}
		}
		if c < 0 {
			return false
		}
		if t, local, _ := s.PickMap(c, x); !local && l.st[c].pending[0] == 1 && l.deferMap(s, c, t, now) {
			continue
		}
		return l.launch(s, x, c, ct)
	}
}

// mapLocalOn switches offerMaps on (measurement; a test may turn it off).
var mapLocalOn = true
