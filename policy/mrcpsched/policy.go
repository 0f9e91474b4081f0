package mrcpsched

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/mrbound/mrbound/internal/cputime"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/solve"
)

// Defaults of Options.
const (
	// DefaultSolveLimit is the wall-clock limit of one re-solve (A-M6), a
	// safety net only: the deterministic limits below (nodes, columns, late
	// sets) decide every re-solve we measured well inside it even on the
	// loaded machine, so a seed fixes the run. Its hits are counted
	// (SolveRecord.WallHit); at 10 s it bound under load (13 of 47 956
	// re-solves of the five-seed grid, 7 of 523 in one run).
	DefaultSolveLimit = 60 * time.Second
	// DefaultNodeLimit bounds the branch-and-bound nodes of each MILP: a
	// deterministic work limit, so that a seed fixes the run.
	DefaultNodeLimit = 2000
	// DefaultMaxColumns bounds the size of each late-count MILP.
	DefaultMaxColumns = 5000
)

// Options configure the policy.
type Options struct {
	// Solver is the backend ("native", "highs"); empty means solve's default.
	Solver string
	// SolveLimit bounds the wall time of one re-solve (all its MILPs);
	// 0 means DefaultSolveLimit.
	SolveLimit time.Duration
	// NodeLimit bounds each MILP's branch-and-bound nodes; 0 means
	// DefaultNodeLimit, negative means none.
	NodeLimit int64
	// MaxColumns skips the MILPs of a re-solve whose model would have more
	// columns (the greedy incumbent is kept, the re-solve is not optimal); 0
	// means DefaultMaxColumns, negative means none. A deterministic size
	// limit: the native solver's set-up (presolve, symmetry detection) is
	// not interruptible and grows with the model.
	MaxColumns int
	// NoMILP plans with the greedy heuristic alone (the fallback; for
	// measuring what the MILPs add).
	NoMILP bool

	// The options of policies.md §2.4; all off is the faithful default.

	// SkipHOL (skipHOL=true): a free reduce slot takes the first planned
	// reduce of its node whose job's maps are complete instead of staying
	// idle behind the head.
	SkipHOL bool
	// StrictTimes (strictTimes): a planned task waits for its planned start
	// (A-M1 read as a timetable); a timer at that instant brings the offer.
	StrictTimes bool
	// ModelLatency (latency=model): a plan applies at now + L, L the
	// re-solve's measured wall time rounded up to the millisecond; offers
	// until then use the previous plan. L is measured, so such runs need
	// not repeat.
	ModelLatency bool
	// BlockingJT (blockingJT=true, with ModelLatency): nothing is launched
	// while a plan is being made, as when Hadoop's assignTasks blocks.
	BlockingJT bool
}

// Timer tags of the policy.
const (
	tagSolve   int64 = iota // re-solve for the arrivals of the instant
	tagPlanned              // a planned start (StrictTimes)
	tagInstall              // a plan becomes ready (ModelLatency)
)

// ParseOptions sets the §2.4 options named in list (comma-separated:
// skiphol, strict-times, latency=model, latency=0, blocking-jt); an unknown
// name is an error naming it.
func ParseOptions(list string, o *Options) error {
	for _, f := range strings.Split(list, ",") {
		switch strings.TrimSpace(f) {
		case "":
		case "skiphol":
			o.SkipHOL = true
		case "strict-times":
			o.StrictTimes = true
		case "latency=model":
			o.ModelLatency = true
		case "latency=0":
			o.ModelLatency = false
		case "blocking-jt":
			o.BlockingJT = true
		default:
			return fmt.Errorf("unknown mrcp option %q (skiphol, strict-times, latency=model, latency=0, blocking-jt)", f)
		}
	}
	if o.BlockingJT && !o.ModelLatency {
		return errors.New("mrcp option blocking-jt needs latency=model")
	}
	return nil
}

