package external

import (
	"sort"

	"github.com/mrbound/mrbound/sim"
)

// hello is message 0: the protocol version, the run's options and the
// cluster (docs/protocol.md).
type hello struct {
	Type     string      `json:"type"`
	Seq      int         `json:"seq"`
	Now      sim.Time    `json:"now"`
	Protocol int         `json:"protocol"`
	Options  helloOpts   `json:"options"`
	Cluster  helloCl     `json:"cluster"`
	Users    []helloUser `json:"users"`
	Jobs     int         `json:"jobs"`
	Tasks    int         `json:"tasks"`
}

type helloOpts struct {
	HeartbeatMS int64   `json:"heartbeat_ms"`
	OOB         bool    `json:"oob"`
	SlowStart   float64 `json:"slow_start"`
	Estimates   string  `json:"estimates"`
	Seed        uint64  `json:"seed"`
}

type helloCl struct {
	Fungible        bool         `json:"fungible"`
	Replicas        int          `json:"replicas"`
	NonLocalPenalty sim.Time     `json:"non_local_penalty_ms"`
	Classes         []helloClass `json:"classes"`
	Nodes           []helloNode  `json:"nodes"`
}

// helloClass is a set of nodes on which every task has the same estimate
// (same group and speed); a task's estimates are listed per class.
type helloClass struct {
	Group int     `json:"group"`
	Speed float64 `json:"speed"`
}

type helloNode struct {
	Name        string  `json:"name,omitempty"`
	Rack        int     `json:"rack"`
	Class       int     `json:"class"`
	MapSlots    int     `json:"map_slots"`
	ReduceSlots int     `json:"reduce_slots"`
	TotalSlots  int     `json:"total_slots"`
	RAM         float64 `json:"ram,omitempty"`
	Disk        float64 `json:"disk,omitempty"`
}

type helloUser struct {
	Name     string  `json:"name"`
	MinShare int     `json:"min_share"`
	Weight   float64 `json:"weight"`
}

func newHello(s *sim.Sim, classOf, classes []int) hello {
	o := s.Options()
	cl := s.Cluster()
	h := hello{Type: "hello", Protocol: ProtocolVersion, Jobs: s.NumJobs(), Tasks: s.NumTasks(),
		Options: helloOpts{HeartbeatMS: int64(o.Heartbeat), OOB: o.OOB, SlowStart: o.SlowStart,
			Estimates: o.Estimates.String(), Seed: o.Seed},
		Users: []helloUser{}}
	replicas := cl.Replicas
	if replicas == 0 {
		replicas = 3
	}
	h.Cluster = helloCl{Fungible: cl.Fungible, Replicas: replicas, NonLocalPenalty: cl.NonLocalPenalty}
	for _, x := range classes {
		n := cl.Nodes[x]
		h.Cluster.Classes = append(h.Cluster.Classes, helloClass{Group: n.Group, Speed: speedOf(n)})
	}
	for x, n := range cl.Nodes {
		h.Cluster.Nodes = append(h.Cluster.Nodes, helloNode{Name: n.Name, Rack: n.Rack, Class: classOf[x],
			MapSlots: n.MapSlots, ReduceSlots: n.ReduceSlots, TotalSlots: n.TotalSlots, RAM: n.RAM, Disk: n.Disk})
	}
	for _, u := range s.Users() {
		w := u.Weight
		if w == 0 {
			w = 1
		}
		h.Users = append(h.Users, helloUser{Name: u.Name, MinShare: u.MinShare, Weight: w})
	}
	return h
}

func speedOf(n sim.Node) float64 {
	if n.Speed == 0 {
		return 1
	}
	return n.Speed
}

// estimateClasses groups the nodes by (group, speed), in order of first
// appearance: every task's estimate is the same on all nodes of a class.
func estimateClasses(cl *sim.Cluster) (classOf, classes []int) {
	type key struct {
		group int
		speed float64
	}
	index := map[key]int{}
	classOf = make([]int, len(cl.Nodes))
	for x, n := range cl.Nodes {
		k := key{n.Group, speedOf(n)}
		c, ok := index[k]
		if !ok {
			c = len(classes)
			index[k] = c
			classes = append(classes, x)
		}
		classOf[x] = c
	}
	return classOf, classes
}

type arrivalEvent struct {
	Type string `json:"type"`
	Job  job    `json:"job"`
}

