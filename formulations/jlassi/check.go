package jlassi

import (
	"fmt"
	"math"

	"github.com/mrbound/mrbound/formulations"
	"github.com/mrbound/mrbound/instances/jlassiscenario"
	"github.com/mrbound/mrbound/internal/enum"
)

// Tolerances of the checker.
const (
	// capacityTol is the absolute slack allowed on RAM, disk (MB) and
	// bandwidth (MB/s) sums, which add a few dozen rounded decimals.
	capacityTol = 1e-6
	// timeTol is the slack (seconds) on start and end times.
	timeTol = 1e-6
	// objectiveRelTol is the relative slack between the solver's objective and
	// the one recomputed from the schedule (solvers work to 1e-6 feasibility
	// and 1e-9 integrality; objectives here are at most ~1e6).
	objectiveRelTol = 1e-6
)

// Family names a constraint family of the checker. Zero is unknown.
type Family int8

const (
	FamilyUnknown Family = iota
	Assignment
	Slots
	RAM
	Disk
	Precedence
	Migrations
	Locality
	ShuffleReservation
	Bandwidth
	Timing
	ObjectiveValue
)

var familyNames = enum.Names[Family]{"unknown", "assignment", "slots", "ram", "disk", "precedence", "migrations",
	"locality", "shuffle", "bandwidth", "timing", "objective"}

func (f Family) String() string { return familyNames.String(f) }

// MarshalText encodes the family by name.
func (f Family) MarshalText() ([]byte, error) { return familyNames.Text(f) }

// CheckReport is the checker's answer: its verdict with the violated
// family and the values it recomputed.
type CheckReport struct {
	// OK is true when every family holds.
	OK bool `json:"ok"`
	// Family and Message describe the first violation found.
	Family  Family `json:"family,omitempty"`
	Message string `json:"message,omitempty"`
	// RealTime and Objective are recomputed from the schedule and the
	// instance (Objective for the objective checked against).
	RealTime  float64 `json:"realtime"`
	Objective float64 `json:"objective"`
}

func (v CheckReport) String() string {
	if v.OK {
		return "ok (all constraint families hold; RealTime and objective recomputed)"
	}
	return fmt.Sprintf("VIOLATED %s: %s", v.Family, v.Message)
}

// Verdict is v in the terms every formulation shares.
func (v CheckReport) Verdict() formulations.Verdict {
	if v.OK {
		return formulations.Verified()
	}
	return formulations.Rejected(fmt.Sprintf("%s: %s", v.Family, v.Message))
}

type violation struct {
	f   Family
	msg string
}

func fail(f Family, format string, a ...any) *violation {
	return &violation{f, fmt.Sprintf(format, a...)}
}

// Check verifies s against the instance alone, family by family —
// assignment, slots, RAM, disk, precedence, migrations, locality, shuffle
// reservations, bandwidth per link and interval, timing — then recomputes
// RealTime and the objective obj. When claimed is not NaN it must match the
// recomputed objective (for RealTime, the solver's Σ L_t may only exceed it).
// The first violation found is returned in the verdict.
func Check(in *jlassiscenario.Instance, s *Schedule, obj Objective, claimed float64) CheckReport {
	c := &checker{in: in, s: s, ix: newIndex(in), T: s.Horizon}
	v := CheckReport{}
	viol := c.run()
	v.RealTime, v.Objective = c.realTime, c.objective(obj)
	if viol == nil && !math.IsNaN(claimed) && obj != Feasibility {
		tol := objectiveRelTol * math.Max(1, math.Abs(v.Objective))
		switch {
		case obj == RealTime && claimed < v.Objective-tol:
			viol = fail(ObjectiveValue, "solver's RealTime %g is below the schedule's %g", claimed, v.Objective)
		case obj != RealTime && math.Abs(claimed-v.Objective) > tol:
			viol = fail(ObjectiveValue, "solver's %s %g differs from the schedule's %g", obj, claimed, v.Objective)
		}
	}
	if viol == nil && math.Abs(s.RealTime-v.RealTime) > timeTol*math.Max(1, v.RealTime) {
		viol = fail(Timing, "schedule states RealTime %g, its intervals give %g", s.RealTime, v.RealTime)
	}
	if viol != nil {
		v.Family, v.Message = viol.f, viol.msg
		return v
	}
	v.OK = true
	return v
}

type checker struct {
	in *jlassiscenario.Instance
	s  *Schedule
	ix *index
	T  int

	place    []int          // task → index in s.Tasks, -1 when unplaced
	mach     []int          // task → machine
	intv     []int          // task → interval
	arrive   map[[2]int]int // (block, machine) → first interval it is present after migration
	realTime float64
}

// present reports whether block b is on machine j during interval t.
func (c *checker) present(b, j, t int) bool {
	if c.in.Blocks[b].IsHome(j) {
		return true
	}
	a, ok := c.arrive[[2]int{b, j}]
	return ok && a <= t
}

func (c *checker) run() *violation {
	for _, f := range []func() *violation{c.assignment, c.slots, c.timing, c.resources, c.precedence,
		c.migrations, c.locality, c.bandwidth} {
		if v := f(); v != nil {
			return v
		}
	}
	return nil
}

