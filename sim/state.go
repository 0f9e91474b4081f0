package sim

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

// Task records live in chunks of taskChunkLen consecutive ids. A chunk is
// allocated when the first job with a task in it arrives (initTasks) and
// recycled once every job with a task in it is done (retire): jobs arrive
// roughly in id order and most are done soon after, so a day's run holds
// the records of its live jobs only, in chunks that stay in cache, instead
// of 40 bytes for each of tens of millions of tasks, each written once to
// a fresh page (on a virtual machine a fresh page costs more than the
// writes: issue 30). A task's record is thus reachable only while its job
// is not done, or while a job sharing its chunk is not; afterwards rt
// describes it from its job (done, on no node).
const (
	taskChunkShift = 12
	taskChunkLen   = 1 << taskChunkShift // 160 KB of records
	taskChunkMask  = taskChunkLen - 1
)

type taskChunk [taskChunkLen]taskRT

// initChunks sizes the chunk table for n tasks; no chunk is allocated yet.
func (s *Sim) initChunks(n int) {
	nc := (n + taskChunkLen - 1) / taskChunkLen
	s.chunks = make([]*taskChunk, nc)
	s.chunkLive = make([]int32, nc)
	for c := range s.chunkLive {
		s.chunkLive[c] = int32(min(taskChunkLen, n-c*taskChunkLen))
	}
}

// task is the record of task id of a job not done (or sharing its chunk
// with one), set up: the engine's own access.
func (s *Sim) task(id TaskID) *taskRT {
	return &s.chunks[id>>taskChunkShift][id&taskChunkMask]
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
	end := r.firstRed + r.nReds
	if r.firstMap == end {
		return
	}
	for c := r.firstMap >> taskChunkShift; c <= (end-1)>>taskChunkShift; c++ {
		if s.chunks[c] == nil {
			s.chunks[c] = s.newChunk()
		}
	}
	for id := r.firstMap; id < end; id++ {
		t := s.task(TaskID(id))
		t.job, t.node = int32(j), -1
		t.kind, t.state = Map, TaskPending
		if id >= r.firstRed {
			t.kind = Reduce
		}
	}
}

// newChunk is a zeroed chunk, a recycled one when there is one.
func (s *Sim) newChunk() *taskChunk {
	if n := len(s.freeChunks); n > 0 {
		ch := s.freeChunks[n-1]
		s.freeChunks = s.freeChunks[:n-1]
		clear(ch[:])
		return ch
	}
	s.newChunks++
	return new(taskChunk)
}

// retire counts done job r's tasks out of their chunks and recycles each
// chunk left without a task of a job not done. Nothing reads a retired
// record: the job's tasks are neither running nor suspended, its events
// left in the queue are ends of killed or suspended segments (skipped by
// the loop when the chunk is gone), and rt answers for them from the job.
func (s *Sim) retire(r *jobRT) {
	end := r.firstRed + r.nReds
	for id := r.firstMap; id < end; {
		c := id >> taskChunkShift
		next := min(end, (c+1)<<taskChunkShift)
		s.chunkLive[c] -= next - id
		if s.chunkLive[c] == 0 && s.chunks[c] != nil {
			s.freeChunks = append(s.freeChunks, s.chunks[c])
			s.chunks[c] = nil
		}
		id = next
	}
}

// jobOf is the job of task id: the last job whose first task is at or
// before id (jobs without tasks share their successor's first id).
func (s *Sim) jobOf(id TaskID) int {
	lo, hi := 0, len(s.jobs) // the first job whose first task is after id
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s.jobs[m].firstMap <= int32(id) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo - 1
}

// rt is task id's record, set up first if its job has not arrived: every
// exported method that takes a task id of the policy's choosing reads the
// record through rt (a set-up record never has kind KindUnknown). For a
// task whose chunk is recycled (its job is done) it is a record made from
// the job, shared by such calls and not to be written: done, on no node.
func (s *Sim) rt(id TaskID) *taskRT {
	ch := s.chunks[id>>taskChunkShift]
	if ch == nil || ch[id&taskChunkMask].kind == KindUnknown {
		return s.rtSetUp(id)
	}
	return &ch[id&taskChunkMask] // set up: the common case, inlined
}

// rtSetUp is rt for a task whose record is not set up or is recycled.
func (s *Sim) rtSetUp(id TaskID) *taskRT {
	c := id >> taskChunkShift
	j := s.jobOf(id)
	if s.chunks[c] == nil && s.chunkLive[c] == 0 {
		r := &s.jobs[j]
		s.doneRec = taskRT{job: int32(j), node: -1, runIdx: -1, kind: Map, state: TaskDone}
		if int32(id) >= r.firstRed {
			s.doneRec.kind = Reduce
		}
		return &s.doneRec
	}
	s.initTasks(j)
	return s.task(id)
}

// stateOf is task id's state without setting up its record (a task of a
// job not arrived is pending).
func (s *Sim) stateOf(id TaskID) TaskState {
	c := id >> taskChunkShift
	switch ch := s.chunks[c]; {
	case ch != nil && ch[id&taskChunkMask].kind != KindUnknown:
		return ch[id&taskChunkMask].state
	case ch == nil && s.chunkLive[c] == 0:
		return TaskDone
	}
	return TaskPending
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
