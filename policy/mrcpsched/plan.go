package mrcpsched

import (
	"slices"

	"github.com/mrbound/mrbound/sim"
)

// plannedTask is an unstarted task with its planned start (seconds from the
// problem's origin) and node.
type plannedTask struct {
	task  sim.TaskID
	kind  sim.Kind
	start int
	node  int
}

// schedule is a plan for the current problem with its score.
type schedule struct {
	tasks []plannedTask
	// late is the number of late jobs, z the latest completion (from now).
	late, z int
}

// value is the Table 1 objective (late + 1) · z.
func (s *schedule) value() int { return (s.late + 1) * s.z }

// slotClock holds, per kind and node, when each slot is next free.
type slotClock [3][][]int

func newSlotClock(p *problem) slotClock {
	var c slotClock
	for _, k := range []sim.Kind{sim.Map, sim.Reduce} {
		c[k] = make([][]int, len(p.slots[k]))
		for x, n := range p.slots[k] {
			c[k][x] = make([]int, n)
		}
	}
	for _, r := range p.run {
		if r.node < 0 || r.node >= len(c[r.kind]) {
			continue
		}
		free := c[r.kind][r.node]
		// the slot the task holds: the first still free at 0
		for i := range free {
			if free[i] == 0 {
				free[i] = r.end
				break
			}
		}
	}
	return c
}

// earliest returns the node and slot of kind k free the earliest (lowest
// node, then slot, on ties) and when.
func (c slotClock) earliest(k sim.Kind) (node, slot, at int) {
	node, slot, at = -1, -1, 0
	for x, free := range c[k] {
		for i, f := range free {
			if node < 0 || f < at {
				node, slot, at = x, i, f
			}
		}
	}
	return
}

// place returns a slot of kind k free at time t: the lowest node with one,
// else (a plan off by a rounding) the earliest free slot.
func (c slotClock) place(k sim.Kind, t int) (node, slot int) {
	for x, free := range c[k] {
		for i, f := range free {
			if f <= t {
				return x, i
			}
		}
	}
	node, slot, _ = c.earliest(k)
	return node, slot
}

// greedy list-schedules the jobs in order: each job's unstarted maps go to
// the earliest free map slots, then its reduces to the earliest free reduce
// slots after its last map ends.
func greedy(p *problem, order []int) *schedule {
	c := newSlotClock(p)
	s := &schedule{}
	ends := make([]int, len(p.jobs))
	for _, j := range order {
		pj := &p.jobs[j]
		mapEnd := pj.runMapEnd
		for _, g := range pj.mapGroups {
			gr := &p.groups[g]
			for _, id := range gr.tasks {
				x, i, at := c.earliest(sim.Map)
				if x < 0 {
					return nil
				}
				c[sim.Map][x][i] = at + gr.dur
				mapEnd = max(mapEnd, at+gr.dur)
				s.tasks = append(s.tasks, plannedTask{task: id, kind: sim.Map, start: at, node: x})
			}
		}
		end := max(pj.runEnd, mapEnd)
		for _, g := range pj.redGroups {
			gr := &p.groups[g]
			x, i, at := c.earliestAfter(sim.Reduce, mapEnd)
			if x < 0 {
				return nil
			}
			c[sim.Reduce][x][i] = at + gr.dur
			end = max(end, at+gr.dur)
			s.tasks = append(s.tasks, plannedTask{task: gr.tasks[0], kind: sim.Reduce, start: at, node: x})
		}
		ends[j] = end
	}
	s.score(p, ends)
	return s
}

// earliestAfter is the slot of kind k that can start a task the earliest at
// or after t.
func (c slotClock) earliestAfter(k sim.Kind, t int) (node, slot, at int) {
	node, slot, at = -1, -1, 0
	for x, free := range c[k] {
		for i, f := range free {
			if s := max(f, t); node < 0 || s < at {
				node, slot, at = x, i, s
			}
		}
	}
	return
}

// score sets late and z from the jobs' completions (ends; jobs with only
// running tasks end with them).
func (s *schedule) score(p *problem, ends []int) {
	s.late, s.z = 0, 0
	for j := range p.jobs {
		e := max(ends[j], p.jobs[j].runEnd)
		s.z = max(s.z, e)
		if e > p.jobs[j].deadline {
			s.late++
		}
	}
}

