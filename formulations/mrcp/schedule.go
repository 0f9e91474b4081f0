package mrcp

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/mrbound/mrbound/instances/mrcpscenario"
)

// Assignment places one task: on Resources[Resource], in slot Slot of its kind
// (0-based, only for drawing), over [Start, End).
type Assignment struct {
	Task     mrcpscenario.TaskRef  `json:"-"`
	Name     string                `json:"task"`
	Kind     mrcpscenario.TaskKind `json:"kind"`
	Resource int                   `json:"resource"`
	Slot     int                   `json:"slot"`
	Start    int                   `json:"start"`
	End      int                   `json:"end"`
}

// JobOutcome is what a schedule means for one job.
type JobOutcome struct {
	Name string `json:"name"`
	// Completion is C_j, the end of the job's last reduce.
	Completion int `json:"completion"`
	// Turnaround is C_j − s_j.
	Turnaround int  `json:"turnaround"`
	Late       bool `json:"late"`
}

// Schedule is a decoded solution: every task placed, and the outcomes.
type Schedule struct {
	Tasks []Assignment `json:"tasks"`
	Jobs  []JobOutcome `json:"jobs"`
	// LateJobs is Σ N_j and MaxTurnaround is max_j (C_j − s_j).
	LateJobs      int `json:"late_jobs"`
	MaxTurnaround int `json:"max_turnaround"`
}

// ErrCheck is wrapped by every checker verdict against a schedule.
var ErrCheck = errors.New("mrcp: schedule check failed")

// Violation is a checker verdict: the constraint family broken and where.
type Violation struct {
	// Family is one of "assignment", "release", "precedence", "capacity",
	// "lateness", "objective".
	Family string
	Detail string
}

func (v *Violation) Error() string { return fmt.Sprintf("mrcp: check: %s: %s", v.Family, v.Detail) }

// Unwrap lets errors.Is(err, ErrCheck) hold.
func (v *Violation) Unwrap() error { return ErrCheck }

func violation(family, format string, a ...any) error {
	return &Violation{Family: family, Detail: fmt.Sprintf(format, a...)}
}

// outcomes computes the job outcomes of placed tasks (nothing checked).
func outcomes(in *mrcpscenario.Instance, tasks []Assignment) ([]JobOutcome, int, int) {
	jobs := make([]JobOutcome, len(in.Jobs))
	for j, job := range in.Jobs {
		jobs[j] = JobOutcome{Name: job.Name, Completion: job.Release}
	}
	for _, a := range tasks {
		if a.Task.Kind == mrcpscenario.Reduce && a.Task.Job >= 0 && a.Task.Job < len(jobs) {
			jobs[a.Task.Job].Completion = max(jobs[a.Task.Job].Completion, a.End)
		}
	}
	late, maxT := 0, 0
	for j := range jobs {
		jobs[j].Turnaround = jobs[j].Completion - in.Jobs[j].Release
		jobs[j].Late = jobs[j].Completion > in.Jobs[j].Deadline
		if jobs[j].Late {
			late++
		}
		maxT = max(maxT, jobs[j].Turnaround)
	}
	return jobs, late, maxT
}

