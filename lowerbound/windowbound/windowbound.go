package windowbound

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/formulations/mrcp"
	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/solve"
)

// Options configures Bound.
type Options struct {
	// WindowJobs is the number of consecutive jobs per window (default 5).
	WindowJobs int
	// UnitMs is the MRCP time unit in ms; 0 means the greatest common divisor
	// of all durations if it is at least 1000, else 1000.
	UnitMs int64
	// Solve is passed to each window's MRCP solve (backend, time limit).
	Solve solve.Options
	// Incumbent, when > 0, is Optimum's: the metric's value (ms; the mean
	// for MeanTurnaround) of a schedule of the stream verified elsewhere,
	// which bounds the makespan and turnaround models' windows (see
	// formulations/mrcp.Options.Incumbent). Bound does not read it.
	Incumbent float64
	// MaxColumns, when > 0, is the most start columns
	// (formulations/mrcp.Options.MaxStartColumns) Optimum's total and mean
	// turnaround MILP may have: on a larger model it returns nil (not
	// tried) without building or solving it, as the MILP would spend its
	// whole time limit for a bound the other components beat. Bound does
	// not read it.
	MaxColumns int
}

const defaultWindowJobs = 5

// boundSlack is taken off a solver's dual bound before it is rounded: solvers
// meet rows to about 1e-6.
const boundSlack = 1e-6

// Window is what one window contributed.
type Window struct {
	// First and Last are positions in arrival order (inclusive).
	First, Last int
	// LateJobs is the proven lower bound on the window's late jobs, and
	// LateStatus the status of its solve.
	LateJobs   int          `json:"lateJobs"`
	LateStatus solve.Status `json:"lateStatus"`
	// MaxTurnaroundMs is the lower bound on the window's maximum turnaround
	// (ms), and TurnStatus the status of its solve.
	MaxTurnaroundMs int64        `json:"maxTurnaroundMs"`
	TurnStatus      solve.Status `json:"turnStatus"`
	// Exact: both solves optimal on the window itself (nothing rounded or
	// dropped), so LateJobs and MaxTurnaroundMs are the window's optima.
	Exact bool `json:"exact"`
	// Verified: both solves' schedules passed formulations/mrcp's checker.
	Verified bool `json:"verified"`
	// DroppedTasks counts the tasks of the window (of the max-turnaround
	// instance, which keeps every job with maps and reduces) left out for
	// lasting less than the unit, with the jobs left without a map or a
	// reduce by that (docs/bounds.md §10): fewer tasks only lower the
	// optimum, so the bounds hold, but the window is not Exact.
	DroppedTasks int `json:"droppedTasks,omitempty"`
	// Parts, when > 1, is the number of parts the window was solved in,
	// split at idle gaps (gapParts; docs/bounds.md §10).
	Parts int `json:"parts,omitempty"`
	Wall  time.Duration
}

// Result is the decomposition's bounds for the whole stream.
type Result struct {
	UnitMs int64 `json:"unitMs"`
	// LateJobs = Σ_k, MaxTurnaroundMs = max_k over the windows.
	LateJobs        int      `json:"lateJobs"`
	MaxTurnaroundMs int64    `json:"maxTurnaroundMs"`
	Windows         []Window `json:"windows"`
	// AllOptimal reports that every window's solves were proven optimal.
	AllOptimal bool `json:"allOptimal"`
	// Exact: one window holds the whole stream and is Exact, so LateJobs
	// and MaxTurnaroundMs are the stream's optima (each for its metric).
	Exact bool `json:"exact"`
	// DroppedTasks = Σ_k over the windows: tasks shorter than the unit,
	// left out (see Window.DroppedTasks).
	DroppedTasks int `json:"droppedTasks,omitempty"`
}

