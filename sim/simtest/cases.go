package simtest

import "github.com/mrbound/mrbound/sim"

// Case is one workload with its run options.
type Case struct {
	Name     string
	Workload *sim.Workload
	Options  sim.Options
}

func ideal() sim.Options {
	o := sim.DefaultOptions()
	o.Heartbeat = 0
	o.Seed = 7
	return o
}

func hadoop1() sim.Options {
	o := sim.DefaultOptions()
	o.Seed = 7
	return o
}

// Cases are the suite's workloads, each small enough to run in milliseconds.
func Cases() []Case {
	var cs []Case
	add := func(name string, w *sim.Workload, o sim.Options) { cs = append(cs, Case{name, w, o}) }
	add("tiny/ideal", Tiny(), ideal())
	add("tiny/hadoop1", Tiny(), hadoop1())
	add("random/ideal", Random(1, RandomSpec{}), ideal())
	add("random/hadoop1", Random(2, RandomSpec{}), hadoop1())
	oob := hadoop1()
	oob.OOB = true
	add("random/oob", Random(3, RandomSpec{}), oob)
	add("hetero/ideal", Random(4, RandomSpec{Hetero: true}), ideal())
	add("hetero/hadoop1", Random(5, RandomSpec{Hetero: true}), hadoop1())
	add("ram/ideal", Random(6, RandomSpec{RAM: true}), ideal())
	add("chain/ideal", Random(7, RandomSpec{Chain: true}), ideal())
	add("chain/hadoop1", Random(8, RandomSpec{Chain: true}), hadoop1())
	noisy := ideal()
	noisy.Noise, noisy.MapContention, noisy.ReduceContention = 0.2, 0.25, 0.1
	add("noise-contention/ideal", Random(9, RandomSpec{}), noisy)
	full := ideal()
	full.SlowStart = 1
	add("slowstart1/ideal", Random(10, RandomSpec{}), full)
	over := hadoop1()
	over.Overlap = 0.5
	add("overlap/hadoop1", Random(11, RandomSpec{}), over)
	none := ideal()
	none.Estimates = sim.EstimateNone
	add("no-estimates/ideal", Random(12, RandomSpec{}), none)
	add("fungible/ideal", Random(13, RandomSpec{Fungible: true}), ideal())
	add("fungible/hadoop1", Random(14, RandomSpec{Fungible: true}), hadoop1())
	return cs
}

// Tiny is one node with one map and one reduce slot; job 0 (t=0) has two
// 10 s maps and a 5 s reduce, job 1 (t=1 s) one 3 s map.
func Tiny() *sim.Workload {
	return &sim.Workload{
		Name:    "tiny",
		Cluster: sim.Cluster{Nodes: []sim.Node{{MapSlots: 1, ReduceSlots: 1}}},
		Jobs: []sim.Job{
			{Name: "a", Arrival: 0, Deadline: 40000, Parent: -1,
				Maps: []sim.TaskSpec{{Work: 10000}, {Work: 10000}}, Reduces: []sim.TaskSpec{{Work: 5000}}},
			{Name: "b", Arrival: 1000, Deadline: sim.NoDeadline, Parent: -1,
				Maps: []sim.TaskSpec{{Work: 3000}}},
		},
	}
}

// RandomSpec shapes Random.
type RandomSpec struct {
	Hetero   bool // two node groups with per-group durations and speeds
	RAM      bool // node RAM limits that bind
	Chain    bool // every third job is chained to the previous one
	Fungible bool // fungible slots
}

// Random is a seeded 6-node, 24-job workload: Poisson arrivals, 1–8 maps,
// 0–3 reduces, three users with min shares and weights, deadlines on half
// the jobs, 3 replicas and a 2 s non-local penalty.
func Random(seed uint64, spec RandomSpec) *sim.Workload {
	rng := sim.NewStream(seed, "simtest")
	w := &sim.Workload{Name: "random"}
	w.Cluster = sim.Cluster{Replicas: 3, NonLocalPenalty: 2000, Fungible: spec.Fungible, BlockBytes: 64 << 20}
	for i := range 6 {
		n := sim.Node{MapSlots: 2, ReduceSlots: 1, TotalSlots: 3, Speed: 1}
		if spec.Hetero {
			n.Group = i % 2
			n.Speed = 1 + float64(i%3)/2
		}
		if spec.RAM {
			n.RAM = 4
		}
		if i == 5 {
			n.StorageBytes = 1 << 20 // cannot store a block
		}
		w.Cluster.Nodes = append(w.Cluster.Nodes, n)
	}
	w.Users = []sim.User{{Name: "u0", MinShare: 2, Weight: 1}, {Name: "u1", MinShare: 0, Weight: 2}, {Name: "u2", MinShare: 4, Weight: 1}}
	at := sim.Time(0)
	task := func(mean float64) sim.TaskSpec {
		d := sim.Time(1000 + rng.ExpFloat64()*mean)
		t := sim.TaskSpec{Work: d}
		t.SetEstimate(d + sim.Time(rng.IntN(2000)))
		if spec.Hetero {
			t.SetByGroup([]sim.Time{d, d * 2})
		}
		if spec.RAM {
			t.SetDemand(float64(1+rng.IntN(3)), 0)
		}
		return t
	}
	for j := range 24 {
		at += sim.Time(rng.ExpFloat64() * 4000)
		job := sim.Job{Name: "j", User: j % 3, Priority: 1 + j%3, Arrival: at, Deadline: sim.NoDeadline, Parent: -1}
		if j%2 == 0 {
			job.Deadline = at + sim.Time(30000+rng.IntN(120000))
		}
		if spec.Chain && j%3 == 2 {
			job.Parent = j - 1
		}
		for range 1 + rng.IntN(8) {
			job.Maps = append(job.Maps, task(6000))
		}
		for range rng.IntN(4) {
			job.Reduces = append(job.Reduces, task(8000))
		}
		w.Jobs = append(w.Jobs, job)
	}
	return w
}
