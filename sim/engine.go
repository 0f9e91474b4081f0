package sim

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/mrbound/mrbound/internal/hugepage"
)

// Sim is one run in progress. Policies receive it in every callback: its
// methods are the read-only view (estimates, never true durations) and the
// actions (Launch, Kill, Suspend, Resume, SetTimer, Wake).
type Sim struct {
	w      *Workload
	opt    Options
	policy Policy
	ideal  bool
	rep    int
	// stuckWindow is the stuck rule's quiet time; < 0: never
	stuckWindow Time

	now   Time
	queue eventQueue
	seq   uint64
	// The task records, in chunks of taskChunkLen ids (state.go): a
	// chunk is allocated when the first job with a task in it arrives and
	// recycled once every job with a task in it is done, so that memory
	// holds the records of live jobs only.
	chunks     []*taskChunk
	chunkLive  []int32 // per chunk, its ids whose job is not done
	freeChunks []*taskChunk
	newChunks  int    // chunks allocated rather than recycled
	doneRec    taskRT // rt's record of a task whose chunk is recycled
	nTasks     int
	// estF is each task's estimate factor (estimate = base · estF) in the
	// modes whose factor is not 1; nil otherwise.
	estF []float32
	// left has bit id set once task id has left TaskPending (launched, not
	// killed since): the pick loops scan many tasks per launch, and this
	// bitset, an eighth of a byte per task, stays in cache where the
	// 40-byte records do not. Zero means pending, so it needs no setup.
	left  []uint64
	jobs  []jobRT
	nodes []nodeRT

	running []TaskID
	trace   []Attempt
	// Stream mode (Options.Sink): the records not final yet (and suspended
	// attempts') in reusable slots, the next trace index, the metrics' data.
	sink     TraceSink
	open     []openRecord
	openFree []int32
	nrec     int
	sm       streamMetrics

	replicas  []int32 // rep per task (maps only), -1 = none
	capable   []int32 // storage-capable nodes, permuted in place by placement
	locs      []TaskID
	ranges    []locRange
	pairScr   []pair  // indexBySort's scratch
	nodeCount []int32 // indexByCount's buckets
	dirty     []int32
	parkedN   int // nodes parked (hadoop1 mode)
	wakeAll   bool
	// The sweep offers parked nodes at their grid times after a wake, one
	// event at a time in phase order (see wake).
	sweepPending bool
	sweepLeft    int // node positions the sweep still covers
	// work counts tasks that could launch or resume now, by kind: pending
	// maps of arrived jobs, pending reduces whose slow-start holds, and
	// (index KindUnknown) suspended tasks. An offer whose free slots no such
	// task could use does nothing, and the policy is not called.
	work      [3]int
	arrivals  []int32 // jobs without a parent, by arrival then id
	nextArr   int     // the next of them to arrive
	completed int     // tasks done
	jobsDone  int

	rngPlace, rngNoise, rngPolicy *rand.Rand

	nonHB      int  // events in the heap other than heartbeats
	lastActive Time // last launch or non-heartbeat event: the literal-heartbeat stop rule
	// The stuck rule (Options.StuckAfter): the last change of the run's
	// state (arrival, launch, resume, task end, kill, suspend), the events
	// of it still to come (chained arrivals in the heap), and whether the
	// run is quiescent since then, once known.
	lastChange                 Time
	heapArrivals               int
	quiet, quietSeen           bool
	status                     Status
	stuckSince                 Time
	events, taskEvents, offers int64
	rejected                   int
	clock                      callbackClock // Result.Overhead (clock.go)
	inCallback                 bool
	abortErr                   error // Abort's reason: the run stops
	batchScr                   []NodeOffer
}

type pair struct {
	node int32
	task TaskID
}

// Policy is an online scheduler. Every callback may call the actions of s.
// A policy sees estimates only (Sim.Estimate), never true durations; the
// engine checks every action and returns an error for an invalid one.
type Policy interface {
	// Name is the policy's name in reports ("fifo", "fair", "edf", …).
	Name() string
	// Init runs once before the first event; the cluster is known, no job
	// has arrived.
	Init(s *Sim) error
	// JobArrival: job j has arrived (its blocks are placed).
	JobArrival(s *Sim, j int)
	// TaskEnd: task t completed; observed is its last segment's launch-to-end
	// time as Hadoop would measure it. Job state (map phase done, job done)
	// is already updated.
	TaskEnd(s *Sim, t TaskID, observed Time)
	// Timer: a timer the policy set fired.
	Timer(s *Sim, tag int64)
	// Offer: node has free slots (a heartbeat, or in ideal mode a state change).
	Offer(s *Sim, node int, free Free)
}

// BlockPlacer is implemented by a policy that places the replicas of an
// arriving job's blocks itself (COSHH §3.2). It calls Sim.SetReplicas for the
// maps it places; the others get the default random placement.
type BlockPlacer interface {
	PlaceBlocks(s *Sim, j int)
}

