package trace

import (
	"fmt"
	"math"
	"path"
	"slices"
	"sort"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/plural"
	"github.com/mrbound/mrbound/sim"
)

// Job is one job: its id, submission, pool, and its tasks' true durations at
// speed 1 (ms).
type Job struct {
	ID       string
	SubmitMs int64
	// User and Pool name the submitter and the queue; the simulator's Fair
	// pool is Pool, else User.
	User, Pool string
	// Weight is the job's Fair weight (0: unset, reads as 1); the jobs of
	// one pool must agree.
	Weight float64
	// DeadlineMs is absolute (the clock of SubmitMs); -1 when none.
	DeadlineMs int64
	// Parent is the id of an earlier job whose completion submits this one
	// ("": none); SubmitMs is then ignored by the simulator.
	Parent    string
	MapsMs    []int64
	ReducesMs []int64
	// Where names the job in the source for errors (file:line[:column]).
	Where string
}

// Container is one recorded attempt of a task.
type Container struct {
	Job   int // index into Trace.Jobs
	Kind  sim.Kind
	Index int // the task's index among the job's maps or reduces
	Host  string
	// StartMs and EndMs are on the jobs' clock.
	StartMs, EndMs int64
	// Successful is the attempt that completed the task; the others ran
	// before it and were killed or failed.
	Successful bool
	Where      string
}

// Trace is a job history in the common form.
type Trace struct {
	Name string
	Jobs []Job
	// Hosts are the nodes the source names, in order (may be empty);
	// NodeCount is the node count a source states without names (0: none).
	Hosts     []string
	NodeCount int
	// MapSlots and ReduceSlots per node when the source states them (0:
	// not stated).
	MapSlots, ReduceSlots int
	// Recorded holds the record's containers, nil when the source records
	// no schedule.
	Recorded []Container
	// Notes say what the reader dropped or changed (one line each).
	Notes []string
}

// Default slots per node when neither the flags, the source nor a record
// say: Hadoop 1's default TaskTracker (2 map and 2 reduce slots).
const (
	DefaultMapSlots    = 2
	DefaultReduceSlots = 2
)

// ClusterSpec overrides the cluster; zero fields are taken from the trace.
type ClusterSpec struct {
	// Nodes is the node count (--nodes); NodeNames the nodes of a nodes
	// file (--nodes-file). When both are set, node i is named NodeNames[i]
	// while there are names.
	Nodes     int
	NodeNames []string
	// MapSlots and ReduceSlots per node (--map-slots, --reduce-slots).
	MapSlots, ReduceSlots int
}

// Recorded is the recorded schedule as a run of the workload.
type Recorded struct {
	// Completion[j] is job j's completion in ms (its last task's end).
	Completion []int64
	// Result is the record as a simulator result for the checker; nil when
	// the record cannot be placed on the cluster, and Problem says why.
	Result  *sim.Result
	Problem string
}

