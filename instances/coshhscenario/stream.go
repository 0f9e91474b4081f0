package coshhscenario

import (
	"fmt"
	"math"
)

// Simulator defaults of §3.3.
const (
	// BlockBytes is COSHH's HDFS block (128 MB, §5.2).
	BlockBytes = 128 << 20
	// ReduceBytes is the shuffle bytes per reduce task (A-C13, ours).
	ReduceBytes = 1 << 30
	// DefaultReplicas is HDFS's replication factor (§5.2).
	DefaultReplicas = 3
	// SimNetworkMbps is the simulated network (§5.2); RealNetworkMbps that of
	// the real cluster of Table 11 (§7).
	SimNetworkMbps  = 100
	RealNetworkMbps = 2000
)

// MeanWork is E[work]: the mean task-seconds (map + reduce) of a job drawn
// with the categories' proportions.
func MeanWork(cats []Category) float64 {
	var w, n float64
	for _, c := range cats {
		w += float64(c.Jobs) * (c.MapTime + c.ReduceTime)
		n += float64(c.Jobs)
	}
	return w / n
}

// SlotCapacity is C = Σ slots · rate/ReferenceMHz: the cluster's work rate in
// reference task-seconds per second (48.06 on Table 3).
func SlotCapacity(res []Resource) float64 {
	c := 0.0
	for _, r := range res {
		rate := r.ExecRateMHz
		if rate <= 0 {
			rate = ReferenceMHz
		}
		c += float64(r.Slots) * rate / ReferenceMHz
	}
	return c
}

// table3Split is A-C10's map/reduce split of Table 3 (31 + 23 slots).
var table3Split = map[int][2]int{2: {1, 1}, 16: {9, 7}}

// SlotSplit is the map and reduce slots of resource r (A-C10): Table 3's R2
// gets 10+6, its other 16-slot resources 9+7, and every other resource
// ceil(slots/2) map slots, the rest reduce.
func SlotSplit(cluster string, r Resource) (maps, reduces int) {
	if cluster == "table3" {
		if r.Name == "R2" {
			return 10, 6
		}
		if s, ok := table3Split[r.Slots]; ok {
			return s[0], s[1]
		}
	}
	m := (r.Slots + 1) / 2
	return m, r.Slots - m
}

// taskModel sets a job's task counts from its category (A-C13): maps =
// max(1, ⌈input/128 MB⌉) sharing MapTime, reduces = 0 without reduce time,
// else max(1, ⌈shuffle/1 GB⌉) sharing ReduceTime.
func taskModel(j *Job, c Category) {
	in, _ := ParseSize(c.Input)
	sh, _ := ParseSize(c.Shuffle)
	j.Maps = max(1, int(math.Ceil(in/BlockBytes)))
	j.MapSeconds = c.MapTime / float64(j.Maps)
	if c.ReduceTime > 0 {
		j.Reduces = max(1, int(math.Ceil(sh/ReduceBytes)))
		j.ReduceSeconds = c.ReduceTime / float64(j.Reduces)
	}
}

// simFields fills the scenario-level simulator fields of a generated stream.
func simFields(s *Scenario, o GenOptions, cats []Category, total int) error {
	s.BlockBytes, s.Replicas, s.NetworkMbps = BlockBytes, DefaultReplicas, SimNetworkMbps
	if o.Cluster == "table11" {
		s.NetworkMbps = RealNetworkMbps
	}
	for i := range s.Resources {
		r := &s.Resources[i]
		r.MapSlots, r.ReduceSlots = SlotSplit(o.Cluster, *r)
		if !o.IgnoreStorage && r.MemCapacity != "" {
			b, err := ParseSize(r.MemCapacity)
			if err != nil {
				return fmt.Errorf("coshh: resource %s: %w", r.Name, err)
			}
			r.StorageBytes = int64(b)
		}
	}
	rate := 1 / o.MeanInterarrival
	for k := range s.Users {
		if k < len(cats) {
			s.Users[k].ArrivalRate = round6(rate * float64(cats[k].Jobs) / float64(total))
		}
	}
	return nil
}
