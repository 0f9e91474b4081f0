package hfsprepro

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/mrbound/mrbound/internal/plural"
	"github.com/mrbound/mrbound/policy"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
)

// Classes group jobs for the per-class sojourn: Names, and Of(job) an
// index into them.
type Classes struct {
	Names []string
	Of    func(j *sim.Job) int
}

// BySize classes jobs by map count (SWIM traces).
var BySize = Classes{Names: []string{"1 map", "2–10 maps", "11–100 maps", ">100 maps"}, Of: func(j *sim.Job) int {
	switch m := len(j.Maps); {
	case m <= 1:
		return 0
	case m <= 10:
		return 1
	case m <= 100:
		return 2
	}
	return 3
}}

// ByCategory classes jobs by their Category, in the order names gives.
func ByCategory(names []string) Classes {
	return Classes{Names: names, Of: func(j *sim.Job) int { return slices.Index(names, j.Category) }}
}

// Row is one policy's run.
type Row struct {
	Policy                     string
	Jobs, Completed            int
	MeanSojourn                float64 // s
	SlowMean, SlowP50, SlowP95 float64
	SlowP99, SlowMax           float64
	Classes                    []string
	ClassSojourn               []float64 // s, per class (NaN: no job)
	ClassJobs                  []int
	Dominance                  float64 // share of jobs with C_j ≤ C_j of the reference run
	DominanceJobs              int     // their number
	ClassDominance             []int   // per class: jobs with C_j ≤ C_j of the reference run
	// LateP50, LateMax: how much later (s) than under the reference the
	// other jobs complete (0 when there is none)
	LateP50, LateMax      float64
	Killed, Suspended     int
	WorkLost              float64 // s
	Offers                int64
	OfferMean, OfferWorst time.Duration
	Wall                  time.Duration
	completion            []sim.Time
}

// timed wraps a policy and times every Offer (one decision).
type timed struct {
	sim.Policy
	n          int64
	sum, worst time.Duration
}

func (t *timed) Offer(s *sim.Sim, x int, free sim.Free) {
	t0 := time.Now()
	t.Policy.Offer(s, x, free)
	d := time.Since(t0)
	t.n++
	t.sum += d
	t.worst = max(t.worst, d)
}

// newPolicy is policy.New (hfsp-aftermaps is registered there).
func newPolicy(name string) (sim.Policy, error) {
	return policy.New(name, policy.Params{})
}

// AloneTime is job j's critical path on the idle cluster (policies.md §6),
// homogeneous fixed slots: a lower bound on its sojourn under any policy.
func AloneTime(w *sim.Workload, j int) sim.Time {
	var sm, sr int
	for _, n := range w.Cluster.Nodes {
		sm += n.MapSlots
		sr += n.ReduceSlots
	}
	phase := func(ts []sim.TaskSpec, slots int) sim.Time {
		if len(ts) == 0 {
			return 0
		}
		var sum, longest sim.Time
		for _, t := range ts {
			sum += t.Work
			longest = max(longest, t.Work)
		}
		return max(longest, sim.Time(math.Ceil(float64(sum)/float64(slots))))
	}
	return phase(w.Jobs[j].Maps, sm) + phase(w.Jobs[j].Reduces, sr)
}

// Run simulates each named policy on w, checks every trace, and measures
// it; the first name is the dominance reference.
func Run(w *sim.Workload, names []string, o sim.Options, cl Classes) ([]Row, error) {
	for _, n := range w.Cluster.Nodes {
		if n.Speed != 1 || w.Cluster.Fungible {
			return nil, fmt.Errorf("hfsprepro: needs a homogeneous fixed-slot cluster")
		}
	}
	alone := make([]sim.Time, len(w.Jobs))
	for j := range w.Jobs {
		alone[j] = AloneTime(w, j)
	}
	var rows []Row
	for _, name := range names {
		p, err := newPolicy(name)
		if err != nil {
			return nil, err
		}
		tp := &timed{Policy: p}
		res, err := sim.Run(w, tp, o)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if err := check.Verify(w, res); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if res.Rejected > 0 {
			return nil, fmt.Errorf("%s: %s", name, plural.Count(res.Rejected, "rejected action"))
		}
		r := Row{Policy: name, Jobs: len(w.Jobs), Completed: res.Metrics.CompletedJobs, Killed: res.Metrics.Killed,
			Suspended: res.Metrics.Suspended, WorkLost: res.Metrics.WorkLost, Offers: tp.n, OfferWorst: tp.worst, Wall: res.Wall,
			Classes: cl.Names, ClassSojourn: make([]float64, len(cl.Names)), ClassJobs: make([]int, len(cl.Names))}
		if tp.n > 0 {
			r.OfferMean = tp.sum / time.Duration(tp.n)
		}
		if r.Completed != r.Jobs {
			return nil, fmt.Errorf("%s: %d of %s completed", name, r.Completed, plural.Count(r.Jobs, "job"))
		}
		slow := make([]float64, 0, len(w.Jobs))
		r.completion = make([]sim.Time, len(w.Jobs))
		for j, jo := range res.Jobs {
			soj := jo.Completion - jo.Arrival
			if soj < alone[j] {
				return nil, fmt.Errorf("%s: job %d's sojourn %d ms beats its alone time %d ms: a defect", name, j, soj, alone[j])
			}
			r.completion[j] = jo.Completion
			r.MeanSojourn += soj.Seconds()
			slow = append(slow, float64(soj)/float64(max(alone[j], 1)))
			if c := cl.Of(&w.Jobs[j]); c >= 0 {
				r.ClassSojourn[c] += soj.Seconds()
				r.ClassJobs[c]++
			}
		}
		r.MeanSojourn /= float64(len(w.Jobs))
		for c := range r.ClassSojourn {
			if r.ClassJobs[c] == 0 {
				r.ClassSojourn[c] = math.NaN()
			} else {
				r.ClassSojourn[c] /= float64(r.ClassJobs[c])
			}
		}
		slices.Sort(slow)
		for _, s := range slow {
			r.SlowMean += s
		}
		r.SlowMean /= float64(len(slow))
		r.SlowP50, r.SlowP95, r.SlowP99 = percentile(slow, 0.5), percentile(slow, 0.95), percentile(slow, 0.99)
		r.SlowMax = slow[len(slow)-1]
		rows = append(rows, r)
	}
	for i := range rows {
		r := &rows[i]
		r.ClassDominance = make([]int, len(cl.Names))
		var late []float64
		for j, c := range r.completion {
			if ref := rows[0].completion[j]; c > ref {
				late = append(late, (c - ref).Seconds())
				continue
			}
			r.DominanceJobs++
			if k := cl.Of(&w.Jobs[j]); k >= 0 {
				r.ClassDominance[k]++
			}
		}
		r.Dominance = float64(r.DominanceJobs) / float64(len(w.Jobs))
		if len(late) > 0 {
			slices.Sort(late)
			r.LateP50, r.LateMax = percentile(late, 0.5), late[len(late)-1]
		}
	}
	return rows, nil
}

// percentile is the nearest-rank q-quantile of sorted values.
func percentile(sorted []float64, q float64) float64 {
	return sorted[max(0, int(math.Ceil(q*float64(len(sorted))))-1)]
}
