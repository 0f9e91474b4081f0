package sim

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Time is simulated time in whole milliseconds (policies.md §1.1).
type Time int64

// NoDeadline marks a job without a deadline; it sorts after every real one.
const NoDeadline Time = math.MaxInt64

// Seconds converts t to float seconds.
func (t Time) Seconds() float64 { return float64(t) / 1000 }

// FromSeconds rounds float seconds to whole milliseconds.
func FromSeconds(s float64) Time { return Time(math.Round(s * 1000)) }

// Kind is a task kind. The zero value is unknown.
type Kind uint8

// Task kinds.
const (
	KindUnknown Kind = iota
	Map
	Reduce
)

func (k Kind) String() string {
	switch k {
	case Map:
		return "map"
	case Reduce:
		return "reduce"
	}
	return "unknown"
}

// Node is one TaskTracker. Zero limits mean "unlimited".
type Node struct {
	Name        string
	Rack        int
	MapSlots    int // fixed mode: slots that run only maps
	ReduceSlots int // fixed mode: slots that run only reduces
	TotalSlots  int // fungible mode: slots of either kind (each count at most MaxNodeSlots)
	// Group keys TaskSpec.ByGroup (per node-type durations).
	Group int
	// Speed divides TaskSpec.Work (1 = the reference speed; 0 reads as 1).
	Speed float64
	// StorageBytes: a node can hold a block when it is 0 (unlimited) or at
	// least the block size. Capacity is per block, not cumulative.
	StorageBytes int64
	RAM, Disk    float64 // per-node limits on the sum over running tasks; 0 = none
}

// Cluster is the set of nodes plus the data layout parameters.
type Cluster struct {
	Nodes []Node
	// Fungible: each node has TotalSlots slots whose kind the policy picks at
	// launch (TuMM); otherwise MapSlots/ReduceSlots are fixed.
	Fungible bool
	// BlockBytes is informational (map i reads block i); Replicas is the
	// replication factor (0 reads as 3; capped by the storage-capable nodes).
	BlockBytes int64
	Replicas   int
	// NonLocalPenalty is added to a map that runs on a node holding no replica
	// of its block (blk/B, A-C8); 0 turns the penalty off.
	NonLocalPenalty Time
}

// User is a pool of the Fair scheduler and a user of COSHH.
type User struct {
	Name     string
	MinShare int     // slots (map + reduce, A-F2)
	Weight   float64 // 0 reads as 1
}

// TaskSpec is one task of a job: its true work and what a policy may know.
//
// A day has tens of millions of tasks (issue 30), so a TaskSpec holds only
// what every task has, 16 bytes; the user's estimate, the per-node-type
// durations, the block homes and the RAM and disk demands, which only the
// MRCP, heterogeneous, Jlassi and COSHH workloads set, sit behind one
// pointer that is nil when all of them are zero. Read them with Estimate,
// ByGroup, Replicas, RAM and Disk; set them with SetEstimate, SetByGroup,
// SetReplicas and SetDemand, which never write through to another TaskSpec
// that shares the extras (a copied TaskSpec behaves as the copied struct of
// fields did).
type TaskSpec struct {
	// Work is the duration at speed 1, used when ByGroup is empty.
	Work Time
	// x is nil exactly when Estimate is 0, ByGroup and Replicas are empty
	// and RAM and Disk are 0 (the setters keep that form, so
	// reflect.DeepEqual and == still compare tasks by their values).
	x *taskExtra
}

// taskExtra holds the fields of a TaskSpec that most workloads leave empty.
// It is never modified once a TaskSpec points to it.
type taskExtra struct {
	estimate  Time
	byGroup   []Time
	replicas  []int
	ram, disk float64
}

// Estimate is the user-supplied estimate at speed 1 (EstimateGiven); 0
// means "the truth".
func (t TaskSpec) Estimate() Time {
	if t.x == nil {
		return 0
	}
	return t.x.estimate
}

// ByGroup, when non-empty, gives the duration on a node of each group
// (indexed by Node.Group); it overrides Work and Speed.
func (t TaskSpec) ByGroup() []Time {
	if t.x == nil {
		return nil
	}
	return t.x.byGroup
}

// Replicas, for a map, fixes the nodes holding its block (Jlassi's block
// homes); neither the policy nor the default placement moves them. At most
// Cluster.Replicas distinct nodes.
func (t TaskSpec) Replicas() []int {
	if t.x == nil {
		return nil
	}
	return t.x.replicas
}

// RAM is the task's RAM demand, counted against Node.RAM while it runs.
func (t TaskSpec) RAM() float64 {
	if t.x == nil {
		return 0
	}
	return t.x.ram
}

// Disk is the task's disk demand, counted against Node.Disk while it runs.
func (t TaskSpec) Disk() float64 {
	if t.x == nil {
		return 0
	}
	return t.x.disk
}