// Free is the free slot count of a node. In fungible mode Map = Reduce = the
// free slots of either kind, and launching one kind uses one of them.
type Free struct {
	Map, Reduce int
	Fungible    bool
}

// Errors of the actions.
var (
	ErrBadAction = errors.New("sim: invalid action")
	ErrBadOption = errors.New("sim: bad option")
)

// reject counts and returns an invalid action's error.
func (s *Sim) reject(format string, a ...any) error {
	s.rejected++
	return fmt.Errorf("%w: %s", ErrBadAction, fmt.Sprintf(format, a...))
}

// Run simulates w under policy p and returns the result with its trace. The
// error reports bad input or a policy error (a failing Init); invalid actions
// are returned to the policy by the action methods and never stop the run.
func Run(w *Workload, p Policy, opt Options) (*Result, error) {
	if err := w.Validate(); err != nil {
		return nil, err
	}
	if err := opt.validate(); err != nil {
		return nil, err
	}
	start := time.Now()
	s := newSim(w, p, opt)
	if s.sink != nil {
		s.sink.Begin(s.rep, s.replicas)
	}
	s.clock.begin()
	t0 := ticks()
	err := p.Init(s)
	s.clock.add(t0)
	if err != nil {
		if c, ok := p.(Closer); ok {
			_ = c.Close(s) // the Init error says more
		}
		return nil, fmt.Errorf("sim: %s: init: %w", p.Name(), err)
	}
	s.loop()
	if c, ok := p.(Closer); ok {
		if err := c.Close(s); err != nil && s.abortErr == nil {
			s.abortErr = err
		}
	}
	if s.abortErr != nil {
		return nil, s.abortErr
	}
	s.endStream()
	return s.result(time.Since(start)), nil
}

func (o *Options) validate() error {
	switch {
	case o.Heartbeat < 0:
		return fmt.Errorf("%w: heartbeat %d ms is negative", ErrBadOption, o.Heartbeat)
	case !(o.SlowStart >= 0 && o.SlowStart <= 1):
		return fmt.Errorf("%w: slow-start %v is not in [0, 1]", ErrBadOption, o.SlowStart)
	case !(o.Overlap >= 0 && o.Overlap <= 1):
		return fmt.Errorf("%w: overlap %v is not in [0, 1]", ErrBadOption, o.Overlap)
	case !(o.Noise >= 0 && o.Noise < 1):
		return fmt.Errorf("%w: noise %v is not in [0, 1)", ErrBadOption, o.Noise)
	case !(o.EstimateError >= 0 && o.EstimateError < 1):
		return fmt.Errorf("%w: estimate error %v is not in [0, 1)", ErrBadOption, o.EstimateError)
	case !(o.MapContention >= 0) || !(o.ReduceContention >= 0):
		return fmt.Errorf("%w: negative contention", ErrBadOption)
	case o.Horizon < 0:
		return fmt.Errorf("%w: negative horizon", ErrBadOption)
	}
	if o.Estimates == EstimateUnknown {
		o.Estimates = EstimateExact
	}
	if o.ProgressEvery <= 0 {
		o.ProgressEvery = 1 << 16
	}
	return nil
}

