package simbridge

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/compare"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/lowerbound/bnb"
	"github.com/mrbound/mrbound/lowerbound/windowbound"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/workload/trace"

	"github.com/mrbound/mrbound/upperbound"
)

// Options configures Compare.
type Options struct {
	// Metric is compared; zero means DefaultMetric(w).
	Metric lowerbound.Metric
	// Sim runs every policy (ideal mode, exact estimates by default: see
	// IdealOptions).
	Sim sim.Options
	// Solve is used by the LP and the windows (backend, time limit per solve).
	Solve solve.Options
	// LP adds the bucketed LP to the turnaround bounds.
	LP bool
	// WindowJobs > 0 adds windowbound's bounds (late jobs, max turnaround)
	// with that many jobs per window.
	WindowJobs int
	// OptimumJobs > 0 solves a stream of at most that many jobs as one MRCP
	// instance (windowbound.Optimum) for every metric (for the total and
	// mean turnaround only up to TurnaroundOptimumColumns columns), when its durations
	// are the runs' true ones and it is an MRCP instance exactly: a proven
	// optimum whose schedule passes sim/check is the offline side's, a
	// solve stopped by its limit adds its bound. The best verified
	// schedule (policies and offline constructions) is its incumbent. Its time limit is
	// Solve.TimeLimit, or DefaultOptimumTimeLimit when that is 0.
	OptimumJobs int
	// SearchNodes is the node limit of the branch and bound (package
	// lowerbound/bnb) that compare runs, on the same streams as
	// OptimumJobs and before the whole-stream MILP, for the makespan and
	// the total, mean and max turnaround: when 0, DefaultSearchNodes on
	// the maxima and DefaultSumsSearchNodes on the sums; none when
	// negative. An optimum it proves (its schedule verified by
	// sim/check, or compare's best verified schedule when it finds none
	// better) is the offline side's and the MILP is not run; a search
	// stopped by its limit adds its bound, and a better schedule it found
	// competes for the upper end and becomes the MILP's incumbent. On the
	// maxima half the nodes go to a depth-first search; on the total and
	// mean turnaround a 24th, and the rest to a best-first phase for a
	// better bound, whose dives (bnb.DefaultDiveNodesPerTask nodes per
	// task left, not counted in the budget) look for better schedules. Its time limit is the MILP's.
	SearchNodes int64
	// SearchMaxOpen caps the nodes the search's best-first phase makes
	// (bnb.Options.MaxOpen: bnb.DefaultMaxOpen when 0, about 16 bytes
	// each): a budget of SearchNodes far above DefaultSearchNodes needs a
	// larger one to be spent (bench/mrcpexact -max-open).
	SearchMaxOpen int
	// Recorded, when set, is what the real cluster did (a trace's record):
	// it is reported as one more row, "recorded", verified by the checker
	// like every run, or not verified with the reason it cannot be.
	Recorded *trace.Recorded

	// Lagrange, when not nil, adds the interval Lagrangian
	// (lowerbound.IntervalLagrangian) to the total and mean turnaround
	// bounds; its TimeLimit is DefaultLagrangeTimeLimit when 0.
	Lagrange *lowerbound.LagrangeOptions

	// DropTraces runs each policy without keeping its trace: the checker
	// takes it as the run makes it (check.Stream, the same verdict as
	// check.Verify), and the block replicas are released once the run is
	// verified: Outcome.Results then keep the figures (metrics, counts,
	// wall time) but no trace. On a day of millions of tasks a trace is 56
	// bytes per task, held through the run and its check otherwise. The problem's tasks are
	// likewise dropped once the bounds are computed, unless the enumeration,
	// the MRCP windows or the whole-stream solve still need them
	// (Outcome.Problem then keeps only its jobs).
	DropTraces bool

	// Progress, when set, is called with (steps done, steps): one step per
	// policy run, one for the offline side.
	Progress func(done, total int)

	// NoUpper skips the offline constructions (package upperbound) that
	// compete with the policies for the upper end of the bracket; they run
	// by default.
	NoUpper bool
	// UpperEvaluations and UpperTimeLimit are the local search's budget
	// (upperbound.Options.Evaluations, TimeLimit; 0: its default and no
	// time limit).
	UpperEvaluations int
	UpperTimeLimit   time.Duration
}

