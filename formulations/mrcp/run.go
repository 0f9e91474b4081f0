package mrcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/formulations"
	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/internal/gantt"
	"github.com/mrbound/mrbound/internal/plural"
	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

// objTol is the largest difference between the solver's objective and the
// one recomputed from the decoded schedule that still counts as agreement:
// objectives are integers up to about 1e7 and solvers meet rows to ~1e-6.
const objTol = 1e-4

// integralAbsGap is the absolute gap Run asks for when every objective value
// is an integer: a gap below 1 then proves optimality.
const integralAbsGap = 0.99

// Report is what Run learned: the model, the solver's result, the decoded
// schedule and the checker's verdict.
type Report struct {
	Path     string
	Instance *mrcpscenario.Instance
	Built    *Built
	Result   solve.Result
	// Schedule is nil when the solver found no solution.
	Schedule *Schedule
	// CheckErr is the checker's verdict (nil: feasible and the objective
	// agrees); Verified is Schedule != nil && CheckErr == nil.
	CheckErr error
	Verified bool
	// Recomputed is the objective recomputed from Schedule.
	Recomputed float64
	// FromHeuristic reports that Schedule is the greedy heuristic's: the
	// solver found nothing better (see RunInstance).
	FromHeuristic bool
	// Subproblems lists the late-count decomposition's solves (nil for a
	// monolithic solve); Built is then the model of the subproblem that gave
	// the schedule (or the first one built).
	Subproblems []SubSolve
}

// errBadOption is wrapped by errors about options Run cannot honour.
var errBadOption = badinput.Errorf("mrcp: bad option")

// Run loads the scenario in data (path names it in errors), builds the model,
// solves it, decodes and checks the schedule. The error is non-nil only for
// bad input (it wraps badinput.Err) or a failed call; solver statuses are in
// the Report.
func Run(ctx context.Context, path string, data []byte, o Options) (*Report, error) {
	in, err := mrcpscenario.Parse(path, data)
	if err != nil {
		return nil, err
	}
	rep, err := RunInstance(ctx, path, in, o)
	if errors.Is(err, badinput.Err) {
		return nil, badinput.InFile(path, err)
	}
	return rep, err
}

