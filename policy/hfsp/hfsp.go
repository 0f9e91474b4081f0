package hfsp

import (
	"errors"
	"math"
	"slices"

	"github.com/mrbound/mrbound/internal/enum"
	"github.com/mrbound/mrbound/sim"
)

// Preemption is what HFSP does when a higher-priority phase waits.
type Preemption int8

// Preemption strategies (policies.md §1.7, §2.8).
const (
	PreemptUnknown Preemption = iota
	Wait                      // use freed slots only (the default)
	Kill                      // kill victims: their work is lost
	Suspend                   // suspend victims; they resume on their node
)

var preemptionNames = enum.Names[Preemption]{"unknown", "wait", "kill", "suspend"}

func (p Preemption) String() string { return preemptionNames.String(p) }

// MarshalText writes the name.
func (p Preemption) MarshalText() ([]byte, error) { return preemptionNames.Text(p) }

// UnmarshalText reads a name.
func (p *Preemption) UnmarshalText(b []byte) error {
	v, ok := preemptionNames.Decode(string(b))
	if !ok {
		return errors.New("hfsp: unknown preemption " + string(b))
	}
	*p = v
	return nil
}

// Sizes says where phase sizes come from.
type Sizes int8

// Size sources.
const (
	SizesUnknown Sizes = iota
	Trained            // training tasks' observed durations (the default)
	Estimated          // Σ Sim.Estimate at the phase's start (known sizes)
)

var sizesNames = enum.Names[Sizes]{"unknown", "trained", "estimated"}

func (s Sizes) String() string { return sizesNames.String(s) }

// Defaults (policies.md §2.8; A-H3, A-H6).
const (
	DefaultTraining = 2 // training tasks per phase (ref-code min-maps/min-reduces)
	// DefaultTrainingShare is T_k / slots_k [ours].
	DefaultTrainingShare = 0.25
	// DefaultColdSize is μ̄ before any task of the kind finished (ref-code).
	DefaultColdSize sim.Time = 60000
	// UpdateInterval is the virtual-time update and preemption period
	// (ref-code update-interval), used by kill and suspend.
	UpdateInterval sim.Time = 5000
)

// Options configure HFSP; the zero value is the default.
type Options struct {
	Preemption    Preemption // Wait if unknown
	Sizes         Sizes      // Trained if unknown
	Training      int        // t; DefaultTraining if 0
	TrainingShare float64    // T_k/slots_k; DefaultTrainingShare if 0, negative = no training slots
	// ReducesAfterMaps starts a reduce phase only when its job's map phase
	// is done (the seed's "only after the MAP phase") instead of at
	// slow-start eligibility; name suffix "-aftermaps".
	ReducesAfterMaps bool
}

// Policy is HFSP.
type Policy struct {
	opt   Options
	s     *sim.Sim
	pools []pool
	ph    []phase // job*2 + kind-Map
	// per kind (index kind-Map): observed durations of finished tasks
	doneSum   [2]float64
	doneCount [2]int
	training  []bool // per task: launched as a training task
	// suspended tasks per node (suspend only)
	susp      [][]sim.TaskID
	active    int // arrived jobs not done
	timerSet  bool
	lastVirt  sim.Time
	scratch   []int
	victims   []sim.TaskID
	preempted int
	rates     []float64
	run, over []int32 // per phase, preempt scratch
	suspN     []int32 // per phase: suspended tasks
}

type pool struct {
	slots    int
	trainCap int   // T_k
	trainRun int   // Tcur_k
	phases   []int // real: phases with unfinished tasks (pruned lazily)
	virt     []int // virtual: phases with V > 0
}

type phase struct {
	job      int
	kind     sim.Kind
	pool     int
	n        int
	started  bool // in the system (map: arrival; reduce: eligible)
	tiny     bool
	known    bool // S_f set (or estimated, or tiny)
	trainL   int  // training tasks launched
	trainD   int  // training tasks ended
	trainSum float64
	si, size float64 // initial size, current size estimate (slot-ms)
	v        float64 // virtual remaining size
	inVirt   bool
	arrival  sim.Time
}

// New returns HFSP with options o.
func New(o Options) *Policy {
	if o.Preemption == PreemptUnknown {
		o.Preemption = Wait
	}
	if o.Sizes == SizesUnknown {
		o.Sizes = Trained
	}
	if o.Training == 0 {
		o.Training = DefaultTraining
	}
	if o.TrainingShare == 0 {
		o.TrainingShare = DefaultTrainingShare
	}
	return &Policy{opt: o}
}

// Name is "hfsp", "hfsp-kill" or "hfsp-suspend" (plus "-exact" with
// estimated sizes).
func (p *Policy) Name() string {
	n := "hfsp"
	if p.opt.Preemption != Wait {
		n += "-" + p.opt.Preemption.String()
	}
	if p.opt.Sizes == Estimated {
		n += "-exact"
	}
	if p.opt.ReducesAfterMaps {
		n += "-aftermaps"
	}
	return n
}