// DefaultLagrangeTimeLimit is the interval Lagrangian's wall limit when no
// limit is given: a safety net only (lowerbound.LagrangeSafetyLimit), so
// that its step count, not the machine's load, decides the bound (its best
// value so far stays a valid bound if the net is ever reached).
const DefaultLagrangeTimeLimit = lowerbound.LagrangeSafetyLimit

// TurnaroundOptimumColumns is the most start columns the whole-stream MILP
// of the total and mean turnaround may have for compare to solve it
// (windowbound.Options.MaxColumns: counted from the windows the incumbent
// gives, and the model neither built nor solved when larger). Its LP relaxation is
// weak (a reduce may start as soon as a fraction of its maps is done): in
// step form (formulations/mrcp) the native solver proves 3- and 4-job mixed
// streams of 470–970 columns in 0.2–9 s of CPU but leaves those of
// 2,100–3,400 columns 3–17 % open after 20–40 s, and the 20-job streams
// (18 k columns) do not finish the root LP in a minute (docs/results.md,
// issue 26, s10exact): beyond this size a solve would spend its whole time
// limit for a bound the other components beat. (The gate was 30 tasks.)
const TurnaroundOptimumColumns = 1200

// DefaultSearchNodes is Options.SearchNodes when 0: the branch and bound
// proves 3- to 8-job MRCP mixed streams in 10^2–10^5 nodes, 12-job ones in
// 2·10^4–2·10^5 (with §14f's twin rule), and visits 5·10^4–3·10^5 nodes
// per CPU second (docs/results.md, issue 26, s12bnb). Raised from 600,000
// by s16sym: with the twin rule 2 M nodes prove the sums of the 20-job
// stream of seed 2 (λ 0.02; 2.22 M nodes visited, dives included), about
// 30 s of CPU, and every comparison of those streams stays within 50 s of
// CPU (the wall-clock net is SearchSafetyLimit unless a limit is given).
// Raised from 2 M by s17fast, whose search visits 2.5–3 times as many
// nodes per CPU second: 6 M nodes also prove the sums of seed 6, and the
// largest comparison of those streams takes about 40 s of CPU on a quiet
// core (docs/results.md, issue 26, s17fast). Lowered to 3 M by s21sum,
// whose memo keeps 1,024 entries per bucket: a node then costs 2–2.5
// times as much, 3 M nodes prove the sums of seeds 1, 2, 3, 4 and 6,
// and seed 5's (still open) stays under 40 s of CPU where 4 M took up to
// 55 s on a loaded machine (docs/results.md, issue 26, s21sum).
const DefaultSearchNodes = 3_000_000

// DefaultSumsSearchNodes is Options.SearchNodes when 0 on the total and
// mean turnaround. Raised from DefaultSearchNodes by s28fast, whose search
// spends about a quarter less CPU per node on the sums (the memo's keys,
// the due-date form left out where the rest closes the node), and set by
// the lead to 3.5 M once s28upper's longer dives cost a fifth more there
// and the memo grew (buckets of 4,096, 2 M entries): seed 5's sums of the
// 20-job MRCP streams (λ 0.02, the only ones still open) then take about
// 40 s of CPU on a quiet core, 3052 / 3067 s against 3048 / 3072 s at 3 M
// nodes before the three (docs/results.md, issue 26). Raised to 7 M by
// s29shift, whose memo closes nodes by shifts (docs/bounds.md §14, Lemma
// 3′): seed 5's sums are then proven, at 3064 s, in 6.2 M nodes and about
// 50 s of CPU, and a stream the budget stops takes up to about 56 s.
const DefaultSumsSearchNodes = 7_000_000

// DefaultOptimumTimeLimit bounds the whole-stream MRCP solve when no time
// limit is given (20-job mixed streams take 2–15 s).
const DefaultOptimumTimeLimit = time.Minute

