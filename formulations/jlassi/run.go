package jlassi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/formulations"
	"github.com/mrbound/mrbound/instances/jlassiscenario"
	"github.com/mrbound/mrbound/internal/gantt"
	"github.com/mrbound/mrbound/internal/stopper"
	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

// Options choose the model and the solve.
type Options struct {
	// Objective; zero means the scenario's "objective", else RealTime.
	Objective Objective
	// Form; zero means Strong.
	Form Form
	// Horizon; zero means the scenario's "horizon", else eq 17.
	Horizon Horizon
	// Solve is passed to solve.Solve; its TimeLimit bounds the whole run.
	Solve solve.Options
	// LPBound also solves the LP relaxation and reports its optimum.
	LPBound bool
	// NoHeuristic skips the constructive heuristic. By default Run builds a
	// schedule with Heuristic, checks it, passes it to the solver as its MIP
	// start (solve.Options.Start) and falls back to it when the solver
	// returns no schedule or a worse one.
	NoHeuristic bool
	// NoDecomposition skips the interval-count decomposition (RealTime
	// only; docs/jlassi.md), which by default runs after the heuristic and
	// before the MIP, and settles the instance without it when its bound
	// meets the best schedule.
	NoDecomposition bool
}

// HeuristicReport is what the constructive heuristic did in Run.
type HeuristicReport struct {
	// Found is false when the heuristic found no schedule within T.
	Found bool
	// RealTime and Objective are the checked schedule's (NaN when none).
	RealTime, Objective float64
	Seconds             float64
	// Schedule is the heuristic's schedule (nil when none).
	Schedule *Schedule
}

// ErrHorizon is wrapped by errors about choosing the horizon; it is bad
// input (it wraps badinput.Err).
var ErrHorizon = badinput.Errorf("jlassi: horizon")

// Report is what Run learned: the solve, the decoded schedule and the
// checker's verdict. A schedule is never reported without its verdict.
type Report struct {
	Instance  string
	Scenario  int
	Seed      int64
	Objective Objective
	Form      Form
	Horizon   Horizon
	// T is the horizon used; Tried lists every T solved (search).
	T     int
	Tried []int
	Stats model.Statistics
	// BuildSeconds is the time spent building the last model.
	BuildSeconds float64
	Result       solve.Result
	// LPBound is the LP relaxation's optimum (NaN when not computed or not
	// solved to optimality).
	LPBound  float64
	Schedule *Schedule
	Verdict  *CheckReport
	// Heuristic is nil when Options.NoHeuristic; FromHeuristic reports
	// that Schedule is the heuristic's (the solver returned none, or a worse
	// one): then Result keeps the solver's status and bound and its
	// Objective is the heuristic schedule's.
	Heuristic     *HeuristicReport
	FromHeuristic bool
	// MIPRan reports that the full model's MIP was solved (with the best
	// schedule known as its start); the decomposition or the time limit
	// may settle a run before it.
	MIPRan bool
	// startFromDecomposition: the MIP's start was a schedule the
	// decomposition found (local search or a completed R_K), not the
	// heuristic's.
	startFromDecomposition bool
	// Decomposition is nil when it did not run (another objective, or
	// Options.NoDecomposition).
	Decomposition *DecompositionReport
}

// Verified reports whether a schedule exists and the checker accepted it.
func (r *Report) Verified() bool { return r.Schedule != nil && r.Verdict != nil && r.Verdict.OK }

// ResolveHorizon returns the T that h selects for the instance.
func ResolveHorizon(in *jlassiscenario.Instance, h Horizon) (int, error) {
	switch h.Mode {
	case HorizonUnknown, HorizonFile:
		if in.Source != nil && in.Source.Horizon > 0 {
			return in.Source.Horizon, nil
		}
		return in.Eq17(), nil
	case HorizonFixed:
		if h.T <= 0 {
			return 0, fmt.Errorf("%w: T must be positive, got %d", ErrHorizon, h.T)
		}
		return h.T, nil
	case HorizonEq17:
		return in.Eq17(), nil
	case HorizonTable5:
		if in.Source == nil || in.Source.Scenario < 1 || in.Source.Scenario > 7 {
			return 0, fmt.Errorf("%w: table5: the instance names no Table 5 scenario (its \"scenario\" field)", ErrHorizon)
		}
		return jlassiscenario.Table5Horizon[in.Source.Scenario], nil
	case HorizonSearch:
		return in.MinHorizon(), nil
	}
	return 0, fmt.Errorf("%w: unknown mode %v", ErrHorizon, h.Mode)
}

