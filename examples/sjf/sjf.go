package sjf

import (
	"cmp"
	"slices"

	"github.com/mrbound/mrbound/sim"
)

// Policy is SJF; its zero value is not ready: use New.
type Policy struct {
	active []int      // arrived jobs not done, in arrival order
	left   []sim.Time // job → estimated work of its pending tasks
	in     []bool     // job → in active
	order  []int      // an offer's order (kept to reuse its memory)
}

// New returns an SJF policy.
func New() *Policy { return &Policy{} }

// Name is "sjf".
func (p *Policy) Name() string { return "sjf" }

// Init sizes the per-job state.
func (p *Policy) Init(s *sim.Sim) error {
	p.active = p.active[:0]
	p.left = make([]sim.Time, s.NumJobs())
	p.in = make([]bool, s.NumJobs())
	return nil
}

// est is task t's estimate on node 0's class, or 1 without estimates.
func est(s *sim.Sim, t sim.TaskID) sim.Time {
	if e, ok := s.Estimate(t, 0); ok {
		return e
	}
	return 1
}

// JobArrival adds j with its estimated work.
func (p *Policy) JobArrival(s *sim.Sim, j int) {
	v := s.Job(j)
	var w sim.Time
	for i := range v.NumMaps {
		w += est(s, v.FirstMap+sim.TaskID(i))
	}
	for i := range v.NumReduces {
		w += est(s, v.FirstRed+sim.TaskID(i))
	}
	p.active, p.left[j], p.in[j] = append(p.active, j), w, true
}

// TaskEnd drops a job once it is done.
func (p *Policy) TaskEnd(s *sim.Sim, t sim.TaskID, _ sim.Time) {
	j := s.Task(t).Job
	if p.in[j] && s.Job(j).Done {
		p.in[j] = false
		p.active = slices.DeleteFunc(p.active, func(k int) bool { return k == j })
	}
}

// Timer is unused.
func (p *Policy) Timer(*sim.Sim, int64) {}

// Offer fills node x's free slots in the order of the jobs' work left.
func (p *Policy) Offer(s *sim.Sim, x int, free sim.Free) {
	p.order = append(p.order[:0], p.active...)
	slices.SortFunc(p.order, func(a, b int) int {
		if p.left[a] != p.left[b] {
			return cmp.Compare(p.left[a], p.left[b])
		}
		if aa, ab := s.Job(a).Arrival, s.Job(b).Arrival; aa != ab {
			return cmp.Compare(aa, ab)
		}
		return cmp.Compare(a, b)
	})
	if free.Fungible {
		for n := free.Map; n > 0 && p.launch(s, x, sim.Map, sim.Reduce); n-- {
		}
		return
	}
	for n := free.Map; n > 0 && p.launch(s, x, sim.Map); n-- {
	}
	for n := free.Reduce; n > 0 && p.launch(s, x, sim.Reduce); n-- {
	}
}

// launch starts one task of a kind in kinds on x, from the first job in
// the offer's order that has one that fits.
func (p *Policy) launch(s *sim.Sim, x int, kinds ...sim.Kind) bool {
	for _, j := range p.order {
		for _, k := range kinds {
			if !s.HasWork(j, k) {
				continue
			}
			var t sim.TaskID
			ok := false
			if k == sim.Map {
				t, _, ok = s.PickMap(j, x)
			} else {
				t, ok = s.PickReduce(j)
			}
			if !ok || !s.Fits(t, x) {
				continue
			}
			if s.Launch(t, x) != nil {
				return false
			}
			p.left[j] -= est(s, t)
			return true
		}
	}
	return false
}
