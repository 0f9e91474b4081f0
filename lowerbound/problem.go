package lowerbound

import (
	"fmt"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/enum"
)

// SlotMode says how slots are typed. The zero value is unknown.
type SlotMode int8

const (
	ModeUnknown SlotMode = iota
	// Fixed: a map slot runs only maps and a reduce slot only reduces.
	Fixed
	// Fungible: node x has Slots slots, each serving either kind.
	Fungible
)

var slotModeNames = enum.Names[SlotMode]{"unknown", "fixed", "fungible"}

func (m SlotMode) String() string { return slotModeNames.String(m) }

// MarshalText encodes the mode by name.
func (m SlotMode) MarshalText() ([]byte, error) { return slotModeNames.Text(m) }

// UnmarshalText decodes a mode name.
func (m *SlotMode) UnmarshalText(b []byte) error {
	v, ok := slotModeNames.Parse(string(b))
	if !ok {
		return fmt.Errorf("lowerbound: unknown slot mode %q (fixed or fungible)", b)
	}
	*m = v
	return nil
}

// Node is one machine of the cluster.
type Node struct {
	// Group indexes each task's Dur: 0 ≤ Group < Problem.Groups.
	Group int `json:"group"`
	// MapSlots and ReduceSlots (≥ 0) are used in Fixed mode only.
	MapSlots    int `json:"mapSlots,omitempty"`
	ReduceSlots int `json:"reduceSlots,omitempty"`
	// Slots (≥ 0) is used in Fungible mode only.
	Slots int `json:"slots,omitempty"`
}

// Task is one map or reduce task.
type Task struct {
	// Dur[g] ≥ 0 is the duration in ms on a node of group g; len(Dur) is
	// Problem.Groups, or 1 for the same duration on every group. It must not
	// exceed the task's true duration in the run being bounded (base durations
	// without non-local penalty or contention are fine).
	Dur []int64 `json:"dur"`
}

// Job is one job: arrival, optional deadline, tasks.
type Job struct {
	// Arrival a_j ≥ 0 in ms: no task of the job starts earlier.
	Arrival int64 `json:"arrival"`
	// Deadline d_j in ms, meaningful when HasDeadline: the job is late when
	// C_j > d_j (equal is on time).
	Deadline    int64  `json:"deadline,omitempty"`
	HasDeadline bool   `json:"hasDeadline,omitempty"`
	Maps        []Task `json:"maps"`
	Reduces     []Task `json:"reduces"`
}

// Problem is the continuous-time scheduling problem the bounds are valid for
// (see the package comment for the reduce model it assumes).
type Problem struct {
	Mode SlotMode `json:"mode"`
	// Groups ≥ 1 is the number of duration groups.
	Groups int    `json:"groups"`
	Nodes  []Node `json:"nodes"`
	Jobs   []Job  `json:"jobs"`
	// Preemptive: a task may be suspended and resumed later on the same node
	// (HFSP's suspend). The wave arguments, which need each task to run in
	// one piece, are then dropped; every other bound holds for preemptive
	// schedules too (docs/bounds.md §0). Exact and windowbound refuse it.
	Preemptive bool `json:"preemptive,omitempty"`
}

// maxTime (2^50 ms, about 35,700 years) caps every time and, what matters,
// the horizon: the latest arrival plus every task's longest duration, so that
// every completion time of a compacted schedule, and any sum of durations, is
// an integer exact in float64 (below 2^53) and inside int64. The cap is on the
// horizon rather than on each duration (it was 2^40 ms per value), so that a
// stream of a few very long tasks — a COSHH stream without task counts has
// single tasks of 10^12 ms on its slow resources — is bounded, not refused.
const maxTime = int64(1) << 50

// dur returns the duration of t on group g.
func (t *Task) dur(g int) int64 {
	if len(t.Dur) == 1 {
		return t.Dur[0]
	}
	return t.Dur[g]
}

// Validate checks the invariants stated on the fields, and that every task
// has at least one slot of its kind to run on. Errors are
// *badinput.PathError naming the JSON path.
func (p *Problem) Validate() error {
	bad := func(path, format string, a ...any) error {
		return &badinput.PathError{Path: path, Problem: fmt.Sprintf(format, a...)}
	}
	if p.Mode != Fixed && p.Mode != Fungible {
		return bad("mode", "must be fixed or fungible, not %v", p.Mode)
	}
	if p.Groups < 1 {
		return bad("groups", "must be ≥ 1, not %d", p.Groups)
	}
	var has [2]bool
	for i, n := range p.Nodes {
		path := fmt.Sprintf("nodes[%d]", i)
		if n.Group < 0 || n.Group >= p.Groups {
			return bad(path+".group", "%d is outside [0, %d)", n.Group, p.Groups)
		}
		if n.MapSlots < 0 || n.ReduceSlots < 0 || n.Slots < 0 {
			return bad(path, "negative slot count")
		}
		if p.Mode == Fixed {
			has[0] = has[0] || n.MapSlots > 0
			has[1] = has[1] || n.ReduceSlots > 0
		} else {
			has[0] = has[0] || n.Slots > 0
			has[1] = has[1] || n.Slots > 0
		}
	}
	// horizon is the latest arrival plus the longest durations so far; each
	// term is at most maxTime, so the sum cannot overflow before it is
	// refused.
	var horizon int64
	for j := range p.Jobs {
		horizon = max(horizon, min(max(p.Jobs[j].Arrival, 0), maxTime))
	}
	for j := range p.Jobs {
		job := &p.Jobs[j]
		path := fmt.Sprintf("jobs[%d]", j)
		if job.Arrival < 0 || job.Arrival > maxTime {
			return bad(path+".arrival", "%d is outside [0, %d]", job.Arrival, maxTime)
		}
		if job.HasDeadline && (job.Deadline < 0 || job.Deadline > maxTime) {
			return bad(path+".deadline", "%d is outside [0, %d]", job.Deadline, maxTime)
		}
		for k, tasks := range [2][]Task{job.Maps, job.Reduces} {
			name := [2]string{"maps", "reduces"}[k]
			if len(tasks) > 0 && !has[k] {
				return bad(path+"."+name, "no node has a slot for this kind")
			}
			for i := range tasks {
				t := &tasks[i]
				// The path is formatted only for an error: a string per task
				// was most of Validate's allocations on a day of millions of tasks.
				tp := func() string { return fmt.Sprintf("%s.%s[%d].dur", path, name, i) }
				if len(t.Dur) != 1 && len(t.Dur) != p.Groups {
					return bad(tp(), "has %d entries, want 1 or %d", len(t.Dur), p.Groups)
				}
				longest := int64(0)
				for g, d := range t.Dur {
					if d < 0 || d > maxTime {
						return bad(fmt.Sprintf("%s[%d]", tp(), g), "%d is outside [0, %d]", d, maxTime)
					}
					longest = max(longest, d)
				}
				if horizon += longest; horizon > maxTime {
					return bad(tp(), "the latest arrival plus the longest durations up to this task pass %d ms (2^50)", maxTime)
				}
			}
		}
	}
	return nil
}

// NumTasks is the number of tasks of all jobs.
func (p *Problem) NumTasks() int {
	n := 0
	for j := range p.Jobs {
		n += len(p.Jobs[j].Maps) + len(p.Jobs[j].Reduces)
	}
	return n
}