// searchSlack bounds the horizon search: no instance needs more than one
// interval per task plus one for migrations, so the search stops there.
func searchLimit(in *jlassiscenario.Instance) int { return in.MinHorizon() + len(in.Tasks) + 1 }

// Run loads the scenario in data (path names it in errors) and runs it with
// RunInstance. The error is non-nil only for bad input (it wraps
// badinput.Err and names the file) or a failed call.
func Run(ctx context.Context, path string, data []byte, opts Options) (*Report, error) {
	in, err := jlassiscenario.Parse(path, data)
	if err != nil {
		return nil, err
	}
	rep, err := RunInstance(ctx, in, opts)
	if errors.Is(err, badinput.Err) {
		return nil, badinput.InFile(path, err)
	}
	return rep, err
}

// RunInstance builds the model, solves it, decodes the solution and checks
// the schedule against the instance. It returns an error only when the call
// failed (bad options, a solver failure); infeasibility and limits are in
// Report.Result.Status.
func RunInstance(ctx context.Context, in *jlassiscenario.Instance, opts Options) (*Report, error) {
	if opts.Objective == ObjectiveUnknown {
		o, err := ParseObjective(in.Source.Objective)
		if err != nil {
			return nil, badinput.Errorf("objective: %w", err)
		}
		opts.Objective = o
	}
	if opts.Form == FormUnknown {
		opts.Form = Strong
	}
	if opts.Horizon.Mode == HorizonUnknown {
		opts.Horizon.Mode = HorizonFile
	}
	T, err := ResolveHorizon(in, opts.Horizon)
	if err != nil {
		return nil, err
	}
	rep := &Report{Instance: in.Name, Scenario: in.Source.Scenario, Seed: in.Source.Seed,
		Objective: opts.Objective, Form: opts.Form, Horizon: opts.Horizon, LPBound: math.NaN()}
	start := time.Now()
	// The build honours the context and the whole run's time limit: a long
	// horizon's model takes longer to emit than many limits allow.
	stop := stopper.New(ctx, start, opts.Solve.TimeLimit)
	deadline := func() (solve.Options, bool) {
		o := opts.Solve
		if o.TimeLimit > 0 {
			left := o.TimeLimit - time.Since(start)
			if left <= 0 {
				return o, false
			}
			o.TimeLimit = left
		}
		return o, true
	}
	for {
		so, ok := deadline()
		if !ok && len(rep.Tried) > 0 {
			rep.Result.Status = solve.TimeLimit
			break
		}
		bs := time.Now()
		m, err := Build(in, BuildOptions{Objective: opts.Objective, Form: opts.Form, T: T, Stop: stop})
		if errors.Is(err, stopper.ErrStopped) {
			// Nothing was proven at this horizon: no schedule (the heuristic
			// encodes over the model's columns) and no bound. The model is
			// always a minimisation.
			rep.T, rep.BuildSeconds = T, time.Since(bs).Seconds()
			solver := opts.Solve.Solver
			if solver == "" {
				solver = solve.DefaultSolver
			}
			obj, bound := solve.NoSolution(model.Minimize)
			rep.Result = solve.Result{Status: stop.Status(), Objective: obj, Bound: bound, Solver: solver,
				Message: fmt.Sprintf("the model build at T = %d was stopped (%v)", T, stop.Status())}
			// Under a time limit the heuristic still runs (milliseconds, as
			// when the limit ends before the MIP), checked against the
			// instance alone; a Ctrl-C stops at once.
			if !opts.NoHeuristic && stop.Status() == solve.TimeLimit {
				if s, v := modelFreeHeuristic(in, T, opts.Objective, stop); s != nil {
					rep.Heuristic = &HeuristicReport{Found: true, RealTime: v.RealTime, Objective: v.Objective, Schedule: s}
					rep.Schedule, rep.Verdict, rep.FromHeuristic = s, &v, true
					rep.Result.HasSolution, rep.Result.Objective = true, v.Objective
					rep.Result.Message += "; schedule from the heuristic"
				}
			}
			break
		}
		if err != nil {
			return nil, err
		}
		rep.BuildSeconds = time.Since(bs).Seconds()
		rep.T, rep.Stats = T, m.Model.Stats()
		rep.Tried = append(rep.Tried, T)
		var start []float64
		if !opts.NoHeuristic {
			_, start = runHeuristic(in, m, rep, stop)
		}
		// The heuristic ran even with no time left, up to its first checked
		// schedule: a run stopped before the MIP still reports one.
		res := solve.Result{Status: solve.TimeLimit, Objective: math.Inf(1), Bound: math.Inf(-1),
			Solver: opts.Solve.Solver, Message: "the time limit ended before the MIP solve"}
		if res.Solver == "" {
			res.Solver = solve.DefaultSolver
		}
		if m.Model.Sense == model.Maximize {
			res.Objective, res.Bound = math.Inf(-1), math.Inf(1)
		}
		var dec *decomposition
		if ok && opts.Objective == RealTime && !opts.NoDecomposition && ctx.Err() == nil {
			best := math.Inf(1)
			var hs *Schedule
			if h := rep.Heuristic; h != nil && h.Found {
				best, hs = h.RealTime, h.Schedule
			}
			var err error
			if dec, err = decompose(ctx, in, m, so, hs); err != nil {
				return nil, err
			}
			rep.Decomposition = dec.Report
			if dec.Schedule != nil {
				start, rep.startFromDecomposition = dec.X, true
			}
			so, ok = deadline()
			if settled(dec, best) {
				res = dec.result(res.Solver, best, start, time.Since(bs))
				ok = false
			}
		}
		if ok && opts.LPBound {
			// The LP relaxation first, so that a MIP stopped by the time
			// limit still has its LP bound reported.
			lr, err := solve.Solve(ctx, m.Model.Relaxation(), so)
			if err != nil {
				return nil, err
			}
			rep.LPBound = math.NaN()
			if lr.Status == solve.Optimal {
				rep.LPBound, res.Bound = lr.Objective, lr.Objective
			}
			res.Solver = lr.Solver
			so, ok = deadline()
		}
		if ok {
			so.Start = start
			rep.MIPRan = true
			ss := time.Now()
			var err error
			res, err = solve.Solve(ctx, m.Model, so)
			if err != nil {
				return nil, err
			}
			if res.Wall == 0 {
				res.Wall = time.Since(ss)
			}
			// The LP relaxation's optimum bounds the MIP too: it stands when
			// the MIP stopped before its own root bound (or a weaker one).
			if lb := rep.LPBound; !math.IsNaN(lb) && res.Status != solve.Optimal && res.Status != solve.Infeasible {
				if m.Model.Sense == model.Maximize {
					res.Bound = math.Min(res.Bound, lb)
				} else {
					res.Bound = math.Max(res.Bound, lb)
				}
			}
		}
		if dec != nil {
			if res.Status != solve.Optimal && res.Status != solve.Infeasible {
				dec.merge(&res, m)
			}
			// The decomposition is part of the solve: the time is the
			// whole of it (heuristic, decomposition, LP, MIP).
			res.Wall = time.Since(bs)
		}
		rep.Result = res
		if opts.Horizon.Mode == HorizonSearch && res.Status == solve.Infeasible && T < searchLimit(in) {
			T++
			continue
		}
		if res.HasSolution {
			s, err := m.Decode(res.X)
			if err != nil {
				return nil, err
			}
			v := Check(in, s, opts.Objective, res.Objective)
			rep.Schedule, rep.Verdict = s, &v
		}
		if h := rep.Heuristic; h != nil && h.Found && res.Status != solve.Infeasible &&
			(!rep.Verified() || betterThan(m, h.Objective, res.Objective)) {
			// The solver returned no checked schedule, or a worse one (a
			// backend that ignores the start): the heuristic's stands.
			v := Check(in, h.Schedule, opts.Objective, h.Objective)
			rep.Schedule, rep.Verdict, rep.FromHeuristic = h.Schedule, &v, true
			rep.Result.HasSolution, rep.Result.X, rep.Result.Objective = true, start, h.Objective
			msg := "schedule from the heuristic (the solver returned none)"
			if res.HasSolution {
				msg = fmt.Sprintf("schedule from the heuristic (the solver's objective %s is worse)", solve.FormatValue(res.Objective))
			}
			if rep.Result.Message != "" {
				msg = rep.Result.Message + "; " + msg
			}
			if betterThan(m, h.Objective, rep.Result.Bound) {
				// A checked schedule beats the solver's dual bound: the bound
				// is refuted, and so is whatever the solver proved with it.
				// Only the LP relaxation's optimum, if the schedule does not
				// refute it too, still stands.
				msg += fmt.Sprintf("; the solver's bound %s is refuted by the checked heuristic schedule", solve.FormatValue(rep.Result.Bound))
				_, rep.Result.Bound = solve.NoSolution(m.Model.Sense)
				if lb := rep.LPBound; !math.IsNaN(lb) && !betterThan(m, h.Objective, lb) {
					rep.Result.Bound = lb
				}
				rep.Result.Status = solve.NumericalTrouble
			}
			rep.Result.Message = msg
		}
		break
	}
	return rep, nil
}