// SearchSafetyLimit is the branch and bound's wall-clock limit when no time
// limit is given: a safety net only, so that the node budget decides the
// result. At DefaultSearchNodes a 20-job stream's search takes up to ~40 s
// of CPU; under DefaultOptimumTimeLimit a loaded machine cut it short and
// the bound depended on the clock (seed 3: 2968 or 2970 s, rev16b).
const SearchSafetyLimit = 10 * time.Minute

// IdealOptions are the simulator options for comparing against optima:
// ideal offers (no heartbeat), reduces after all maps (slow-start 1), exact
// estimates, no noise (policies.md §1.6, A-G2).
func IdealOptions() sim.Options {
	o := sim.DefaultOptions()
	o.Heartbeat, o.SlowStart = 0, 1
	return o
}

// DefaultMetric is makespan for a batch (every job submitted at once, or by
// its parent's completion), mean turnaround for a stream.
func DefaultMetric(w *sim.Workload) lowerbound.Metric {
	for j := range w.Jobs {
		if w.Jobs[j].Parent < 0 && w.Jobs[j].Arrival != w.Jobs[0].Arrival {
			return lowerbound.MeanTurnaround
		}
	}
	return lowerbound.Makespan
}

// Outcome is a comparison with what it was computed from.
type Outcome struct {
	Report *compare.Report
	// Problem is what the bounds were computed on; with
	// Options.DropTraces, its jobs without their tasks.
	Problem *lowerbound.Problem
	Bounds  *lowerbound.Bounds
	// Exact is the enumerated optimum (tiny instances only) and Windows the
	// window decomposition (when asked); nil otherwise.
	Exact   *lowerbound.Optimum
	Windows *windowbound.Result
	// Stream is the whole-stream MRCP solve (Options.OptimumJobs), nil
	// when it did not apply.
	Stream *windowbound.StreamOptimum
	// StreamCheckErr is sim/check's verdict on Stream's schedule ("" when
	// it passed or there was none): a rejected schedule proves nothing.
	StreamCheckErr string
	// Search is the branch and bound (Options.SearchNodes), nil when it did
	// not apply; SearchCheckErr is sim/check's verdict on its schedule.
	Search         *bnb.Result
	SearchCheckErr string
	// Upper is what the offline constructions found (nil with NoUpper).
	Upper   *upperbound.Result
	Results []*sim.Result
	// BoundWall is the time spent on the offline side.
	BoundWall time.Duration
}

// Named is a policy with the name it is reported under (a configured
// variant, e.g. "fair-nodelay", may share its Name() with the default).
type Named struct {
	Name   string
	Policy sim.Policy
}

// NameAll labels each policy by its own Name().
func NameAll(ps ...sim.Policy) []Named {
	out := make([]Named, len(ps))
	for i, p := range ps {
		out[i] = Named{p.Name(), p}
	}
	return out
}

