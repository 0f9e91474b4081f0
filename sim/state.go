package sim

import (
	"cmp"
	"slices"
)

// TaskID names a task of the workload: tasks are numbered job by job, each
// job's maps first, then its reduces.
type TaskID int32

// TaskState is a task's life-cycle state. The zero value is unknown.
type TaskState uint8

// Task states.
const (
	TaskUnknown   TaskState = iota
	TaskPending             // waiting for a slot (also after a kill)
	TaskRunning             // holds a slot
	TaskSuspended           // progress kept on its node; holds no slot
	TaskDone
)

var taskStateNames = [...]string{"unknown", "pending", "running", "suspended", "done"}

func (s TaskState) String() string {
	if int(s) < len(taskStateNames) {
		return taskStateNames[s]
	}
	return "unknown"
}

// taskRT is one task's run-time state. A day has tens of millions of tasks,
// so it holds only what cannot be derived, in 40 bytes: its index within
// its kind is the id minus the job's first map or reduce (Sim.index); the
// true duration of its current attempt is its trace record's Duration
// (Sim.attemptDur); the end of a segment whose end is known follows from
// its launch, its remaining work and its job's last map end (Sim.segEnd);
// its estimate factor is in Sim.estF, kept only in the estimate modes that
// need one.
type taskRT struct {
	job     int32
	node    int32 // running or suspended on; -1 otherwise
	runIdx  int32 // position in Sim.running while running
	attempt int32 // current trace record (while running, and after a suspension)
	epoch   uint32
	kind    Kind
	state   TaskState
	flags   taskFlags
	launch  Time // launch of the current segment
	rem     Time // work left at the start of the current segment
}

// taskFlags are a task's one-bit states, in one byte so that taskRT stays
// at 40 bytes.
type taskFlags uint8

const (
	// flagEndKnown: the current segment's end is scheduled (a map, or a
	// reduce whose job's map phase is over).
	flagEndKnown taskFlags = 1 << iota
	// flagLocal: the current attempt runs on a node holding its block.
	flagLocal
	// flagZero: counted in its node's zeroMap/zeroRed (a zero slot-time
	// launch).
	flagZero
)

func (t *taskRT) has(f taskFlags) bool { return t.flags&f != 0 }

func (t *taskRT) set(f taskFlags, on bool) {
	if on {
		t.flags |= f
	} else {
		t.flags &^= f
	}
}

// notPending reports whether task id's state is not TaskPending (Sim.left).
func (s *Sim) notPending(id TaskID) bool { return s.left[id>>6]&(1<<(id&63)) != 0 }

// setPending keeps Sim.left in step with a task's state entering (on) or
// leaving TaskPending.
func (s *Sim) setPending(id TaskID, on bool) {
	if on {
		s.left[id>>6] &^= 1 << (id & 63)
	} else {
		s.left[id>>6] |= 1 << (id & 63)
	}
}

// initTasks sets up the records of job j's tasks (pending, on no node). It
// runs when the job arrives rather than for every task before the run: the
// records are then written just before their launches read them, while
// they are in cache, instead of all at once at the start of a day of
// millions of tasks and read again from memory (issue 30). Until then a
// record is zero; rt sets one up on demand for the policy calls that name
// a task of a job not yet arrived.
func (s *Sim) initTasks(j int) {
	r := &s.jobs[j]
	if r.inited {
		return
	}
	r.inited = true
	for id := r.firstMap; id < r.firstRed+r.nReds; id++ {
		t := &s.tasks[id]
		t.job, t.node = int32(j), -1
		t.kind, t.state = Map, TaskPending
		if id >= r.firstRed {
			t.kind = Reduce
		}
	}
}

// rt is task id's record, set up first if its job has not arrived: every
// exported method that takes a task id of the policy's choosing reads the
// record through rt (a set-up record never has kind KindUnknown).
func (s *Sim) rt(id TaskID) *taskRT {
	t := &s.tasks[id]
	if t.kind == KindUnknown {
		// the job whose first task is the last at or before id
		j, _ := slices.BinarySearchFunc(s.jobs, int32(id)+1, func(r jobRT, first int32) int {
			return cmp.Compare(r.firstMap, first)
		})
		s.initTasks(j - 1)
	}
	return t
}

type jobRT struct {
	firstMap, nMaps, firstRed, nReds int32
	needMaps                         int32 // ceil(f·nMaps): maps done before a reduce may launch
	mapsDone, redsDone               int32
	mapsPending, redsPending         int32
	runMaps, runReds                 int32
	mapCursor, redCursor             int32 // lowest index that may be pending
	locStart, locEnd                 int32 // this job's node ranges in Sim.ranges
	childHead                        int32 // first chained child, -1
	nextSibling                      int32
	arrived, done                    bool
	inited                           bool // initTasks ran
	arrival, completion, lastMapEnd  Time
}

// locRange lists one job's maps with a replica on one node: Sim.locs[start:end],
// sorted by task id; cur is the first that may still be pending.
type locRange struct {
	node, start, end, cur int32
}

type nodeRT struct {
	freeMap, freeRed, freeAny int32
	runMap, runRed            int32
	// zeroMap and zeroRed count the zero-length tasks launched at zeroAt
	// that have not ended yet and end at once (not a reduce waiting for its
	// map phase): they never hold a slot for a positive time, so they do not
	// slow a task launched beside them (the checker agrees).
	zeroMap, zeroRed         int32
	zeroAt                   Time
	ram, disk                float64
	phase, lastHB            Time
	hbPending, parked, dirty bool
}