// SolveRecord is one re-solve.
type SolveRecord struct {
	At       sim.Time      // simulated time of the solve
	Ready    sim.Time      // when its plan applied (At unless ModelLatency)
	NewJobs  int           // jobs arrived since the previous solve
	Jobs     int           // jobs in the current problem
	Tasks    int           // unstarted tasks planned
	Running  int           // running tasks fixed
	MILPs    int           // late-count subproblems solved
	Cols     int           // columns over all its MILPs
	Rows     int           // rows over all its MILPs
	Nodes    int64         // branch-and-bound nodes over all its MILPs
	Value    int           // objective of the plan: (late + 1) · (Z in s from now)
	Late, Z  int           // the plan's late jobs and latest completion (s from now)
	Optimal  bool          // the plan is proven optimal for the current problem
	LimitHit bool          // a MILP stopped on its node or wall limit
	WallHit  bool          // … on the wall limit (the run may then not repeat)
	SizeHit  bool          // a MILP was over MaxColumns: the incumbent was kept
	Fallback bool          // a solver call failed: the greedy plan was used
	Wall     time.Duration // wall time of the solve
	CPU      time.Duration // process CPU time during the solve
}

// Policy is MRCP's CP-Scheduler (policies.md §2.4): at the instant of one or
// more job arrivals it re-solves the current problem (running tasks
// fixed, releases raised to now) and dispatches the plan in planned order on
// the planned nodes.
type Policy struct {
	opt Options
	s   *sim.Sim

	active  []int // arrived, unfinished jobs (simulator ids), by arrival
	newJobs int   // arrivals since the last solve
	// plan per node: unstarted maps and reduces in (planned start, id) order
	planMaps, planReds [][]sim.TaskID
	prevOrder          []int // the last plan's job order (simulator ids)
	solves             []SolveRecord
	est                map[sim.TaskID]int
	// planAt is each planned task's planned start in ms (StrictTimes);
	// timers the planned starts a timer is already set for.
	planAt map[sim.TaskID]sim.Time
	timers map[sim.Time]bool
	// pending is a plan made but not yet applied (ModelLatency).
	pending *plan
	// holSkips counts reduces launched past a head that was waiting for
	// its maps (SkipHOL).
	holSkips int
}

// HOLSkips is how many reduces SkipHOL launched past a waiting head.
func (p *Policy) HOLSkips() int { return p.holSkips }

// plan is what a re-solve installs.
type plan struct {
	maps, reds [][]sim.TaskID
	at         map[sim.TaskID]sim.Time
	ready      sim.Time // when it applies
}

// New returns the policy.
func New(o Options) *Policy {
	if o.SolveLimit == 0 {
		o.SolveLimit = DefaultSolveLimit
	}
	if o.NodeLimit == 0 {
		o.NodeLimit = DefaultNodeLimit
	}
	if o.MaxColumns == 0 {
		o.MaxColumns = DefaultMaxColumns
	}
	return &Policy{opt: o}
}

// Name is "mrcp".
func (p *Policy) Name() string { return "mrcp" }

// ErrFungible is returned by Init on a fungible-slot cluster: MRCP's model
// has fixed map and reduce slots.
var ErrFungible = errors.New("mrcp policy: fixed map and reduce slots only (the cluster is fungible)")

// ErrNoEstimates is returned by Init when the run gives no estimates.
var ErrNoEstimates = errors.New("mrcp policy: needs duration estimates (the run has none)")

// Init resets the policy.
func (p *Policy) Init(s *sim.Sim) error {
	if s.Cluster().Fungible {
		return ErrFungible
	}
	if s.Options().Estimates == sim.EstimateNone {
		return ErrNoEstimates
	}
	if _, err := solve.Lookup(p.opt.Solver); err != nil {
		return err
	}
	n := len(s.Cluster().Nodes)
	*p = Policy{opt: p.opt, s: s, planMaps: make([][]sim.TaskID, n), planReds: make([][]sim.TaskID, n),
		est: map[sim.TaskID]int{}, planAt: map[sim.TaskID]sim.Time{}, timers: map[sim.Time]bool{}}
	return nil
}