// SetEstimate sets Estimate to e.
func (t *TaskSpec) SetEstimate(e Time) {
	x := t.extra()
	x.estimate = e
	t.setExtra(x)
}

// SetByGroup sets ByGroup to d (kept, not copied; empty clears it).
func (t *TaskSpec) SetByGroup(d []Time) {
	e := t.extra()
	e.byGroup = d
	t.setExtra(e)
}

// SetReplicas sets Replicas to r (kept, not copied; empty clears it).
func (t *TaskSpec) SetReplicas(r []int) {
	e := t.extra()
	e.replicas = r
	t.setExtra(e)
}

// SetDemand sets the RAM and disk demands.
func (t *TaskSpec) SetDemand(ram, disk float64) {
	e := t.extra()
	e.ram, e.disk = ram, disk
	t.setExtra(e)
}

// extra returns a copy of t's extras, for a setter to change and store anew:
// the old ones may be shared with a copy of t.
func (t *TaskSpec) extra() taskExtra {
	if t.x == nil {
		return taskExtra{}
	}
	return *t.x
}

// setExtra stores e in t, or nil when it is all zero.
func (t *TaskSpec) setExtra(e taskExtra) {
	if len(e.byGroup) == 0 {
		e.byGroup = nil
	}
	if len(e.replicas) == 0 {
		e.replicas = nil
	}
	if e.estimate == 0 && e.byGroup == nil && e.replicas == nil && e.ram == 0 && e.disk == 0 {
		t.x = nil
		return
	}
	t.x = &e
}

// Job is one MapReduce job.
type Job struct {
	Name     string
	User     int // index into Workload.Users; -1 or 0 when there are none
	Priority int
	Category string
	Arrival  Time
	Deadline Time // NoDeadline when there is none
	// Parent, when ≥ 0, is a job whose completion submits this one (TPC-H
	// chains); Arrival is then ignored.
	Parent  int
	Maps    []TaskSpec
	Reduces []TaskSpec
}

// Workload is a cluster plus a job stream: everything a run needs.
type Workload struct {
	Name    string
	Cluster Cluster
	Users   []User
	Jobs    []Job
}

// ErrBadWorkload is wrapped by every validation error.
var ErrBadWorkload = errors.New("sim: bad workload")

// MaxNodeSlots is the most slots of a kind (or in all, fungible) one node
// may have: the engine counts a node's free slots in 32 bits (a node of
// 2^31 slots stalled the run; s18audit).
const MaxNodeSlots = math.MaxInt32

func badf(path, format string, a ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrBadWorkload, path, fmt.Sprintf(format, a...))
}

