package check

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/mrbound/mrbound/internal/hugepage"
	"github.com/mrbound/mrbound/sim"
)

// Stream verifies a run while it is made: set it as the run's
// sim.Options.Sink, then call Finish with the result. It checks what Verify
// checks, with the same messages in the same order, but holds no trace:
// per task one byte (and a small record for a task killed, suspended or
// still running), per record two bits, per node the segments holding its
// slots, per job a few counters (issue 30).
//
// It takes nothing from the engine on trust. The records come in
// simulated-time order (a launch at its Launch, an end at its End, records
// without an end last), which it checks, and it re-derives everything else
// from the workload and the records: each instant is swept as Verify sweeps
// a node (releases before launches, launches in trace order), so that slot
// and RAM counts, the contention each launch met, the maps done at a
// reduce's launch and its job's last map end are the ones Verify computes
// from the whole trace. A check that needs what comes later (the arrival of
// a chained job whose parent has not completed yet, the last map end of a
// job whose maps have not all completed when one of its reduces works) is
// deferred to Finish.
//
// Where the two forms can differ is on traces no engine makes: segments of
// one task that overlap and end out of their trace order, a task completed
// twice, a map completed after a reduce of its job worked; both reject such
// a trace, with messages that may differ.
type Stream struct {
	w     *sim.Workload
	opt   sim.Options
	first []int // job → first task id; first[len(jobs)] = tasks
	rep   int
	reps  []int32
	// Replicas of the wrong length: the per-record locality checks are
	// skipped, as Verify skips them (Finish reports it).
	noReps bool
	need   []int32 // job → maps done before a reduce may launch

	// The instant being gathered and its records; tail: the records
	// without an end have begun.
	now      sim.Time
	tail     bool
	launches []rec
	ends     []rec
	validMap []bool // flush's scratch
	held     []bool // flush's scratch: end k's record held a slot (pairHalves)
	mayHold  []int  // flush's scratch: the ends k for which mayHoldAtEnd holds
	// maybe holds, for a segment holding a slot, how many more same-kind
	// tasks than openSeg.running it may have met at its launch
	// (mayHoldAtEnd), when any: rare, so kept apart from the node's
	// segments, which every end scans
	maybe map[int]int32
	// Per trace index: launched, ended.
	launched, ended bitset

	nodes  []nodeLoad
	status []uint8 // per task: taskNone…taskLive
	live   map[int32]*life
	jobs   []jobLoad

	lateReleases []lateRelease
	lateReduces  []lateReduce

	mapLaunches, localLaunches, killed int

	v violations
}

// rec is one record of the current instant with its trace index.
type rec struct {
	i int
	a sim.Attempt
}

// A task's state between its records.
const (
	taskNone uint8 = iota // nothing launched
	taskOne               // one segment running, nothing before it
	taskDone              // completed, nothing running
	taskLive              // in Stream.live
)

// life is what Verify's task walk carries from one segment of a task to the
// next, kept only for a task with a history (killed, suspended, still
// running at the end) or more than one segment running.
type life struct {
	open     int // segments running
	k        int // segments seen
	worked   sim.Time
	prevEnd  sim.Time
	prev     sim.Outcome
	prevNode int32
	done     bool     // completed once
	early    sim.Time // a reduce attempt's work before its job's last map
}

// fresh is a task before its first segment.
func fresh() life { return life{prevEnd: math.MinInt64, prevNode: -1} }

type nodeLoad struct {
	maps, reds int
	ram, disk  float64
	segs       []openSeg // holding a slot
	// limited: the node has a RAM or a disk limit. ram and disk are read
	// only against a limit, so a node without one skips the sums and the
	// read of the task's spec they need (a cache miss at each launch and
	// end on a day, whose nodes have no such limits).
	limited bool
}

type openSeg struct {
	i       int
	launch  sim.Time
	running int32 // same-kind tasks on the node at its launch, itself included
	task    int32 // the task its launch named, which its end must name too
}

// jobLoad is a job's counters, and the few fields of its sim.Job that each
// record reads, copied here: a day's jobs are read at random, and a Job
// is many cache lines, a jobLoad 64 bytes.
type jobLoad struct {
	maps        int      // map tasks
	parent      int      // the job it is chained to, or -1
	arrival     sim.Time // its arrival if it has no parent
	tasks, done int      // tasks; tasks completed
	mapsDone    int      // completed map segments (Verify's mapEnds)
	lastMap     sim.Time // the latest of them
	last        sim.Time // the latest task completion
}