// runHeuristic runs Heuristic at m's horizon, checks its schedule, encodes it
// over m's columns and records it in rep.Heuristic; it returns the schedule
// and the start vector, or nil when there is none (or, which would be a bug,
// when the checker or the model rejects it).
func runHeuristic(in *jlassiscenario.Instance, m *Model, rep *Report, stop *stopper.Stopper) (*Schedule, []float64) {
	t0 := time.Now()
	h := &HeuristicReport{RealTime: math.NaN(), Objective: math.NaN()}
	rep.Heuristic = h
	defer func() { h.Seconds = time.Since(t0).Seconds() }()
	// The attempt with the least objective of the run: under TST and TRC
	// that is the one with the fewest migrations, not the shortest.
	s := heuristicBy(in, m.T, func(s *Schedule) float64 {
		if m.Objective == RealTime {
			return s.RealTime
		}
		x, err := m.Encode(s)
		if err != nil {
			return math.Inf(1)
		}
		return m.Model.Evaluate(x).Objective
	}, m.Objective != RealTime, stop)
	if s == nil {
		return nil, nil
	}
	x, err := m.Encode(s)
	if err != nil {
		return nil, nil
	}
	obj := m.Model.Evaluate(x).Objective
	if v := Check(in, s, m.Objective, obj); !v.OK {
		return nil, nil
	}
	h.Found, h.RealTime, h.Objective, h.Schedule = true, s.RealTime, obj, s
	return s, x
}