// Solves lists the re-solves of the run.
func (p *Policy) Solves() []SolveRecord { return p.solves }

// JobArrival queues j for the re-solve of this instant: the first arrival
// of an instant sets a timer at now, which fires after every arrival of the
// instant (the engine's event order), so simultaneous arrivals share one
// solve and the solve's time does not depend on which offers the engine
// makes.
func (p *Policy) JobArrival(s *sim.Sim, j int) {
	p.active = append(p.active, j)
	if p.newJobs == 0 {
		_ = s.SetTimer(s.Now(), tagSolve) // now is never in the past
	}
	p.newJobs++
}

// TaskEnd forgets finished jobs.
func (p *Policy) TaskEnd(s *sim.Sim, t sim.TaskID, _ sim.Time) {
	j := s.Task(t).Job
	if s.Job(j).Done {
		if i := slices.Index(p.active, j); i >= 0 {
			p.active = slices.Delete(p.active, i, i+1)
		}
	}
}

// Timer re-solves when jobs arrived since the last solve and applies a
// pending plan that is ready (a planned-start timer only wakes the offers).
func (p *Policy) Timer(s *sim.Sim, _ int64) {
	if p.newJobs > 0 {
		p.resolve()
	}
	p.applyReady(s.Now())
}

// applyReady installs the pending plan if it is ready at now.
func (p *Policy) applyReady(now sim.Time) {
	if p.pending != nil && now >= p.pending.ready {
		p.planMaps, p.planReds = p.pending.maps, p.pending.reds
		for id, at := range p.pending.at {
			p.planAt[id] = at
		}
		p.pending = nil
	}
}

// due reports whether planned task t may start at now (always, unless
// StrictTimes); when not, it sets a timer at its planned start.
func (p *Policy) due(s *sim.Sim, t sim.TaskID) bool {
	if !p.opt.StrictTimes {
		return true
	}
	at := p.planAt[t]
	if at <= s.Now() {
		return true
	}
	if !p.timers[at] {
		p.timers[at] = true
		_ = s.SetTimer(at, tagPlanned)
	}
	return false
}

// estimate is task t's estimate in whole seconds, rounded up (§2.4), the
// mean over the nodes when they differ; at least 1.
func (p *Policy) estimate(t sim.TaskID) int {
	if e, ok := p.est[t]; ok {
		return e
	}
	var sum sim.Time
	nodes := len(p.s.Cluster().Nodes)
	for x := range nodes {
		e, _ := p.s.Estimate(t, x)
		sum += e
	}
	e := max(int(math.Ceil(float64(sum)/float64(nodes)/1000)), 1)
	p.est[t] = e
	return e
}

// Offer re-solves if jobs arrived since the last solve (the timer has
// always done it already), then dispatches node
// x's planned maps in order and its planned reduces while the head reduce's
// maps are all complete (head-of-line, Table 2).
func (p *Policy) Offer(s *sim.Sim, x int, free sim.Free) {
	if p.newJobs > 0 {
		p.resolve()
	}
	p.applyReady(s.Now())
	if p.opt.BlockingJT && p.pending != nil {
		return // the job tracker is still solving
	}
	for n := free.Map; n > 0; n-- {
		q := p.planMaps[x]
		for len(q) > 0 && s.Task(q[0]).State != sim.TaskPending {
			q = q[1:]
		}
		if len(q) == 0 || !p.due(s, q[0]) || !s.Fits(q[0], x) || s.Launch(q[0], x) != nil {
			p.planMaps[x] = q
			break
		}
		p.planMaps[x] = q[1:]
	}
	for n := free.Reduce; n > 0; n-- {
		q := p.planReds[x]
		for len(q) > 0 && s.Task(q[0]).State != sim.TaskPending {
			q = q[1:]
		}
		p.planReds[x] = q
		i := 0 // the head; with SkipHOL the first whose maps are complete
		if p.opt.SkipHOL {
			for i < len(q) && !s.Job(s.Task(q[i]).Job).MapPhaseDone {
				i++
			}
		}
		if i == len(q) || !s.Job(s.Task(q[i]).Job).MapPhaseDone || !p.due(s, q[i]) || !s.Fits(q[i], x) || s.Launch(q[i], x) != nil {
			break
		}
		if i > 0 {
			p.holSkips++
		}
		p.planReds[x] = slices.Delete(q, i, i+1)
	}
}