// Preempted is the number of kills or suspends of the last run.
func (p *Policy) Preempted() int { return p.preempted }

// Init sizes the pools.
func (p *Policy) Init(s *sim.Sim) error {
	p.s = s
	c := s.Cluster()
	if c.Fungible {
		p.pools = make([]pool, 1)
	} else {
		p.pools = make([]pool, 2)
	}
	for _, n := range c.Nodes {
		if c.Fungible {
			p.pools[0].slots += n.TotalSlots
		} else {
			p.pools[0].slots += n.MapSlots
			p.pools[1].slots += n.ReduceSlots
		}
	}
	for i := range p.pools {
		q := &p.pools[i]
		if p.opt.TrainingShare > 0 {
			q.trainCap = int(math.Ceil(p.opt.TrainingShare * float64(q.slots)))
		}
	}
	p.ph = make([]phase, 2*s.NumJobs())
	p.training = make([]bool, s.NumTasks())
	p.run, p.over, p.suspN = make([]int32, len(p.ph)), make([]int32, len(p.ph)), make([]int32, len(p.ph))
	p.susp = make([][]sim.TaskID, len(c.Nodes))
	p.doneSum, p.doneCount = [2]float64{}, [2]int{}
	p.active, p.timerSet, p.lastVirt, p.preempted = 0, false, 0, 0
	return nil
}

func ki(k sim.Kind) int { return int(k - sim.Map) }

func (p *Policy) poolOf(k sim.Kind) int {
	if len(p.pools) == 1 {
		return 0
	}
	return ki(k)
}

func (p *Policy) meanDuration(k sim.Kind) float64 {
	if c := p.doneCount[ki(k)]; c > 0 {
		return p.doneSum[ki(k)] / float64(c)
	}
	return float64(DefaultColdSize)
}

// start puts phase k of job j into the system (real and virtual).
func (p *Policy) start(j int, k sim.Kind) {
	s := p.s
	v := s.Job(j)
	f := &p.ph[2*j+ki(k)]
	n, first := v.NumMaps, v.FirstMap
	if k == sim.Reduce {
		n, first = v.NumReduces, v.FirstRed
	}
	if f.started || n == 0 {
		return
	}
	*f = phase{job: j, kind: k, pool: p.poolOf(k), n: n, started: true, arrival: v.Arrival}
	switch {
	case p.opt.Sizes == Estimated && p.estimable():
		for i := range n {
			e, _ := s.Estimate(first+sim.TaskID(i), 0)
			f.size += float64(e)
		}
		f.si, f.known = f.size, true
	case n < p.opt.Training:
		f.tiny, f.known = true, true
	default:
		f.si = float64(n) * p.meanDuration(k)
		f.size = f.si
	}
	f.v = f.size
	q := &p.pools[f.pool]
	q.phases = append(q.phases, 2*j+ki(k))
	if f.v > 0 {
		f.inVirt = true
		q.virt = append(q.virt, 2*j+ki(k))
	}
}

func (p *Policy) estimable() bool {
	return p.s.Options().Estimates != sim.EstimateNone
}

// JobArrival starts the map phase (and the reduce phase if it is already
// eligible) and, for kill/suspend, looks for victims.
func (p *Policy) JobArrival(s *sim.Sim, j int) {
	p.advance(s.Now())
	p.active++
	p.start(j, sim.Map)
	if p.reducesReady(s.Job(j)) {
		p.start(j, sim.Reduce)
	}
	if p.opt.Preemption != Wait {
		if !p.timerSet {
			p.timerSet = true
			_ = s.SetTimer((s.Now()/UpdateInterval+1)*UpdateInterval, 0)
		}
		p.preempt()
	}
}

// TaskEnd records the observed duration, completes training and starts a
// reduce phase that became eligible.
func (p *Policy) TaskEnd(s *sim.Sim, t sim.TaskID, observed sim.Time) {
	p.advance(s.Now())
	tv := s.Task(t)
	k := tv.Kind
	p.doneSum[ki(k)] += float64(observed)
	p.doneCount[ki(k)]++
	f := &p.ph[2*tv.Job+ki(k)]
	if p.training[t] {
		p.training[t] = false
		p.pools[f.pool].trainRun--
		f.trainD++
		f.trainSum += float64(observed)
		if f.trainD == p.opt.Training && !f.known {
			p.setFinal(f, float64(f.n)*f.trainSum/float64(f.trainD))
		}
	}
	v := s.Job(tv.Job)
	if k == sim.Map && p.reducesReady(v) {
		p.start(tv.Job, sim.Reduce)
	}
	if v.Done {
		p.active--
	}
}