// job is what a policy may know of an arrived job (sim.JobView plus its
// tasks' estimates, replicas and demands): never a true duration.
type job struct {
	ID          int        `json:"id"`
	Name        string     `json:"name,omitempty"`
	Category    string     `json:"category,omitempty"`
	User        int        `json:"user"`
	Priority    int        `json:"priority"`
	Arrival     sim.Time   `json:"arrival"`
	Deadline    *sim.Time  `json:"deadline,omitempty"`
	NeedMaps    int        `json:"need_maps"`
	FirstMap    sim.TaskID `json:"first_map"`
	FirstReduce sim.TaskID `json:"first_reduce"`
	Maps        tasks      `json:"maps"`
	Reduces     tasks      `json:"reduces"`
}

// tasks holds a job's maps or reduces by column, one array per field
// indexed by the task's index in the job (protocol 2): a client decodes a
// few arrays of numbers instead of an object per task, which was most of
// the Python client's decoding time on the FB-2009 day (docs/results.md).
type tasks struct {
	Count int `json:"count"`
	// Est[c][i] is task i's estimate on node class c; absent with
	// --estimates none.
	Est [][]sim.Time `json:"est,omitempty"`
	// Local lists, for each node holding a block of the job's maps (in
	// node order), the node and then the indexes of those maps, ascending
	// (maps only): the per-node map cache Hadoop's JobInProgress keeps, so
	// that a client builds its locality index with one step per node
	// rather than per replica.
	Local [][]int32 `json:"local,omitempty"`
	// RAM and Disk are absent when no task of the kind has a demand.
	RAM  []float64 `json:"ram,omitempty"`
	Disk []float64 `json:"disk,omitempty"`
}

func newJob(s *sim.Sim, j int, classes []int) job {
	v := s.Job(j)
	out := job{ID: j, Name: v.Name, Category: v.Category, User: v.User, Priority: v.Priority, Arrival: v.Arrival,
		FirstMap: v.FirstMap, FirstReduce: v.FirstRed, NeedMaps: s.NeedMaps(j)}
	if v.Deadline != sim.NoDeadline {
		d := v.Deadline
		out.Deadline = &d
	}
	fill := func(first sim.TaskID, n int, isMap bool) tasks {
		ts := tasks{Count: n}
		if n == 0 {
			return ts
		}
		if _, ok := s.Estimate(first, classes[0]); ok {
			ts.Est = make([][]sim.Time, len(classes))
			for c, x := range classes {
				ts.Est[c] = make([]sim.Time, n)
				for i := range n {
					ts.Est[c][i], _ = s.Estimate(first+sim.TaskID(i), x)
				}
			}
		}
		if isMap {
			ts.Local = localIndex(s, first, n)
		}
		var ram, disk []float64
		for i := range n {
			r, d := s.Demand(first + sim.TaskID(i))
			if r != 0 && ram == nil {
				ram = make([]float64, n)
			}
			if d != 0 && disk == nil {
				disk = make([]float64, n)
			}
			if ram != nil {
				ram[i] = r
			}
			if disk != nil {
				disk[i] = d
			}
		}
		ts.RAM, ts.Disk = ram, disk
		return ts
	}
	out.Maps = fill(v.FirstMap, v.NumMaps, true)
	out.Reduces = fill(v.FirstRed, v.NumReduces, false)
	return out
}

// localIndex inverts the replicas of maps first…first+n−1: one row per
// node holding a block, [node, i…] with the map indexes ascending, rows in
// node order.
func localIndex(s *sim.Sim, first sim.TaskID, n int) [][]int32 {
	row := map[int32]int{}
	var out [][]int32
	for i := range n {
		for _, x := range s.Replicas(first + sim.TaskID(i)) {
			r, ok := row[x]
			if !ok {
				r = len(out)
				row[x] = r
				out = append(out, []int32{x})
			}
			out[r] = append(out[r], int32(i))
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a][0] < out[b][0] })
	return out
}

// reply is the client's answer to every message but the end.
type reply struct {
	Actions []action `json:"actions"`
}

// action is one of launch, kill, suspend, resume, timer, wake, as
// encoding/json decodes it (a nil field was absent or null).
type action struct {
	Type string `json:"type"`
	Task *int64 `json:"task"`
	Node *int   `json:"node"`
	At   *int64 `json:"at"`
	Tag  int64  `json:"tag"`
}

// acts converts the actions for apply.
func (r reply) acts() []act {
	out := make([]act, len(r.Actions))
	for i, a := range r.Actions {
		out[i] = act{typ: a.Type, tag: a.Tag}
		if a.Task != nil {
			out[i].task, out[i].has = *a.Task, out[i].has|hasTask
		}
		if a.Node != nil {
			out[i].node, out[i].has = int64(*a.Node), out[i].has|hasNode
		}
		if a.At != nil {
			out[i].at, out[i].has = *a.At, out[i].has|hasAt
		}
	}
	return out
}