// Compare runs every policy on w in the simulator, verifies each trace with
// the independent checker, computes the offline side, and builds the report.
// The error wraps compare.ErrBelowBound when a verified run is below the
// bound (a bug somewhere: never ignore it), badinput.Err for input the
// bounds cannot take, or a failed call. Compare does not hold a policy
// after its run (nor its engine, which the policy points to); a caller
// that keeps its own slice of policies keeps every run's engine.
func Compare(ctx context.Context, name string, w *sim.Workload, policies []Named, o Options) (*Outcome, error) {
	if len(policies) == 0 {
		return nil, badinput.Errorf("compare: no policy to compare")
	}
	m := o.Metric
	if m == lowerbound.MetricUnknown {
		m = DefaultMetric(w)
	}
	if Chained(w) && m != lowerbound.Makespan {
		return nil, badinput.Errorf("compare: %s: chained jobs have unknown arrivals; only the makespan can be bounded", m)
	}
	// A policy keeps a pointer to the engine of its run (policies read the
	// simulator's state through it), and with it every per-task array of
	// the run. Compare works on its own copy of the list and drops each
	// policy once it has run, so that the engines of earlier runs are
	// garbage while the next one runs and while the offline side works (on
	// a day of millions of tasks, each is about 180 bytes per task). The
	// caller's slice is not read again, so it keeps nothing alive unless the
	// caller uses it after the call.
	pending := slices.Clone(policies)
	nPolicies := len(pending)
	policies = nil
	out := &Outcome{}
	var runs []compare.Run
	preemptive := false
	so := o.Sim
	so.Stop = func() bool { return ctx.Err() != nil }
	for i := range pending {
		pol := pending[i]
		pending[i].Policy = nil
		// With DropTraces the checker takes the trace as the run makes it
		// (check.Stream) and no trace is held at all.
		ro := so
		var st *check.Stream
		if o.DropTraces {
			st = check.NewStream(w, so)
			ro.Sink = st
		}
		res, err := sim.Run(w, pol.Policy, ro)
		if err != nil {
			return nil, err
		}
		if res.Status == sim.Interrupted {
			// An unfinished run has no value to set beside a bound.
			return nil, fmt.Errorf("compare: %s: %s: %w", pol.Name, res.Incomplete(), context.Cause(ctx))
		}
		run := compare.Run{Policy: pol.Name}
		verr := error(nil)
		if st != nil {
			verr = st.Finish(res)
		} else {
			verr = check.Verify(w, res)
		}
		if verr != nil {
			run.CheckErr = verr.Error()
		} else if res.Rejected > 0 {
			run.CheckErr = fmt.Sprintf("%d invalid actions", res.Rejected)
		} else {
			run.Verified = true
		}
		c, err := Completions(res)
		if err != nil {
			return nil, err
		}
		run.Completion = c
		preemptive = preemptive || Suspends(res) || res.Metrics.Suspended > 0
		if o.DropTraces {
			res.Trace, res.Replicas = nil, nil
		}
		runs = append(runs, run)
		out.Results = append(out.Results, res)
		if o.Progress != nil {
			o.Progress(len(runs), nPolicies+1)
		}
	}
	var recorded *compare.Run
	if o.Recorded != nil {
		run := recordedRun(w, o.Recorded) // checked before the offline side's clock starts
		recorded = &run
	}
	t0 := time.Now()
	p, err := Problem(w, o.Sim, preemptive)
	if err != nil {
		return nil, err
	}
	if recorded != nil {
		run := *recorded
		if _, err := compare.Value(p, m, run.Completion); err != nil {
			return nil, badinput.Errorf("the recorded schedule cannot be compared: %v (%s)", err, run.CheckErr)
		}
		runs = append(runs, run)
	}
	out.Problem = p
	lo := lowerbound.Options{}
	if o.LP {
		lo.LP = &lowerbound.LPOptions{Solve: o.Solve}
	}
	if o.Lagrange != nil && (m == lowerbound.TotalTurnaround || m == lowerbound.MeanTurnaround) {
		lg := *o.Lagrange
		if lg.TimeLimit <= 0 {
			lg.TimeLimit = DefaultLagrangeTimeLimit
		}
		lo.Lagrange = &lg
	}
	if out.Bounds, err = lowerbound.ComputeWith(ctx, p, lo); err != nil {
		return nil, err
	}
	// The relaxation's per-job charges are read before the tasks may be
	// dropped below (LagrangePrimal rebuilds the grid from them).
	var waits []float64
	if !o.NoUpper && lo.Lagrange != nil && out.Bounds.Lagrange != nil {
		if waits, err = chargedWaits(p, *lo.Lagrange, out.Bounds); err != nil {
			return nil, err
		}
	}
	var extra []lowerbound.Component
	mrcpMetric := m == lowerbound.LateJobs || m == lowerbound.MaxTurnaround || m == lowerbound.MRCPProduct
	exact := exactDurations(w, o.Sim)
	turnaround := m == lowerbound.TotalTurnaround || m == lowerbound.MeanTurnaround
	enumerate := !p.Preemptive && p.NumTasks() <= lowerbound.ExactMaxTasks && len(p.Jobs) <= lowerbound.ExactMaxJobs
	streamOptimum := o.OptimumJobs > 0 && len(p.Jobs) <= o.OptimumJobs && !p.Preemptive && exact
	if o.DropTraces && !enumerate && !streamOptimum && !(o.WindowJobs > 0 && mrcpMetric) {
		// What is left (the offline constructions and the report) reads
		// only the jobs' arrivals and deadlines: the tasks (a slice header
		// each, 24 bytes per task) need not be held while the
		// constructions run the simulator.
		p = jobsOnly(p)
		out.Problem = p
	}
	// The offline constructions run first: the best verified schedule's
	// value narrows the whole-stream MILP below (streamIncumbent).
	if !o.NoUpper {
		uo := upperbound.Options{Metric: m, Sim: o.Sim, Evaluations: o.UpperEvaluations, TimeLimit: o.UpperTimeLimit, Seed: o.Sim.Seed}
		uo.Waits = waits
		uo.ChargedFirst = chargedFirst(waits, out.Bounds.Get(m).By, len(w.Jobs))
		if out.Bounds.Lagrange != nil {
			uo.Prices = ReducePrices(out.Bounds.Lagrange)
		}
		for _, run := range runs {
			if !run.Verified {
				continue // only a checked schedule may seed the search
			}
			v, err := compare.Value(p, m, run.Completion)
			if err != nil {
				return nil, err
			}
			uo.Starts = append(uo.Starts, upperbound.Start{Name: run.Policy, Value: v, Completion: run.Completion})
		}
		if out.Upper, err = upperbound.Best(ctx, w, p, uo); err != nil {
			return nil, err
		}
	}
	if o.WindowJobs > 0 && mrcpMetric {
		if out.Windows, err = windowbound.Bound(ctx, p, windowbound.Options{WindowJobs: o.WindowJobs, Solve: o.Solve}); err != nil {
			return nil, err
		}
		switch m {
		case lowerbound.LateJobs:
			extra = append(extra, lowerbound.Component{Name: "mrcp-windows", Value: float64(out.Windows.LateJobs)})
		case lowerbound.MaxTurnaround:
			extra = append(extra, lowerbound.Component{Name: "mrcp-windows", Value: float64(out.Windows.MaxTurnaroundMs)})
		case lowerbound.MRCPProduct:
			late := max(out.Windows.LateJobs, int(out.Bounds.Get(lowerbound.LateJobs).Certified))
			z := max(float64(out.Windows.MaxTurnaroundMs), out.Bounds.Get(lowerbound.MaxTurnaround).Certified)
			extra = append(extra, lowerbound.Component{Name: "mrcp-windows", Value: float64(late+1) * z})
		}
	}
	var opt *lowerbound.Optimum
	if enumerate {
		if out.Exact, err = lowerbound.Exact(p); err != nil {
			return nil, err
		}
		if exact {
			opt = out.Exact
		} else {
			// Durations were rounded down: the enumerated value is a bound.
			extra = append(extra, lowerbound.Component{Name: "exact-on-lower-durations", Value: out.Exact.Value(m, len(p.Jobs))})
		}
	}
	searched := false // the branch and bound proved the optimum
	if opt == nil && streamOptimum {
		so := o.Solve
		if so.TimeLimit <= 0 {
			so.TimeLimit = DefaultOptimumTimeLimit
		}
		inc, err := streamIncumbent(p, m, runs, out.Upper)
		if err != nil {
			return nil, err
		}
		if o.SearchNodes >= 0 && (m == lowerbound.Makespan || turnaround || m == lowerbound.MaxTurnaround) {
			known := out.Bounds.Get(m).Certified
			for _, c := range extra {
				known = math.Max(known, c.Value)
			}
			limit := o.Solve.TimeLimit
			if limit <= 0 {
				limit = SearchSafetyLimit
			}
			if out.Search, err = search(ctx, p, m, o, limit, inc, known); err != nil {
				return nil, err
			}
			if sr := out.Search; sr != nil {
				if sr.Placements != nil {
					if verr := verifySearch(w, o.Sim, p, m, sr); verr != nil {
						out.SearchCheckErr = verr.Error()
					}
				}
				if out.SearchCheckErr == "" {
					extra = append(extra, lowerbound.Component{Name: "branch-and-bound", Value: sr.Bound})
					searched = sr.Status == solve.Optimal
					if sr.Placements != nil && !math.IsNaN(sr.Value) {
						inc = sr.Value // a better verified schedule narrows the MILP
					}
				}
			}
		}
		wo := windowbound.Options{Solve: so, Incumbent: inc}
		if turnaround {
			wo.MaxColumns = TurnaroundOptimumColumns
		}
		if !searched {
			if out.Stream, err = windowbound.Optimum(ctx, p, m, wo); err != nil {
				return nil, err
			}
		}
		if st := out.Stream; st != nil {
			if st.Verified {
				// formulations/mrcp's checker passed it; the simulator's
				// must too before it counts as a schedule of this workload.
				if verr := verifyStream(w, o.Sim, p, m, st); verr != nil {
					out.StreamCheckErr = verr.Error()
				}
			}
			// When the checkers disagree the model and the simulator
			// disagree, and an optimal solve's bound (its schedule's value)
			// proves nothing about this workload: no component then.
			if out.StreamCheckErr == "" {
				extra = append(extra, lowerbound.Component{Name: "mrcp-stream", Value: st.Bound})
			}
		}
	}
	out.BoundWall = time.Since(t0)
	if o.Progress != nil {
		o.Progress(nPolicies+1, nPolicies+1)
	}
	off := compare.OfflineFromBounds(out.Bounds, m, opt, extra...)
	if out.Upper != nil {
		off.SchedulesStopped = out.Upper.Stopped
		for _, sc := range out.Upper.Tried {
			off.Schedules = append(off.Schedules, compare.Schedule{By: sc.By, Value: sc.Value, Verified: sc.Verified, CheckError: sc.CheckError})
		}
	}
	if out.StreamCheckErr != "" {
		// Two checkers disagree on one schedule: show it, rejected, rather
		// than drop it silently (it can never be the upper end).
		off.Schedules = append(off.Schedules, compare.Schedule{By: "mrcp-stream", Value: out.Stream.Value, CheckError: out.StreamCheckErr})
	} else if st := out.Stream; st != nil && st.Verified && st.Status != solve.Optimal && !math.IsNaN(st.Value) {
		// A solve stopped early still found a schedule both checkers
		// passed: it competes for the upper end like the constructions'
		// (an optimal one is the optimum itself, below).
		off.Schedules = append(off.Schedules, compare.Schedule{By: "mrcp-stream", Value: st.Value, Verified: true})
	}
	if sr := out.Search; sr != nil {
		switch {
		case out.SearchCheckErr != "":
			off.Schedules = append(off.Schedules, compare.Schedule{By: "branch-and-bound", Value: sr.Value, CheckError: out.SearchCheckErr})
		case sr.Status == solve.Optimal && off.Optimum == nil:
			// Its own schedule, verified above, or compare's best verified
			// one when the search proved nothing better exists.
			v := sr.Value
			off.Optimum, off.Verified = &v, true
		case sr.Placements != nil:
			off.Schedules = append(off.Schedules, compare.Schedule{By: "branch-and-bound", Value: sr.Value, Verified: true})
		}
	}
	if st := out.Stream; st != nil && st.Status == solve.Optimal && st.Verified && out.StreamCheckErr == "" && off.Optimum == nil {
		v := st.Value
		off.Optimum, off.Verified = &v, true
	}
	if wb := out.Windows; wb != nil && wb.Exact && exact && off.Optimum == nil {
		// One window, nothing rounded: the MRCP optimum is the stream's.
		v := float64(wb.LateJobs)
		if m == lowerbound.MaxTurnaround {
			v = float64(wb.MaxTurnaroundMs)
		}
		if m != lowerbound.MRCPProduct {
			off.Optimum, off.Verified = &v, wb.Windows[0].Verified
		}
	}
	if out.Report, err = compare.Build(p, m, off, runs); err != nil {
		return nil, err
	}
	out.Report.Instance = name
	return out, nil
}