// reducesReady: job v's reduce phase may enter the system.
func (p *Policy) reducesReady(v sim.JobView) bool {
	if p.opt.ReducesAfterMaps {
		return v.MapPhaseDone
	}
	return v.ReducesEligible
}

// setFinal replaces S_i by S_f subtractively (A-H5).
func (p *Policy) setFinal(f *phase, sf float64) {
	f.known = true
	f.size = sf
	f.v = max(0, sf-(f.si-f.v))
	if f.v > 0 && !f.inVirt {
		f.inVirt = true
		q := &p.pools[f.pool]
		q.virt = append(q.virt, 2*f.job+ki(f.kind))
	}
}

// Timer: the update interval (kill/suspend): advance, preempt, re-arm.
func (p *Policy) Timer(s *sim.Sim, _ int64) {
	p.timerSet = false
	p.advance(s.Now())
	if p.active == 0 {
		return
	}
	p.timerSet = true
	_ = s.SetTimer(s.Now()+UpdateInterval, 0)
	p.preempt()
}

// less orders phases by priority: smaller V, then arrival, job, kind.
func (p *Policy) less(a, b int) bool {
	fa, fb := &p.ph[a], &p.ph[b]
	if fa.v != fb.v {
		return fa.v < fb.v
	}
	if fa.arrival != fb.arrival {
		return fa.arrival < fb.arrival
	}
	return a < b
}

// unfinished reports whether phase i still has tasks not done.
func (p *Policy) unfinished(i int) bool {
	v := p.s.Job(i / 2)
	if p.ph[i].kind == sim.Map {
		return v.MapsDone < v.NumMaps
	}
	return v.RedsDone < v.NumReduces
}

func (p *Policy) prune(q *pool) {
	q.phases = slices.DeleteFunc(q.phases, func(i int) bool { return !p.unfinished(i) })
}

// Offer fills node x's free slots by Alg 1.
func (p *Policy) Offer(s *sim.Sim, x int, free sim.Free) {
	if free.Fungible {
		for n := free.Map; n > 0; n-- {
			if !p.assign(x, 0) {
				return
			}
		}
		return
	}
	for n := free.Map; n > 0; n-- {
		if !p.assign(x, 0) {
			break
		}
	}
	for n := free.Reduce; n > 0; n-- {
		if !p.assign(x, 1) {
			break
		}
	}
}

// pick is a launchable pending task of phase i on node x.
func (p *Policy) pick(i, x int) (sim.TaskID, bool) {
	s := p.s
	f := &p.ph[i]
	var t sim.TaskID
	var ok bool
	if f.kind == sim.Map {
		t, _, ok = s.PickMap(f.job, x)
	} else {
		t, ok = s.PickReduce(f.job)
	}
	return t, ok && s.Fits(t, x)
}

// suspendedOn is a suspended task of phase i on node x.
func (p *Policy) suspendedOn(i, x int) (int, bool) {
	for n, t := range p.susp[x] {
		tv := p.s.Task(t)
		if 2*tv.Job+ki(tv.Kind) == i {
			return n, true
		}
	}
	return 0, false
}

// assign launches or resumes one task of pool qi on node x.
func (p *Policy) assign(x, qi int) bool {
	s := p.s
	q := &p.pools[qi]
	p.prune(q)
	if q.trainRun < q.trainCap {
		best := -1
		var bt sim.TaskID
		for _, i := range q.phases {
			f := &p.ph[i]
			if f.tiny || f.known || f.trainL >= p.opt.Training {
				continue
			}
			if best >= 0 && (f.si > p.ph[best].si || f.si == p.ph[best].si && !p.less(i, best)) {
				continue
			}
			if t, ok := p.pick(i, x); ok {
				best, bt = i, t
			}
		}
		if best >= 0 && s.Launch(bt, x) == nil {
			f := &p.ph[best]
			f.trainL++
			p.training[bt] = true
			q.trainRun++
			return true
		}
	}
	best, resume := -1, -1
	var bt sim.TaskID
	for _, i := range q.phases {
		if best >= 0 && !p.less(i, best) {
			continue
		}
		if n, ok := p.suspendedOn(i, x); ok {
			best, resume = i, n
			continue
		}
		if t, ok := p.pick(i, x); ok {
			best, resume, bt = i, -1, t
		}
	}
	if best < 0 {
		return false
	}
	if resume >= 0 {
		t := p.susp[x][resume]
		if s.Resume(t) != nil {
			return false
		}
		p.susp[x] = slices.Delete(p.susp[x], resume, resume+1)
		p.suspN[best]--
		return true
	}
	if s.Launch(bt, x) != nil {
		return false
	}
	// the first t launches of a phase are its training tasks, whichever
	// queue launched them
	if f := &p.ph[best]; !f.tiny && !f.known && f.trainL < p.opt.Training {
		f.trainL++
		p.training[bt] = true
		q.trainRun++
	}
	return true
}