func newSim(w *Workload, p Policy, opt Options) *Sim {
	n := w.NumTasks()
	s := &Sim{
		w: w, opt: opt, policy: p, ideal: opt.Heartbeat == 0,
		nTasks:    n,
		left:      make([]uint64, (n+63)/64),
		jobs:      make([]jobRT, len(w.Jobs)),
		nodes:     make([]nodeRT, len(w.Cluster.Nodes)),
		sink:      opt.Sink,
		running:   make([]TaskID, 0, 64),
		rngPlace:  newStream(opt.Seed, "placement"),
		rngNoise:  newStream(opt.Seed, "noise"),
		rngPolicy: newStream(opt.Seed, "policy"),
	}
	if s.sink == nil {
		s.trace = make([]Attempt, 0, n)
		hugepage.Prefer(s.trace)
	} else {
		s.sm.busy = make([]uint32, 0, n)
		hugepage.Prefer(s.sm.busy)
	}
	s.initChunks(n)
	hugepage.Prefer(s.left)
	switch opt.Estimates {
	case EstimateGiven, EstimateMean, EstimateNoisy:
		// the other modes' factor is 1 (exact) or unused (none)
		s.estF = make([]float32, n)
		hugepage.Prefer(s.estF)
	}
	s.stuckWindow = opt.StuckAfter
	if s.stuckWindow == 0 {
		s.stuckWindow = DefaultStuckAfter
	}
	if s.stuckWindow > 0 {
		// a whole round of heartbeats at least
		s.stuckWindow = max(s.stuckWindow, 2*opt.Heartbeat)
	}
	c := &w.Cluster
	for i, nd := range c.Nodes {
		if c.BlockBytes == 0 || nd.StorageBytes == 0 || nd.StorageBytes >= c.BlockBytes {
			s.capable = append(s.capable, int32(i))
		}
	}
	s.rep = c.Replicas
	if s.rep == 0 {
		s.rep = 3
	}
	s.rep = min(s.rep, len(s.capable))
	s.replicas = make([]int32, n*s.rep)
	hugepage.Prefer(s.replicas)
	for i := range s.replicas {
		s.replicas[i] = -1
	}
	s.queue = newEventQueue(len(w.Jobs) + len(c.Nodes) + 64)
	rngEst := newStream(opt.Seed, "estimate")
	id := int32(0)
	maxMaps, totalMaps := 0, 0
	for j := range w.Jobs {
		job := &w.Jobs[j]
		r := &s.jobs[j]
		r.firstMap, r.nMaps = id, int32(len(job.Maps))
		r.firstRed, r.nReds = id+r.nMaps, int32(len(job.Reduces))
		r.needMaps = int32(math.Ceil(opt.SlowStart*float64(r.nMaps) - 1e-9))
		r.mapsPending, r.redsPending = r.nMaps, r.nReds
		r.childHead, r.nextSibling = -1, -1
		maxMaps = max(maxMaps, len(job.Maps))
		totalMaps += len(job.Maps)
		for _, list := range [2][]TaskSpec{job.Maps, job.Reduces} {
			var mean float64
			if opt.Estimates == EstimateMean && len(list) > 0 {
				for _, t := range list {
					mean += float64(specWork(&t))
				}
				mean /= float64(len(list))
			}
			if s.estF != nil {
				for i := range list {
					s.estF[int(id)+i] = estimateFactor(opt, &list[i], mean, rngEst)
				}
			}
			id += int32(len(list))
		}
		if job.Parent >= 0 {
			p := &s.jobs[job.Parent]
			// prepend; children of one parent arrive in id order below
			r.nextSibling = p.childHead
			p.childHead = int32(j)
		} else {
			s.arrivals = append(s.arrivals, int32(j))
		}
	}
	// Arrivals are read from a sorted list instead of the heap, which then
	// holds only the running tasks, heartbeats and timers. They win ties
	// with heap arrivals (chained jobs) as if pushed first.
	slices.SortStableFunc(s.arrivals, func(a, b int32) int {
		return cmp.Compare(w.Jobs[a].Arrival, w.Jobs[b].Arrival)
	})
	s.locs = make([]TaskID, 0, totalMaps*s.rep)
	hugepage.Prefer(s.locs)
	s.ranges = make([]locRange, 0, min(totalMaps*s.rep, len(w.Jobs)*len(c.Nodes)))
	hugepage.Prefer(s.ranges)
	s.pairScr = make([]pair, 0, min(maxMaps*s.rep, len(c.Nodes)))
	for i, nd := range c.Nodes {
		x := &s.nodes[i]
		if c.Fungible {
			x.freeAny = int32(nd.TotalSlots)
		} else {
			x.freeMap, x.freeRed = int32(nd.MapSlots), int32(nd.ReduceSlots)
		}
		x.lastHB = -1
		if !s.ideal {
			x.phase = Time(int64(i) * int64(opt.Heartbeat) / int64(len(c.Nodes)))
			x.parked = true
			s.parkedN++
		}
	}
	return s
}

func specWork(t *TaskSpec) Time {
	if len(t.ByGroup()) > 0 {
		var sum Time
		for _, d := range t.ByGroup() {
			sum += d
		}
		return sum / Time(len(t.ByGroup()))
	}
	return t.Work
}

func estimateFactor(opt Options, t *TaskSpec, mean float64, rng *rand.Rand) float32 {
	w := float64(specWork(t))
	switch opt.Estimates {
	case EstimateGiven:
		if e := t.Estimate(); e > 0 && w > 0 {
			return float32(float64(e) / w)
		}
	case EstimateMean:
		if w > 0 {
			return float32(mean / w)
		}
	case EstimateNoisy:
		return float32(1 + opt.EstimateError*(2*rng.Float64()-1))
	case EstimateNone:
		return 0
	}
	return 1
}

func (s *Sim) push(e event) {
	s.seq++
	e.ord |= s.seq
	if e.kind() != evHeartbeat {
		s.nonHB++
	}
	if e.kind() == evArrival {
		s.heapArrivals++
	}
	s.queue.push(e)
}