// jobsOnly is p without its tasks: the jobs' arrivals and deadlines, which
// are all that compare.Value and the offline constructions read.
func jobsOnly(p *lowerbound.Problem) *lowerbound.Problem {
	q := *p
	q.Jobs = make([]lowerbound.Job, len(p.Jobs))
	for j, job := range p.Jobs {
		q.Jobs[j] = lowerbound.Job{Arrival: job.Arrival, Deadline: job.Deadline, HasDeadline: job.HasDeadline}
	}
	return &q
}

// exactDurations reports whether the problem is the one the runs solve: the
// durations are the true ones (no noise, no contention, no non-local
// penalty, integral base durations) and slots are the only capacity (no
// node RAM or disk limit), so that an enumerated or MRCP optimum is the true
// optimum.
func exactDurations(w *sim.Workload, o sim.Options) bool {
	if Chained(w) {
		return false // arrivals are lower bounds
	}
	if o.Noise != 0 || o.MapContention != 0 || o.ReduceContention != 0 || w.Cluster.NonLocalPenalty != 0 {
		return false
	}
	for _, n := range w.Cluster.Nodes {
		if n.Speed != 0 && n.Speed != 1 {
			return false // Work/speed may be rounded
		}
		if n.RAM > 0 || n.Disk > 0 {
			// The problem has slots only: RAM or disk limits may keep the
			// simulator from running what fills them, so its optimum is a
			// bound.
			return false
		}
	}
	return true
}

