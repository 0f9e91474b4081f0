package sim

import "math/rand/v2"

// JobView is what a policy may know of a job: no true durations. A job that
// has not arrived shows only its ID.
type JobView struct {
	ID                  int
	Name, Category      string
	User, Priority      int
	Arrived, Done       bool
	Arrival, Deadline   Time
	Completion          Time // when Done
	NumMaps, NumReduces int
	FirstMap, FirstRed  TaskID
	MapsDone, RedsDone  int
	// Pending counts tasks never launched or killed (not suspended ones).
	MapsPending, RedsPending int
	RunningMaps, RunningReds int
	// ReducesEligible: the slow-start condition holds.
	ReducesEligible bool
	MapPhaseDone    bool
	LastMapEnd      Time // when MapPhaseDone
}

// TaskView is what a policy may know of a task.
type TaskView struct {
	ID     TaskID
	Job    int
	Kind   Kind
	Index  int // within its kind
	State  TaskState
	Node   int  // running or suspended on; -1 otherwise
	Launch Time // launch of the current segment (running); 0 once done
	Local  bool // the current attempt runs node-local (maps); false once done
}

// Now is the current simulated time.
func (s *Sim) Now() Time { return s.now }

// Options are the run's options.
func (s *Sim) Options() Options { return s.opt }

// Cluster is the cluster (read-only).
func (s *Sim) Cluster() *Cluster { return &s.w.Cluster }

// Users are the workload's users (read-only).
func (s *Sim) Users() []User { return s.w.Users }

// NumJobs is the number of jobs of the workload (arrived or not).
func (s *Sim) NumJobs() int { return len(s.jobs) }

// NumTasks is the number of tasks of the workload.
func (s *Sim) NumTasks() int { return s.nTasks }

// Job returns the view of job j.
func (s *Sim) Job(j int) JobView {
	r := &s.jobs[j]
	if !r.arrived {
		return JobView{ID: j}
	}
	job := &s.w.Jobs[j]
	return JobView{
		ID: j, Name: job.Name, Category: job.Category, User: job.User, Priority: job.Priority,
		Arrived: true, Done: r.done, Arrival: r.arrival, Deadline: job.Deadline, Completion: r.completion,
		NumMaps: int(r.nMaps), NumReduces: int(r.nReds), FirstMap: TaskID(r.firstMap), FirstRed: TaskID(r.firstRed),
		MapsDone: int(r.mapsDone), RedsDone: int(r.redsDone),
		MapsPending: int(r.mapsPending), RedsPending: int(r.redsPending),
		RunningMaps: int(r.runMaps), RunningReds: int(r.runReds),
		ReducesEligible: r.mapsDone >= r.needMaps, MapPhaseDone: r.mapsDone == r.nMaps, LastMapEnd: r.lastMapEnd,
	}
}

// HasWork reports whether job j has a task of kind k that may launch now.
func (s *Sim) HasWork(j int, k Kind) bool {
	r := &s.jobs[j]
	if !r.arrived {
		return false
	}
	if k == Map {
		return r.mapsPending > 0
	}
	return r.redsPending > 0 && r.mapsDone >= r.needMaps
}

// Task returns the view of task t. A done task shows no node, launch or
// locality: its record is recycled once its job is done (issue 30), and
// the view is the same before that.
func (s *Sim) Task(id TaskID) TaskView {
	t := s.rt(id)
	v := TaskView{ID: id, Job: int(t.job), Kind: t.kind, Index: int(s.index(id)), State: t.state, Node: -1}
	if t.state != TaskDone {
		v.Node, v.Launch, v.Local = int(t.node), t.launch, t.has(flagLocal)
	}
	return v
}

// Running lists the running tasks in no particular order (read-only; it
// changes with every launch and end).
func (s *Sim) Running() []TaskID { return s.running }

// Free is node x's free slot count.
func (s *Sim) Free(x int) Free { return s.free(x) }

// Estimate is the policy-visible duration of task t on node x (without the
// non-local penalty); ok is false in EstimateNone mode.
func (s *Sim) Estimate(id TaskID, x int) (Time, bool) {
	if s.opt.Estimates == EstimateNone {
		return 0, false
	}
	s.rt(id) // base reads the task's record
	f := float32(1)
	if s.estF != nil {
		f = s.estF[id]
	}
	return Time(s.base(id, x)*float64(f) + 0.5), true
}

// Replicas are the nodes holding map t's block (read-only; empty before its
// job arrives or for a reduce).
func (s *Sim) Replicas(id TaskID) []int32 {
	reps := s.replicas[int(id)*s.rep : int(id+1)*s.rep]
	for i, x := range reps {
		if x < 0 {
			return reps[:i]
		}
	}
	return reps
}

// Rand is the policy's own seeded stream (tie-breaks).
func (s *Sim) Rand() *rand.Rand { return s.rngPolicy }

// PickMap is policies.md §2's pickTask for maps: a pending map of job j with
// a replica on node x (lowest index), else the lowest-index pending map.
func (s *Sim) PickMap(j, x int) (t TaskID, local, ok bool) {
	r := &s.jobs[j]
	if !r.arrived || r.mapsPending == 0 {
		return -1, false, false
	}
	if lr := s.findRange(j, x); lr != nil {
		for lr.cur < lr.end && s.notPending(s.locs[lr.cur]) {
			lr.cur++
		}
		if lr.cur < lr.end {
			return s.locs[lr.cur], true, true
		}
	}
	t, ok = s.firstPendingMap(j)
	return t, false, ok
}

// PendingLocalMap is a pending map of job j with a replica on x, if any.
func (s *Sim) PendingLocalMap(j, x int) (TaskID, bool) {
	t, local, ok := s.PickMap(j, x)
	return t, ok && local
}

func (s *Sim) firstPendingMap(j int) (TaskID, bool) {
	r := &s.jobs[j]
	for r.mapCursor < r.nMaps && s.notPending(TaskID(r.firstMap+r.mapCursor)) {
		r.mapCursor++
	}
	if r.mapCursor < r.nMaps {
		return TaskID(r.firstMap + r.mapCursor), true
	}
	return -1, false
}

// PickReduce is the lowest-index pending reduce of job j if slow-start holds.
func (s *Sim) PickReduce(j int) (TaskID, bool) {
	if !s.HasWork(j, Reduce) {
		return -1, false
	}
	r := &s.jobs[j]
	for r.redCursor < r.nReds && s.notPending(TaskID(r.firstRed+r.redCursor)) {
		r.redCursor++
	}
	if r.redCursor < r.nReds {
		return TaskID(r.firstRed + r.redCursor), true
	}
	return -1, false
}

// Fits reports whether task t's RAM and disk demands fit on node x now
// (slots aside); Launch fails when they do not.
func (s *Sim) Fits(id TaskID, x int) bool {
	n := &s.nodes[x]
	nd := &s.w.Cluster.Nodes[x]
	if nd.RAM == 0 && nd.Disk == 0 {
		return true // the common case, decided without reading the task
	}
	s.rt(id) // spec reads the task's record
	spec := s.spec(id)
	return (nd.RAM == 0 || n.ram+spec.RAM() <= nd.RAM+capacityTol) && (nd.Disk == 0 || n.disk+spec.Disk() <= nd.Disk+capacityTol)
}

// Launchable is the number of tasks of kind k that could launch now
// cluster-wide: pending maps of arrived jobs, or pending reduces whose
// slow-start holds. Policies use it to skip scans that cannot succeed.
func (s *Sim) Launchable(k Kind) int {
	if k != Map && k != Reduce {
		return 0
	}
	return s.work[k]
}