func (c *checker) assignment() *violation {
	in, s := c.in, c.s
	if s.Horizon <= 0 {
		return fail(Assignment, "horizon %d is not positive", s.Horizon)
	}
	c.place = make([]int, len(in.Tasks))
	c.mach = make([]int, len(in.Tasks))
	c.intv = make([]int, len(in.Tasks))
	for i := range c.place {
		c.place[i] = -1
	}
	for x, p := range s.Tasks {
		if _, err := c.ix.duration(p); err != nil {
			return fail(Assignment, "tasks[%d]: %v", x, err)
		}
		i := c.ix.task[p.Task]
		if p.Kind != in.Tasks[i].Kind {
			return fail(Assignment, "task %s is a %s, placed as a %s", p.Task, in.Tasks[i].Kind, p.Kind)
		}
		if p.Interval < 0 || p.Interval >= s.Horizon {
			return fail(Assignment, "task %s: interval %d outside 0..%d", p.Task, p.Interval, s.Horizon-1)
		}
		if c.place[i] >= 0 {
			return fail(Assignment, "task %s is placed twice", p.Task)
		}
		c.place[i], c.mach[i], c.intv[i] = x, c.ix.machine[p.Machine], p.Interval
	}
	for i, x := range c.place {
		if x < 0 {
			return fail(Assignment, "task %s is not placed", in.Tasks[i].ID)
		}
	}
	return nil
}

func (c *checker) slots() *violation {
	type key struct {
		j    int
		k    jlassiscenario.TaskKind
		s, t int
	}
	used := map[key]string{}
	for _, p := range c.s.Tasks {
		i := c.ix.task[p.Task]
		k := key{c.mach[i], p.Kind, p.Slot, p.Interval}
		if other, dup := used[k]; dup {
			return fail(Slots, "tasks %s and %s share %s slot %d of %s in interval %d", other, p.Task, p.Kind, p.Slot, p.Machine, p.Interval)
		}
		used[k] = p.Task
	}
	return nil
}

// timing recomputes the interval lengths (the longest task in each) and
// checks every task's start and end against them.
func (c *checker) timing() *violation {
	length := make([]float64, c.T)
	for _, p := range c.s.Tasks {
		d, _ := c.ix.duration(p)
		length[p.Interval] = max(length[p.Interval], d)
	}
	start := make([]float64, c.T)
	sum := 0.0
	for t, l := range length {
		start[t] = sum
		sum += l
	}
	c.realTime = sum
	for _, p := range c.s.Tasks {
		d, _ := c.ix.duration(p)
		if math.Abs(p.Start-start[p.Interval]) > timeTol || math.Abs(p.End-(p.Start+d)) > timeTol {
			return fail(Timing, "task %s runs [%g, %g], interval %d starts at %g and the task lasts %g",
				p.Task, p.Start, p.End, p.Interval, start[p.Interval], d)
		}
	}
	return nil
}

func (c *checker) resources() *violation {
	in := c.in
	// Presence after migration is needed by disk; compute it here (the
	// migrations family checks the migrations themselves later).
	c.arrive = map[[2]int]int{}
	for _, mg := range c.s.Migrations {
		b, okB := c.ix.block[mg.Block]
		j, okJ := c.ix.machine[mg.To]
		if !okB || !okJ {
			continue
		}
		k := [2]int{b, j}
		if a, ok := c.arrive[k]; !ok || mg.Interval+1 < a {
			c.arrive[k] = mg.Interval + 1
		}
	}
	for j := range in.Machines {
		for t := 0; t < c.T; t++ {
			var ram, disk float64
			for i := range in.Tasks {
				if c.mach[i] == j && c.intv[i] == t {
					ram += in.Tasks[i].RAM
					disk += in.Tasks[i].Disk
				}
			}
			if ram > in.Machines[j].RAM+capacityTol {
				return fail(RAM, "machine %s uses %g MB of RAM in interval %d, capacity %g", in.Machines[j].ID, ram, t, in.Machines[j].RAM)
			}
			for b := range in.Blocks {
				if !in.Blocks[b].IsHome(j) && c.present(b, j, t) {
					disk += in.Blocks[b].Size
				}
			}
			if disk > in.Machines[j].Disk+capacityTol {
				return fail(Disk, "machine %s uses %g MB of disk in interval %d (tasks and migrated blocks), capacity %g", in.Machines[j].ID, disk, t, in.Machines[j].Disk)
			}
		}
	}
	return nil
}

func (c *checker) precedence() *violation {
	for _, jb := range c.in.Jobs {
		for _, k := range jb.Reduces {
			for _, l := range jb.Maps {
				if c.intv[k] <= c.intv[l] {
					return fail(Precedence, "reduce %s in interval %d does not follow map %s in interval %d",
						c.in.Tasks[k].ID, c.intv[k], c.in.Tasks[l].ID, c.intv[l])
				}
			}
		}
	}
	return nil
}