// RunInstance is Run on a loaded instance.
//
// Unless the Method is Plain, the model asks for a schedule strictly better
// than the greedy heuristic's, and the heuristic's schedule is the
// incumbent: when the solver proves that no better schedule exists
// (infeasible, or a dual bound above the cutoff) the heuristic is reported as
// optimal; when it stops at a limit without a better solution the heuristic
// is reported with the solver's bound.
func RunInstance(ctx context.Context, path string, in *mrcpscenario.Instance, o Options) (*Report, error) {
	if o.Objective.Kind == ObjectiveUnknown {
		// As Build reads it: the decomposition's heuristic compared every
		// schedule by the zero objective and so never improved its start.
		o.Objective.Kind = Product
	}
	if err := checkHorizon(in); err != nil {
		return nil, err
	}
	if o.Objective.Kind == Weighted && o.Objective.LateWeight < 0 {
		return nil, fmt.Errorf("%w: negative late weight", errBadOption)
	}
	// The late-count decomposition takes an objective non-decreasing in the
	// late count and the maximum turnaround whose values are integers.
	decomposable := o.Objective.Kind != Weighted && !o.Objective.Kind.scheduleScored()
	switch o.Method {
	case MethodUnknown, Monolithic, Plain:
	case Decomposition, SerialDecomposition:
		if !decomposable {
			return nil, fmt.Errorf("%w: the %v method solves the product, lexicographic and late-count objectives only, not %v", errBadOption, o.Method, o.Objective)
		}
	default:
		return nil, fmt.Errorf("%w: unknown method %v", errBadOption, o.Method)
	}
	// The decomposition reports the heuristic when no subproblem improves on
	// it, which a --horizon below the derived one might not allow.
	capped := o.Horizon > 0 && o.Horizon < HorizonBound(in)
	decompose := o.Method == Decomposition || o.Method == SerialDecomposition || (o.Method == MethodUnknown && decomposable)
	if decompose && !capped {
		return runDecomposed(ctx, path, in, o)
	}
	bo := o
	bo.cutoff = o.Method != Plain
	t0 := time.Now()
	bo.stop = newRunStopper(ctx, t0, o)
	bt, err := Build(in, bo)
	if errors.Is(err, ErrNoImprovement) {
		// Bounds alone prove the heuristic optimal; report that without a solve.
		bo.cutoff, bo.Incumbent = false, 0
		if bt, err = Build(in, bo); errors.Is(err, errBuildStopped) {
			// The heuristic is optimal, but the report's model was not built.
			err = nil
		}
		if err != nil {
			return nil, err
		}
		out := &Report{Path: path, Instance: in, Built: bt, FromHeuristic: true}
		u := bt.ObjectiveValue(bt.Heuristic)
		if err := incumbentContradicted(o, u); err != nil {
			return nil, err
		}
		out.Result = solve.Result{Solver: "bounds", Status: solve.Optimal, HasSolution: true, Objective: u, Bound: u,
			Message: "the greedy schedule meets the instance's lower bounds"}
		out.finish(bt.Heuristic)
		return out, nil
	}
	if err == nil && bo.stop.poll() {
		// Built, but the deadline passed meanwhile: the solve would only
		// validate and set up the model to stop at once.
		err = errBuildStopped
	}
	if errors.Is(err, errBuildStopped) {
		return stoppedInBuild(path, in, bt, bo.stop.status, t0), nil
	}
	if err != nil {
		return nil, err
	}
	opts := o.Solve
	if opts.RelGap == 0 && opts.AbsGap == 0 && bt.integral() {
		opts.RelGap, opts.AbsGap = 1e-9, integralAbsGap
	}
	if opts.TimeLimit > 0 {
		// The build took part of the limit; at least a nanosecond, as 0
		// would mean none.
		opts.TimeLimit = max(opts.TimeLimit-time.Since(t0), time.Nanosecond)
	}
	res, err := solve.Solve(ctx, bt.Model, opts)
	if err != nil {
		return nil, err
	}
	if res.Wall == 0 {
		res.Wall = time.Since(t0)
	}
	out := &Report{Path: path, Instance: in, Built: bt, Result: res}
	if !res.HasSolution && bo.cutoff {
		// The heuristic is the incumbent; the solver's verdict bounds it.
		u := bt.ObjectiveValue(bt.Heuristic)
		cut := u - 1
		if !bt.integral() {
			cut = u - cutoffEps*math.Max(1, math.Abs(u))
		}
		out.FromHeuristic = true
		r := &out.Result
		r.HasSolution, r.Objective = true, u
		switch {
		case bt.CutByIncumbent && (res.Status == solve.Infeasible || res.Bound > bt.Cut+objTol):
			return nil, incumbentContradicted(o, u)
		case res.Status == solve.Infeasible || res.Bound > cut+objTol:
			r.Status, r.Bound = solve.Optimal, u
			r.Message = "no schedule beats the greedy one"
		default:
			// The solver bounds the schedules better than the cutoff; the
			// heuristic's value bounds the optimum from above.
			r.Bound = math.Min(u, math.Max(res.Bound, bt.lowerBound()))
		}
		out.finish(bt.Heuristic)
		return out, nil
	}
	if !res.HasSolution {
		return out, nil
	}
	// The instance's own bound (Zmin, forced late jobs) may be better than a
	// solver stopped early.
	out.Result.Bound = math.Max(res.Bound, bt.lowerBound())
	s, err := bt.Decode(res.X)
	if err != nil {
		out.CheckErr = err
		return out, nil
	}
	out.finish(s)
	if out.CheckErr == nil && math.Abs(out.Recomputed-res.Objective) > objTol*math.Max(1, math.Abs(res.Objective)) {
		out.CheckErr = violation("objective", "recomputed %v, solver reports %v", out.Recomputed, res.Objective)
		out.Verified = false
	}
	return out, nil
}

// incumbentContradicted is the error when the instance proves that no
// schedule reaches o.Incumbent although the caller holds one (a schedule
// of another problem, or a bug in a checker): nil when the incumbent was
// not below u − 1, the value (less the cutoff's one) that was refuted.
func incumbentContradicted(o Options, u float64) error {
	if o.Incumbent <= 0 || !o.Objective.Kind.scheduleScored() || float64(o.Incumbent) >= u-1 {
		return nil
	}
	return fmt.Errorf("mrcp: no schedule has %v ≤ %d, the incumbent's value (the greedy schedule's is %v): the incumbent is not a schedule of this instance",
		o.Objective, o.Incumbent, u)
}

// finish records s, checks it and recomputes its objective.
func (o *Report) finish(s *Schedule) {
	o.Schedule = s
	o.Recomputed = o.Built.ObjectiveValue(s)
	o.CheckErr = Check(o.Instance, s)
	o.Verified = o.CheckErr == nil
}

