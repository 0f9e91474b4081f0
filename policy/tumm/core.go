package tumm

import (
	"fmt"
	"slices"

	"github.com/mrbound/mrbound/sim"
)

// core is what every policy of the package shares: the FIFO queue, the
// running counts per node and in the cluster, and which jobs are running.
type core struct {
	s     *sim.Sim
	name  string
	queue []int // arrived jobs not yet done, by (arrival, id)
	// nodeOf is the node of each running task (launched by this policy).
	nodeOf         []int32
	runMap, runRed []int // per node
	rtMap, rtRed   int   // in the cluster
	// started: the job launched a task — it is "running" in TuMM's sense
	// (§4.2: only running jobs count, not jobs waiting in the queue).
	started  []bool
	doneSeen bool
	// declined: an offer left a free slot unused although some job had work;
	// the next state change wakes the parked nodes (the sim's wake contract).
	declined bool
	// slots is the cluster's slot count S, slotNodes the nodes with a slot
	// (a node without slots never takes a task, so it is not one of
	// TuMM's k nodes); needMap, needRed: some job of the workload has a
	// task of that kind (what a split must leave room for).
	slots, slotNodes int
	needMap, needRed bool
}

func (c *core) init(s *sim.Sim, name string) error {
	if !s.Cluster().Fungible {
		return fmt.Errorf("%s needs a fungible cluster (cluster.fungible): it chooses each slot's kind", name)
	}
	n := len(s.Cluster().Nodes)
	c.s, c.name = s, name
	c.queue = c.queue[:0]
	c.nodeOf = make([]int32, s.NumTasks())
	c.runMap, c.runRed = make([]int, n), make([]int, n)
	c.rtMap, c.rtRed = 0, 0
	c.started = make([]bool, s.NumJobs())
	c.doneSeen, c.declined = false, false
	c.slots, c.slotNodes = 0, 0
	for _, nd := range s.Cluster().Nodes {
		c.slots += nd.TotalSlots
		if nd.TotalSlots > 0 {
			c.slotNodes++
		}
	}
	if c.slots == 0 {
		return fmt.Errorf("%s: the cluster has no slots (cluster.nodes[].total_slots)", name)
	}
	// The task table (each task's kind) is known from the start, unlike
	// the jobs' views; it is read only to refuse a split that cannot run
	// the workload.
	c.needMap, c.needRed = false, false
	for t := range sim.TaskID(s.NumTasks()) {
		if s.Task(t).Kind == sim.Map {
			c.needMap = true
		} else {
			c.needRed = true
		}
	}
	return nil
}

// refuseEmptyKind is the error of a split that leaves no slot of a kind
// the workload has tasks of (its jobs could never finish), or nil.
func (c *core) refuseEmptyKind(maps, reds int) error {
	switch {
	case maps == 0 && c.needMap:
		return fmt.Errorf("%s: its split leaves no map slot on any node of this %d-slot cluster, but the workload has maps", c.name, c.slots)
	case reds == 0 && c.needRed:
		return fmt.Errorf("%s: its split leaves no reduce slot on any node of this %d-slot cluster, but the workload has reduces", c.name, c.slots)
	}
	return nil
}

// arrive inserts j in FIFO order (priority is not used: every TuMM workload
// has one priority).
func (c *core) arrive(j int) {
	a := c.s.Job(j).Arrival
	i, _ := slices.BinarySearchFunc(c.queue, j, func(q, j int) int {
		if qa := c.s.Job(q).Arrival; qa != a {
			return int(qa - a)
		}
		return q - j
	})
	c.queue = slices.Insert(c.queue, i, j)
}

// ended updates the running counts for finished task t.
func (c *core) ended(t sim.TaskID) sim.TaskView {
	v := c.s.Task(t)
	x := c.nodeOf[t]
	if v.Kind == sim.Map {
		c.runMap[x]--
		c.rtMap--
	} else {
		c.runRed[x]--
		c.rtRed--
	}
	if c.s.Job(v.Job).Done {
		c.doneSeen = true
	}
	return v
}

// prune drops completed jobs from the queue.
func (c *core) prune() {
	if !c.doneSeen {
		return
	}
	c.doneSeen = false
	c.queue = slices.DeleteFunc(c.queue, func(j int) bool { return c.s.Job(j).Done })
}

// pick is pickTask of the first job in FIFO order with work of kind k that
// fits on node x.
func (c *core) pick(k sim.Kind, x int) (sim.TaskID, bool) {
	for _, j := range c.queue {
		if !c.s.HasWork(j, k) {
			continue
		}
		var t sim.TaskID
		var ok bool
		if k == sim.Map {
			t, _, ok = c.s.PickMap(j, x)
		} else {
			t, ok = c.s.PickReduce(j)
		}
		if ok && c.s.Fits(t, x) {
			return t, true
		}
	}
	return -1, false
}

// launch starts t on x and updates the counts; first reports whether t's
// job was not running before.
func (c *core) launch(t sim.TaskID, x int) (first, ok bool) {
	if c.s.Launch(t, x) != nil {
		return false, false
	}
	v := c.s.Task(t)
	c.nodeOf[t] = int32(x)
	if v.Kind == sim.Map {
		c.runMap[x]++
		c.rtMap++
	} else {
		c.runRed[x]++
		c.rtRed++
	}
	first = !c.started[v.Job]
	c.started[v.Job] = true
	return first, true
}

// launchKind launches the FIFO pick of kind k on x.
func (c *core) launchKind(k sim.Kind, x int) (first, ok bool) {
	t, ok := c.pick(k, x)
	if !ok {
		return false, false
	}
	return c.launch(t, x)
}

// runningJobs yields the running jobs (started, not done) in FIFO order.
func (c *core) runningJobs(yield func(int, sim.JobView) bool) {
	for _, j := range c.queue {
		if !c.started[j] {
			continue
		}
		if v := c.s.Job(j); !v.Done && !yield(j, v) {
			return
		}
	}
}

// other is A-T4's fallback: the kind not chosen and node x's deficit for
// it under the node targets smx, srx.
func (c *core) other(chosen sim.Kind, smx, srx, x int) (sim.Kind, int) {
	if chosen == sim.Reduce {
		return sim.Map, smx - c.runMap[x]
	}
	return sim.Reduce, srx - c.runRed[x]
}

// anyWork reports whether some queued job has a launchable task.
func (c *core) anyWork() bool {
	for _, j := range c.queue {
		if c.s.HasWork(j, sim.Map) || c.s.HasWork(j, sim.Reduce) {
			return true
		}
	}
	return false
}

// decline records that an offer left a slot free by choice; other nodes'
// offers change the cluster-wide counts this decision read, so wake then.
func (c *core) decline() {
	if c.anyWork() {
		c.declined = true
	}
}

// recheck is called after a state change (a launch or a task end): if a
// node declined and changed reports that its decision may differ now, the
// parked nodes are woken.
func (c *core) recheck(changed bool) {
	if c.declined && changed {
		c.declined = false
		c.s.Wake()
	}
}

// welford is a one-pass mean (TuMM §4.2 uses Welford's algorithm).
type welford struct {
	n    int
	mean float64
}

func (w *welford) add(x float64) {
	w.n++
	w.mean += (x - w.mean) / float64(w.n)
}
