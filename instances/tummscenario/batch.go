package tummscenario

import (
	"fmt"
	"math"

	"github.com/mrbound/mrbound/internal/plural"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/workload/simclock"
)

// Batch is a TuMM workload for the simulator: a cluster of fungible nodes
// and a batch of jobs, all submitted at t = 0 except chained sub-queries,
// which are submitted when their parent completes (§6.3.2).
type Batch struct {
	Cluster BatchCluster `json:"cluster"`
	// Jobs in FIFO (submission) order; at least one.
	Jobs []BatchJob `json:"jobs"`
}

// BatchCluster is the cluster: node types (groups) and nodes.
type BatchCluster struct {
	Name string `json:"name"`
	// Groups are the node types; a job's task times are given per group.
	Groups []Group `json:"groups"`
	// Nodes: at least one.
	Nodes []BatchNode `json:"nodes"`
}

// Group is a node type (an EC2 instance type in Table 3).
type Group struct {
	Name string `json:"name"`
	// ComputeUnits and MemoryGB are per slot (Table 3), for the record.
	ComputeUnits float64 `json:"compute_units,omitempty"`
	MemoryGB     float64 `json:"memory_gb,omitempty"`
}

// BatchNode is one slave: Slots in total (S^i), and the static split
// MapSlots + ReduceSlots ≤ Slots that the FIFO baseline runs with.
type BatchNode struct {
	Name        string `json:"name"`
	Group       int    `json:"group"`
	Slots       int    `json:"slots"`
	MapSlots    int    `json:"map_slots"`
	ReduceSlots int    `json:"reduce_slots"`
}

// BatchJob is one job: Maps tasks of MapTime[g] seconds on a node of group
// g, Reduces of ReduceTime[g]. Parent, when set, names an earlier job whose
// completion submits this one.
type BatchJob struct {
	Name       string    `json:"name"`
	Benchmark  string    `json:"benchmark,omitempty"`
	Parent     string    `json:"parent,omitempty"`
	Maps       int       `json:"maps"`
	Reduces    int       `json:"reduces"`
	MapTime    []float64 `json:"map_time"`
	ReduceTime []float64 `json:"reduce_time"`
}

// MaxBatchTasks bounds a job's maps and reduces so that a typo cannot make
// the simulator allocate without limit (the papers' jobs have at most 160).
const MaxBatchTasks = 1_000_000

