package tumm

import (
	"slices"

	"github.com/mrbound/mrbound/sim"
)

// DefaultAlpha is eq 6's integral gain (TuMM §4.3: 1.2).
const DefaultAlpha = 1.2

// Rule is when TuMM recomputes its target (A-T3). The zero value is unknown.
type Rule uint8

// Rules.
const (
	RuleUnknown  Rule = iota
	RuleFeedback      // eq 4 when a job enters or leaves a phase, eq 6 at every other task end (default)
	RuleBasic         // eq 4 at every task end, no feedback
)

func (r Rule) String() string {
	switch r {
	case RuleFeedback:
		return "feedback"
	case RuleBasic:
		return "basic"
	}
	return "unknown"
}

// TuMMOptions are TuMM's parameters; the zero value is the paper's system.
type TuMMOptions struct {
	Rule     Rule     // default RuleFeedback
	Rounding Rounding // eq 6's integer step; default RoundTrunc (A-T2)
	Alpha    float64  // default DefaultAlpha
	// Known uses the simulator's estimates as prior knowledge of the task
	// times (§4.1); otherwise they are learned from finished tasks (§4.2).
	Known bool
	// Reference is what eq 6 compares ρ_new with (see Reference).
	Reference Reference
}

// Reference is eq 6's previous workload share ρ_prev. The zero value is
// unknown.
type Reference uint8

// References.
const (
	ReferenceUnknown Reference = iota
	// ReferenceLastSet: ρ at the last time s_m was set by eq 4 or moved by
	// eq 6 (the default, docs/tumm.md): drifts smaller than one slot
	// accumulate until they move s_m.
	ReferenceLastSet
	// ReferenceLastUpdate: ρ at the previous evaluation (policies.md §2.6
	// literally): with truncation every drift below 1/(α·S) per task end is
	// lost.
	ReferenceLastUpdate
)

func (r Reference) String() string {
	switch r {
	case ReferenceLastSet:
		return "last-set"
	case ReferenceLastUpdate:
		return "last-update"
	}
	return "unknown"
}

// TargetPoint is a change of TuMM's cluster target: s_m from At on.
type TargetPoint struct {
	At       sim.Time
	MapSlots int
}

// TuMM is the homogeneous dynamic slot configuration (TuMM §4, eqs 2–7,
// Algorithms 2–3) on a fungible cluster with FIFO job order.
type TuMM struct {
	core
	opt TuMMOptions
	// S slots, k nodes; the target s_m ∈ [k, S−k].
	S, k, sm int
	rhoPrev  float64
	// mapMean, redMean are per job (Algorithm 2); allMap, allRed over every
	// finished task (A-T1's fallback); prior are the estimate means (Known).
	mapMean, redMean   []welford
	allMap, allRed     welford
	priorMap, priorRed []float64
	phaseM, phaseR     []int // the phase sets at the last update
	scratchM, scratchR []int
	// declSM, declTopUp are the inputs of a node's decision that other
	// nodes change (the target and Algorithm 3's top-up side) at the last
	// declined slot: only a change of them can turn a parked node's
	// decline into a launch (its own counts change only at its own events).
	declSM    int
	declTopUp bool
	declIdle  bool
	// Targets is the history of s_m (Figs 8, 11); Updates counts the eq 4
	// and eq 6 evaluations.
	Targets                []TargetPoint
	BasicUpdates, Feedback int
}

// NewTuMM returns TuMM with options o.
func NewTuMM(o TuMMOptions) *TuMM {
	if o.Rule == RuleUnknown {
		o.Rule = RuleFeedback
	}
	if o.Rounding == RoundingUnknown {
		o.Rounding = RoundTrunc
	}
	if o.Alpha == 0 {
		o.Alpha = DefaultAlpha
	}
	if o.Reference == ReferenceUnknown {
		o.Reference = ReferenceLastSet
	}
	return &TuMM{opt: o}
}

