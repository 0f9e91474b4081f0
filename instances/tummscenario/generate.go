package tummscenario

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/sizelimit"
	"github.com/mrbound/mrbound/sim"
)

// Benchmark is one of the Purdue benchmarks of TuMM §6 with Table 4's task
// times on Heter1 (seconds: min on the fastest group, max on the slowest).
type Benchmark struct {
	Name string
	// MovieData: it reads the movie-rating data set (10 GB on the
	// homogeneous cluster, 160 maps), else the wiki text (7 GB, 112 maps).
	MovieData            bool
	Reduces              int
	MapMin, MapMax       float64
	ReduceMin, ReduceMax float64
}

// Benchmarks are Table 4's five, with §6.3.1's reduce counts.
var Benchmarks = []Benchmark{
	{"classification", true, 80, 6.5, 24.1, 9.5, 15.9},
	{"histogram-rating", true, 80, 8.5, 24.8, 9.7, 25.5},
	{"inverted-index", false, 150, 5.1, 17.4, 16.5, 48.1},
	{"word-count", false, 80, 11.5, 31.4, 12.6, 25.2},
	{"grep", false, 80, 6.7, 25.1, 12.7, 29.5},
}

// Map counts (A-T8: 64 MB blocks): homogeneous 10 GB movie rating or 7 GB
// wiki text; heterogeneous 8 GB either (§6.3.1).
const (
	homMovieMaps = 160
	homTextMaps  = 112
	hetMaps      = 128
)

// Per-slot compute units of Table 3's fastest and slowest Heter1 groups:
// Table 4's min and max are anchored there (A-T9). 2.67 and 1.33 are 8/3
// and 4/3, so the 2 CU group gets min + (max − min)/3 exactly.
const (
	fastCU = 8.0 / 3
	slowCU = 4.0 / 3
	// refCU, refMemGB: the m1.xlarge 2/2 group, Heter2's anchor.
	refCU    = 2.0
	refMemGB = 3.75
)

// interp is A-T9's linear interpolation in 1/CU between Table 4's min
// (fastCU) and max (slowCU).
func interp(lo, hi, cu float64) float64 {
	return lo + (hi-lo)*(1/cu-1/fastCU)/(1/slowCU-1/fastCU)
}

// nodeType is one row of a cluster table.
type nodeType struct {
	group         Group
	count, slots  int
	mapS, reduceS int
}

// ClusterNames are the clusters Generate knows.
var ClusterNames = []string{"homogeneous", "heter1", "heter2", "fig6a", "fig6b", "fig6c"}

// clusterTable is §6.1's homogeneous cluster (4 × m1.xlarge, 4 slots, 2:2
// as configured) and Table 3's Heter1 and Heter2 (9 slaves each).
func clusterTable(name string) ([]nodeType, bool) {
	switch name {
	case "homogeneous":
		return []nodeType{{Group{"m1.xlarge", 2, 3.75}, 4, 4, 2, 2}}, true
	case "heter1":
		return []nodeType{
			{Group{"m1.xlarge-1/2", 8.0 / 3, 5}, 3, 3, 1, 2},
			{Group{"m1.xlarge-2/2", 2, 3.75}, 3, 4, 2, 2},
			{Group{"m1.large-2/1", 4.0 / 3, 2.5}, 3, 3, 2, 1},
		}, true
	case "heter2":
		return []nodeType{
			{Group{"m1.xlarge", 2, 3.75}, 3, 4, 2, 2},
			{Group{"c1.xlarge", 5, 1.75}, 3, 4, 2, 2},
			{Group{"m2.xlarge", 1.63, 4.25}, 3, 4, 2, 2},
		}, true
	}
	return nil, false
}

// times are a task kind's seconds per group of cluster c for Table 4's
// (lo, hi): 1/CU interpolation, except Heter2, where maps scale with 1/CU
// and reduces with 1/memory from the 2 CU / 3.75 GB group's value (A-T9).
func times(c string, types []nodeType, lo, hi float64, reduce bool) []float64 {
	out := make([]float64, len(types))
	for g, t := range types {
		switch {
		case c == "heter2" && reduce:
			out[g] = interp(lo, hi, refCU) * refMemGB / t.group.MemoryGB
		case c == "heter2":
			out[g] = interp(lo, hi, refCU) * refCU / t.group.ComputeUnits
		default:
			out[g] = interp(lo, hi, t.group.ComputeUnits)
		}
		out[g] = math.Round(out[g]*1000) / 1000 // whole ms, as the simulator keeps them
	}
	return out
}

// GenOptions choose a generated batch.
type GenOptions struct {
	// Benchmark is a Benchmarks name (simple: 3 jobs of it), "mixed" (10
	// jobs drawn uniformly with replacement), "tpch" (three chained
	// queries, A-T10) or "fig6" (Fig 6's toy; needs a fig6 cluster).
	Benchmark string
	// Order of a mixed batch: "johnson" (default), "reverse" or "random".
	Order string
	// Cluster is one of ClusterNames (default homogeneous).
	Cluster string
	// Jobs overrides the job count of simple (3) and mixed (10) batches.
	Jobs int
	Seed uint64
}