// Build makes the simulator workload of tr on the cluster cs, and the
// recorded schedule when tr has one (nil otherwise).
func Build(tr *Trace, cs ClusterSpec) (*sim.Workload, *Recorded, error) {
	if len(tr.Jobs) == 0 {
		return nil, nil, badinput.Errorf("%s: no jobs", tr.Name)
	}
	if cs.Nodes < 0 || cs.MapSlots < 0 || cs.ReduceSlots < 0 {
		return nil, nil, badinput.Errorf("--nodes, --map-slots and --reduce-slots must not be negative")
	}
	names := tr.Hosts
	if len(cs.NodeNames) > 0 {
		names = cs.NodeNames
	}
	n := cs.Nodes
	if n == 0 {
		n = len(names)
	}
	if n == 0 {
		n = tr.NodeCount
	}
	if n == 0 {
		return nil, nil, badinput.Errorf("%s: the trace names no node: give --nodes or --nodes-file", tr.Name)
	}
	if n > maxNodes {
		return nil, nil, badinput.Errorf("%s: %d nodes, more than %d", tr.Name, n, maxNodes)
	}
	mapSlots, redSlots := cs.MapSlots, cs.ReduceSlots
	peakMap, peakRed := peaks(tr)
	if mapSlots == 0 {
		mapSlots = firstPositive(tr.MapSlots, peakMap, DefaultMapSlots)
	}
	if redSlots == 0 {
		redSlots = firstPositive(tr.ReduceSlots, peakRed, DefaultReduceSlots)
	}
	w := &sim.Workload{Name: tr.Name}
	w.Cluster.Nodes = make([]sim.Node, n)
	for i := range w.Cluster.Nodes {
		w.Cluster.Nodes[i] = sim.Node{MapSlots: mapSlots, ReduceSlots: redSlots, Speed: 1}
		if i < len(names) {
			w.Cluster.Nodes[i].Name = names[i]
		}
	}
	index := make(map[string]int, len(tr.Jobs))
	pool := map[string]int{}
	hasPools := false
	for j := range tr.Jobs {
		hasPools = hasPools || tr.Jobs[j].Pool != "" || tr.Jobs[j].User != ""
	}
	w.Jobs = make([]sim.Job, len(tr.Jobs))
	for j := range tr.Jobs {
		job := &tr.Jobs[j]
		bad := func(format string, a ...any) error {
			return &badinput.PathError{File: job.Where, Path: fmt.Sprintf("job %q", job.ID), Problem: fmt.Sprintf(format, a...)}
		}
		if _, dup := index[job.ID]; dup {
			return nil, nil, bad("a second job with this id")
		}
		index[job.ID] = j
		if len(job.MapsMs)+len(job.ReducesMs) == 0 {
			return nil, nil, bad("no tasks")
		}
		if job.SubmitMs < 0 || job.SubmitMs > maxMs {
			return nil, nil, bad("submit time %d ms is out of range", job.SubmitMs)
		}
		sj := sim.Job{Name: job.ID, Arrival: sim.Time(job.SubmitMs), Deadline: sim.NoDeadline, Parent: -1}
		if job.DeadlineMs >= 0 {
			sj.Deadline = sim.Time(job.DeadlineMs)
		}
		if job.Parent != "" {
			p, ok := index[job.Parent]
			if !ok {
				return nil, nil, bad("parent %q is not an earlier job", job.Parent)
			}
			sj.Parent = p
		}
		if hasPools {
			name := job.Pool
			if name == "" {
				name = job.User
			}
			if name == "" {
				name = "default"
			}
			u, ok := pool[name]
			if !ok {
				u = len(w.Users)
				pool[name] = u
				w.Users = append(w.Users, sim.User{Name: name, Weight: job.Weight})
			} else if job.Weight != 0 && w.Users[u].Weight != 0 && job.Weight != w.Users[u].Weight {
				return nil, nil, bad("weight %v, but an earlier job of pool %q has %v (the Fair scheduler weighs pools)", job.Weight, name, w.Users[u].Weight)
			} else if job.Weight != 0 {
				w.Users[u].Weight = job.Weight
			}
			sj.User = u
		} else if job.Weight != 0 && job.Weight != 1 {
			return nil, nil, bad("weight %v without a pool or user (the Fair scheduler weighs pools)", job.Weight)
		}
		if !(job.Weight >= 0) || math.IsInf(job.Weight, 0) {
			return nil, nil, bad("weight %v is not a non-negative number", job.Weight)
		}
		specs := func(kind string, ds []int64) ([]sim.TaskSpec, error) {
			out := make([]sim.TaskSpec, len(ds))
			for i, d := range ds {
				if d < 0 || d > maxMs {
					return nil, bad("%s[%d]: duration %d ms is out of range", kind, i, d)
				}
				out[i] = sim.TaskSpec{Work: sim.Time(d)}
			}
			return out, nil
		}
		var err error
		if sj.Maps, err = specs("maps", job.MapsMs); err != nil {
			return nil, nil, err
		}
		if sj.Reduces, err = specs("reduces", job.ReducesMs); err != nil {
			return nil, nil, err
		}
		if len(sj.Reduces) > 0 && redSlots == 0 {
			return nil, nil, bad("has reduces but the cluster has no reduce slot")
		}
		w.Jobs[j] = sj
	}
	if err := w.Validate(); err != nil {
		return nil, nil, badinput.Errorf("%s: %w", tr.Name, err)
	}
	if tr.Recorded == nil {
		return w, nil, nil
	}
	return w, record(tr, w), nil
}

// maxNodes and maxMs bound what a trace may ask for (a typo in a flag or a
// file must not allocate the machine away; times fit int64 ms with room).
const (
	maxNodes = 1 << 20
	maxMs    = 1 << 50
)

func firstPositive(v ...int) int {
	for _, x := range v {
		if x > 0 {
			return x
		}
	}
	return 0
}

// peaks is the most containers of each kind the record ran at once on one
// host (killed ones included: they held a slot).
func peaks(tr *Trace) (maps, reds int) {
	type ev struct {
		at    int64
		delta int
	}
	by := map[[2]any][]ev{}
	for _, c := range tr.Recorded {
		if c.EndMs <= c.StartMs {
			continue
		}
		k := [2]any{c.Host, c.Kind}
		by[k] = append(by[k], ev{c.StartMs, 1}, ev{c.EndMs, -1})
	}
	for k, list := range by {
		sort.Slice(list, func(i, j int) bool {
			if list[i].at != list[j].at {
				return list[i].at < list[j].at
			}
			return list[i].delta < list[j].delta
		})
		cur, peak := 0, 0
		for _, e := range list {
			cur += e.delta
			peak = max(peak, cur)
		}
		if k[1] == sim.Map {
			maps = max(maps, peak)
		} else {
			reds = max(reds, peak)
		}
	}
	return maps, reds
}