// next removes the earliest event from the heap or the arrival list.
func (s *Sim) next() event {
	if s.nextArr < len(s.arrivals) {
		j := s.arrivals[s.nextArr]
		e := event{at: s.w.Jobs[j].Arrival, ord: evOrd(evArrival), a: j}
		if s.queue.empty() {
			s.nextArr++
			return e
		}
		if at, k := s.queue.min(); e.at < at || e.at == at && evArrival <= k {
			s.nextArr++
			return e
		}
	}
	e := s.queue.pop()
	if e.kind() != evHeartbeat {
		s.nonHB--
	}
	if e.kind() == evArrival {
		s.heapArrivals--
	}
	return e
}

// pending reports whether an event is left and, when it is, its time.
func (s *Sim) pending() (Time, bool) {
	at, ok := Time(0), false
	if !s.queue.empty() {
		at, _ = s.queue.min()
		ok = true
	}
	if s.nextArr < len(s.arrivals) {
		if a := s.w.Jobs[s.arrivals[s.nextArr]].Arrival; !ok || a < at {
			at, ok = a, true
		}
	}
	return at, ok
}

func (s *Sim) loop() {
	nextProgress := s.opt.ProgressEvery
	s.status = Stalled
	ender, _ := s.policy.(InstantEnder)
	for iter := 0; s.jobsDone < len(s.jobs) && s.abortErr == nil; iter++ {
		if s.opt.Stop != nil && iter%StopEvery == 0 && s.opt.Stop() {
			s.status = Interrupted
			break
		}
		at, ok := s.pending()
		if !ok {
			break
		}
		if s.opt.Horizon > 0 && at > s.opt.Horizon {
			s.status = HorizonReached
			break
		}
		if s.stuck(at) {
			// observed up to the next event, which is not processed
			s.status, s.stuckSince, s.now = Stuck, s.lastChange, at
			break
		}
		e := s.next()
		s.now = e.at
		if e.kind() != evHeartbeat {
			s.lastActive = s.now
		}
		switch e.kind() {
		case evTaskEnd:
			ch := s.chunks[e.a>>taskChunkShift]
			if ch == nil {
				continue // its job is done: the end of a killed segment
			}
			t := &ch[e.a&taskChunkMask]
			if t.epoch != e.epoch || t.state != TaskRunning {
				continue // killed or suspended since
			}
			s.events++
			s.taskEnd(TaskID(e.a))
		case evArrival:
			s.events++
			s.arrive(int(e.a))
		case evTimer:
			s.events++
			s.wake()
			t0 := ticks()
			s.policy.Timer(s, e.tag)
			s.clock.add(t0)
		case evHeartbeat:
			// Literal heartbeats never run out: stop once nothing runs, no
			// other event is due and a whole period passed without a launch.
			if s.nonHB == 0 && s.nextArr == len(s.arrivals) && len(s.running) == 0 && s.now-s.lastActive > s.opt.Heartbeat {
				return
			}
			s.events++
			if e.tag == sweepTag {
				s.sweep(int(e.a))
			} else {
				s.heartbeat(int(e.a), e.tag == oobTag)
			}
		}
		if s.ideal || ender != nil {
			if at, ok := s.pending(); !ok || at > s.now {
				if s.ideal {
					s.offerRound()
				}
				if ender != nil {
					t0 := ticks()
					ender.EndInstant(s)
					s.clock.add(t0)
					if s.ideal {
						s.offerRound()
					}
				}
			}
		}
		if s.opt.Progress != nil && int(s.events) >= nextProgress {
			nextProgress += s.opt.ProgressEvery
			s.opt.Progress(s.completed, s.nTasks)
		}
	}
	if s.jobsDone == len(s.jobs) {
		s.status = Finished
	}
	if s.opt.Progress != nil {
		s.opt.Progress(s.completed, s.nTasks)
	}
}

// changed notes a change of the run's state (an arrival, a launch or
// resume, a task end, a kill or a suspend) for the stuck rule.
func (s *Sim) changed() {
	s.lastChange = s.now
	s.quietSeen = false
}

// stuck is the stuck rule, for the next event at time at: the state has not
// changed for the stuck window, and nothing but the policy can change it any
// more (quiescent). Quiescence cannot end without a change, so it is
// computed once per change.
func (s *Sim) stuck(at Time) bool {
	if s.stuckWindow < 0 || at-s.lastChange < s.stuckWindow {
		return false
	}
	if !s.quietSeen {
		s.quietSeen, s.quiet = true, s.quiescent()
	}
	return s.quiet
}

// quiescent: no job is still to arrive and no running task has a known end
// (each is a reduce waiting for a map phase whose maps do not run), so no
// event but the policy's timers and the offers can come.
func (s *Sim) quiescent() bool {
	if s.nextArr < len(s.arrivals) || s.heapArrivals > 0 {
		return false
	}
	for _, id := range s.running {
		if s.task(id).has(flagEndKnown) {
			return false
		}
	}
	return true
}

