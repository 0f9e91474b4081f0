package lowerbound

import (
	"math"
	"slices"
	"sort"
)

// Slot kinds, as indices.
const (
	kMap = 0
	kRed = 1
)

// prep holds what every bound needs: per-kind capacities under each speed
// weighting, and per-job works, heads and tails.
type prep struct {
	p        *Problem
	fungible bool
	// slots[k] is the number of slots that can run kind k (all slots when
	// fungible).
	slots [2]int
	// eligible[k][g]: group g has a slot of kind k.
	eligible [2][]bool
	// weights[v][k][g] > 0 is the speed v_g given to a slot of group g running
	// kind k under weighting v (the same for both kinds when fungible, since a
	// slot's weight must not depend on what it runs).
	weights [][2][]float64
	// rate[v][k] = Σ_slots of kind k v_g: work processed per ms at most.
	rate [][2]float64
	jobs []jobInfo
	// minArrival is min_j a_j (0 without jobs).
	minArrival int64
}

// jobInfo is what the bounds need of one job.
type jobInfo struct {
	a           float64
	deadline    float64
	hasDeadline bool
	// work[v][k] = Σ_τ min_g v_g·d(τ,g) over the job's tasks of kind k.
	work [][2]float64
	// head M_j ≤ lastMapEnd − a_j and tail R_j ≤ C_j − lastMapEnd in every
	// schedule; cp = head + tail.
	head, tail, cp float64
}

// slotCap (2^40) caps the slot counts newPrep sums (see there): far above
// any cluster, far below int overflow even summed over 2^20 groups.
const slotCap = 1 << 40

// newPrep computes capacities, speed weightings and per-job heads and tails.
// p must be valid.
func newPrep(p *Problem) *prep {
	pr := &prep{p: p, fungible: p.Mode == Fungible}
	// Slot counts are summed with a cap, slotCap or the number of tasks if
	// larger: two nodes of 2^62 slots wrapped the sums of int round to
	// negative capacities (+Inf and NaN in the LPs, s18audit). Capping is
	// valid: at most n_k tasks of kind k run at once, in all and in any
	// group, so a capacity of min(S, C) slots for any C ≥ n_k is still at
	// least what a schedule can use; and no real cluster reaches the cap,
	// so no bound changes.
	var most [2]int
	for j := range p.Jobs {
		most[kMap] += len(p.Jobs[j].Maps)
		most[kRed] += len(p.Jobs[j].Reduces)
	}
	if pr.fungible {
		// One pool runs both kinds: at most n_map + n_red tasks at once.
		most[kMap] += most[kRed]
		most[kRed] = most[kMap]
	}
	most[kMap], most[kRed] = max(most[kMap], slotCap), max(most[kRed], slotCap)
	groupSlots := [2][]int{make([]int, p.Groups), make([]int, p.Groups)}
	add := func(k, g, s int) { groupSlots[k][g] = min(most[k], groupSlots[k][g]+min(most[k], s)) }
	for _, n := range p.Nodes {
		if pr.fungible {
			add(kMap, n.Group, n.Slots)
			add(kRed, n.Group, n.Slots)
		} else {
			add(kMap, n.Group, n.MapSlots)
			add(kRed, n.Group, n.ReduceSlots)
		}
	}
	for k := range 2 {
		pr.eligible[k] = make([]bool, p.Groups)
		for g, s := range groupSlots[k] {
			pr.eligible[k][g] = s > 0
			pr.slots[k] = min(most[k], pr.slots[k]+s)
		}
	}
	pr.weights = pr.speedWeightings()
	pr.rate = make([][2]float64, len(pr.weights))
	for v, w := range pr.weights {
		for k := range 2 {
			for g, s := range groupSlots[k] {
				pr.rate[v][k] += w[k][g] * float64(s)
			}
		}
	}
	pr.jobs = make([]jobInfo, len(p.Jobs))
	var buf []float64
	for j := range p.Jobs {
		job := &p.Jobs[j]
		ji := &pr.jobs[j]
		ji.a = float64(job.Arrival)
		ji.deadline, ji.hasDeadline = float64(job.Deadline), job.HasDeadline
		ji.work = make([][2]float64, len(pr.weights))
		var phase [2]float64
		for k, tasks := range [2][]Task{job.Maps, job.Reduces} {
			if len(tasks) == 0 {
				continue
			}
			buf = buf[:0]
			for i := range tasks {
				buf = append(buf, pr.pmin(&tasks[i], k))
				for v := range pr.weights {
					ji.work[v][k] += pr.work(&tasks[i], k, v)
				}
			}
			sort.Sort(sort.Reverse(sort.Float64Slice(buf)))
			// Longest task and waves (waves include k = 0, the longest task).
			phase[k] = buf[0]
			if !p.Preemptive {
				phase[k] = waves(buf, pr.slots[k])
			}
			for v := range pr.weights {
				phase[k] = math.Max(phase[k], div(ji.work[v][k], pr.rate[v][k]))
			}
		}
		ji.head, ji.tail = phase[kMap], phase[kRed]
		ji.cp = ji.head + ji.tail
	}
	if len(p.Jobs) > 0 {
		pr.minArrival = p.Jobs[0].Arrival
		for j := range p.Jobs {
			pr.minArrival = min(pr.minArrival, p.Jobs[j].Arrival)
		}
	}
	return pr
}

