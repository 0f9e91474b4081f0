package jlassi

import (
	"fmt"
	"slices"
)

// startTol is the largest bound, row or integrality violation Encode accepts
// in the vector it builds: the values are 0, 1 and sums of processing times
// (whole seconds), so anything above rounding noise is a real violation.
const startTol = 1e-6

// Encode turns a schedule of m's instance and horizon into a vector over
// m.Model's columns — w from the placements (a slot maps to its slot class),
// u from the migrations, y = 1 from a migrated block's arrival on, z = 1 for
// every shuffle pair booked in its interval, L_t the longest task in t — and
// checks it with model.Evaluate. It fails when a placement or migration has
// no column (outside the model's domain) or when the vector violates a
// bound, a row or integrality, naming the worst one. The objective of the
// vector is the schedule's RealTime under the RealTime objective.
func (m *Model) Encode(s *Schedule) ([]float64, error) {
	in := m.Inst
	if s.Horizon != m.T {
		return nil, fmt.Errorf("jlassi: encode: schedule has T = %d, model %d", s.Horizon, m.T)
	}
	ix := newIndex(in)
	x := make([]float64, m.Model.NumCols())
	mach := make([]int, len(in.Tasks))
	intv := make([]int, len(in.Tasks))
	for i := range mach {
		mach[i] = -1
	}
	length := make([]float64, m.T)
	for _, p := range s.Tasks {
		d, err := ix.duration(p)
		if err != nil {
			return nil, fmt.Errorf("jlassi: encode: %w", err)
		}
		if p.Interval < 0 || p.Interval >= m.T {
			return nil, fmt.Errorf("jlassi: encode: task %s: interval %d outside 0..%d", p.Task, p.Interval, m.T-1)
		}
		i, j := ix.task[p.Task], ix.machine[p.Machine]
		if mach[i] >= 0 {
			return nil, fmt.Errorf("jlassi: encode: task %s is placed twice", p.Task)
		}
		c := -1
		for k, cls := range m.classes[j][kindIndex(in.Tasks[i].Kind)] {
			if slices.Contains(cls, p.Slot) {
				c = k
			}
		}
		v, ok := m.w.Get(wKey{i, j, c, p.Interval})
		if !ok {
			return nil, fmt.Errorf("jlassi: encode: no column for task %s on %s slot %d in interval %d", p.Task, p.Machine, p.Slot, p.Interval)
		}
		x[v.Index()] = 1
		mach[i], intv[i] = j, p.Interval
		length[p.Interval] = max(length[p.Interval], d)
	}
	for t, l := range length {
		v, _ := m.l.Get(t)
		x[v.Index()] = l
	}
	for _, mg := range s.Migrations {
		b, okB := ix.block[mg.Block]
		from, okF := ix.machine[mg.From]
		to, okT := ix.machine[mg.To]
		if !okB || !okF || !okT {
			return nil, fmt.Errorf("jlassi: encode: migration of %q from %q to %q: unknown id", mg.Block, mg.From, mg.To)
		}
		v, ok := m.u.Get(uKey{b, from, to, mg.Interval})
		if !ok {
			return nil, fmt.Errorf("jlassi: encode: no column for migrating %s from %s to %s in interval %d", mg.Block, mg.From, mg.To, mg.Interval)
		}
		x[v.Index()] = 1
		for t := mg.Interval + 1; t < m.T; t++ {
			if y, ok := m.y.Get(yKey{b, to, t}); ok {
				x[y.Index()] = 1
			}
		}
	}
	for _, k := range m.z.Keys() {
		if mach[k.R] == k.JR && mach[k.M] == k.JM && intv[k.M] <= k.T && k.T <= intv[k.R] {
			v, _ := m.z.Get(k)
			x[v.Index()] = 1
		}
	}
	ev := m.Model.Evaluate(x)
	switch {
	case ev.MaxBoundViolation > startTol:
		return nil, fmt.Errorf("jlassi: encode: column %s violates its bounds by %g", m.Model.ColName(ev.WorstCol), ev.MaxBoundViolation)
	case ev.MaxRowViolation > startTol:
		return nil, fmt.Errorf("jlassi: encode: row %s is violated by %g", m.Model.RowName(ev.WorstRow), ev.MaxRowViolation)
	case ev.MaxIntegrality > startTol:
		return nil, fmt.Errorf("jlassi: encode: column %s is fractional", m.Model.ColName(ev.WorstIntCol))
	}
	return x, nil
}