type lateRelease struct {
	i, task, job int
	launch       sim.Time
}

type lateReduce struct {
	i, task, job           int
	start, end, dur, early sim.Time
}

type bitset []uint64

func (b *bitset) set(i int) (was bool) {
	for i>>6 >= len(*b) {
		*b = append(*b, 0)
	}
	w := &(*b)[i>>6]
	was = *w&(1<<(i&63)) != 0
	*w |= 1 << (i & 63)
	return was
}

func (b bitset) has(i int) bool { return i >= 0 && i>>6 < len(b) && b[i>>6]&(1<<(i&63)) != 0 }

// NewStream returns a verifier of a run of w under opt.
func NewStream(w *sim.Workload, opt sim.Options) *Stream {
	s := &Stream{w: w, opt: opt, now: math.MinInt64, live: map[int32]*life{}, maybe: map[int]int32{}}
	s.first = make([]int, 0, len(w.Jobs)+1)
	s.jobs = make([]jobLoad, len(w.Jobs))
	s.need = make([]int32, len(w.Jobs))
	n := 0
	for j, job := range w.Jobs {
		s.first = append(s.first, n)
		s.jobs[j] = jobLoad{maps: len(job.Maps), parent: job.Parent, arrival: job.Arrival,
			tasks: len(job.Maps) + len(job.Reduces), lastMap: -1, last: -1}
		s.need[j] = int32(math.Ceil(opt.SlowStart*float64(len(job.Maps)) - 1e-9))
		n += len(job.Maps) + len(job.Reduces)
	}
	s.first = append(s.first, n)
	s.status = make([]uint8, n)
	hugepage.Prefer(s.status)
	// A run makes a record at least per task it runs: room for that many
	// bits, so that the sets do not grow a word at a time on a large day.
	s.launched, s.ended = make(bitset, 0, n/64+1), make(bitset, 0, n/64+1)
	s.nodes = make([]nodeLoad, len(w.Cluster.Nodes))
	for x := range s.nodes {
		nd := &w.Cluster.Nodes[x]
		s.nodes[x].limited = nd.RAM > 0 || nd.Disk > 0
	}
	return s
}

// Begin implements sim.TraceSink.
func (s *Stream) Begin(rep int, replicas []int32) {
	s.rep, s.reps = rep, replicas
	s.noReps = len(replicas) != rep*len(s.status)
}

// job is task t's job (t valid), read from the record when it says so.
func (s *Stream) job(t int, claimed int32) int {
	if j := int(claimed); j >= 0 && j < len(s.w.Jobs) && s.first[j] <= t && t < s.first[j+1] {
		return j
	}
	return sort.Search(len(s.w.Jobs), func(j int) bool { return s.first[j+1] > t })
}

func (s *Stream) kindIndex(t, j int) (sim.Kind, int) {
	i := t - s.first[j]
	if n := s.jobs[j].maps; i >= n {
		return sim.Reduce, i - n
	}
	return sim.Map, i
}

func (s *Stream) spec(t, j int) *sim.TaskSpec {
	k, i := s.kindIndex(t, j)
	if k == sim.Reduce {
		return &s.w.Jobs[j].Reduces[i]
	}
	return &s.w.Jobs[j].Maps[i]
}

// usable: the record names a task and a node, so it can be followed (its
// other fields are checked at its end).
func (s *Stream) usable(a *sim.Attempt) bool {
	return a.Task >= 0 && int(a.Task) < len(s.status) && a.Node >= 0 && int(a.Node) < len(s.nodes)
}

// endTime is when a record's end comes: at its End, last without one, and
// at its launch if it ends before it (a record Verify rejects as such).
func endTime(a *sim.Attempt) sim.Time {
	switch {
	case a.End < 0:
		return math.MaxInt64
	case a.End < a.Launch:
		return a.Launch
	}
	return a.End
}

func (s *Stream) arrive(i int, t sim.Time, what string) {
	if t < s.now || (s.tail && t != math.MaxInt64) {
		s.v.add(0, key{int64(i), 1}, "trace[%d]: its %s at %d ms reaches the checker after %d ms: the records are out of time order", i, what, t, s.now)
		return
	}
	if t > s.now {
		s.flush()
		s.now = t
	}
}