// stoppedInBuild is the report of a run stopped (status TimeLimit or
// Interrupted) before its model was built: the heuristic's schedule, and as
// bound what holds without a solve, the objective at no late job and the
// turnaround lower bound (every objective is non-decreasing in both).
func stoppedInBuild(path string, in *mrcpscenario.Instance, bt *Built, status solve.Status, t0 time.Time) *Report {
	u := bt.ObjectiveValue(bt.Heuristic)
	lb := bt.Objective.Value(0, TurnaroundLowerBound(in), bt.ObjectiveSpan())
	if bt.Objective.Kind.scheduleScored() {
		lb = scheduleFloor(in, bt.Objective.Kind)
	}
	out := &Report{Path: path, Instance: in, Built: bt, FromHeuristic: true}
	out.Result = solve.Result{Solver: "bounds", Status: status, HasSolution: true, Objective: u, Bound: math.Min(u, lb),
		Wall: time.Since(t0), Message: "stopped while building the model: the greedy schedule and the turnaround bound"}
	out.finish(bt.Heuristic)
	return out
}

// lowerBound is the objective bound the instance gives without a solve:
// Zmin, with the late jobs forced by the windows (valid for the product and
// weighted objectives and, as K·(Zmax+1) + Zmin, for the lexicographic one).
func (bt *Built) lowerBound() float64 {
	if bt.Objective.Kind.scheduleScored() {
		return scheduleFloor(bt.Instance, bt.Objective.Kind)
	}
	k := 0
	for _, n := range bt.jv.n {
		if bt.Model.ColLower[n.Index()] > 0.5 {
			k++
		}
	}
	return bt.Objective.Value(k, bt.Zmin, bt.Zmax)
}

// integral reports whether every objective value is an integer.
func (bt *Built) integral() bool {
	w := bt.Objective.weight()
	return bt.Objective.Kind != Weighted || w == math.Trunc(w)
}

// finite maps ±Inf and NaN to nil for JSON.
func finite(v float64) *float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return nil
	}
	return &v
}

// JSONReport is the machine-readable report; its field names are stable.
type JSONReport struct {
	Scenario string `json:"scenario"`
	// Unit is "time units": starts, ends, turnarounds and the objective are
	// in the scenario's time units; TimeUnitSeconds is one unit in seconds
	// (the scenario's time_unit_seconds, 1 when it gives none, as simulate
	// and compare read it).
	Unit            string  `json:"unit"`
	TimeUnitSeconds float64 `json:"time_unit_seconds"`

	Formulation Formulation  `json:"formulation"`
	ObjKind     string       `json:"objective_kind"`
	Status      solve.Status `json:"status"`
	Objective   *float64     `json:"objective"`
	Bound       *float64     `json:"bound"`
	Gap         *float64     `json:"gap"`
	Nodes       int64        `json:"nodes"`
	Seconds     float64      `json:"seconds"`
	Solver      string       `json:"solver"`
	Verified    bool         `json:"verified"`
	CheckError  string       `json:"check_error,omitempty"`
	LateJobs    *int         `json:"late_jobs"`
	MaxTurn     *int         `json:"max_turnaround"`
	Late        []string     `json:"late"`
	Horizon     int          `json:"horizon"`
	Rows        int          `json:"rows"`
	Cols        int          `json:"cols"`
	Nonzeros    int          `json:"nonzeros"`
	// ModelSkipped: the model was not built (the run stopped first, or it
	// exceeds the memory budget); rows, cols and nonzeros are 0.
	ModelSkipped bool            `json:"model_skipped,omitempty"`
	Heuristic    HeuristicResult `json:"heuristic"`
	// ScheduleFrom is "solver" or "heuristic".
	ScheduleFrom string `json:"schedule_from,omitempty"`
	Message      string `json:"message,omitempty"`
}

// HeuristicResult is the greedy schedule's score.
type HeuristicResult struct {
	Objective     float64 `json:"objective"`
	LateJobs      int     `json:"late_jobs"`
	MaxTurnaround int     `json:"max_turnaround"`
}