// Name is "tumm".
func (p *TuMM) Name() string { return "tumm" }

// Init sizes the state; the cluster must be fungible.
func (p *TuMM) Init(s *sim.Sim) error {
	if err := p.core.init(s, p.Name()); err != nil {
		return err
	}
	// k counts the nodes with slots: a node without any is no TaskTracker
	// of the paper's k, and counting it would floor s_m/k to 0 map slots
	// per node (crosscheck seed 75).
	p.S, p.k = p.slots, p.slotNodes
	// Before any job runs, maps come first in a batch: the upper bound.
	p.sm = max(p.k, p.S-p.k)
	p.rhoPrev = 1
	p.mapMean, p.redMean = make([]welford, s.NumJobs()), make([]welford, s.NumJobs())
	p.allMap, p.allRed = welford{}, welford{}
	p.priorMap, p.priorRed = make([]float64, s.NumJobs()), make([]float64, s.NumJobs())
	p.phaseM, p.phaseR = p.phaseM[:0], p.phaseR[:0]
	p.Targets = []TargetPoint{{0, p.sm}}
	p.BasicUpdates, p.Feedback = 0, 0
	return nil
}

func (p *TuMM) lo() int { return min(p.k, p.S/2) }
func (p *TuMM) hi() int { return p.S - p.lo() }

// JobArrival queues j; with Known it records j's mean estimates.
func (p *TuMM) JobArrival(s *sim.Sim, j int) {
	p.arrive(j)
	if p.opt.Known {
		v := s.Job(j)
		p.priorMap[j] = meanEstimate(s, v.FirstMap, v.NumMaps)
		p.priorRed[j] = meanEstimate(s, v.FirstRed, v.NumReduces)
	}
}