// modelFreeHeuristic is the heuristic at horizon T when there is no model to
// encode its schedules over: each attempt is scored by the checker's
// recomputed objective. It returns the best checked schedule and its verdict,
// or nil.
func modelFreeHeuristic(in *jlassiscenario.Instance, T int, obj Objective, stop *stopper.Stopper) (*Schedule, CheckReport) {
	s := heuristicBy(in, T, func(s *Schedule) float64 {
		if obj == RealTime {
			return s.RealTime
		}
		if v := Check(in, s, obj, math.NaN()); v.OK {
			return v.Objective
		}
		return math.Inf(1)
	}, obj != RealTime, stop)
	if s == nil {
		return nil, CheckReport{}
	}
	v := Check(in, s, obj, math.NaN())
	if !v.OK {
		return nil, CheckReport{}
	}
	return s, v
}

// betterThan reports whether objective a beats b (by more than the
// checker's tolerance) in m's sense.
func betterThan(m *Model, a, b float64) bool {
	tol := objectiveRelTol * math.Max(1, math.Abs(a))
	if m.Model.Sense == model.Maximize {
		return a > b+tol
	}
	return a < b-tol
}

// JSONReport is the machine-readable report; its field names are stable.
type JSONReport struct {
	Instance string `json:"instance"`
	// Unit is "s": RealTime, interval lengths and the schedule's starts and
	// ends are in seconds (the scenario's durations are).
	Unit string `json:"unit"`
	solve.Summary
	Verified  bool         `json:"verified"`
	Verdict   *CheckReport `json:"verdict,omitempty"`
	RealTime  solve.Number `json:"realtime"`
	UnitOfT   solve.Number `json:"unit_of_t"`
	LPBound   solve.Number `json:"lp_bound"`
	Objective Objective    `json:"objective_kind"`
	Form      Form         `json:"formulation"`
	Horizon   string       `json:"horizon_mode"`
	T         int          `json:"horizon"`
	Tried     []int        `json:"horizons_tried,omitempty"`
	Rows      int          `json:"rows"`
	Cols      int          `json:"columns"`
	Nonzeros  int          `json:"nonzeros"`
	Schedule  *Schedule    `json:"schedule,omitempty"`
	// HeuristicRealTime is the heuristic schedule's RealTime (null when the
	// heuristic was off or found none); ScheduleSource says where Schedule
	// came from: "solver", "heuristic" or "" (none).
	HeuristicRealTime solve.Number `json:"heuristic_realtime"`
	ScheduleSource    string       `json:"schedule_source,omitempty"`
	// Decomposition is the interval-count decomposition (absent when it
	// did not run).
	Decomposition *DecompositionReport `json:"decomposition,omitempty"`
}