// resolve builds the current problem, solves it and installs the plan.
func (p *Policy) resolve() {
	w0, c0 := time.Now(), cputime.Now()
	rec := SolveRecord{At: p.s.Now(), NewJobs: p.newJobs}
	p.newJobs = 0
	pr := snapshot(p.s, p.active, p.estimate)
	rec.Jobs, rec.Running = len(pr.jobs), len(pr.run)
	for _, g := range pr.groups {
		rec.Tasks += len(g.tasks)
	}
	var prev []int
	for _, j := range p.prevOrder {
		if i, ok := pr.jobOf[j]; ok {
			prev = append(prev, i)
		}
	}
	for i := range pr.jobs {
		if !slices.Contains(prev, i) {
			prev = append(prev, i) // new jobs appended (§2.4 fallback order)
		}
	}
	var best *schedule
	var order []int
	var st solveStats
	if p.opt.NoMILP {
		best, order = heuristic(pr, prev)
		st.failed = best == nil
	} else {
		ctx, cancel := context.WithTimeout(context.Background(), p.opt.SolveLimit)
		so := solve.Options{Solver: p.opt.Solver, TimeLimit: p.opt.SolveLimit, Threads: 1}
		if p.opt.NodeLimit > 0 {
			so.NodeLimit = p.opt.NodeLimit
		}
		best, order, st = solveProblem(ctx, pr, prev, so, p.opt.MaxColumns, false)
		cancel()
	}
	if best != nil {
		next := &plan{maps: make([][]sim.TaskID, len(p.planMaps)), reds: make([][]sim.TaskID, len(p.planReds))}
		if p.opt.StrictTimes {
			next.at = make(map[sim.TaskID]sim.Time, len(best.tasks))
			for _, t := range best.tasks {
				next.at[t.task] = sim.Time((pr.nowSec + int64(t.start)) * 1000)
			}
		}
		tasks := slices.Clone(best.tasks)
		slices.SortFunc(tasks, func(a, b plannedTask) int {
			if a.start != b.start {
				return a.start - b.start
			}
			return int(a.task - b.task)
		})
		for _, t := range tasks {
			if t.kind == sim.Map {
				next.maps[t.node] = append(next.maps[t.node], t.task)
			} else {
				next.reds[t.node] = append(next.reds[t.node], t.task)
			}
		}
		p.pending = next
		next.ready = p.s.Now()
		if p.opt.ModelLatency {
			// ready once the solve's wall time has passed, in whole ms
			next.ready = p.s.Now() + sim.Time((time.Since(w0)+time.Millisecond-1)/time.Millisecond)
			_ = p.s.SetTimer(next.ready, tagInstall)
		} else {
			p.applyReady(p.s.Now())
		}
		rec.Ready = next.ready
		p.prevOrder = p.prevOrder[:0]
		for _, i := range order {
			p.prevOrder = append(p.prevOrder, pr.jobs[i].id)
		}
		rec.Value, rec.Late, rec.Z = best.value(), best.late, best.z
	}
	rec.MILPs, rec.Cols, rec.Rows, rec.Nodes = st.milps, st.cols, st.rows, st.nodes
	rec.Optimal, rec.LimitHit, rec.WallHit, rec.SizeHit, rec.Fallback = st.optimal && !p.opt.NoMILP, st.limitHit, st.wallLimitHit, st.sizeLimitHit, st.failed
	rec.Wall, rec.CPU = time.Since(w0), cputime.Now()-c0
	p.solves = append(p.solves, rec)
}