// Generate builds a batch scenario (schema_version 2). A homogeneous batch
// also carries its static part, Algorithm 1's input. Errors wrap
// badinput.Err.
func Generate(o GenOptions) (*Scenario, error) {
	if o.Cluster == "" {
		o.Cluster = "homogeneous"
	}
	if o.Order == "" {
		o.Order = "johnson"
	}
	if o.Order != "johnson" && o.Order != "reverse" && o.Order != "random" {
		return nil, badinput.Errorf("order %q: johnson, reverse or random", o.Order)
	}
	if o.Jobs < 0 {
		return nil, badinput.Errorf("jobs %d: negative", o.Jobs)
	}
	// A job of the benchmarks has at most a few hundred tasks; 1000 each
	// bounds it (MaxBatchTasks bounds a file's).
	if err := sizelimit.Check("--jobs", float64(o.Jobs)*1000, sizelimit.SimTask, "tasks"); err != nil {
		return nil, err
	}
	if strings.HasPrefix(o.Cluster, "fig6") != (o.Benchmark == "fig6") {
		return nil, badinput.Errorf("benchmark fig6 goes with a fig6a, fig6b or fig6c cluster and only with one")
	}
	if o.Benchmark == "fig6" {
		return Fig6(o.Cluster)
	}
	types, ok := clusterTable(o.Cluster)
	if !ok {
		return nil, badinput.Errorf("cluster %q: one of %s", o.Cluster, strings.Join(ClusterNames, ", "))
	}
	b := &Batch{Cluster: BatchCluster{Name: o.Cluster}}
	for g, t := range types {
		b.Cluster.Groups = append(b.Cluster.Groups, t.group)
		for i := range t.count {
			b.Cluster.Nodes = append(b.Cluster.Nodes, BatchNode{Name: fmt.Sprintf("%s-%d", t.group.Name, i+1),
				Group: g, Slots: t.slots, MapSlots: t.mapS, ReduceSlots: t.reduceS})
		}
	}
	job := func(bm Benchmark, name string) BatchJob {
		maps := hetMaps
		if o.Cluster == "homogeneous" {
			maps = homTextMaps
			if bm.MovieData {
				maps = homMovieMaps
			}
		}
		return BatchJob{Name: name, Benchmark: bm.Name, Maps: maps, Reduces: bm.Reduces,
			MapTime: times(o.Cluster, types, bm.MapMin, bm.MapMax, false), ReduceTime: times(o.Cluster, types, bm.ReduceMin, bm.ReduceMax, true)}
	}
	name := fmt.Sprintf("tumm-%s-%s", o.Benchmark, o.Cluster)
	switch o.Benchmark {
	case "mixed":
		n := cmp.Or(o.Jobs, 10)
		rng := sim.NewStream(o.Seed, "tumm-mix")
		for i := range n {
			b.Jobs = append(b.Jobs, job(Benchmarks[rng.IntN(len(Benchmarks))], fmt.Sprintf("j%d", i+1)))
		}
		orderJobs(b, o.Order, o.Seed)
		name += "-" + o.Order
	case "tpch":
		b.Jobs = tpchChains(o.Cluster, types)
	default:
		i := slices.IndexFunc(Benchmarks, func(bm Benchmark) bool { return bm.Name == o.Benchmark })
		if i < 0 {
			names := []string{"mixed", "tpch", "fig6"}
			for _, bm := range Benchmarks {
				names = append(names, bm.Name)
			}
			return nil, badinput.Errorf("benchmark %q: one of %s", o.Benchmark, strings.Join(names, ", "))
		}
		for k := range cmp.Or(o.Jobs, 3) {
			b.Jobs = append(b.Jobs, job(Benchmarks[i], fmt.Sprintf("%s-%d", Benchmarks[i].Name, k+1)))
		}
	}
	s := &Scenario{Kind: Kind, SchemaVersion: SchemaVersion, Name: name,
		Source: "Yao et al., TuMM §6 (Table 3 clusters, Table 4 task times; policies.md §3.2, A-T8–A-T10)", Batch: b}
	if o.Cluster == "homogeneous" && o.Benchmark != "tpch" {
		s.Static = b.StaticPart()
	}
	return s, s.Validate()
}

// StaticPart is Algorithm 1's input for a batch without chains: the total
// slots and each job's slot-weighted mean task times.
func (b *Batch) StaticPart() *Static {
	st := &Static{}
	slots := make([]float64, len(b.Cluster.Groups))
	for _, n := range b.Cluster.Nodes {
		st.Slots += n.Slots
		slots[n.Group] += float64(n.Slots)
	}
	mean := func(ts []float64) float64 {
		s := 0.0
		for g, t := range ts {
			s += t * slots[g]
		}
		return s / float64(st.Slots)
	}
	for _, j := range b.Jobs {
		st.Jobs = append(st.Jobs, Job{Name: j.Name, MapTasks: j.Maps, ReduceTasks: j.Reduces, MapTime: mean(j.MapTime), ReduceTime: mean(j.ReduceTime)})
	}
	return st
}