// pmin is the shortest duration of t on a group with a slot of kind k.
func (pr *prep) pmin(t *Task, k int) float64 {
	best := math.Inf(1)
	for g, ok := range pr.eligible[k] {
		if ok {
			best = math.Min(best, float64(t.dur(g)))
		}
	}
	return best
}

// work is min_g v_g·d(t,g) over the groups with a slot of kind k: the least
// weighted slot-time t consumes wherever it runs.
func (pr *prep) work(t *Task, k, v int) float64 {
	best := math.Inf(1)
	w := pr.weights[v][k]
	for g, ok := range pr.eligible[k] {
		if ok {
			best = math.Min(best, w[g]*float64(t.dur(g)))
		}
	}
	return best
}

// speedWeightings returns the slot weightings tried. Any positive weighting
// gives valid bounds (docs/bounds.md §1); uniform weights are exact for
// identical groups, and the estimated relative speed
//
//	v_g = Σ_τ pmin(τ) / Σ_τ d(τ,g)
//
// is exact for related machines (d(τ,g) = base(τ)/speed_g).
func (pr *prep) speedWeightings() [][2][]float64 {
	p := pr.p
	uniform := [2][]float64{ones(p.Groups), ones(p.Groups)}
	out := [][2][]float64{uniform}
	if p.Groups == 1 {
		return out
	}
	var est [2][]float64
	kindsOf := func(k int) []int {
		if pr.fungible {
			return []int{kMap, kRed}
		}
		return []int{k}
	}
	differs := false
	for k := range 2 {
		num := 0.0
		den := make([]float64, p.Groups)
		for j := range p.Jobs {
			for _, kk := range kindsOf(k) {
				tasks := p.Jobs[j].Maps
				if kk == kRed {
					tasks = p.Jobs[j].Reduces
				}
				for i := range tasks {
					num += pr.pmin(&tasks[i], kk)
					for g := range den {
						den[g] += float64(tasks[i].dur(g))
					}
				}
			}
		}
		est[k] = ones(p.Groups)
		for g := range den {
			if den[g] > 0 && num > 0 {
				est[k][g] = num / den[g]
			}
			differs = differs || est[k][g] != 1
		}
	}
	if differs {
		out = append(out, est)
	}
	return out
}

func ones(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = 1
	}
	return v
}

// waves is the wave bound for durations p sorted in decreasing order on s
// identical slots: among the k·s+1 longest tasks some slot runs at least k+1,
// so it is busy for at least the sum of the k+1 shortest of them:
//
//	max_{k ≥ 0, k·s+1 ≤ n} Σ_{i = k·s−k}^{k·s} p_i   (0-indexed)
//
// k = 0 is the longest task; s = 1 gives the total.
func waves(p []float64, s int) float64 {
	w, _ := wavesWith(p, s, nil)
	return w
}

// wavesWith is waves with the prefix sums in scratch (grown when short, and
// returned for the next call), for callers that evaluate many task sets.
func wavesWith(p []float64, s int, scratch []float64) (float64, []float64) {
	n := len(p)
	if n == 0 || s <= 0 {
		return 0, scratch
	}
	prefix := slices.Grow(scratch[:0], n+1)[:n+1]
	prefix[0] = 0
	for i, x := range p {
		prefix[i+1] = prefix[i] + x
	}
	best := 0.0
	for k := 0; k*s+1 <= n; k++ {
		hi := k*s + 1 // exclusive end
		best = math.Max(best, prefix[hi]-prefix[hi-k-1])
	}
	return best, prefix
}