func (b *Batch) validate(p string) error {
	c := &b.Cluster
	if len(c.Groups) == 0 {
		return perr(p+".cluster.groups", "no node groups")
	}
	seen := map[string]bool{}
	for i, g := range c.Groups {
		if err := name(fmt.Sprintf("%s.cluster.groups[%d].name", p, i), g.Name, seen); err != nil {
			return err
		}
	}
	if len(c.Nodes) == 0 {
		return perr(p+".cluster.nodes", "no nodes")
	}
	seen = map[string]bool{}
	anyMap, anyRed := false, false
	for i, n := range c.Nodes {
		np := fmt.Sprintf("%s.cluster.nodes[%d]", p, i)
		if err := name(np+".name", n.Name, seen); err != nil {
			return err
		}
		switch {
		case n.Group < 0 || n.Group >= len(c.Groups):
			return perr(np+".group", "group %d out of range (%d groups)", n.Group, len(c.Groups))
		case n.Slots < 1:
			return perr(np+".slots", "slot count %d is below 1", n.Slots)
		case n.MapSlots < 0 || n.ReduceSlots < 0:
			return perr(np, "negative static split %d/%d", n.MapSlots, n.ReduceSlots)
		case n.MapSlots+n.ReduceSlots > n.Slots:
			return perr(np, "static split %d map + %d reduce slots exceeds its %d slots", n.MapSlots, n.ReduceSlots, n.Slots)
		}
		anyMap = anyMap || n.MapSlots > 0
		anyRed = anyRed || n.ReduceSlots > 0
	}
	if len(b.Jobs) == 0 {
		return perr(p+".jobs", "empty job batch")
	}
	seen = map[string]bool{}
	for i, j := range b.Jobs {
		jp := fmt.Sprintf("%s.jobs[%d]", p, i)
		if err := name(jp+".name", j.Name, seen); err != nil {
			return err
		}
		if j.Parent != "" && (!seen[j.Parent] || j.Parent == j.Name) {
			return perr(jp+".parent", "%q is not an earlier job", j.Parent)
		}
		switch {
		case j.Maps < 0 || j.Reduces < 0:
			return perr(jp, "negative task count")
		case j.Maps+j.Reduces == 0:
			return perr(jp, "no tasks")
		case j.Maps > MaxBatchTasks || j.Reduces > MaxBatchTasks:
			return perr(jp, "more than %d tasks of a kind", MaxBatchTasks)
		case j.Maps > 0 && !anyMap:
			return perr(jp+".maps", "the static split has no map slot")
		case j.Reduces > 0 && !anyRed:
			return perr(jp+".reduces", "the static split has no reduce slot")
		}
		for k, ts := range [2][]float64{j.MapTime, j.ReduceTime} {
			field := [2]string{"map_time", "reduce_time"}[k]
			if len(ts) != len(c.Groups) {
				return perr(jp+"."+field, "%s for %s", plural.Count(len(ts), "time"), plural.Count(len(c.Groups), "node group"))
			}
			for g, t := range ts {
				path := fmt.Sprintf("%s.%s[%d]", jp, field, g)
				if err := time(path, t); err != nil {
					return err
				}
				// Workload converts the time to int64 milliseconds: 1e308 s
				// would wrap to a negative task time there. The readers of
				// simulate's other formats use the same clock and bound.
				var clk simclock.Clock
				if clk.At(path, t); clk.Err() != nil {
					return clk.Err()
				}
			}
		}
	}
	return nil
}

// Workload is the batch as a simulator workload. With fungible every node
// has Slots slots of either kind and keeps its static split in
// MapSlots/ReduceSlots (for the static:nodes baseline); otherwise the
// cluster has fixed slots, the static split. Locality is not modelled
// (TuMM ignores it): no non-local penalty.
func (b *Batch) Workload(name string, fungible bool) *sim.Workload {
	w := &sim.Workload{Name: name, Cluster: sim.Cluster{Fungible: fungible, BlockBytes: 64 << 20}}
	for _, n := range b.Cluster.Nodes {
		w.Cluster.Nodes = append(w.Cluster.Nodes, sim.Node{Name: n.Name, Group: n.Group, Speed: 1,
			TotalSlots: n.Slots, MapSlots: n.MapSlots, ReduceSlots: n.ReduceSlots})
	}
	index := map[string]int{}
	for i, j := range b.Jobs {
		index[j.Name] = i
		job := sim.Job{Name: j.Name, Category: j.Benchmark, Arrival: 0, Deadline: sim.NoDeadline, Parent: -1}
		if j.Parent != "" {
			job.Parent = index[j.Parent]
		}
		job.Maps = tasks(j.Maps, j.MapTime)
		job.Reduces = tasks(j.Reduces, j.ReduceTime)
		w.Jobs = append(w.Jobs, job)
	}
	return w
}

func tasks(n int, secs []float64) []sim.TaskSpec {
	by := make([]sim.Time, len(secs))
	sum := 0.0
	for g, s := range secs {
		by[g] = sim.FromSeconds(s)
		sum += s
	}
	spec := sim.TaskSpec{Work: sim.FromSeconds(sum / math.Max(1, float64(len(secs))))}
	spec.SetByGroup(by)
	out := make([]sim.TaskSpec, n)
	for i := range out {
		out[i] = spec // the job's tasks share one set of durations, as they did one slice
	}
	return out
}