// Launched implements sim.TraceSink.
func (s *Stream) Launched(i int, a *sim.Attempt) {
	if i < 0 || s.launched.set(i) {
		s.v.add(0, key{int64(i), 1}, "trace[%d]: launched twice", i)
		return
	}
	s.arrive(i, a.Launch, "launch")
	s.launches = append(s.launches, rec{i, *a})
}

// Ended implements sim.TraceSink.
func (s *Stream) Ended(i int, a *sim.Attempt) {
	if !s.launched.has(i) || s.ended.has(i) {
		s.v.add(0, key{int64(i), 1}, "trace[%d]: ends without a launch, or twice", i)
		return
	}
	t := endTime(a)
	if t == math.MaxInt64 && !s.tail {
		s.flush()
		s.now, s.tail = t, true
	} else {
		s.arrive(i, t, "end")
	}
	// set after the flush of earlier instants: a launch sees the bit only
	// if it ended at its own instant (it held no slot)
	s.ended.set(i)
	s.ends = append(s.ends, rec{i, *a})
}

// flush sweeps the gathered instant: the launches' task bookkeeping, then
// the ends (releases and each record's own checks, in trace order), then
// the launches (slots taken, in trace order).
func (s *Stream) flush() {
	sortByIndex(s.launches)
	sortByIndex(s.ends)
	for k := range s.launches {
		if a := &s.launches[k].a; s.usable(a) {
			s.opened(int(a.Task))
		}
	}
	// map completions first, so that a reduce ending at this instant sees
	// the maps that end with it, as Verify's whole-trace view does
	// (validMap[k]: end k is a completed map found valid, which end need
	// not check again)
	s.validMap = slices.Grow(s.validMap[:0], len(s.ends))[:len(s.ends)]
	for k := range s.ends {
		a := &s.ends[k].a
		ok := s.usable(a) && a.Kind == sim.Map && a.Outcome == sim.Completed && s.valid(s.ends[k].i, a, false)
		s.validMap[k] = ok
		if ok {
			jl := &s.jobs[s.job(int(a.Task), a.Job)]
			jl.mapsDone++
			jl.lastMap = max(jl.lastMap, a.End)
		}
	}
	s.pairHalves()
	for k := range s.ends {
		s.end(s.ends[k].i, &s.ends[k].a, s.validMap[k], s.held[k])
	}
	s.mayHold = s.mayHold[:0]
	if s.opt.MapContention != 0 || s.opt.ReduceContention != 0 {
		for k := range s.ends {
			// the outcome and kind first: most ends are completed maps or
			// reduces ending after their map phase, and the job lookup is
			// not free
			a := &s.ends[k].a
			if a.Outcome == sim.Completed && a.Kind != sim.Reduce || !s.usable(a) {
				continue
			}
			if mayHoldAtEnd(a, s.jobs[s.job(int(a.Task), a.Job)].lastMap) {
				s.mayHold = append(s.mayHold, k)
			}
		}
	}
	for k := range s.launches {
		s.take(s.launches[k].i, &s.launches[k].a)
	}
	s.launches, s.ends = s.launches[:0], s.ends[:0]
}

// pairHalves sets held[k]: end k's record held a slot, which is so exactly
// when its launch came at an earlier instant (a launch at this instant took
// none: take sees it ended). It is decided from when the launch came, not
// from the end's own times, so an end that claims no length cannot skip its
// open segment's checks. A record launched and ended at this instant has no
// segment: its two halves are compared here. Both lists are in trace order.
func (s *Stream) pairHalves() {
	s.held = slices.Grow(s.held[:0], len(s.ends))[:len(s.ends)]
	for k := range s.held {
		s.held[k] = true
	}
	for k, l := 0, 0; k < len(s.ends) && l < len(s.launches); {
		switch e, o := &s.ends[k], &s.launches[l]; {
		case e.i < o.i:
			k++
		case e.i > o.i:
			l++
		default:
			s.held[k] = false
			if o.a.Launch != e.a.Launch {
				s.v.add(0, key{int64(e.i), 1}, "trace[%d]: launched at %d ms, ends saying %d ms", e.i, o.a.Launch, e.a.Launch)
			}
			if e.a.Task != o.a.Task {
				s.v.add(0, key{int64(e.i), 1}, "trace[%d]: launched as task %d, ends as task %d", e.i, o.a.Task, e.a.Task)
			}
			k++
			l++
		}
	}
}