// offerRound (ideal mode) offers, in node-id order, every node with a free
// slot after a wake, else the nodes whose slots freed. New events at the same
// instant (zero-length tasks) lead to another round.
func (s *Sim) offerRound() {
	if b, ok := s.policy.(BatchOfferer); ok {
		s.offerBatches(b)
		return
	}
	for s.wakeAll || len(s.dirty) > 0 {
		if s.wakeAll {
			s.wakeAll = false
			for _, x := range s.dirty {
				s.nodes[x].dirty = false
			}
			s.dirty = s.dirty[:0]
			for x := range s.nodes {
				if s.noWork() {
					break // no later node could launch anything
				}
				s.offer(x)
			}
			continue
		}
		slices.Sort(s.dirty)
		// offers may dirty more nodes: they are appended and served after
		i := 0
		for ; i < len(s.dirty) && !s.wakeAll; i++ {
			x := s.dirty[i]
			s.nodes[x].dirty = false
			s.offer(int(x))
		}
		if !s.wakeAll {
			s.dirty = s.dirty[:0]
		}
	}
}

func (s *Sim) free(x int) Free {
	n := &s.nodes[x]
	if s.w.Cluster.Fungible {
		return Free{Map: int(n.freeAny), Reduce: int(n.freeAny), Fungible: true}
	}
	return Free{Map: int(n.freeMap), Reduce: int(n.freeRed)}
}

func (s *Sim) hasFree(x int) bool {
	n := &s.nodes[x]
	return n.freeAny > 0 || n.freeMap > 0 || n.freeRed > 0
}

func (s *Sim) noWork() bool {
	return s.work[Map] == 0 && s.work[Reduce] == 0 && s.work[KindUnknown] == 0
}

// usable reports whether some task could use one of node x's free slots.
func (s *Sim) usable(x int) bool {
	n := &s.nodes[x]
	switch {
	case s.work[KindUnknown] > 0:
		return true // a suspended task may resume here
	case n.freeAny > 0:
		return s.work[Map] > 0 || s.work[Reduce] > 0
	}
	return n.freeMap > 0 && s.work[Map] > 0 || n.freeRed > 0 && s.work[Reduce] > 0
}

// offer calls the policy for node x if it has a free slot; it reports
// whether something was launched.
func (s *Sim) offer(x int) bool {
	if !s.hasFree(x) || !s.opt.LiteralHeartbeats && !s.usable(x) || s.abortErr != nil {
		return false
	}
	before := s.taskEvents
	s.offers++
	t0 := ticks()
	s.policy.Offer(s, x, s.free(x))
	s.clock.add(t0)
	return s.taskEvents != before
}

// Heartbeat event tags: an out-of-band heartbeat is off the node's grid; a
// sweep heartbeat visits a parked node.
const (
	oobTag   = 1
	sweepTag = 2
)

func (s *Sim) heartbeat(x int, oob bool) {
	n := &s.nodes[x]
	if !oob {
		n.hbPending = false
		n.lastHB = s.now
	}
	launched := s.offer(x)
	if !s.hasFree(x) || n.hbPending {
		return // the next task end schedules the next heartbeat
	}
	if launched || s.opt.LiteralHeartbeats {
		s.scheduleHB(x)
	} else if !n.parked {
		n.parked = true
		s.parkedN++
	}
}

// nextGrid is node x's first grid instant at or after now not yet used.
func (s *Sim) nextGrid(x int) Time {
	n := &s.nodes[x]
	H := s.opt.Heartbeat
	k := Time(0)
	if s.now > n.phase {
		k = (s.now - n.phase + H - 1) / H
	}
	at := n.phase + k*H
	if at <= n.lastHB {
		at += H
	}
	return at
}

// sweep handles a sweep heartbeat at node x: a parked node gets its grid
// heartbeat; then the sweep moves on to the next parked node in phase
// order until it has covered every position once since the last wake.
func (s *Sim) sweep(x int) {
	s.sweepPending = false
	if s.nodes[x].parked {
		if s.noWork() {
			return // nothing can launch: the nodes stay parked until a wake
		}
		s.nodes[x].parked = false
		s.parkedN--
		s.heartbeat(x, false)
	}
	s.sweepFrom(x)
}

// sweepFrom schedules the sweep at the first parked node after x within
// sweepLeft positions.
func (s *Sim) sweepFrom(x int) {
	N := len(s.nodes)
	for step := 1; step <= s.sweepLeft && s.parkedN > 0; step++ {
		y := (x + step) % N
		if s.nodes[y].parked {
			s.sweepLeft -= step
			s.sweepPending = true
			s.push(event{at: s.nextGrid(y), ord: evOrd(evHeartbeat), a: int32(y), tag: sweepTag})
			return
		}
	}
}

// scheduleHB schedules node x's next heartbeat: the next instant of its
// phase grid not yet used.
func (s *Sim) scheduleHB(x int) {
	n := &s.nodes[x]
	if n.hbPending {
		return
	}
	if n.parked {
		n.parked = false
		s.parkedN--
	}
	n.hbPending = true
	s.push(event{at: s.nextGrid(x), ord: evOrd(evHeartbeat), a: int32(x)})
}