// RecordedPolicy names the row of a trace's recorded schedule.
const RecordedPolicy = "recorded"

// recordedRun is the record as a run: checked by the independent checker
// when it could be placed on the cluster, else unverified with the reason.
func recordedRun(w *sim.Workload, rec *trace.Recorded) compare.Run {
	run := compare.Run{Policy: RecordedPolicy, Completion: rec.Completion}
	switch {
	case rec.Result == nil:
		run.CheckErr = rec.Problem
	default:
		if err := check.Verify(w, rec.Result); err != nil {
			// the count and the first violation say how the record breaks
			// the model (more containers than slots, say)
			lines := strings.SplitN(err.Error(), "\n", 3)
			run.CheckErr = strings.Join(lines[:min(2, len(lines))], "; first: ")
		} else {
			run.Verified = true
		}
	}
	return run
}

// ReducePrices are the interval Lagrangian's prices of a reduce slot's
// time at its certificate (the reduce row; the one row when slots are
// fungible), for srpt-hold's holds (upperbound.Options.Prices). Only when
// the certificate weighs every slot 1 (Weighting 0, always so on identical
// nodes): under a speed weighting a row prices weighted slot-time, not a
// slot's, and the prices are left out (nil).
func ReducePrices(c *lowerbound.LagrangeCertificate) *upperbound.SlotPrices {
	if c == nil || c.Weighting != 0 || len(c.Lambda) == 0 {
		return nil
	}
	row := c.Lambda[len(c.Lambda)-1]
	if len(c.Breakpoints) != len(row)+1 {
		return nil
	}
	return &upperbound.SlotPrices{Breakpoints: c.Breakpoints, Reduce: row}
}

