package jlassi

import (
	"fmt"
	"sort"

	"github.com/mrbound/mrbound/instances/jlassiscenario"
)

// integralTol is how far from 1 a binary may be and still read as 1 when
// decoding (solvers return integers to within their feasibility tolerance).
const integralTol = 0.5

// Schedule is a decoded solution: where and when every task runs, which
// blocks migrate and which shuffle bandwidth is booked. It refers to the
// instance by ids only, so it can be written to JSON and checked later.
type Schedule struct {
	Instance     string        `json:"instance"`
	Horizon      int           `json:"horizon"`
	Intervals    []Interval    `json:"intervals"`
	Tasks        []Placement   `json:"tasks"`
	Migrations   []Migration   `json:"migrations"`
	Reservations []Reservation `json:"reservations"`
	// RealTime is Σ_t L_t with L_t the longest task in interval t (eq 18);
	// UnitOfT is RealTime / Horizon (eq 19).
	RealTime float64 `json:"realtime"`
	UnitOfT  float64 `json:"unit_of_t"`
}

// Interval is one interval of the horizon.
type Interval struct {
	Index  int     `json:"index"`
	Start  float64 `json:"start"`
	Length float64 `json:"length"`
}

// Placement puts a task on a slot of a machine in an interval. Slot counts
// within the task's kind (map slot 0, 1, … or reduce slot 0, 1, …).
type Placement struct {
	Task     string                  `json:"task"`
	Job      string                  `json:"job"`
	Kind     jlassiscenario.TaskKind `json:"kind"`
	Machine  string                  `json:"machine"`
	Slot     int                     `json:"slot"`
	Interval int                     `json:"interval"`
	Start    float64                 `json:"start"`
	End      float64                 `json:"end"`
}

// Migration moves a block during an interval; it is present on To from the
// next interval on.
type Migration struct {
	Block    string `json:"block"`
	From     string `json:"from"`
	To       string `json:"to"`
	Interval int    `json:"interval"`
}

// Reservation books the shuffle bandwidth between a reduce and a map of its
// job on different machines during an interval.
type Reservation struct {
	Reduce        string `json:"reduce"`
	Map           string `json:"map"`
	ReduceMachine string `json:"reduce_machine"`
	MapMachine    string `json:"map_machine"`
	Interval      int    `json:"interval"`
}

// Decode turns a solution vector of m.Model into a schedule.
func (m *Model) Decode(x []float64) (*Schedule, error) {
	if len(x) != m.Model.NumCols() {
		return nil, fmt.Errorf("jlassi: decode: solution has %d values, model has %d columns", len(x), m.Model.NumCols())
	}
	in := m.Inst
	on := func(idx int) bool { return x[idx] > 1-integralTol }
	s := &Schedule{Instance: in.Name, Horizon: m.T}
	// Tasks in one slot class take its slots in order.
	used := map[wKey]int{}
	for _, k := range m.w.Keys() {
		v, _ := m.w.Get(k)
		if !on(v.Index()) {
			continue
		}
		t := &in.Tasks[k.I]
		cls := m.classes[k.J][kindIndex(t.Kind)][k.S]
		ck := wKey{I: int(t.Kind), J: k.J, S: k.S, T: k.T}
		n := used[ck]
		used[ck]++
		slot := cls[min(n, len(cls)-1)] // overfull only with an infeasible x; the checker reports it
		s.Tasks = append(s.Tasks, Placement{Task: t.ID, Job: in.Jobs[t.Job].ID, Kind: t.Kind,
			Machine: in.Machines[k.J].ID, Slot: slot, Interval: k.T})
	}
	for _, k := range m.u.Keys() {
		v, _ := m.u.Get(k)
		if on(v.Index()) {
			s.Migrations = append(s.Migrations, Migration{Block: in.Blocks[k.B].ID,
				From: in.Machines[k.From].ID, To: in.Machines[k.To].ID, Interval: k.T})
		}
	}
	s.Reservations = Reservations(in, s.Tasks)
	if err := s.Retime(in); err != nil {
		return nil, err
	}
	return s, nil
}