// Validate checks the invariants the engine relies on and names the first
// violation by its JSON path.
func (w *Workload) Validate() error {
	c := &w.Cluster
	if len(c.Nodes) == 0 {
		return badf("cluster.nodes", "no nodes")
	}
	groups := 0
	anyMap, anyRed := false, false
	for i, n := range c.Nodes {
		p := fmt.Sprintf("cluster.nodes[%d]", i)
		if n.MapSlots < 0 || n.ReduceSlots < 0 || n.TotalSlots < 0 {
			return badf(p, "negative slot count")
		}
		if most := max(n.MapSlots, n.ReduceSlots, n.TotalSlots); most > MaxNodeSlots {
			return badf(p, "%d slots: at most %d per node", most, MaxNodeSlots)
		}
		if c.Fungible {
			if n.TotalSlots > 0 {
				anyMap, anyRed = true, true
			}
		} else {
			anyMap = anyMap || n.MapSlots > 0
			anyRed = anyRed || n.ReduceSlots > 0
		}
		if n.Speed < 0 || math.IsNaN(n.Speed) || math.IsInf(n.Speed, 0) {
			return badf(p+".speed", "%v is not a positive speed", n.Speed)
		}
		if n.Group < 0 {
			return badf(p+".group", "negative group")
		}
		if n.RAM < 0 || n.Disk < 0 || n.StorageBytes < 0 {
			return badf(p, "negative capacity")
		}
		groups = max(groups, n.Group+1)
	}
	if c.Replicas < 0 {
		return badf("cluster.replicas", "negative")
	}
	if c.NonLocalPenalty < 0 {
		return badf("cluster.non_local_penalty", "negative")
	}
	maxRep := c.Replicas
	if maxRep == 0 {
		maxRep = 3
	}
	for i, u := range w.Users {
		if u.MinShare < 0 || u.Weight < 0 || math.IsNaN(u.Weight) {
			return badf(fmt.Sprintf("users[%d]", i), "negative min share or weight")
		}
	}
	var rooms nodeRooms
	for j := range w.Jobs {
		job := &w.Jobs[j]
		// paths are built only for an error: this loop runs once per task
		p := func() string { return fmt.Sprintf("jobs[%d]", j) }
		if job.Parent >= j {
			return badf(p()+".parent", "parent %d is not an earlier job", job.Parent)
		}
		if job.Parent < 0 && job.Arrival < 0 {
			return badf(p()+".arrival", "negative arrival %d ms", job.Arrival)
		}
		if job.Deadline != NoDeadline && job.Parent < 0 && job.Deadline < job.Arrival {
			return badf(p()+".deadline", "deadline %v s before arrival %v s", job.Deadline.Seconds(), job.Arrival.Seconds())
		}
		if len(w.Users) > 0 && (job.User < 0 || job.User >= len(w.Users)) {
			return badf(p()+".user", "user %d out of range", job.User)
		}
		if len(job.Maps) == 0 && len(job.Reduces) == 0 {
			return badf(p(), "no tasks")
		}
		if len(job.Maps) > 0 && !anyMap {
			return badf(p()+".maps", "the cluster has no map slot")
		}
		if len(job.Reduces) > 0 && !anyRed {
			return badf(p()+".reduces", "the cluster has no reduce slot")
		}
		for k, list := range [2][]TaskSpec{job.Maps, job.Reduces} {
			tp := func(i int) string { return fmt.Sprintf("%s.%s[%d]", p(), [2]string{"maps", "reduces"}[k], i) }
			for i := range list {
				t := &list[i]
				if t.Work < 0 {
					return badf(tp(i), "negative duration or demand")
				}
				if t.x == nil {
					continue // nothing else to check, and the common case
				}
				byGroup, replicas, ram, disk := t.x.byGroup, t.x.replicas, t.x.ram, t.x.disk
				if t.x.estimate < 0 || ram < 0 || disk < 0 || math.IsNaN(ram) || math.IsNaN(disk) {
					return badf(tp(i), "negative duration or demand")
				}
				if (ram > 0 || disk > 0) && !rooms.fit(k, c, ram, disk) {
					// it could never launch: the run would stall instead of saying why
					return badf(tp(i), "demands RAM %g and disk %g, more than any node with a %s slot has", ram, disk, [2]string{"map", "reduce"}[k])
				}
				if len(byGroup) > 0 && len(byGroup) < groups {
					return badf(tp(i)+".by_group", "duration count %d, want one per node group (%d)", len(byGroup), groups)
				}
				for r, x := range replicas {
					if x < 0 || x >= len(c.Nodes) || slices.Contains(replicas[:r], x) {
						return badf(fmt.Sprintf("%s.replicas[%d]", tp(i), r), "node %d is not a distinct node", x)
					}
				}
				if k == 1 && len(replicas) > 0 {
					return badf(tp(i)+".replicas", "a reduce reads no block")
				}
				if len(replicas) > maxRep {
					return badf(tp(i)+".replicas", "replica count %d, more than the cluster's %d", len(replicas), maxRep)
				}
				for g, d := range byGroup {
					if d < 0 {
						return badf(fmt.Sprintf("%s.by_group[%d]", tp(i), g), "negative duration")
					}
				}
			}
		}
	}
	return nil
}

// nodeRooms holds, per task kind (0 map, 1 reduce), the distinct RAM and
// disk limits of the nodes with a slot of that kind, made on first use;
// unlimited[k] when one of them has no limit (0 RAM and 0 disk: every
// demand fits there).
type nodeRooms struct {
	made      bool
	unlimited [2]bool
	limits    [2][][2]float64
}

// fit reports whether a task of kind k demanding ram and disk fits alone on
// some node of c with a slot of its kind (a limit of 0 is none, as in Launch).
func (r *nodeRooms) fit(k int, c *Cluster, ram, disk float64) bool {
	if !r.made {
		r.made = true
		for _, n := range c.Nodes {
			for kind := range 2 {
				has := n.TotalSlots > 0
				if !c.Fungible {
					has = [2]int{n.MapSlots, n.ReduceSlots}[kind] > 0
				}
				switch {
				case !has:
				case n.RAM == 0 && n.Disk == 0:
					r.unlimited[kind] = true
				case !slices.Contains(r.limits[kind], [2]float64{n.RAM, n.Disk}):
					r.limits[kind] = append(r.limits[kind], [2]float64{n.RAM, n.Disk})
				}
			}
		}
	}
	if r.unlimited[k] {
		return true
	}
	for _, l := range r.limits[k] {
		if (l[0] == 0 || ram <= l[0]+capacityTol) && (l[1] == 0 || disk <= l[1]+capacityTol) {
			return true
		}
	}
	return false
}

// NumTasks is the total number of tasks of w.
func (w *Workload) NumTasks() int {
	n := 0
	for j := range w.Jobs {
		n += len(w.Jobs[j].Maps) + len(w.Jobs[j].Reduces)
	}
	return n
}