// JSON returns the machine-readable report.
func (o *Report) JSON() JSONReport {
	bt, r := o.Built, o.Result
	s := JSONReport{
		Scenario: o.Path, Unit: "time units", TimeUnitSeconds: unitSeconds(o.Instance), Formulation: bt.Formulation, ObjKind: bt.Objective.String(),
		Status: r.Status, Objective: finite(r.Objective), Bound: finite(r.Bound), Gap: finite(r.Gap()),
		Nodes: r.Nodes, Seconds: r.Seconds(), Solver: r.Solver, Verified: o.Verified,
		Horizon: bt.Horizon, Rows: bt.Model.NumRows(), Cols: bt.Model.NumCols(), Nonzeros: bt.Model.NumNonzeros(),
		ModelSkipped: bt.ModelSkipped,
		Late:         []string{},
		Heuristic:    HeuristicResult{bt.ObjectiveValue(bt.Heuristic), bt.Heuristic.LateJobs, bt.Heuristic.MaxTurnaround},
	}
	if o.CheckErr != nil {
		s.CheckError = o.CheckErr.Error()
	}
	s.Message = r.Message
	if o.Schedule != nil {
		s.ScheduleFrom = "solver"
		if o.FromHeuristic {
			s.ScheduleFrom = "heuristic"
		}
	}
	if o.Schedule != nil {
		s.LateJobs, s.MaxTurn = &o.Schedule.LateJobs, &o.Schedule.MaxTurnaround
		for _, j := range o.Schedule.Jobs {
			if j.Late {
				s.Late = append(s.Late, j.Name)
			}
		}
	}
	return s
}