// JSON returns the machine-readable report.
func (r *Report) JSON() JSONReport {
	j := JSONReport{Instance: r.Instance, Unit: "s", Summary: r.Result.Summarize(), Verified: r.Verified(), Verdict: r.Verdict,
		RealTime: solve.Number(math.NaN()), UnitOfT: solve.Number(math.NaN()), LPBound: solve.Number(r.LPBound),
		Objective: r.Objective, Form: r.Form, Horizon: r.Horizon.Mode.String(), T: r.T, Rows: r.Stats.Rows,
		Cols: r.Stats.Cols, Nonzeros: r.Stats.Nonzeros, Decomposition: r.Decomposition}
	if len(r.Tried) > 1 {
		j.Tried = r.Tried
	}
	if r.Schedule != nil {
		j.RealTime, j.UnitOfT = solve.Number(r.Schedule.RealTime), solve.Number(r.Schedule.UnitOfT)
		j.ScheduleSource = "solver"
		if r.FromHeuristic {
			j.ScheduleSource = "heuristic"
		}
	}
	j.HeuristicRealTime = solve.Number(math.NaN())
	if r.Heuristic != nil {
		j.HeuristicRealTime = solve.Number(r.Heuristic.RealTime)
	}
	return j
}

// WriteJSON writes the machine-readable report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r.JSON())
}

// ganttWidth is the width of the text Gantt chart's time axis.
const ganttWidth = 72