// chargedWaits are the waits beyond their critical paths that the interval
// Lagrangian's minimiser charges the jobs at its certificate
// (lowerbound.LagrangePrimal's Turnaround − CP_j): srpt-hold's keys of the
// jobs wider than a wave of reduce slots are offset by them
// (upperbound.Options.Waits).
func chargedWaits(p *lowerbound.Problem, o lowerbound.LagrangeOptions, b *lowerbound.Bounds) ([]float64, error) {
	jobs, _, err := lowerbound.LagrangePrimal(p, o, b.Lagrange)
	if err != nil {
		return nil, err
	}
	waits := make([]float64, len(jobs))
	for j, jo := range jobs {
		waits[j] = jo.Turnaround - b.CriticalPath[j]
	}
	return waits, nil
}

// chargedFirst reports whether the offline search begins with the runs
// that demote the wide jobs by the charged waits (upperbound's
// Options.ChargedFirst): only where the Lagrangian that charged them
// decides the bound (by) and the instance of n jobs is large enough for the
// search to rank the longest waits. Elsewhere they guided the search worse:
// the FB-2009 day at 10 nodes, where a simple bound is higher, and a 12-job
// instance of bench/looseside (docs/results.md, issue 26, s27margin).
func chargedFirst(waits []float64, by string, n int) bool {
	return waits != nil && by == lowerbound.LagrangeComponent && upperbound.RanksWaits(n)
}
