package hfsprepro

import (
	"fmt"
	"math"

	"github.com/mrbound/mrbound/instances/coshhscenario"
	"github.com/mrbound/mrbound/sim"
)

// Category-stream constants (policies.md §3.3 job generation, §3.4).
const (
	categoryBlock  = 128 << 20 // bytes per map
	categoryReduce = 1 << 30   // shuffle bytes per reduce
)

// CategoryStream is policies.md §3.4's HFSP workload: n jobs drawn from the
// Facebook 2009 categories (COSHH Table 4, probability count/200; maps =
// max(1, ⌈input/128 MB⌉) of MapTime/maps each, reduces = max(1,
// ⌈shuffle/1 GB⌉) of ReduceTime/reduces, none if ReduceTime = 0) on
// nodes × (2 map + 2 reduce), Poisson arrivals at offered load ρ on the
// busier side: λ = ρ · min(S_m/E[W_m], S_r/E[W_r]) [ours].
func CategoryStream(rho float64, n, nodes int, seed uint64) (*sim.Workload, Classes, error) {
	cats, err := coshhscenario.Trace("facebook")
	if err != nil {
		return nil, Classes{}, err
	}
	type shape struct {
		name             string
		p                float64
		maps, reds       int
		mapDur, redDur   sim.Time
		mapWork, redWork float64 // s
	}
	var shapes []shape
	total := 0
	for _, c := range cats {
		total += c.Jobs
	}
	var ewm, ewr float64
	for _, c := range cats {
		in, err1 := coshhscenario.ParseSize(c.Input)
		sh, err2 := coshhscenario.ParseSize(c.Shuffle)
		if err1 != nil || err2 != nil {
			return nil, Classes{}, fmt.Errorf("category %s: bad size", c.Name)
		}
		s := shape{name: c.Name, p: float64(c.Jobs) / float64(total), maps: max(1, int(math.Ceil(in/categoryBlock)))}
		s.mapDur = max(1, sim.FromSeconds(c.MapTime/float64(s.maps)))
		s.mapWork = float64(s.maps) * s.mapDur.Seconds()
		if c.ReduceTime > 0 {
			s.reds = max(1, int(math.Ceil(sh/categoryReduce)))
			s.redDur = max(1, sim.FromSeconds(c.ReduceTime/float64(s.reds)))
			s.redWork = float64(s.reds) * s.redDur.Seconds()
		}
		ewm += s.p * s.mapWork
		ewr += s.p * s.redWork
		shapes = append(shapes, s)
	}
	slots := float64(2 * nodes)
	lambda := rho * math.Min(slots/ewm, slots/ewr) // jobs per s
	w := &sim.Workload{Name: fmt.Sprintf("fb2009-categories rho=%g", rho)}
	w.Cluster = sim.Cluster{BlockBytes: categoryBlock, Replicas: 3, NonLocalPenalty: 537}
	for range nodes {
		w.Cluster.Nodes = append(w.Cluster.Nodes, sim.Node{MapSlots: 2, ReduceSlots: 2, Speed: 1})
	}
	r := sim.NewStream(seed, "hfsp-categories")
	at := 0.0
	for range n {
		u, k := r.Float64(), 0
		for k < len(shapes)-1 && u >= shapes[k].p {
			u -= shapes[k].p
			k++
		}
		s := shapes[k]
		j := sim.Job{Name: s.name, Category: s.name, Arrival: sim.FromSeconds(at), Deadline: sim.NoDeadline, Parent: -1}
		j.Maps = make([]sim.TaskSpec, s.maps)
		for i := range j.Maps {
			j.Maps[i] = sim.TaskSpec{Work: s.mapDur}
		}
		j.Reduces = make([]sim.TaskSpec, s.reds)
		for i := range j.Reduces {
			j.Reduces[i] = sim.TaskSpec{Work: s.redDur}
		}
		w.Jobs = append(w.Jobs, j)
		at += r.ExpFloat64() / lambda
	}
	names := make([]string, len(shapes))
	for i, s := range shapes {
		names[i] = s.name
	}
	return w, ByCategory(names), nil
}