func (c *checker) migrations() *violation {
	for x, mg := range c.s.Migrations {
		b, ok := c.ix.block[mg.Block]
		if !ok {
			return fail(Migrations, "migrations[%d]: unknown block %q", x, mg.Block)
		}
		from, okF := c.ix.machine[mg.From]
		to, okT := c.ix.machine[mg.To]
		if !okF || !okT {
			return fail(Migrations, "migrations[%d]: unknown machine %q or %q", x, mg.From, mg.To)
		}
		if from == to {
			return fail(Migrations, "migrations[%d]: block %s migrates from %s to itself", x, mg.Block, mg.From)
		}
		if mg.Interval < 0 || mg.Interval >= c.T {
			return fail(Migrations, "migrations[%d]: interval %d outside 0..%d", x, mg.Interval, c.T-1)
		}
		if !c.present(b, from, mg.Interval) {
			return fail(Migrations, "block %s migrates from %s in interval %d but is not there", mg.Block, mg.From, mg.Interval)
		}
	}
	return nil
}

func (c *checker) locality() *violation {
	for i, t := range c.in.Tasks {
		for _, b := range t.Blocks {
			if !c.present(b, c.mach[i], c.intv[i]) {
				return fail(Locality, "map %s runs on %s in interval %d but block %s is not there",
					t.ID, c.in.Machines[c.mach[i]].ID, c.intv[i], c.in.Blocks[b].ID)
			}
		}
	}
	return nil
}

// bandwidth checks the shuffle reservations (every reduce–map pair of a job on
// different machines books b_{l,l'} from the map's interval to the reduce's)
// and then the load of every link in every interval.
func (c *checker) bandwidth() *violation {
	in := c.in
	type rkey struct{ r, m, jr, jm, t int }
	booked := map[rkey]bool{}
	for x, rv := range c.s.Reservations {
		r, okR := c.ix.task[rv.Reduce]
		m, okM := c.ix.task[rv.Map]
		jr, okJR := c.ix.machine[rv.ReduceMachine]
		jm, okJM := c.ix.machine[rv.MapMachine]
		if !okR || !okM || !okJR || !okJM || rv.Interval < 0 || rv.Interval >= c.T {
			return fail(ShuffleReservation, "reservations[%d]: unknown task, machine or interval", x)
		}
		booked[rkey{r, m, jr, jm, rv.Interval}] = true
	}
	load := make([][]float64, len(in.Links))
	for e := range load {
		load[e] = make([]float64, c.T)
	}
	for _, sh := range in.Shuffles {
		jr, jm := c.mach[sh.Reduce], c.mach[sh.Map]
		for t := c.intv[sh.Map]; jr != jm && t <= c.intv[sh.Reduce]; t++ {
			k := rkey{sh.Reduce, sh.Map, jr, jm, t}
			if !booked[k] {
				return fail(ShuffleReservation, "reduce %s on %s and map %s on %s: bandwidth not booked in interval %d",
					in.Tasks[sh.Reduce].ID, in.Machines[jr].ID, in.Tasks[sh.Map].ID, in.Machines[jm].ID, t)
			}
		}
		// Count what is booked for this pair (at least what is required).
		for k := range booked {
			if k.r == sh.Reduce && k.m == sh.Map {
				for _, e := range in.Path(k.jr, k.jm) {
					load[e][k.t] += sh.Bandwidth
				}
			}
		}
	}
	for _, mg := range c.s.Migrations {
		for _, e := range in.Path(c.ix.machine[mg.From], c.ix.machine[mg.To]) {
			load[e][mg.Interval] += in.Bwd
		}
	}
	for e, l := range in.Links {
		for t := 0; t < c.T; t++ {
			if load[e][t] > l.Capacity+capacityTol {
				return fail(Bandwidth, "link %s carries %g MB/s in interval %d, capacity %g", l.Name(), load[e][t], t, l.Capacity)
			}
		}
	}
	return nil
}

// objective recomputes obj from the schedule (NaN when the schedule is too
// broken to place every task).
func (c *checker) objective(obj Objective) float64 {
	in := c.in
	if c.place == nil || c.arrive == nil {
		return math.NaN()
	}
	switch obj {
	case RealTime, ObjectiveUnknown:
		return c.realTime
	case Feasibility:
		return 0
	case TST:
		v := float64(len(in.Tasks))
		cb := tstBlockCost(in)
		c.eachMigratedPresence(func(b, j, t int) { v += cb[b] })
		return v
	case TRC:
		v := 0.0
		for _, p := range c.s.Tasks {
			v += trcTaskCost(in, c.ix.task[p.Task], c.ix.machine[p.Machine], p.Slot)
		}
		kb := trcBlockCost(in)
		c.eachMigratedPresence(func(b, j, t int) { v += kb[b][j] })
		for _, mg := range c.s.Migrations {
			v += kb[c.ix.block[mg.Block]][c.ix.machine[mg.From]]
		}
		return v
	}
	return math.NaN()
}

func (c *checker) eachMigratedPresence(f func(b, j, t int)) {
	for b := range c.in.Blocks {
		for j := range c.in.Machines {
			if c.in.Blocks[b].IsHome(j) {
				continue
			}
			for t := 0; t < c.T; t++ {
				if c.present(b, j, t) {
					f(b, j, t)
				}
			}
		}
	}
}