// placeStarts turns planned starts (node unset) into a placement: tasks in
// order of start, then id, each to the lowest node with a slot of its kind
// free at its start; running tasks hold their slots (interval colouring, so
// a capacity-feasible plan always fits).
func placeStarts(p *problem, tasks []plannedTask) {
	slices.SortFunc(tasks, func(a, b plannedTask) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return int(a.task - b.task)
	})
	c := newSlotClock(p)
	for i := range tasks {
		t := &tasks[i]
		x, k := c.place(t.kind, t.start)
		if x < 0 {
			t.node = 0
			continue
		}
		c[t.kind][x][k] = max(c[t.kind][x][k], t.start) + p.dur[t.task]
		t.node = x
	}
}

// orders are the job orders the greedy heuristic tries, by index into
// p.jobs: arrival (FIFO), deadline (EDF), least slack, least work, and prev
// (the previous plan's order with new jobs appended by arrival) when given.
func orders(p *problem, prev []int) [][]int {
	n := len(p.jobs)
	base := make([]int, n)
	for j := range base {
		base[j] = j
	}
	work := make([]int, n)
	for _, g := range p.groups {
		work[g.job] += g.dur * len(g.tasks)
	}
	for j := range p.jobs {
		work[j] += p.jobs[j].runEnd
	}
	keys := []func(j int) int{
		func(j int) int { return int(p.jobs[j].arrival) },
		func(j int) int { return p.jobs[j].deadline },
		func(j int) int {
			if p.jobs[j].deadline == noDeadline {
				return noDeadline
			}
			return p.jobs[j].deadline - work[j]/max(p.cap[sim.Map], 1)
		},
		func(j int) int { return work[j] },
	}
	var out [][]int
	if prev != nil {
		out = append(out, prev)
	}
	// the jobs the fluid relaxations keep on time, by due date, then the
	// others by arrival: a schedule with as few late jobs as the bound
	// when the relaxation's choice carries over
	late := make([]bool, n)
	for j := range p.jobs {
		late[j] = p.jobs[j].runEnd > p.jobs[j].deadline
	}
	for _, k := range []sim.Kind{sim.Map, sim.Reduce} {
		kept, _ := p.mooreHodgson(k, late)
		o := slices.Clone(kept)
		for j := range base {
			if !slices.Contains(kept, j) {
				o = append(o, j)
			}
		}
		out = append(out, o)
	}
	for _, key := range keys {
		o := slices.Clone(base)
		slices.SortStableFunc(o, func(a, b int) int {
			ka, kb := key(a), key(b)
			switch {
			case ka < kb:
				return -1
			case ka > kb:
				return 1
			}
			return a - b
		})
		out = append(out, o)
	}
	return out
}

// localSearchBudget bounds the greedy schedules the local search evaluates
// per solve (deterministic work, not time).
const localSearchBudget = 400

// heuristic returns the best greedy schedule over the orders, improved by
// moving single jobs while that helps, and its order.
func heuristic(p *problem, prev []int) (*schedule, []int) {
	var best *schedule
	var bestOrder []int
	for _, o := range orders(p, prev) {
		if s := greedy(p, o); s != nil && (best == nil || s.value() < best.value()) {
			best, bestOrder = s, o
		}
	}
	if best == nil {
		return nil, nil
	}
	n, evals := len(bestOrder), 0
	for improved := true; improved && evals < localSearchBudget; {
		improved = false
		for from := 0; from < n && evals < localSearchBudget && !improved; from++ {
			for to := 0; to < n && evals < localSearchBudget; to++ {
				if to == from {
					continue
				}
				o := moveJob(bestOrder, from, to)
				evals++
				if s := greedy(p, o); s != nil && s.value() < best.value() {
					best, bestOrder, improved = s, o, true
					break
				}
			}
		}
	}
	return best, bestOrder
}

// moveJob returns a copy of order with the entry at from moved to index to.
func moveJob(order []int, from, to int) []int {
	out := make([]int, 0, len(order))
	v := order[from]
	for i, x := range order {
		if i != from {
			out = append(out, x)
		}
	}
	return slices.Insert(out, to, v)
}