// sortByIndex puts one instant's records in trace order. They mostly come
// in it already (an engine numbers its records at their launch) and are
// mostly one or two, so one pass that finds them in order spares the
// sort's set-up at each instant.
func sortByIndex(r []rec) {
	for k := 1; k < len(r); k++ {
		if r[k].i < r[k-1].i {
			slices.SortFunc(r, func(a, b rec) int { return cmp.Compare(a.i, b.i) })
			return
		}
	}
}

// valid checks a record's own fields as Verify's first pass does; report:
// record the violation (once per record).
func (s *Stream) valid(i int, a *sim.Attempt, report bool) bool {
	t := int(a.Task)
	if t < 0 || t >= len(s.status) {
		if report {
			s.v.add(0, key{int64(i)}, "trace[%d]: no task %d", i, t)
		}
		return false
	}
	j := s.job(t, a.Job)
	kind, index := s.kindIndex(t, j)
	msg := ""
	switch {
	case a.Job != int32(j) || a.Kind != kind || int(a.Index) != index:
		msg = fmt.Sprintf("trace[%d]: task %d is job %d %s %d, not job %d %s %d", i, t, j, kind, index, a.Job, a.Kind, a.Index)
	case a.Node < 0 || int(a.Node) >= len(s.nodes):
		msg = fmt.Sprintf("trace[%d]: no node %d", i, a.Node)
	case a.End >= 0 && !(a.Launch <= a.Start && a.Start <= a.End):
		msg = fmt.Sprintf("trace[%d] (task %d): launch %d, start %d, end %d out of order", i, t, a.Launch, a.Start, a.End)
	}
	if msg != "" && report {
		s.v.add(0, key{int64(i)}, "%s", msg)
	}
	return msg == ""
}

// opened notes that one more segment of task t runs.
func (s *Stream) opened(t int) {
	switch s.status[t] {
	case taskNone:
		s.status[t] = taskOne
	case taskOne:
		l := fresh()
		l.open = 2
		s.live[int32(t)] = &l
		s.status[t] = taskLive
	case taskDone:
		// launched after its completion was swept, so it cannot overlap it
		l := fresh()
		l.k, l.prev, l.done, l.open = 1, sim.Completed, true, 1
		s.live[int32(t)] = &l
		s.status[t] = taskLive
	default:
		s.live[int32(t)].open++
	}
}

// end runs the checks of one final record; valid: its own fields are
// known to be valid.
func (s *Stream) end(i int, a *sim.Attempt, valid, held bool) {
	if !valid && !s.valid(i, a, true) {
		return
	}
	t := int(a.Task)
	j := s.job(t, a.Job)
	// the slot it held, and the contention it met at its launch
	running, maybe := int32(0), int32(0)
	if held {
		n := &s.nodes[a.Node]
		k := slices.IndexFunc(n.segs, func(o openSeg) bool { return o.i == i })
		if k < 0 {
			s.v.add(0, key{int64(i), 1}, "trace[%d]: ends on node %d, where it did not launch at %d ms", i, a.Node, a.Launch)
			return
		}
		o := n.segs[k]
		n.segs[k] = n.segs[len(n.segs)-1]
		n.segs = n.segs[:len(n.segs)-1]
		if o.launch != a.Launch {
			s.v.add(0, key{int64(i), 1}, "trace[%d]: launched at %d ms, ends saying %d ms", i, o.launch, a.Launch)
		}
		if o.task != int32(a.Task) {
			s.v.add(0, key{int64(i), 1}, "trace[%d]: launched as task %d, ends as task %d", i, o.task, a.Task)
		}
		running = o.running
		if len(s.maybe) > 0 {
			maybe = s.maybe[i]
			delete(s.maybe, i)
		}
		if a.End >= 0 {
			s.hold(n, a, t, j, -1)
		}
	}
	var l *life
	one := fresh()
	if s.status[t] == taskLive {
		l = s.live[int32(t)]
	} else {
		one.open = 1
		l = &one
	}
	if a.Kind == sim.Reduce {
		s.reduceWork(i, a, t, j, l)
	}
	s.life(i, a, t, j, l)
	if !s.noReps {
		// one stopped at its launch instant has its duration checked at its
		// launch's place in the sweep (take), as Verify counts it
		s.locality(i, a, t, j, int(running), int(maybe), true, held || !stoppedAtLaunch(a))
	}
	if a.Kind == sim.Map && !a.Resumed {
		s.mapLaunches++
		if a.Local {
			s.localLaunches++
		}
	}
	if a.Outcome == sim.Killed {
		s.killed++
	}
}