// slotFreed makes node x eligible for an offer.
func (s *Sim) slotFreed(x int, taskEnd bool) {
	if s.ideal {
		n := &s.nodes[x]
		if !n.dirty {
			n.dirty = true
			s.dirty = append(s.dirty, int32(x))
		}
		return
	}
	if taskEnd && s.opt.OOB {
		// an out-of-band heartbeat now, besides the regular grid
		s.push(event{at: s.now, ord: evOrd(evHeartbeat), a: int32(x), tag: oobTag})
	}
	s.scheduleHB(x)
}

// Wake makes every node with a free slot receive an offer: at once in ideal
// mode, at its next heartbeat in hadoop1 mode. The engine wakes on arrivals,
// slow-start crossings, map-phase ends, kills, suspends and timers; a policy
// whose offers depend on other state calls Wake when that state changes.
func (s *Sim) Wake() { s.wake() }

// In hadoop1 mode a wake does not schedule one heartbeat per parked node:
// a single sweep event visits the parked nodes in phase order, each at its
// next grid instant, until it has gone once round the grid (a new wake
// extends it) or nothing can launch any more. Every parked node thus gets
// the same heartbeats as with literal heartbeats, minus those that could
// not launch anything.
func (s *Sim) wake() {
	if s.ideal {
		s.wakeAll = true
		return
	}
	if s.parkedN == 0 || s.noWork() {
		return
	}
	s.sweepLeft = len(s.nodes)
	if s.sweepPending {
		return
	}
	first, at := s.firstParked()
	s.sweepPending = true
	s.push(event{at: at, ord: evOrd(evHeartbeat), a: int32(first), tag: sweepTag})
}

// firstParked is the parked node with the earliest next grid instant, the
// lowest id among equals (a wake's first sweep stop); at least one node is
// parked. Node x's phase is ⌊x·H/N⌋, nondecreasing in x, so going round
// the nodes from the first whose phase is at or after now mod H meets the
// grid instants in time order, except a node whose instant now is used
// already (its heartbeat ran at now): it waits a whole period, after every
// other node. The first parked node met is the answer, without working out
// every parked node's instant (a wake on a mostly idle cluster of thousands
// of nodes did, with a division each).
func (s *Sim) firstParked() (int, Time) {
	N, H := len(s.nodes), s.opt.Heartbeat
	if s.now < 0 {
		return s.firstParkedScan()
	}
	r := s.now % H
	x0 := int((int64(r)*int64(N) + int64(H) - 1) / int64(H)) // first x with ⌊x·H/N⌋ ≥ r
	if x0 >= N {
		x0 = 0
	}
	used := -1 // the first parked node whose instant now is used
	for i := range N {
		x := x0 + i
		if x >= N {
			x -= N
		}
		n := &s.nodes[x]
		if !n.parked {
			continue
		}
		if n.phase == r && n.lastHB == s.now {
			if used < 0 {
				used = x
			}
			continue
		}
		return x, s.nextGrid(x)
	}
	return used, s.nextGrid(used)
}

// firstParkedScan is firstParked by working out every parked node's next
// grid instant.
func (s *Sim) firstParkedScan() (int, Time) {
	first, at := -1, Time(0)
	for x := range s.nodes {
		if s.nodes[x].parked {
			if t := s.nextGrid(x); first < 0 || t < at {
				first, at = x, t
			}
		}
	}
	return first, at
}

func (s *Sim) arrive(j int) {
	s.changed()
	s.initTasks(j)
	r := &s.jobs[j]
	r.arrived = true
	r.arrival = s.now
	s.work[Map] += int(r.mapsPending)
	if r.needMaps == 0 {
		s.work[Reduce] += int(r.redsPending)
	}
	s.place(j)
	s.wake()
	t0 := ticks()
	s.policy.JobArrival(s, j)
	s.clock.add(t0)
}