// Reservations lists the shuffle bandwidth bookings that placements imply:
// for every reduce l and map l' of its job with b_{l,l'} > 0 on different
// machines, one per interval from the map's to the reduce's (§3 "Notice").
// Decode derives them from the placements rather than from the model's z,
// which the strong form omits where no link can saturate.
func Reservations(in *jlassiscenario.Instance, tasks []Placement) []Reservation {
	at := map[string]Placement{}
	for _, p := range tasks {
		at[p.Task] = p
	}
	var out []Reservation
	for _, sh := range in.Shuffles {
		r, okR := at[in.Tasks[sh.Reduce].ID]
		m, okM := at[in.Tasks[sh.Map].ID]
		if !okR || !okM || r.Machine == m.Machine {
			continue
		}
		for t := m.Interval; t <= r.Interval; t++ {
			out = append(out, Reservation{Reduce: r.Task, Map: m.Task, ReduceMachine: r.Machine, MapMachine: m.Machine, Interval: t})
		}
	}
	return out
}

// Retime sets the intervals, the start and end of every task, RealTime and
// UnitOfT from the placements, and sorts the schedule's lists.
func (s *Schedule) Retime(in *jlassiscenario.Instance) error {
	ix := newIndex(in)
	length := make([]float64, s.Horizon)
	for _, p := range s.Tasks {
		d, err := ix.duration(p)
		if err != nil {
			return err
		}
		if p.Interval < 0 || p.Interval >= s.Horizon {
			return fmt.Errorf("jlassi: task %s: interval %d outside 0..%d", p.Task, p.Interval, s.Horizon-1)
		}
		length[p.Interval] = max(length[p.Interval], d)
	}
	s.Intervals = s.Intervals[:0]
	start := 0.0
	for t, l := range length {
		s.Intervals = append(s.Intervals, Interval{Index: t, Start: start, Length: l})
		start += l
	}
	for i := range s.Tasks {
		p := &s.Tasks[i]
		d, _ := ix.duration(*p)
		p.Start = s.Intervals[p.Interval].Start
		p.End = p.Start + d
	}
	s.RealTime = start
	s.UnitOfT = start / float64(s.Horizon)
	sort.SliceStable(s.Tasks, func(a, b int) bool {
		pa, pb := s.Tasks[a], s.Tasks[b]
		if pa.Machine != pb.Machine {
			return ix.machine[pa.Machine] < ix.machine[pb.Machine]
		}
		if pa.Kind != pb.Kind {
			return pa.Kind < pb.Kind
		}
		if pa.Slot != pb.Slot {
			return pa.Slot < pb.Slot
		}
		return pa.Interval < pb.Interval
	})
	return nil
}

// index maps ids of an instance to indices.
type index struct {
	in                   *jlassiscenario.Instance
	machine, task, block map[string]int
}

func newIndex(in *jlassiscenario.Instance) *index {
	ix := &index{in: in, machine: map[string]int{}, task: map[string]int{}, block: map[string]int{}}
	for j, m := range in.Machines {
		ix.machine[m.ID] = j
	}
	for i, t := range in.Tasks {
		ix.task[t.ID] = i
	}
	for b, bl := range in.Blocks {
		ix.block[bl.ID] = b
	}
	return ix
}

// duration is the processing time of a placement, or an error when it names
// an unknown task, machine or slot.
func (ix *index) duration(p Placement) (float64, error) {
	i, ok := ix.task[p.Task]
	if !ok {
		return 0, fmt.Errorf("jlassi: unknown task %q", p.Task)
	}
	j, ok := ix.machine[p.Machine]
	if !ok {
		return 0, fmt.Errorf("jlassi: task %s: unknown machine %q", p.Task, p.Machine)
	}
	ps := ix.in.Tasks[i].P[j]
	if ps == nil {
		return 0, fmt.Errorf("jlassi: task %s cannot run on machine %s", p.Task, p.Machine)
	}
	if p.Slot < 0 || p.Slot >= len(ps) {
		return 0, fmt.Errorf("jlassi: task %s: machine %s has no %s slot %d", p.Task, p.Machine, ix.in.Tasks[i].Kind, p.Slot)
	}
	return ps[p.Slot], nil
}