// meanEstimate is the mean estimate in seconds of n tasks from first on
// node 0 (the cluster is homogeneous); 0 when there are none or no
// estimates.
func meanEstimate(s *sim.Sim, first sim.TaskID, n int) float64 {
	sum := 0.0
	for t := first; t < first+sim.TaskID(n); t++ {
		e, ok := s.Estimate(t, 0)
		if !ok {
			return 0
		}
		sum += e.Seconds()
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// TaskEnd is Algorithm 2 (the workload collector) and the target update.
func (p *TuMM) TaskEnd(s *sim.Sim, t sim.TaskID, observed sim.Time) {
	v := p.ended(t)
	d := observed.Seconds()
	if v.Kind == sim.Map {
		p.mapMean[v.Job].add(d)
		p.allMap.add(d)
	} else {
		p.redMean[v.Job].add(d)
		p.allRed.add(d)
	}
	p.update(true)
	p.recheck(p.declineStale())
}

// topUp is Algorithm 3 line 3: whether the cluster's map deficit is larger.
func (p *TuMM) topUp() bool { return p.sm-p.rtMap > p.S-p.sm-p.rtRed }

// idle reports whether the cluster runs no task (the admission valve of
// Offer reads it).
func (p *TuMM) idle() bool { return p.rtMap+p.rtRed == 0 }

// declineStale reports whether the last declined slot's inputs changed.
func (p *TuMM) declineStale() bool {
	return p.sm != p.declSM || p.topUp() != p.declTopUp || p.idle() != p.declIdle
}

// Timer is unused.
func (p *TuMM) Timer(*sim.Sim, int64) {}

// mean is t̄ of job j for a kind with A-T1's fallbacks: the prior
// (Known), the job's own mean, the mean over all finished tasks, 1.
func mean(own welford, prior float64, known bool, all welford) float64 {
	switch {
	case known && prior > 0:
		return prior
	case own.n > 0:
		return own.mean
	case all.n > 0:
		return all.mean
	}
	return 1
}

// workloads computes the phase sets M and R into the scratch slices and
// w'_m, w'_r (eq 2 over the sets).
func (p *TuMM) workloads() (wm, wr float64) {
	p.scratchM, p.scratchR = p.scratchM[:0], p.scratchR[:0]
	for j, v := range p.runningJobs {
		if v.MapsDone < v.NumMaps {
			p.scratchM = append(p.scratchM, j)
			wm += mean(p.mapMean[j], p.priorMap[j], p.opt.Known, p.allMap) * float64(v.NumMaps-v.MapsDone)
		} else if v.RedsDone < v.NumReduces {
			p.scratchR = append(p.scratchR, j)
			wr += mean(p.redMean[j], p.priorRed[j], p.opt.Known, p.allRed) * float64(v.NumReduces-v.RedsDone)
		}
	}
	return wm, wr
}

// update recomputes s_m: eq 4 when the phase sets changed (or always with
// RuleBasic), else eq 6 when estimate is set (a task end) (A-T3).
func (p *TuMM) update(estimate bool) {
	wm, wr := p.workloads()
	changed := !slices.Equal(p.scratchM, p.phaseM) || !slices.Equal(p.scratchR, p.phaseR)
	if changed {
		p.phaseM = append(p.phaseM[:0], p.scratchM...)
		p.phaseR = append(p.phaseR[:0], p.scratchR...)
	}
	if !(wm+wr > 0) {
		return
	}
	rho := wm / (wm + wr)
	old := p.sm
	switch {
	case changed || p.opt.Rule == RuleBasic:
		p.sm = BasicTarget(wm, wr, p.S, p.lo(), p.hi(), p.sm)
		p.BasicUpdates++
		p.rhoPrev = rho
	case estimate:
		p.feedback(rho)
	}
	if p.sm != old {
		p.Targets = append(p.Targets, TargetPoint{p.s.Now(), p.sm})
	}
}

// feedback is eq 6 against the reference share (Reference).
func (p *TuMM) feedback(rho float64) {
	old := p.sm
	p.sm = FeedbackTarget(p.sm, rho, p.rhoPrev, p.opt.Alpha, p.S, p.lo(), p.hi(), p.opt.Rounding)
	p.Feedback++
	if p.sm != old || p.opt.Reference == ReferenceLastUpdate {
		p.rhoPrev = rho
	}
}

// Offer is Algorithm 3, once per free slot, with A-T4's fallback and an
// admission valve: when the cluster runs nothing, a slot the targets would
// leave free takes the FIFO pick of either kind. The target follows the
// running jobs only, so with none running it is stale (say s_m = k after a
// reduce phase) and can give every node a map deficit ≤ 0 while the queued
// jobs have only maps (or, with fewer than two slots per node, s_m/k = 0):
// without the valve no job could start and nothing would ever change the
// target again (crosscheck seeds 6, 75). With S ≥ 2k on equal nodes every
// idle node has a positive deficit of each kind, so the valve never acts
// on the paper's clusters.
func (p *TuMM) Offer(s *sim.Sim, x int, free sim.Free) {
	p.prune()
	perNode := s.Cluster().Nodes[x].TotalSlots
	for n := free.Map; n > 0; n-- {
		smx, srx := NodeTargets(p.sm, p.S-p.sm, p.k, perNode, p.rtMap, p.rtRed)
		kind := ChooseKind(smx, srx, p.runMap[x], p.runRed[x])
		first, ok := p.launchKind(kind, x)
		if !ok {
			if other, deficit := p.other(kind, smx, srx, x); deficit > 0 {
				first, ok = p.launchKind(other, x)
			}
		}
		if !ok && p.idle() {
			if first, ok = p.launchKind(sim.Map, x); !ok {
				first, ok = p.launchKind(sim.Reduce, x)
			}
		}
		if !ok {
			p.decline()
			p.declSM, p.declTopUp, p.declIdle = p.sm, p.topUp(), p.idle()
			return
		}
		if first {
			p.update(false) // a job entered a phase set
		}
		p.recheck(p.declineStale())
	}
}