// place sets the replicas of job j's blocks (policy hook, then the default
// uniform placement on distinct storage-capable nodes) and indexes them.
func (s *Sim) place(j int) {
	r := &s.jobs[j]
	if r.nMaps == 0 || s.rep == 0 {
		r.locStart, r.locEnd = int32(len(s.ranges)), int32(len(s.ranges))
		return
	}
	for t := r.firstMap; t < r.firstMap+r.nMaps; t++ {
		if fixed := s.spec(TaskID(t)).Replicas(); len(fixed) > 0 {
			reps := s.replicas[int(t)*s.rep : int(t+1)*s.rep]
			for i := range reps {
				reps[i] = -1
				if i < len(fixed) {
					reps[i] = int32(fixed[i])
				}
			}
		}
	}
	if bp, ok := s.policy.(BlockPlacer); ok {
		t0 := ticks()
		bp.PlaceBlocks(s, j)
		s.clock.add(t0)
	}
	n := 0 // replicas placed
	for t := r.firstMap; t < r.firstMap+r.nMaps; t++ {
		reps := s.replicas[int(t)*s.rep : int(t+1)*s.rep]
		if reps[0] < 0 && len(s.spec(TaskID(t)).Replicas()) == 0 {
			m := len(s.capable)
			for i := range reps {
				k := i + s.rngPlace.IntN(m-i)
				s.capable[i], s.capable[k] = s.capable[k], s.capable[i]
				reps[i] = s.capable[i]
			}
		}
		for _, x := range reps {
			if x >= 0 {
				n++
			}
		}
	}
	r.locStart = int32(len(s.ranges))
	if n > len(s.nodes) {
		s.indexByCount(r, n)
	} else {
		s.indexBySort(r)
	}
	r.locEnd = int32(len(s.ranges))
}

// indexByCount appends job r's n replicas to Sim.locs grouped by node,
// in task order within a node, and one range per node holding any: a
// counting sort of the replicas straight into locs, O(n + nodes), for a job
// with many maps.
func (s *Sim) indexByCount(r *jobRT, n int) {
	if cap(s.nodeCount) < len(s.nodes) {
		s.nodeCount = make([]int32, len(s.nodes))
	}
	cnt := s.nodeCount[:len(s.nodes)]
	clear(cnt)
	first, last := int(r.firstMap)*s.rep, int(r.firstMap+r.nMaps)*s.rep
	for _, x := range s.replicas[first:last] {
		if x >= 0 {
			cnt[x]++
		}
	}
	pos := int32(len(s.locs))
	s.locs = slices.Grow(s.locs, n)[:len(s.locs)+n]
	for x, c := range cnt {
		if c > 0 {
			s.ranges = append(s.ranges, locRange{node: int32(x), start: pos, end: pos + c, cur: pos})
		}
		cnt[x] = pos // now where node x's next task goes
		pos += c
	}
	for i, x := range s.replicas[first:last] {
		if x >= 0 {
			s.locs[cnt[x]] = TaskID(int(r.firstMap) + i/s.rep)
			cnt[x]++
		}
	}
}

// indexBySort is indexByCount for a job with fewer replicas than nodes,
// where sorting them costs less than counting over every node.
func (s *Sim) indexBySort(r *jobRT) {
	pairs := s.pairScr[:0]
	for t := r.firstMap; t < r.firstMap+r.nMaps; t++ {
		for _, x := range s.replicas[int(t)*s.rep : int(t+1)*s.rep] {
			if x >= 0 {
				pairs = append(pairs, pair{x, TaskID(t)})
			}
		}
	}
	slices.SortFunc(pairs, func(a, b pair) int {
		if a.node != b.node {
			return int(a.node - b.node)
		}
		return int(a.task - b.task)
	})
	for i := 0; i < len(pairs); {
		k := i
		start := int32(len(s.locs))
		for k < len(pairs) && pairs[k].node == pairs[i].node {
			s.locs = append(s.locs, pairs[k].task)
			k++
		}
		s.ranges = append(s.ranges, locRange{node: pairs[i].node, start: start, end: int32(len(s.locs)), cur: start})
		i = k
	}
	s.pairScr = pairs[:0]
}

// SetReplicas sets the replica nodes of map t's block; only during
// BlockPlacer.PlaceBlocks. nodes must be distinct storage-capable nodes, at
// most the replication factor.
func (s *Sim) SetReplicas(t TaskID, nodes ...int) error {
	if t < 0 || int(t) >= s.nTasks || s.rt(t).kind != Map {
		return s.reject("SetReplicas: task %d is not a map", t)
	}
	if len(nodes) == 0 || len(nodes) > s.rep {
		return s.reject("SetReplicas: %d replicas, want 1..%d", len(nodes), s.rep)
	}
	if len(s.spec(t).Replicas()) > 0 {
		return s.reject("SetReplicas: map %d's block has fixed replicas", t)
	}
	reps := s.replicas[int(t)*s.rep : int(t+1)*s.rep]
	for i := range reps {
		reps[i] = -1
	}
	for i, x := range nodes {
		if x < 0 || x >= len(s.nodes) || !slices.Contains(s.capable, int32(x)) {
			return s.reject("SetReplicas: node %d cannot store a block", x)
		}
		if slices.Contains(reps[:i], int32(x)) {
			return s.reject("SetReplicas: node %d twice", x)
		}
		reps[i] = int32(x)
	}
	return nil
}