// hold adds (delta +1) or removes (−1) a's slot, RAM and disk on node n.
func (s *Stream) hold(n *nodeLoad, a *sim.Attempt, t, j, delta int) {
	if a.Kind == sim.Map {
		n.maps += delta
	} else {
		n.reds += delta
	}
	if !n.limited {
		return
	}
	sp := s.spec(t, j)
	n.ram += float64(delta) * sp.RAM()
	n.disk += float64(delta) * sp.Disk()
}

// life is Verify's task walk, one segment at a time: l is the task's
// state, kept in Stream.live if the task needs it after this segment.
func (s *Stream) life(i int, a *sim.Attempt, t, j int, l *life) {
	lk := func(sub int64) key { return key{int64(t), int64(i), sub} }
	if a.Launch < l.prevEnd {
		s.v.add(1, lk(0), "task %d: segment at %d ms overlaps the previous one (ended %d ms)", t, a.Launch, l.prevEnd)
	}
	switch l.prev {
	case sim.Completed:
		s.v.add(1, lk(1), "task %d: runs again after completing", t)
	case sim.Suspended:
		if !a.Resumed || a.Node != l.prevNode {
			s.v.add(1, lk(1), "task %d: after a suspension on node %d it must resume there (got node %d, resumed=%v)", t, l.prevNode, a.Node, a.Resumed)
		}
	case sim.OutcomeUnknown:
		if l.k > 0 {
			s.v.add(1, lk(1), "task %d: a segment follows one that never ended", t)
		}
	default:
		if a.Resumed {
			s.v.add(1, lk(1), "task %d: resumed after a kill", t)
		}
	}
	if !a.Resumed {
		l.worked = 0
	}
	if a.End >= 0 {
		l.worked += a.End - a.Start
	}
	switch a.Outcome {
	case sim.Completed:
		if l.worked != a.Duration {
			s.v.add(1, lk(2), "task %d: completed after %d ms of work, its duration is %d ms", t, l.worked, a.Duration)
		}
		jl := &s.jobs[j]
		if !l.done {
			l.done = true
			jl.done++
		}
		jl.last = max(jl.last, a.End)
	case sim.Killed:
		l.worked = 0
	}
	if a.Outcome == sim.Suspended && l.worked > a.Duration {
		s.v.add(1, lk(3), "task %d: suspended after %d ms of work, more than its duration %d ms", t, l.worked, a.Duration)
	}
	l.prev, l.prevEnd, l.prevNode = a.Outcome, max(a.End, a.Launch), a.Node
	l.k++
	l.open--
	switch {
	case s.status[t] != taskLive && a.Outcome == sim.Completed:
		s.status[t] = taskDone
	case s.status[t] != taskLive:
		kept := *l
		s.live[int32(t)] = &kept
		s.status[t] = taskLive
	case l.open == 0 && a.Outcome == sim.Completed:
		delete(s.live, int32(t))
		s.status[t] = taskDone
	}
}

// reduceWork checks that of a reduce attempt's work at most
// d − ceil((1−ω)·d) lies before its job's last map end (Verify's reduces).
func (s *Stream) reduceWork(i int, a *sim.Attempt, t, j int, l *life) {
	if !a.Resumed {
		l.early = 0
	}
	if a.End < 0 || a.End == a.Start {
		return
	}
	if s.jobs[j].mapsDone != s.jobs[j].maps {
		// the maps may yet all complete (in a trace no engine makes):
		// Finish judges it with the whole trace's
		s.lateReduces = append(s.lateReduces, lateReduce{i, t, j, a.Start, a.End, a.Duration, l.early})
		l.early += a.End - a.Start
		return
	}
	l.early = s.earlyWork(i, t, j, a.Start, a.End, a.Duration, l.early)
}

// earlyWork adds a segment's work before its job's last map to the
// attempt's, reports it over the budget, and returns it.
func (s *Stream) earlyWork(i, t, j int, start, end, dur, early sim.Time) sim.Time {
	lastMap := s.jobs[j].lastMap
	if start >= lastMap {
		return early
	}
	early += min(end, lastMap) - start
	if budget := dur - sim.Time(math.Ceil((1-s.opt.Overlap)*float64(dur))); early > budget {
		s.v.add(5, key{int64(t), int64(i), 1}, "trace[%d]: reduce %d works from %d ms, before its job's last map ends at %d ms (%d ms of its attempt before it, ω = %v allows %d ms)",
			i, t, start, lastMap, early, s.opt.Overlap, budget)
	}
	return early
}