// newSchedule fills names, ends, outcomes and a canonical order.
func newSchedule(in *mrcpscenario.Instance, tasks []Assignment) *Schedule {
	for i := range tasks {
		a := &tasks[i]
		a.Name = a.Task.String()
		a.Kind = a.Task.Kind
		a.End = a.Start + in.Task(a.Task).Duration
	}
	sort.SliceStable(tasks, func(i, k int) bool {
		a, b := tasks[i].Task, tasks[k].Task
		if a.Job != b.Job {
			return a.Job < b.Job
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Index < b.Index
	})
	s := &Schedule{Tasks: tasks}
	s.Jobs, s.LateJobs, s.MaxTurnaround = outcomes(in, tasks)
	return s
}

// Check verifies s against the instance alone, never against a model: every
// task placed exactly once on a resource with enough slots of its kind,
// End = Start + duration, maps not before the release (2), reduces after
// every map of the job (3), at every instant the demand on each resource and
// slot kind within its capacity (6, 7), and the completion, turnaround and
// lateness flags (4, 5) and the two totals as recomputed. It returns nil or a
// *Violation.
func Check(in *mrcpscenario.Instance, s *Schedule) error {
	want := map[mrcpscenario.TaskRef]bool{}
	for _, t := range in.Tasks() {
		want[t] = true
	}
	placed := map[mrcpscenario.TaskRef]Assignment{}
	for _, a := range s.Tasks {
		t := a.Task
		if !want[t] {
			return violation("assignment", "%s is not a task of the instance", t)
		}
		if _, dup := placed[t]; dup {
			return violation("assignment", "%s placed twice", t)
		}
		placed[t] = a
		task := in.Task(t)
		if a.Resource < 0 || a.Resource >= len(in.Resources) {
			return violation("assignment", "%s on resource %d, which does not exist", t, a.Resource)
		}
		if r := in.Resources[a.Resource]; r.Slots(t.Kind) < task.Demand {
			return violation("assignment", "%s needs %d %s slots, %s has %d", t, task.Demand, t.Kind, r.Name, r.Slots(t.Kind))
		}
		if a.End != a.Start+task.Duration {
			return violation("assignment", "%s runs [%d, %d), not its duration %d", t, a.Start, a.End, task.Duration)
		}
		if t.Kind == mrcpscenario.Map && a.Start < in.Jobs[t.Job].Release {
			return violation("release", "%s starts at %d, before the release %d of %s", t, a.Start, in.Jobs[t.Job].Release, in.Jobs[t.Job].Name)
		}
		if a.Start < 0 {
			return violation("release", "%s starts at %d < 0", t, a.Start)
		}
	}
	if len(placed) != len(want) {
		for _, t := range in.Tasks() {
			if _, ok := placed[t]; !ok {
				return violation("assignment", "%s is not placed", t)
			}
		}
	}
	for j, job := range in.Jobs {
		lastMap := math.MinInt
		for i := range job.Maps {
			lastMap = max(lastMap, placed[mrcpscenario.TaskRef{Job: j, Kind: mrcpscenario.Map, Index: i}].End)
		}
		for i := range job.Reduces {
			r := mrcpscenario.TaskRef{Job: j, Kind: mrcpscenario.Reduce, Index: i}
			if st := placed[r].Start; st < lastMap {
				return violation("precedence", "%s starts at %d before the maps of %s end at %d", r, st, job.Name, lastMap)
			}
		}
	}
	// Capacity: sweep the start and end events of each resource and kind.
	type event struct{ at, delta int }
	for r, res := range in.Resources {
		for _, k := range []mrcpscenario.TaskKind{mrcpscenario.Map, mrcpscenario.Reduce} {
			var ev []event
			for _, a := range s.Tasks {
				if a.Resource == r && a.Task.Kind == k {
					q := in.Task(a.Task).Demand
					ev = append(ev, event{a.Start, q}, event{a.End, -q})
				}
			}
			sort.Slice(ev, func(i, k int) bool {
				if ev[i].at != ev[k].at {
					return ev[i].at < ev[k].at
				}
				return ev[i].delta < ev[k].delta // ends before starts at the same instant
			})
			use := 0
			for _, e := range ev {
				use += e.delta
				if use > res.Slots(k) {
					return violation("capacity", "%s uses %d %s slots at time %d, capacity %d", res.Name, use, k, e.at, res.Slots(k))
				}
			}
		}
	}
	jobs, late, maxT := outcomes(in, s.Tasks)
	if len(s.Jobs) != len(jobs) {
		return violation("lateness", "%d job outcomes for %d jobs", len(s.Jobs), len(jobs))
	}
	for j, o := range jobs {
		g := s.Jobs[j]
		if g.Completion != o.Completion || g.Turnaround != o.Turnaround {
			return violation("lateness", "%s completes at %d (turnaround %d), schedule says %d (%d)", o.Name, o.Completion, o.Turnaround, g.Completion, g.Turnaround)
		}
		if g.Late != o.Late {
			return violation("lateness", "%s completes at %d with deadline %d: late = %v, schedule says %v", o.Name, o.Completion, in.Jobs[j].Deadline, o.Late, g.Late)
		}
	}
	if s.LateJobs != late || s.MaxTurnaround != maxT {
		return violation("objective", "late jobs %d and max turnaround %d, schedule says %d and %d", late, maxT, s.LateJobs, s.MaxTurnaround)
	}
	return nil
}

// Greedy schedules the jobs one after another in the given order, each task at
// the earliest time a resource has room for it (maps in index order from the
// release, then reduces after the last map). It always succeeds and gives an
// upper bound for every objective.
func Greedy(in *mrcpscenario.Instance, order []int) *Schedule {
	// usage[r][k][τ] is the demand on resource r's kind-k slots at instant τ.
	usage := make([][3][]int, len(in.Resources))
	// earliest is the first τ ≥ from at which resource r has room for
	// [τ, τ + dur), or −1 when it has fewer than q slots of kind k: a
	// conflict at instant x rules out every τ ≤ x, so the scan jumps past it.
	earliest := func(r int, k mrcpscenario.TaskKind, q, from, dur int) int {
		c := in.Resources[r].Slots(k)
		if c < q {
			return -1
		}
		u := usage[r][k]
		for τ := from; ; {
			ok := true
			for x := τ; x < τ+dur && x < len(u); x++ {
				if u[x]+q > c {
					τ, ok = x+1, false
					break
				}
			}
			if ok {
				return τ
			}
		}
	}
	// place puts t at the earliest instant any resource has room, on the
	// first such resource.
	place := func(t mrcpscenario.TaskRef, ready int) Assignment {
		task := in.Task(t)
		best, at := -1, 0
		for r := range in.Resources {
			if τ := earliest(r, t.Kind, task.Demand, ready, task.Duration); τ >= 0 && (best < 0 || τ < at) {
				best, at = r, τ
			}
		}
		u := &usage[best][t.Kind]
		for len(*u) < at+task.Duration {
			*u = append(*u, 0)
		}
		for x := at; x < at+task.Duration; x++ {
			(*u)[x] += task.Demand
		}
		return Assignment{Task: t, Resource: best, Start: at}
	}
	var tasks []Assignment
	for _, j := range order {
		job := in.Jobs[j]
		end := job.Release
		from := job.Release
		for i, m := range job.Maps {
			if i > 0 && m != job.Maps[i-1] {
				from = job.Release
			}
			a := place(mrcpscenario.TaskRef{Job: j, Kind: mrcpscenario.Map, Index: i}, from)
			tasks = append(tasks, a)
			end = max(end, a.Start+m.Duration)
			// Nothing had room for this task before a.Start, and placing it
			// only used room: an identical next map starts no earlier.
			from = a.Start
		}
		for i := range job.Reduces {
			tasks = append(tasks, place(mrcpscenario.TaskRef{Job: j, Kind: mrcpscenario.Reduce, Index: i}, end))
		}
	}
	s := newSchedule(in, tasks)
	assignSlots(in, s)
	return s
}

// assignSlots numbers the slot each task uses on its resource (first free
// slot at its start), for drawing. Tasks with demand > 1 get their first slot.
func assignSlots(in *mrcpscenario.Instance, s *Schedule) {
	idx := make([]int, len(s.Tasks))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return s.Tasks[idx[a]].Start < s.Tasks[idx[b]].Start })
	type key struct {
		r int
		k mrcpscenario.TaskKind
	}
	free := map[key][]int{} // per slot: time it becomes free
	for _, i := range idx {
		a := &s.Tasks[i]
		kk := key{a.Resource, a.Task.Kind}
		if _, ok := free[kk]; !ok {
			free[kk] = make([]int, max(in.Resources[a.Resource].Slots(a.Task.Kind), 1))
		}
		sl := free[kk]
		q := in.Task(a.Task).Demand
		a.Slot = 0
		for x := range sl {
			if sl[x] <= a.Start {
				a.Slot = x
				break
			}
		}
		for x := a.Slot; x < a.Slot+q && x < len(sl); x++ {
			sl[x] = a.End
		}
	}
}