// WriteJSON writes the JSONReport as one indented JSON object.
func (o *Report) WriteJSON(w io.Writer) error {
	b, err := json.MarshalIndent(o.JSON(), "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// Outcome sums the report up as every formulation does: the solve's
// status and bound, the reported schedule's objective and its verdict.
func (o *Report) Outcome() formulations.Outcome {
	out := formulations.Outcome{Status: o.Result.Status, Sense: model.Minimize, Measure: o.Built.Objective.String(),
		Objective: solve.Number(math.NaN()), Bound: solve.Number(o.Result.Bound)}
	switch {
	case o.Verified:
		out.Objective, out.Verdict = solve.Number(o.Result.Objective), formulations.Verified()
	case o.CheckErr != nil:
		out.Verdict = formulations.Rejected(o.CheckErr.Error())
	default:
		out.Verdict = formulations.Rejected("no schedule to check")
	}
	return out
}

// HasSchedule reports whether there is a schedule to write or draw.
func (o *Report) HasSchedule() bool { return o.Schedule != nil }

// WriteSchedule writes the decoded schedule as JSON.
func (o *Report) WriteSchedule(w io.Writer) error {
	if o.Schedule == nil {
		return errors.New("mrcp: no schedule to write (the solver found no solution)")
	}
	b, err := json.MarshalIndent(o.Schedule, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

func num(p *float64) string {
	if p == nil {
		return "none"
	}
	return fmt.Sprintf("%.6g", *p)
}

// GanttWidth is the width of the text Gantt chart's time axis.
const GanttWidth = 100

// WriteText writes the human report: status, objective, bound, gap, late
// jobs, maximum turnaround, the checker's verdict and a text Gantt chart.
func (o *Report) WriteText(w io.Writer) error {
	s := o.JSON()
	in := o.Instance
	var sb strings.Builder
	fmt.Fprintf(&sb, "scenario        %s: %s, %s, %s\n", o.Path, plural.Count(len(in.Jobs), "job"), plural.Count(len(in.Tasks()), "task"), plural.Count(len(in.Resources), "resource"))
	pooled := ""
	if o.Built.Formulation == TimeIndexed && o.Built.Pooled {
		pooled = ", pooled slots"
	}
	if o.Built.ModelSkipped {
		fmt.Fprintf(&sb, "model           %s, objective %s, horizon %d (%s); not built (the run stopped first, or it exceeds the memory budget)\n",
			s.Formulation, s.ObjKind, s.Horizon, o.Built.HorizonSource)
	} else {
		fmt.Fprintf(&sb, "model           %s%s, objective %s, horizon %d (%s); %d rows, %d columns, %d nonzeros\n",
			s.Formulation, pooled, s.ObjKind, s.Horizon, o.Built.HorizonSource, s.Rows, s.Cols, s.Nonzeros)
	}
	fmt.Fprintf(&sb, "units           times in time units of %s s (time_unit_seconds%s; simulate and compare run in seconds)\n",
		strconv.FormatFloat(unitSeconds(in), 'g', -1, 64), map[bool]string{true: "", false: " absent: 1"}[in.TimeUnitSeconds > 0])
	fmt.Fprintf(&sb, "heuristic       objective %.6g (%d late, max turnaround %d)\n", s.Heuristic.Objective, s.Heuristic.LateJobs, s.Heuristic.MaxTurnaround)
	fmt.Fprintf(&sb, "solver          %s: %s", s.Solver, s.Status)
	if s.Message != "" {
		fmt.Fprintf(&sb, " (%s)", s.Message)
	}
	fmt.Fprintf(&sb, "\ntime            %.3g s\nnodes           %d\n", s.Seconds, s.Nodes)
	gap := "none"
	if s.Gap != nil {
		gap = fmt.Sprintf("%.4g%%", 100**s.Gap)
	}
	fmt.Fprintf(&sb, "objective       %s   bound %s   gap %s\n", num(s.Objective), num(s.Bound), gap)
	if o.Schedule != nil {
		fmt.Fprintf(&sb, "late jobs       %d of %d", o.Schedule.LateJobs, len(in.Jobs))
		if len(s.Late) > 0 {
			fmt.Fprintf(&sb, ": %s", strings.Join(s.Late, ", "))
		}
		fmt.Fprintf(&sb, "\nmax turnaround  %d time units (%s s)\n", o.Schedule.MaxTurnaround,
			strconv.FormatFloat(float64(o.Schedule.MaxTurnaround)*unitSeconds(in), 'g', 6, 64))
	}
	switch {
	case o.Verified:
		fmt.Fprintf(&sb, "checker         verified: feasible, objective recomputed %.6g (schedule from the %s)\n", o.Recomputed, s.ScheduleFrom)
	case o.CheckErr != nil:
		fmt.Fprintf(&sb, "checker         REJECTED: %v\n", o.CheckErr)
	default:
		fmt.Fprintf(&sb, "checker         no schedule to check\n")
	}
	if _, err := io.WriteString(w, sb.String()); err != nil {
		return err
	}
	if o.Schedule == nil {
		return nil
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return err
	}
	return gantt.TextIn(w, Bars(in, o.Schedule), GanttWidth, chartUnit(in))
}

// unitSeconds is one time unit of in in seconds: its time_unit_seconds, 1
// when absent (as workload.FromMRCP reads it).
func unitSeconds(in *mrcpscenario.Instance) float64 {
	if in.TimeUnitSeconds > 0 {
		return in.TimeUnitSeconds
	}
	return 1
}

// WriteSVG draws the schedule as an SVG Gantt chart.
func (o *Report) WriteSVG(w io.Writer) error {
	if o.Schedule == nil {
		return errors.New("mrcp: no schedule to draw (the solver found no solution)")
	}
	title := fmt.Sprintf("%s: %s, %s; %d late, max turnaround %d", o.Path, o.Built.Formulation, o.Built.Objective,
		o.Schedule.LateJobs, o.Schedule.MaxTurnaround)
	return gantt.SVGChart(w, gantt.Chart{Title: title, Unit: chartUnit(o.Instance), Bars: Bars(o.Instance, o.Schedule)})
}

// chartUnit names the unit of in's times on its charts: s when a time unit
// is a second, else the scenario's time units and, when known, their length.
func chartUnit(in *mrcpscenario.Instance) string {
	switch u := in.TimeUnitSeconds; {
	case u == 1:
		return "s"
	case u > 0:
		return fmt.Sprintf("time units of %g s", u)
	}
	return "time units"
}

// Bars turns a schedule into Gantt bars: one lane per resource, slot kind and
// slot ("r0 map", or "r0 map#1" when a resource has several), resources in
// order, map lanes before reduce lanes.
func Bars(in *mrcpscenario.Instance, s *Schedule) []gantt.Bar {
	var bars []gantt.Bar
	for r, res := range in.Resources {
		for _, k := range []mrcpscenario.TaskKind{mrcpscenario.Map, mrcpscenario.Reduce} {
			for slot := 0; slot < res.Slots(k); slot++ {
				lane := fmt.Sprintf("%s %s", res.Name, k)
				if res.Slots(k) > 1 {
					lane = fmt.Sprintf("%s#%d", lane, slot)
				}
				var mine []gantt.Bar
				for _, a := range s.Tasks {
					if a.Resource == r && a.Task.Kind == k && a.Slot == slot {
						mine = append(mine, gantt.Bar{Lane: lane, Start: float64(a.Start), End: float64(a.End), Label: a.Name, Job: fmt.Sprint(a.Task.Job)})
					}
				}
				sortBars(mine)
				bars = append(bars, mine...)
			}
		}
	}
	return bars
}

func sortBars(b []gantt.Bar) {
	for i := 1; i < len(b); i++ {
		for k := i; k > 0 && b[k].Start < b[k-1].Start; k-- {
			b[k], b[k-1] = b[k-1], b[k]
		}
	}
}