// locality checks a record's Local flag against its block's replicas (flag)
// and a launch's duration against the workload (dur) (Verify's locality).
func (s *Stream) locality(i int, a *sim.Attempt, t, j, running, maybe int, flag, dur bool) {
	local := false
	if a.Kind == sim.Map {
		for _, x := range s.reps[t*s.rep : (t+1)*s.rep] {
			local = local || x == a.Node
		}
	}
	if flag && a.Local != local {
		s.v.add(7, key{int64(i), 0}, "trace[%d]: task %d on node %d flagged local=%v; its replicas say %v", i, t, a.Node, a.Local, local)
	}
	if a.Resumed || !dur {
		return
	}
	if lo, hi, ok := duration(s.w, &s.opt, s.spec(t, j), a, local, running, maybe); !ok {
		s.v.add(7, key{int64(i), 1}, "trace[%d]: task %d on node %d has duration %d ms, the workload gives [%d, %d] ms", i, a.Task, a.Node, a.Duration, lo, hi)
	}
}

// take sweeps a launch at the current instant: its slot, RAM and disk
// (unless it ended at once), slow-start, and its job's arrival.
func (s *Stream) take(i int, a *sim.Attempt) {
	if !s.usable(a) {
		return
	}
	t := int(a.Task)
	j := s.job(t, a.Job)
	if a.Kind == sim.Reduce && !a.Resumed {
		if done := s.jobs[j].mapsDone; done < int(s.need[j]) {
			s.v.add(5, key{int64(t), int64(i), 0}, "trace[%d]: reduce %d launched at %d ms with %d maps done; slow-start %v needs %d", i, t, a.Launch, done, s.opt.SlowStart, s.need[j])
		}
	}
	if arr, known := s.arrival(j); !known {
		s.lateReleases = append(s.lateReleases, lateRelease{i, t, j, a.Launch})
	} else {
		s.release(i, t, j, a.Launch, arr)
	}
	x := int(a.Node)
	n := &s.nodes[x]
	if s.ended.has(i) { // ended at this instant: it held no slot
		// the launch record knows no outcome yet: its end's (this
		// instant's ends are in trace order) tells a stop at its launch
		k, found := slices.BinarySearchFunc(s.ends, i, func(e rec, i int) int { return cmp.Compare(e.i, i) })
		if found && stoppedAtLaunch(&s.ends[k].a) && !s.noReps {
			e := &s.ends[k].a
			running, maybe := s.running(n, i, e)
			s.locality(i, e, t, j, running+1, maybe, false, true)
		}
		return
	}
	s.hold(n, a, t, j, 1)
	running, maybe := s.running(n, i, a)
	if maybe > 0 {
		s.maybe[i] = int32(maybe)
	}
	n.segs = append(n.segs, openSeg{i: i, launch: a.Launch, running: int32(running), task: int32(a.Task)})
	nd := &s.w.Cluster.Nodes[x]
	ck := func(sub int64) key { return key{int64(x), int64(a.Launch), int64(i), sub} }
	if s.w.Cluster.Fungible {
		if n.maps+n.reds > nd.TotalSlots {
			s.v.add(4, ck(0), "node %d at %d ms: %d tasks on %d slots (trace[%d])", x, a.Launch, n.maps+n.reds, nd.TotalSlots, i)
		}
	} else if n.maps > nd.MapSlots || n.reds > nd.ReduceSlots {
		s.v.add(4, ck(0), "node %d at %d ms: %d maps on %d map slots, %d reduces on %d reduce slots (trace[%d])", x, a.Launch, n.maps, nd.MapSlots, n.reds, nd.ReduceSlots, i)
	}
	if nd.RAM > 0 && n.ram > nd.RAM*(1+metricTol) {
		s.v.add(4, ck(1), "node %d at %d ms: RAM %g over %g (trace[%d])", x, a.Launch, n.ram, nd.RAM, i)
	}
	if nd.Disk > 0 && n.disk > nd.Disk*(1+metricTol) {
		s.v.add(4, ck(2), "node %d at %d ms: disk %g over %g (trace[%d])", x, a.Launch, n.disk, nd.Disk, i)
	}
}