func (s *Sim) findRange(j, x int) *locRange {
	r := &s.jobs[j]
	rs := s.ranges[r.locStart:r.locEnd]
	lo, hi := 0, len(rs)
	for lo < hi {
		m := (lo + hi) / 2
		if int(rs[m].node) < x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(rs) && int(rs[lo].node) == x {
		return &rs[lo]
	}
	return nil
}

func (s *Sim) taskEnd(id TaskID) {
	t := s.task(id)
	r := &s.jobs[t.job]
	x := int(t.node)
	s.taskEvents++
	s.completed++
	t.state = TaskDone
	s.leaveSlot(id, t.rem, Completed)
	if t.kind == Map {
		r.mapsDone++
		if r.mapsDone == r.needMaps && r.nReds > 0 {
			s.work[Reduce] += int(r.redsPending)
			s.wake()
		}
		if r.mapsDone == r.nMaps {
			s.mapPhaseDone(int(t.job))
		}
	} else {
		r.redsDone++
	}
	observed := s.now - t.launch
	if r.mapsDone == r.nMaps && r.redsDone == r.nReds {
		r.done = true
		r.completion = s.now
		s.jobsDone++
		for c := r.childHead; c >= 0; c = s.jobs[c].nextSibling {
			s.push(event{at: s.now, ord: evOrd(evArrival), a: c})
		}
	}
	s.slotFreed(x, true)
	t0 := ticks()
	s.policy.TaskEnd(s, id, observed)
	s.clock.add(t0)
	if r.done {
		s.retire(r)
	}
}

// mapPhaseDone schedules the ends of reduces waiting for the shuffle:
// max(launch + d, lastMapEnd + (1−ω)·d) (§1.4).
func (s *Sim) mapPhaseDone(j int) {
	r := &s.jobs[j]
	r.lastMapEnd = s.now
	for id := r.firstRed; id < r.firstRed+r.nReds; id++ {
		t := s.task(TaskID(id))
		if t.state == TaskRunning && !t.has(flagEndKnown) {
			s.setEnd(TaskID(id), s.shuffleEnd(t))
		}
	}
	if r.nReds > 0 {
		s.wake()
	}
}

// shuffleEnd is the end of reduce t's current segment, launched before its
// job's map phase ended at lastMapEnd: its work ends at max(launch + rem,
// lastMapEnd + ⌈(1−ω)·rem⌉) (§1.4).
func (s *Sim) shuffleEnd(t *taskRT) Time {
	return max(t.launch+t.rem, s.jobs[t.job].lastMapEnd+Time(math.Ceil((1-s.opt.Overlap)*float64(t.rem))))
}

// segEnd is the scheduled end of running task t's current segment
// (flagEndKnown), derived rather than stored: launch + rem for a map or a
// reduce launched once its job's map phase was over (that phase's end then
// lies at or before the launch, where shuffleEnd gives launch + rem too),
// shuffleEnd for a reduce that waited for the maps. rem is unchanged from
// the segment's start to its end, so this is the time setEnd scheduled.
func (s *Sim) segEnd(t *taskRT) Time {
	if t.kind == Map || s.jobs[t.job].lastMapEnd <= t.launch {
		return t.launch + t.rem
	}
	return s.shuffleEnd(t)
}

// attemptDur is the true duration (all its work) of task t's current or
// suspended attempt: its trace record says it.
func (s *Sim) attemptDur(t *taskRT) Time { return s.rec(t).Duration }

func (s *Sim) setEnd(id TaskID, end Time) {
	t := s.task(id)
	t.set(flagEndKnown, true)
	s.push(event{at: end, ord: evOrd(evTaskEnd), a: int32(id), epoch: t.epoch})
}

func (s *Sim) unrun(id TaskID) {
	t := s.task(id)
	last := s.running[len(s.running)-1]
	s.running[t.runIdx] = last
	s.task(last).runIdx = t.runIdx
	s.running = s.running[:len(s.running)-1]
	t.runIdx = -1
}

func (s *Sim) spec(id TaskID) *TaskSpec {
	t := s.rt(id)
	job := &s.w.Jobs[t.job]
	if t.kind == Map {
		return &job.Maps[id-TaskID(s.jobs[t.job].firstMap)]
	}
	return &job.Reduces[id-TaskID(s.jobs[t.job].firstRed)]
}

// index is task id's index within its job's maps or reduces.
func (s *Sim) index(id TaskID) int32 {
	t := s.rt(id)
	if t.kind == Map {
		return int32(id) - s.jobs[t.job].firstMap
	}
	return int32(id) - s.jobs[t.job].firstRed
}

// base is the true duration of task id on node x before contention, noise
// and the non-local penalty.
func (s *Sim) base(id TaskID, x int) float64 {
	spec := s.spec(id)
	if len(spec.ByGroup()) > 0 {
		return float64(spec.ByGroup()[s.w.Cluster.Nodes[x].Group])
	}
	speed := s.w.Cluster.Nodes[x].Speed
	if speed == 0 {
		speed = 1
	}
	return float64(spec.Work) / speed
}
