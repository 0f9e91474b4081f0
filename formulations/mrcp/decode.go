package mrcp

import (
	"fmt"
	"math"
	"sort"

	"github.com/mrbound/mrbound/instances/mrcpscenario"
)

// decodeTol is how far from 0 or 1 a binary may be and still be read as
// that value; solvers return integral values to about 1e-6.
const decodeTol = 1e-4

// Decode turns a solution vector of bt.Model into a schedule. It fails when x
// does not encode one placement per task (a solver bug or the wrong vector);
// it does not check feasibility — Check does, against the instance.
func (bt *Built) Decode(x []float64) (*Schedule, error) {
	if len(x) != bt.Model.NumCols() {
		return nil, fmt.Errorf("mrcp: decode: %d values for %d columns", len(x), bt.Model.NumCols())
	}
	tasks := make([]Assignment, len(bt.tasks))
	if bt.Formulation == TimeIndexed && bt.step {
		for _, gr := range bt.groups {
			if err := bt.decodeSteps(x, gr, tasks); err != nil {
				return nil, err
			}
		}
	}
	for i, t := range bt.tasks {
		if bt.Formulation == TimeIndexed && bt.step {
			break // decoded above
		}
		a := Assignment{Task: t.ref}
		switch bt.Formulation {
		case TimeIndexed:
			if bt.xs[i] == nil {
				continue // an aggregated group: below
			}
			found := 0
			var lanes []int
			for _, sv := range bt.xs[i] {
				if x[sv.v.Index()] > 1-decodeTol {
					found++
					a.Start = sv.tau
					lanes = append(lanes, sv.lane)
				}
			}
			if found != 1 {
				return nil, fmt.Errorf("mrcp: decode: %s has %d start variables at 1", t.ref, found)
			}
			a.Resource = bt.lanes[t.ref.Kind][lanes[0]].resource
		case Disjunctive:
			s := x[bt.start[i].Index()]
			if math.Abs(s-math.Round(s)) > decodeTol {
				return nil, fmt.Errorf("mrcp: decode: start of %s is %v, not an integer", t.ref, s)
			}
			a.Start = int(math.Round(s))
			m := 0
			if len(bt.assign[i]) > 0 {
				m = -1
				for k, v := range bt.assign[i] {
					if x[v.Index()] > 1-decodeTol {
						m = k
					}
				}
				if m < 0 {
					return nil, fmt.Errorf("mrcp: decode: %s is on no machine", t.ref)
				}
			}
			ms := bt.machines[t.ref.Kind][m]
			a.Resource, a.Slot = ms.resource, ms.slot
		}
		tasks[i] = a
	}
	if bt.Formulation == TimeIndexed && !bt.step {
		for _, gr := range bt.groups {
			if len(gr.tasks) == 1 {
				continue
			}
			if err := bt.decodeGroup(x, gr, tasks); err != nil {
				return nil, err
			}
		}
	}
	s := newSchedule(bt.Instance, tasks)
	if bt.Formulation == TimeIndexed && bt.Pooled {
		if err := colour(bt.Instance, s); err != nil {
			return nil, err
		}
	}
	if bt.Formulation == TimeIndexed {
		assignSlots(bt.Instance, s)
	}
	return s, nil
}

// colour gives each task of a pooled schedule a resource: for each kind, tasks
// in order of start take the first unit slot free by then (interval
// colouring, optimal for intervals, so it succeeds whenever no more tasks
// overlap than there are slots).
func colour(in *mrcpscenario.Instance, s *Schedule) error {
	for _, k := range []mrcpscenario.TaskKind{mrcpscenario.Map, mrcpscenario.Reduce} {
		var slots []unitSlot
		for r, res := range in.Resources {
			for i := 0; i < res.Slots(k); i++ {
				slots = append(slots, unitSlot{r, i})
			}
		}
		free := make([]int, len(slots))
		for i := range free {
			free[i] = math.MinInt
		}
		var idx []int
		for i, a := range s.Tasks {
			if a.Task.Kind == k {
				idx = append(idx, i)
			}
		}
		sort.SliceStable(idx, func(a, b int) bool { return s.Tasks[idx[a]].Start < s.Tasks[idx[b]].Start })
		for _, i := range idx {
			a := &s.Tasks[i]
			m := -1
			for x := range slots {
				if free[x] <= a.Start {
					m = x
					break
				}
			}
			if m < 0 {
				return fmt.Errorf("mrcp: decode: more than %d %s tasks overlap at %d", len(slots), k, a.Start)
			}
			free[m] = a.End
			a.Resource, a.Slot = slots[m].resource, slots[m].slot
		}
	}
	return nil
}

// decodeGroup gives the tasks of an aggregated group their starts: the counts
// x[g,ℓ,τ], taken in order of τ, in task order.
func (bt *Built) decodeGroup(x []float64, gr taskGroup, tasks []Assignment) error {
	k := 0
	ref := bt.tasks[gr.tasks[0]].ref
	for _, sv := range gr.xs {
		v := x[sv.v.Index()]
		c := math.Round(v)
		if math.Abs(v-c) > decodeTol || c < 0 {
			return fmt.Errorf("mrcp: decode: count of %s at %d is %v, not a non-negative integer", ref, sv.tau, v)
		}
		for ; c > 0; c-- {
			if k == len(gr.tasks) {
				return fmt.Errorf("mrcp: decode: more than %d starts for the group of %s", len(gr.tasks), ref)
			}
			i := gr.tasks[k]
			tasks[i] = Assignment{Task: bt.tasks[i].ref, Start: sv.tau, Resource: bt.lanes[ref.Kind][sv.lane].resource}
			k++
		}
	}
	if k != len(gr.tasks) {
		return fmt.Errorf("mrcp: decode: %d starts for the %d tasks of the group of %s", k, len(gr.tasks), ref)
	}
	return nil
}

// decodeSteps gives the tasks of group gr their starts in step form: the
// F_g(τ) − F_g(τ−1) tasks starting at τ, in task order, with F_g(est−1) = 0
// and F_g(lst) = n_g; on the kind's one lane.
func (bt *Built) decodeSteps(x []float64, gr taskGroup, tasks []Assignment) error {
	t := bt.tasks[gr.tasks[0]]
	n := len(gr.tasks)
	k, prev := 0, 0
	for tau := t.est; tau <= t.lst; tau++ {
		f := n
		if i := tau - t.est; i < len(gr.fs) {
			v := x[gr.fs[i].Index()]
			c := math.Round(v)
			if math.Abs(v-c) > decodeTol || c < float64(prev) || c > float64(n) {
				return fmt.Errorf("mrcp: decode: %s has %v started by %d after %d, not a count in [%d, %d]", t.ref, v, tau, prev, prev, n)
			}
			f = int(c)
		}
		for ; prev < f; prev++ {
			i := gr.tasks[k]
			tasks[i] = Assignment{Task: bt.tasks[i].ref, Start: tau, Resource: bt.lanes[t.ref.Kind][0].resource}
			k++
		}
	}
	return nil
}