// running is the count of a's kind on node n at its launch, as the sweep
// has it (releases first, then the launches before it, a itself if it holds
// a slot), and how many of this instant's ends may still have held one then
// (Verify's runningAtLaunch).
func (s *Stream) running(n *nodeLoad, i int, a *sim.Attempt) (running, maybe int) {
	running = n.maps
	if a.Kind != sim.Map {
		running = n.reds
	}
	for _, k := range s.mayHold {
		if e := &s.ends[k]; e.a.Node == a.Node && (e.a.Kind == sim.Map) == (a.Kind == sim.Map) && e.i != i && (s.held[k] || e.i < i) {
			maybe++
		}
	}
	return running, maybe
}

// arrival is job j's arrival as far as the records so far tell: known for
// a job without a parent, and for a chained one once its parent completed
// (-1 if the parent never arrived).
func (s *Stream) arrival(j int) (sim.Time, bool) {
	p := s.jobs[j].parent
	if p < 0 {
		return s.jobs[j].arrival, true
	}
	pa, known := s.arrival(p)
	switch {
	case !known:
		return 0, false
	case pa < 0:
		return -1, true
	case s.jobs[p].done == s.jobs[p].tasks:
		return s.jobs[p].last, true
	}
	return 0, false
}

func (s *Stream) release(i, t, j int, launch, arrival sim.Time) {
	if arrival < 0 {
		s.v.add(3, key{int64(i)}, "trace[%d]: task %d runs though its job %d never arrived", i, t, j)
	} else if launch < arrival {
		s.v.add(3, key{int64(i)}, "trace[%d]: task %d launches at %d ms, before its job's arrival %d ms", i, t, launch, arrival)
	}
}

// Finish ends the sweep and checks the run's outcome: the jobs, the
// replicas, the metrics, and what had to wait for the whole run. It
// returns what Verify returns on the same run.
func (s *Stream) Finish(res *sim.Result) error {
	s.flush()
	for i := range s.launched.len() {
		if s.launched.has(i) && !s.ended.has(i) {
			s.v.add(0, key{int64(i), 1}, "trace[%d]: launched, never ended", i)
		} else if !s.launched.has(i) {
			s.v.add(0, key{int64(i), 1}, "trace[%d]: never handed to the checker", i)
		}
	}
	if len(res.Jobs) != len(s.w.Jobs) {
		s.v.add(0, key{-1}, "result has %d jobs, workload %d", len(res.Jobs), len(s.w.Jobs))
	}
	if s.v.count[0] == 0 {
		arrival := s.jobOutcomes(res)
		for _, r := range s.lateReleases {
			s.release(r.i, r.task, r.job, r.launch, arrival[r.job])
		}
		for _, r := range s.lateReduces {
			if s.jobs[r.job].mapsDone != s.jobs[r.job].maps {
				s.v.add(5, key{int64(r.task), int64(r.i), 1}, "trace[%d]: reduce %d works though its job's maps never all completed", r.i, r.task)
				continue
			}
			s.earlyWork(r.i, r.task, r.job, r.start, r.end, r.dur, r.early)
		}
		s.replicas(res)
		s.metrics(res, arrival)
	}
	return s.v.err()
}

// len is the number of indices the set covers.
func (b bitset) len() int {
	n := len(b) * 64
	for n > 0 && !b.has(n-1) {
		n--
	}
	return n
}

// jobOutcomes compares each job's outcome with the records' (Verify's
// jobs) and returns the arrivals (-1 = never arrived).
func (s *Stream) jobOutcomes(res *sim.Result) []sim.Time {
	finished := func(j int) (bool, sim.Time) {
		jl := &s.jobs[j]
		return jl.done == jl.tasks, jl.last
	}
	return jobOutcomes(s.w, res, finished, func(j, which int, format string, a ...any) {
		s.v.add(2, key{int64(j), int64(which)}, format, a...)
	})
}

