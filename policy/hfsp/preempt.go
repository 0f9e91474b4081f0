package hfsp

import (
	"slices"

	"github.com/mrbound/mrbound/sim"
)

// pending is phase i's launchable pending task count (0 for reduces not
// yet eligible).
func (p *Policy) pending(i int) int {
	f := &p.ph[i]
	if !p.s.HasWork(f.job, f.kind) {
		return 0
	}
	v := p.s.Job(f.job)
	if f.kind == sim.Map {
		return v.MapsPending
	}
	return v.RedsPending
}

// preempt kills or suspends the running tasks outside the ideal
// allocation, newest first, as many as higher-priority tasks wait (A-H7).
func (p *Policy) preempt() {
	s := p.s
	clear(p.run)
	for _, t := range s.Running() {
		tv := s.Task(t)
		p.run[2*tv.Job+ki(tv.Kind)]++
	}
	for qi := range p.pools {
		q := &p.pools[qi]
		p.prune(q)
		order := append(p.scratch[:0], q.phases...)
		slices.SortFunc(order, func(a, b int) int {
			if p.less(a, b) {
				return -1
			}
			return 1
		})
		p.scratch = order
		left, wanted, anyOver := q.slots, 0, false
		for _, i := range order {
			run, pend, sus := int(p.run[i]), p.pending(i), int(p.suspN[i])
			ideal := min(run+pend+sus, left)
			left -= ideal
			p.over[i] = int32(run - ideal) // < 0: wants more, > 0: over
			anyOver = anyOver || run > ideal
			if ideal > run {
				wanted += min(pend+sus, ideal-run)
			}
		}
		if !anyOver || wanted == 0 {
			for _, i := range order {
				p.over[i] = 0
			}
			continue
		}
		vs := p.victims[:0]
		for _, t := range s.Running() {
			tv := s.Task(t)
			if i := 2*tv.Job + ki(tv.Kind); p.ph[i].pool == qi && p.over[i] > 0 && !p.training[t] {
				vs = append(vs, t)
			}
		}
		slices.SortFunc(vs, func(a, b sim.TaskID) int {
			la, lb := s.Task(a).Launch, s.Task(b).Launch
			if la != lb {
				return int(lb - la)
			}
			return int(b - a)
		})
		p.victims = vs
		for _, t := range vs {
			if wanted == 0 {
				break
			}
			tv := s.Task(t)
			i := 2*tv.Job + ki(tv.Kind)
			if p.over[i] <= 0 || !p.hostsWaiting(order, tv.Node, tv.Kind) {
				continue
			}
			var err error
			if p.opt.Preemption == Kill {
				err = s.Kill(t)
			} else {
				err = s.Suspend(t)
				if err == nil {
					p.susp[tv.Node] = append(p.susp[tv.Node], t)
					p.suspN[i]++
				}
			}
			if err == nil {
				p.over[i]--
				wanted--
				p.preempted++
			}
		}
		for _, i := range order {
			p.over[i] = 0
		}
	}
}

// hostsWaiting reports whether a pending task of a phase below its ideal
// allocation (over < 0) fits on node x
// now, so that the slot a victim frees there serves it.
//
// Only a task of the victim's kind counts: in fungible mode a reduce that
// took a map's slot could wait for that very map forever.
func (p *Policy) hostsWaiting(order []int, x int, k sim.Kind) bool {
	for _, i := range order {
		if p.over[i] > 0 {
			return false // the rest are over their allocation or get nothing
		}
		if p.over[i] == 0 || p.ph[i].kind != k {
			continue
		}
		if _, ok := p.pick(i, x); ok {
			return true
		}
		if _, ok := p.suspendedOn(i, x); ok {
			return true
		}
	}
	return false
}