// record turns the containers into a result on w's nodes.
func record(tr *Trace, w *sim.Workload) *Recorded {
	rec := &Recorded{Completion: make([]int64, len(w.Jobs))}
	first := make([]int, len(w.Jobs)) // job → its first task id
	t := 0
	for j := range w.Jobs {
		first[j] = t
		t += len(w.Jobs[j].Maps) + len(w.Jobs[j].Reduces)
	}
	node := map[string]int{}
	for i, nd := range w.Cluster.Nodes {
		if nd.Name == "" {
			continue
		}
		if _, ok := node[nd.Name]; !ok {
			node[nd.Name] = i
		}
		if b := path.Base(nd.Name); b != nd.Name {
			if _, ok := node[b]; !ok {
				node[b] = i
			}
		}
	}
	done := make([]bool, t)
	type taskKey struct {
		job   int
		kind  sim.Kind
		index int
	}
	successStart := map[taskKey]int64{}
	for _, c := range tr.Recorded {
		if c.Successful {
			successStart[taskKey{c.Job, c.Kind, c.Index}] = c.StartMs
		}
	}
	cs := slices.Clone(tr.Recorded)
	// per task in time order; a task's attempts before its successful one
	// are killed segments
	sort.SliceStable(cs, func(a, b int) bool { return cs[a].StartMs < cs[b].StartMs })
	// the record's own options: ideal offers, exact estimates, and
	// reduces launched at any time (they idle in shuffle until the map
	// phase ends, as on a real cluster)
	res := &sim.Result{Policy: "recorded", Jobs: make([]sim.JobOutcome, len(w.Jobs)), Status: sim.Finished,
		Options: sim.Options{Estimates: sim.EstimateExact}}
	last := make([]int64, t) // a task's latest segment end, for overlaps
	for i := range last {
		last[i] = math.MinInt64
	}
	for _, c := range cs {
		if c.Job < 0 || c.Job >= len(w.Jobs) {
			rec.Problem = fmt.Sprintf("%s: a container of job %d, which is not in the trace", c.Where, c.Job)
			return rec
		}
		job := &w.Jobs[c.Job]
		id := first[c.Job] + c.Index
		spec := job.Maps
		if c.Kind == sim.Reduce {
			id += len(job.Maps)
			spec = job.Reduces
		}
		if c.Index < 0 || c.Index >= len(spec) || (c.Kind != sim.Map && c.Kind != sim.Reduce) {
			rec.Problem = fmt.Sprintf("%s: a container of %s %d, which job %q has not", c.Where, c.Kind, c.Index, job.Name)
			return rec
		}
		x, ok := node[c.Host]
		if !ok {
			x, ok = node[path.Base(c.Host)]
		}
		if !ok && rec.Problem == "" {
			rec.Problem = fmt.Sprintf("%s: host %q of the record is not a node of the cluster (%s)", c.Where, c.Host, plural.Count(len(w.Cluster.Nodes), "node"))
		}
		if c.Successful {
			rec.Completion[c.Job] = max(rec.Completion[c.Job], c.EndMs)
			done[id] = true
		} else if s, ok := successStart[taskKey{c.Job, c.Kind, c.Index}]; c.StartMs < last[id] || (ok && c.EndMs > s) {
			continue // overlaps another attempt (a speculative copy): the model runs one at a time
		}
		last[id] = max(last[id], c.EndMs)
		a := sim.Attempt{Task: sim.TaskID(id), Job: int32(c.Job), Kind: c.Kind, Index: int32(c.Index), Node: int32(x),
			Launch: sim.Time(c.StartMs), Start: sim.Time(c.StartMs), End: sim.Time(c.EndMs), Duration: spec[c.Index].Work, Outcome: sim.Killed}
		switch {
		case c.Successful:
			a.Outcome = sim.Completed
			// the work is the task's duration, done at the end of the
			// attempt: a reduce idles in shuffle until then
			a.Start = a.End - a.Duration
		case c.Kind == sim.Reduce:
			a.Start = a.End // a killed reduce is counted as shuffle only
		}
		res.Trace = append(res.Trace, a)
	}
	for j := range w.Jobs {
		all := true
		for k := first[j]; k < first[j]+len(w.Jobs[j].Maps)+len(w.Jobs[j].Reduces); k++ {
			all = all && done[k]
		}
		res.Jobs[j] = sim.JobOutcome{Arrived: true, Done: all, Arrival: w.Jobs[j].Arrival, Completion: sim.Time(rec.Completion[j])}
		if !all && rec.Problem == "" {
			rec.Problem = fmt.Sprintf("%s: job %q has a task without a recorded successful attempt", tr.Jobs[j].Where, tr.Jobs[j].ID)
		}
	}
	if rec.Problem != "" {
		return rec
	}
	for j := range w.Jobs {
		if w.Jobs[j].Parent >= 0 {
			// a chained job arrives at its parent's completion
			res.Jobs[j].Arrival = res.Jobs[w.Jobs[j].Parent].Completion
		}
	}
	res.Metrics = sim.ComputeMetrics(w, res.Jobs, res.Trace)
	rec.Result = res
	return rec
}