// replicas checks the replica table (Verify's locality, first part).
func (s *Stream) replicas(res *sim.Result) {
	tasks := len(s.status)
	// The locality flags were checked against the table the run began
	// with: the reported one must be that table.
	if res.Rep != s.rep || !slices.Equal(res.Replicas, s.reps) {
		s.v.add(6, key{-2}, "replicas: the result's table (%d per task, %d entries) is not the one the run began with (%d, %d)", res.Rep, len(res.Replicas), s.rep, len(s.reps))
	}
	if len(res.Replicas) != res.Rep*tasks || s.noReps {
		s.v.add(6, key{-1}, "replicas: %d entries, want %d", len(res.Replicas), res.Rep*tasks)
		return
	}
	nodes := s.w.Cluster.Nodes
	for t := range tasks {
		reps := res.Replicas[t*res.Rep : (t+1)*res.Rep]
		for k, x := range reps {
			if x < 0 {
				continue
			}
			rk := func(sub int64) key { return key{int64(t), int64(k), sub} }
			if int(x) >= len(nodes) {
				s.v.add(6, rk(0), "task %d: replica on node %d", t, x)
				continue
			}
			if sz := nodes[x].StorageBytes; s.w.Cluster.BlockBytes > 0 && sz > 0 && sz < s.w.Cluster.BlockBytes {
				s.v.add(6, rk(0), "task %d: replica on node %d, which cannot store a %d-byte block", t, x, s.w.Cluster.BlockBytes)
			}
			for y, z := range reps[:k] {
				if z == x {
					s.v.add(6, rk(1+int64(y)), "task %d: two replicas on node %d", t, x)
				}
			}
		}
	}
}

// metrics recomputes the headline metrics (Verify's metrics).
func (s *Stream) metrics(res *sim.Result, arrival []sim.Time) {
	compareMetrics(s.w, res, arrival, s.mapLaunches, s.localLaunches, s.killed, func(which int, format string, a ...any) {
		s.v.add(8, key{int64(which)}, format, a...)
	})
}

// key orders the violations of one phase as Verify finds them
// (lexicographically: a task or node, then a time or a trace index, then
// the order of the checks on one record).
type key [4]int64

// phases: numbering and the stream's order, task lives, jobs, releases,
// capacity, reduces, replicas, locality and durations, metrics.
const phases = 9

type violation struct {
	k   key
	msg string
}

// violations keeps, per phase, the maxViolations first in Verify's order
// and counts them all.
type violations struct {
	count [phases]int
	kept  [phases][]violation
}

func (v *violations) add(phase int, k key, format string, a ...any) {
	v.count[phase]++
	list := v.kept[phase]
	if len(list) == maxViolations {
		worst := 0
		for i := range list {
			if list[i].k.after(list[worst].k) {
				worst = i
			}
		}
		if !list[worst].k.after(k) {
			return
		}
		list[worst] = violation{k, fmt.Sprintf(format, a...)}
		return
	}
	v.kept[phase] = append(list, violation{k, fmt.Sprintf(format, a...)})
}

func (k key) after(o key) bool { return slices.Compare(k[:], o[:]) > 0 }

// err is Verify's error: the first violations in its order, or nil; a
// failure of the first phase hides the others, as in Verify.
func (v *violations) err() error {
	var out []string
	last := phases
	if v.count[0] > 0 {
		last = 1
	}
	total := 0
	for p := range last {
		total += v.count[p]
		list := v.kept[p]
		slices.SortStableFunc(list, func(a, b violation) int { return slices.Compare(a.k[:], b.k[:]) })
		for _, x := range list {
			if len(out) < maxViolations {
				out = append(out, x.msg)
			}
		}
	}
	if total == 0 {
		return nil
	}
	msg := fmt.Sprintf("%d violation(s)", len(out))
	if len(out) == maxViolations {
		msg = fmt.Sprintf("at least %d violations", maxViolations)
	}
	errs := []error{fmt.Errorf("%w: %s", ErrViolation, msg)}
	for _, m := range out {
		errs = append(errs, errors.New(m))
	}
	return errors.Join(errs...)
}

// VerifyStream is Verify through a Stream: it hands res's trace to a
// Stream as an engine would, in simulated-time order (each record at its
// launch and at its end, the records without an end last; at one instant
// in trace order), and finishes it. The tests run every case through both
// forms; a caller with a kept trace should call Verify.
func VerifyStream(w *sim.Workload, res *sim.Result) error {
	s := NewStream(w, res.Options)
	s.Begin(res.Rep, res.Replicas)
	type event struct {
		at  sim.Time
		i   int
		end bool
	}
	evs := make([]event, 0, 2*len(res.Trace))
	for i := range res.Trace {
		a := &res.Trace[i]
		evs = append(evs, event{a.Launch, i, false}, event{endTime(a), i, true})
	}
	slices.SortStableFunc(evs, func(a, b event) int {
		if c := cmp.Compare(a.at, b.at); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	for _, e := range evs {
		a := res.Trace[e.i]
		if e.end {
			s.Ended(e.i, &a)
			continue
		}
		a.Start, a.End, a.Outcome = a.Launch, -1, sim.OutcomeUnknown
		s.Launched(e.i, &a)
	}
	return s.Finish(res)
}