// orderJobs puts a mixed batch in Johnson's order on (w_m, w_r) — jobs with
// w_m ≤ w_r first by ascending w_m, then the rest by descending w_r — its
// reverse, or a seeded random order; names follow the new order.
func orderJobs(b *Batch, order string, seed uint64) {
	st := b.StaticPart()
	type jw struct {
		j      BatchJob
		wm, wr float64
	}
	js := make([]jw, len(b.Jobs))
	for i, j := range b.Jobs {
		js[i] = jw{j, float64(j.Maps) * st.Jobs[i].MapTime, float64(j.Reduces) * st.Jobs[i].ReduceTime}
	}
	switch order {
	case "random":
		rng := sim.NewStream(seed, "tumm-order")
		rng.Shuffle(len(js), func(a, c int) { js[a], js[c] = js[c], js[a] })
	default:
		slices.SortStableFunc(js, func(a, c jw) int {
			fa, fc := a.wm <= a.wr, c.wm <= c.wr
			switch {
			case fa && !fc:
				return -1
			case !fa && fc:
				return 1
			case fa:
				return cmp.Compare(a.wm, c.wm)
			}
			return cmp.Compare(c.wr, a.wr)
		})
		if order == "reverse" {
			slices.Reverse(js)
		}
	}
	for i := range js {
		b.Jobs[i] = js[i].j
		b.Jobs[i].Name = fmt.Sprintf("j%d-%s", i+1, js[i].j.Benchmark)
	}
}

// TPC-H chains (A-T10, [ours]): a 4 GB database is 64 blocks; each of Q15,
// Q16, Q18 is 5 sub-queries, the first reading the most (64, 32, 16, 8, 4
// maps, a quarter as many reduces, at least 1), each submitted when the
// previous completes. Task times are the mean of Table 4's five benchmarks
// scaled per query by its published Heter1 FIFO makespan relative to Q15's
// (523.6 : 564.1 : 598.4 s, Table 5).
var tpchQueries = []struct {
	name  string
	scale float64
}{{"q15", 1}, {"q16", 564.1 / 523.6}, {"q18", 598.4 / 523.6}}

const (
	tpchBlocks     = 64
	tpchSubqueries = 5
)

func tpchChains(cluster string, types []nodeType) []BatchJob {
	var mMin, mMax, rMin, rMax float64
	for _, bm := range Benchmarks {
		mMin += bm.MapMin / float64(len(Benchmarks))
		mMax += bm.MapMax / float64(len(Benchmarks))
		rMin += bm.ReduceMin / float64(len(Benchmarks))
		rMax += bm.ReduceMax / float64(len(Benchmarks))
	}
	var jobs []BatchJob
	for _, q := range tpchQueries {
		for sub := range tpchSubqueries {
			maps := tpchBlocks >> sub
			j := BatchJob{Name: fmt.Sprintf("%s-%d", q.name, sub+1), Benchmark: q.name, Maps: maps, Reduces: max(1, maps/4),
				MapTime: times(cluster, types, mMin*q.scale, mMax*q.scale, false), ReduceTime: times(cluster, types, rMin*q.scale, rMax*q.scale, true)}
			if sub > 0 {
				j.Parent = fmt.Sprintf("%s-%d", q.name, sub)
			}
			jobs = append(jobs, j)
		}
	}
	return jobs
}

// Fig6 is Fig 6's toy: one job of seven maps on two nodes, node 1 at 1 s a
// task and node 2 at 2 s, four map slots: fig6a 2+2 (3 s), fig6b 1+3, fig6c
// 3+1 (2 s).
func Fig6(cluster string) (*Scenario, error) {
	split := map[string][2]int{"fig6a": {2, 2}, "fig6b": {1, 3}, "fig6c": {3, 1}}
	sp, ok := split[cluster]
	if !ok {
		return nil, badinput.Errorf("cluster %q: fig6a, fig6b or fig6c", cluster)
	}
	b := &Batch{Cluster: BatchCluster{Name: cluster, Groups: []Group{{Name: "fast"}, {Name: "slow"}},
		Nodes: []BatchNode{{Name: "node1", Group: 0, Slots: sp[0], MapSlots: sp[0]}, {Name: "node2", Group: 1, Slots: sp[1], MapSlots: sp[1]}}},
		Jobs: []BatchJob{{Name: "toy", Maps: 7, MapTime: []float64{1, 2}, ReduceTime: []float64{1, 2}}}}
	s := &Scenario{Kind: Kind, SchemaVersion: SchemaVersion, Name: "tumm-fig6-" + cluster, Source: "Yao et al., TuMM Fig 6", Batch: b}
	return s, s.Validate()
}

// Marshal is the scenario as indented JSON with a final newline.
func (s *Scenario) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