// Bound solves the windows of p and returns the bounds. The error is non-nil
// for a problem the decomposition cannot take (badinput) or a failed solve.
func Bound(ctx context.Context, p *lowerbound.Problem, o Options) (*Result, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if p.Preemptive {
		return nil, badinput.Errorf("windowbound: MRCP schedules are non-preemptive; the problem allows suspend/resume")
	}
	if p.Mode != lowerbound.Fixed {
		return nil, badinput.Errorf("windowbound: MRCP has fixed map and reduce slots, not %v", p.Mode)
	}
	unit := o.UnitMs
	if unit <= 0 {
		unit = defaultUnit(p)
	}
	per := o.WindowJobs
	if per <= 0 {
		per = defaultWindowJobs
	}
	order := make([]int, len(p.Jobs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool { return p.Jobs[order[x]].Arrival < p.Jobs[order[y]].Arrival })
	res := &Result{UnitMs: unit, AllOptimal: true}
	for first := 0; first < len(order); first += per {
		last := min(len(order), first+per) - 1
		t0 := time.Now()
		w := Window{First: first, Last: last}
		jobs := order[first : last+1]
		// The window's parts between idle gaps (gapParts) are solved apart:
		// their sum (late jobs) and maximum (max turnaround) are the
		// window's, and each part's MRCP instance starts at its own first
		// arrival, so a long gap costs nothing.
		parts := gapParts(p, jobs)
		if len(parts) > 1 {
			w.Parts = len(parts)
		}
		lateExact, turnExact, lateChecked, turnChecked := true, true, true, true
		w.LateStatus, w.TurnStatus = solve.Optimal, solve.Optimal
		for _, part := range parts {
			// Late jobs: real deadlines, jobs without one dropped; K ≥ ⌊B/(Zmax+1)⌋.
			st, _, err := solveWindow(ctx, p, part, unit, false, o.Solve, func(b float64, n, zmax int, exact, verified bool) {
				if n > 0 {
					w.LateJobs += max(0, int(math.Floor((b-boundSlack)/float64(zmax+1))))
				}
				lateExact, lateChecked = lateExact && exact, lateChecked && verified
			})
			if err != nil {
				return nil, err
			}
			if st != solve.Optimal && w.LateStatus == solve.Optimal {
				w.LateStatus = st
			}
			// Max turnaround: every deadline at the release, so K = n and
			// Z ≥ B − n·(Zmax+1).
			st, dropped, err := solveWindow(ctx, p, part, unit, true, o.Solve, func(b float64, n, zmax int, exact, verified bool) {
				turnChecked = turnChecked && verified
				turnExact = turnExact && exact && n > 0
				if n == 0 {
					return
				}
				z := math.Ceil(b - boundSlack - float64(n)*float64(zmax+1))
				switch {
				case exact && z >= 0:
					w.MaxTurnaroundMs = max(w.MaxTurnaroundMs, int64(z)*unit) // nothing was rounded
				case z >= 1:
					w.MaxTurnaroundMs = max(w.MaxTurnaroundMs, (int64(z)-1)*unit+1)
				}
			})
			if err != nil {
				return nil, err
			}
			w.DroppedTasks += dropped
			if st != solve.Optimal && w.TurnStatus == solve.Optimal {
				w.TurnStatus = st
			}
		}
		w.Verified = lateChecked && turnChecked
		w.Exact = lateExact && turnExact && w.LateStatus == solve.Optimal && w.TurnStatus == solve.Optimal
		w.Wall = time.Since(t0)
		res.AllOptimal = res.AllOptimal && w.LateStatus == solve.Optimal && w.TurnStatus == solve.Optimal
		res.Exact = len(order) <= per && w.Exact
		res.LateJobs += w.LateJobs
		res.DroppedTasks += w.DroppedTasks
		res.MaxTurnaroundMs = max(res.MaxTurnaroundMs, w.MaxTurnaroundMs)
		res.Windows = append(res.Windows, w)
	}
	return res, nil
}

// solveWindow solves one window's MRCP instance (see toMRCP) with the
// lexicographic objective and hands use the dual bound, the number of jobs
// kept, Zmax and whether the instance is the window exactly (toMRCP). It
// returns the solve's status and the number of tasks toMRCP dropped for
// lasting less than the unit. An empty instance is optimal with nothing to
// report.
func solveWindow(ctx context.Context, p *lowerbound.Problem, jobs []int, unit int64, allLate bool, so solve.Options,
	use func(bound float64, n, zmax int, exact, verified bool)) (solve.Status, int, error) {
	in, _, exact, dropped, err := toMRCP(p, jobs, unit, allLate)
	if err != nil {
		return solve.StatusUnknown, 0, err
	}
	if len(in.Jobs) == 0 {
		use(0, 0, 0, exact, true)
		return solve.Optimal, dropped, nil
	}
	ro := mrcp.Options{Solve: so, SearchNodeLimit: so.NodeLimit, Objective: mrcp.Objective{Kind: mrcp.Lexicographic}}
	out, err := mrcp.RunInstance(ctx, "window", in, ro)
	if err != nil {
		return solve.StatusUnknown, dropped, fmt.Errorf("windowbound: %w", err)
	}
	// The weight of a late job is ObjectiveSpan + 1 (not a decomposition
	// subproblem's own Zmax).
	use(out.Result.Bound, len(in.Jobs), out.Built.ObjectiveSpan(), exact, out.Verified)
	return out.Result.Status, dropped, nil
}

// gapParts splits jobs (in arrival order) before every job that arrives no
// earlier than E(A) = the latest arrival of the jobs A since the last split
// plus the sum of their tasks' longest durations: every schedule of A can be
// left-shifted, no completion later, to one that ends by E(A) (each task
// then starts at an arrival or at the end of another task of A, so a chain
// of A's tasks, each at most its longest duration, leads from an arrival
// ≤ the latest to the end). The optimal schedules of the parts, so
// shifted, therefore never overlap in time, and together they are a
// schedule of the window whose late count is the sum of the parts' and
// whose maximum turnaround is their maximum (docs/bounds.md §10).
func gapParts(p *lowerbound.Problem, jobs []int) [][]int {
	var out [][]int
	from := 0
	var latest, work int64
	for i, j := range jobs {
		job := &p.Jobs[j]
		if i > from && job.Arrival >= latest+work {
			out = append(out, jobs[from:i])
			from, work = i, 0
		}
		latest = job.Arrival
		for _, ts := range [2][]lowerbound.Task{job.Maps, job.Reduces} {
			for _, t := range ts {
				longest := int64(0)
				for _, d := range t.Dur {
					longest = max(longest, d)
				}
				work += longest
			}
		}
	}
	return append(out, jobs[from:])
}

// defaultUnit is the gcd of all durations when it is ≥ 1000 ms, else 1000.
func defaultUnit(p *lowerbound.Problem) int64 {
	var g int64
	for j := range p.Jobs {
		for _, ts := range [][]lowerbound.Task{p.Jobs[j].Maps, p.Jobs[j].Reduces} {
			for _, t := range ts {
				for _, d := range t.Dur {
					g = gcd(g, d)
				}
			}
		}
	}
	if g < 1000 {
		return 1000
	}
	return g
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// toMRCP writes the jobs as an MRCP instance in units of unit ms, rounded so
// that its optimum can only be lower (see the package comment), with time 0
// at origin units: the earliest arrival of jobs, rounded down. (Every
// objective is the same under the shift, and formulations/mrcp's work grows
// with the release values: a window of one job arriving at 2^36 ms took 16
// s, and one at 2^41 ms passed MRCP's 2^31 − 1 limit on a release.)
// allLate sets every deadline to the release; otherwise jobs without a
// deadline are dropped. exact reports that nothing was rounded or dropped
// and every node group gives each task the same duration: the instance is
// then the window itself, and its optimum the window's. A task shorter than
// the unit on every eligible group is dropped (dropped counts them), and so
// is a job left without a map or a reduce by that: a subset of the tasks
// only lowers the optimum (docs/bounds.md §10).
func toMRCP(p *lowerbound.Problem, jobs []int, unit int64, allLate bool) (in *mrcpscenario.Instance, origin int64, exact bool, dropped int, err error) {
	in = &mrcpscenario.Instance{Kind: "mrcp", SchemaVersion: 1, TimeUnitSeconds: float64(unit) / 1000}
	exact = true
	origin = math.MaxInt64
	for _, j := range jobs {
		origin = min(origin, p.Jobs[j].Arrival/unit)
	}
	var minDur [2]func(t lowerbound.Task) int64
	for k := range 2 {
		eligible := make([]bool, p.Groups)
		for _, n := range p.Nodes {
			eligible[n.Group] = eligible[n.Group] || [2]int{n.MapSlots, n.ReduceSlots}[k] > 0
		}
		minDur[k] = func(t lowerbound.Task) int64 {
			best := int64(math.MaxInt64)
			for g, ok := range eligible {
				if ok {
					best = min(best, t.Dur[min(g, len(t.Dur)-1)])
				}
			}
			return best
		}
	}
	for x, n := range p.Nodes {
		in.Resources = append(in.Resources, mrcpscenario.Resource{Name: fmt.Sprintf("r%d", x), MapSlots: n.MapSlots, ReduceSlots: n.ReduceSlots})
	}
	for _, j := range jobs {
		job := &p.Jobs[j]
		if len(job.Maps) == 0 || len(job.Reduces) == 0 || (!allLate && !job.HasDeadline) {
			exact = false
			continue
		}
		exact = exact && job.Arrival%unit == 0 && (allLate || job.Deadline%unit == 0)
		mj := mrcpscenario.Job{Name: fmt.Sprintf("j%d", j), Release: int(job.Arrival/unit - origin)}
		if allLate {
			mj.Deadline = mj.Release
		} else {
			// A deadline before the arrival (the Problem allows one; MRCP
			// does not) is raised to the release: every kept task lasts a
			// unit or more, so the job is late in every schedule either way.
			mj.Deadline = max(mj.Release, int((job.Deadline+unit-1)/unit-origin))
		}
		// Tasks under a unit are left out; a job they leave without a map
		// or a reduce goes too, with its other tasks.
		short := 0
		for k, ts := range [2][]lowerbound.Task{job.Maps, job.Reduces} {
			for _, t := range ts {
				d := minDur[k](t) / unit
				exact = exact && minDur[k](t)%unit == 0
				for _, dg := range t.Dur {
					exact = exact && dg == minDur[k](t)
				}
				if d < 1 {
					short++
					continue
				}
				task := mrcpscenario.Task{Duration: int(d), Demand: 1}
				if k == 0 {
					mj.Maps = append(mj.Maps, task)
				} else {
					mj.Reduces = append(mj.Reduces, task)
				}
			}
		}
		if short > 0 {
			exact = false
			if len(mj.Maps) == 0 || len(mj.Reduces) == 0 {
				dropped += len(job.Maps) + len(job.Reduces)
				continue
			}
			dropped += short
		}
		in.Jobs = append(in.Jobs, mj)
	}
	// Round-trip through the loader so the instance is validated like a file.
	var buf bytes.Buffer
	if err := in.Write(&buf); err != nil {
		return nil, 0, false, 0, err
	}
	if len(in.Jobs) == 0 {
		return in, origin, exact, dropped, nil
	}
	in, err = mrcpscenario.Parse("window", buf.Bytes())
	return in, origin, exact, dropped, err
}