// WriteText writes the human report: the solve, RealTime, the unit of T, the
// checker's verdict and a text Gantt chart per machine and slot.
func (r *Report) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	ew.printf("instance     %s", r.Instance)
	if r.Scenario > 0 {
		ew.printf(" (Table 5 scenario %d, seed %d)", r.Scenario, r.Seed)
	}
	ew.printf("\nmodel        %s form, objective %s, T = %d (%s): %d rows, %d columns (%d binary), %d nonzeros\n",
		r.Form, r.Objective, r.T, r.Horizon.Mode, r.Stats.Rows, r.Stats.Cols, r.Stats.Binary, r.Stats.Nonzeros)
	if len(r.Tried) > 1 {
		ew.printf("horizons     tried %v\n", r.Tried)
	}
	if ew.err != nil {
		return ew.err
	}
	if err := r.Result.Summarize().WriteText(w); err != nil {
		return err
	}
	if !math.IsNaN(r.LPBound) {
		ew.printf("lp bound     %s\n", solve.FormatValue(r.LPBound))
	}
	if d := r.Decomposition; d != nil {
		ew.printf("intervals    bound %s over the counts K of task intervals: %s\n", solve.FormatValue(d.Bound), d)
	}
	if h := r.Heuristic; h != nil {
		switch {
		case h.Found && r.MIPRan && !r.startFromDecomposition:
			ew.printf("heuristic    RealTime %s s, checked, passed as MIP start\n", solve.FormatValue(h.RealTime))
		case h.Found:
			ew.printf("heuristic    RealTime %s s, checked\n", solve.FormatValue(h.RealTime))
		default:
			ew.printf("heuristic    no schedule found within T = %d\n", r.T)
		}
	}
	if d := r.Decomposition; d != nil && d.Search != nil && d.Search.Placement != nil {
		final := *d.Search.Placement
		how := "local search on the heuristic's placement"
		if n := d.Search.Neighbourhood; n != nil {
			final = n.Placement
			how += fmt.Sprintf("; %s s after annealing, then %d neighbourhood sub-MIPs", solve.FormatValue(*d.Search.Placement), n.Solves)
		}
		what := "not completed"
		switch {
		case d.Search.Completed:
			what = "completed, checked"
		case final >= r.Heuristic.RealTime-boundTol:
			what = "no better than the heuristic"
		}
		ew.printf("search       RealTime %s s (%s), %s\n", solve.FormatValue(final), how, what)
	}
	if r.FromHeuristic {
		ew.printf("schedule     from the heuristic, not the solver\n")
	}
	if r.Schedule == nil {
		ew.printf("check        no schedule to check\n")
		return ew.err
	}
	ew.printf("realtime     %s s\nunit of T    %s s (RealTime / T)\ncheck        %s\n",
		solve.FormatValue(r.Schedule.RealTime), solve.FormatValue(r.Schedule.UnitOfT), r.Verdict)
	if ew.err != nil {
		return ew.err
	}
	ew.printf("\n")
	if err := gantt.TextIn(w, r.Schedule.Bars(), ganttWidth, "s"); err != nil {
		return err
	}
	for _, mg := range r.Schedule.Migrations {
		ew.printf("migration    block %s %s -> %s during interval %d\n", mg.Block, mg.From, mg.To, mg.Interval)
	}
	if n := len(r.Schedule.Reservations); n > 0 {
		ew.printf("shuffle      %d interval reservations of bandwidth between reduces and remote maps\n", n)
	}
	return ew.err
}

// Outcome sums the report up as every formulation does: the solve's
// status and bound, the reported schedule's objective and its verdict.
func (r *Report) Outcome() formulations.Outcome {
	o := formulations.Outcome{Status: r.Result.Status, Sense: model.Minimize, Measure: r.Objective.String(),
		Objective: solve.Number(math.NaN()), Bound: solve.Number(r.Result.Bound),
		Verdict: formulations.Rejected("no schedule to check")}
	if r.Schedule != nil && r.Verdict != nil {
		o.Verdict = r.Verdict.Verdict()
	}
	if r.Verified() {
		o.Objective = solve.Number(r.Result.Objective)
	}
	return o
}

// HasSchedule reports whether there is a schedule to write or draw.
func (r *Report) HasSchedule() bool { return r.Schedule != nil }

// WriteSchedule writes the decoded schedule as JSON.
func (r *Report) WriteSchedule(w io.Writer) error {
	if r.Schedule == nil {
		return fmt.Errorf("jlassi: no schedule to write (status %v)", r.Result.Status)
	}
	return r.Schedule.WriteJSON(w)
}

// WriteSVG draws the schedule as an SVG Gantt chart.
func (r *Report) WriteSVG(w io.Writer) error {
	if r.Schedule == nil {
		return fmt.Errorf("jlassi: no schedule to draw (status %v)", r.Result.Status)
	}
	title := fmt.Sprintf("%s: RealTime %s s, T = %d", r.Instance, solve.FormatValue(r.Schedule.RealTime), r.T)
	return gantt.SVGChart(w, gantt.Chart{Title: title, Unit: "s", Bars: r.Schedule.Bars()})
}

// Bars returns one Gantt bar per task, on lane "machine map|reduce slot",
// in machine, kind, slot order.
func (s *Schedule) Bars() []gantt.Bar {
	bars := make([]gantt.Bar, 0, len(s.Tasks))
	for _, p := range s.Tasks {
		bars = append(bars, gantt.Bar{Lane: fmt.Sprintf("%s %s%d", p.Machine, p.Kind, p.Slot),
			Start: p.Start, End: p.End, Label: p.Task, Job: p.Job})
	}
	return bars
}

// WriteJSON writes the schedule as indented JSON.
func (s *Schedule) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, a ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, a...)
	}
}
