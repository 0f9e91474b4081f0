package bench

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/compare/simbridge"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/policy/coshh"
	"github.com/mrbound/mrbound/sim"
)

// categoryBreakdown is one run's view per job category: jobs, mean
// turnaround, mean wait for the first launch, mean time from the last map's
// end to completion, and the share of the category's task time spent on slow
// nodes (speed below slowSpeed).
type categoryBreakdown struct {
	name                       string
	jobs                       int
	turnaround, wait, tail     float64 // s, means
	slowShare                  float64 // of the category's task seconds
	mapsOnSlow, redsOnSlow     int
	launchesMaps, launchesReds int
}

// slowSpeed separates Table 3's 5 MHz resources (speed 0.01) from the
// 500 MHz ones (speed 1).
const slowSpeed = 0.5

func breakdown(w *sim.Workload, res *sim.Result) []categoryBreakdown {
	idx := map[string]int{}
	var out []categoryBreakdown
	cat := func(j int) *categoryBreakdown {
		c := w.Jobs[j].Category
		i, ok := idx[c]
		if !ok {
			i = len(out)
			idx[c] = i
			out = append(out, categoryBreakdown{name: c})
		}
		return &out[i]
	}
	first := make([]sim.Time, len(w.Jobs))
	lastMap := make([]sim.Time, len(w.Jobs))
	for j := range first {
		first[j] = -1
	}
	busy := map[string][2]float64{} // category → slow, all task seconds
	for _, a := range res.Trace {
		j := int(a.Job)
		if first[j] < 0 || a.Launch < first[j] {
			first[j] = a.Launch
		}
		if a.Kind == sim.Map && a.End > lastMap[j] {
			lastMap[j] = a.End
		}
		c := cat(j)
		slow := w.Cluster.Nodes[a.Node].Speed < slowSpeed
		d := (a.End - a.Launch).Seconds()
		b := busy[c.name]
		b[1] += d
		if slow {
			b[0] += d
		}
		busy[c.name] = b
		if a.Kind == sim.Map {
			c.launchesMaps++
			if slow {
				c.mapsOnSlow++
			}
		} else {
			c.launchesReds++
			if slow {
				c.redsOnSlow++
			}
		}
	}
	for j, o := range res.Jobs {
		if !o.Done {
			continue
		}
		c := cat(j)
		c.jobs++
		c.turnaround += (o.Completion - o.Arrival).Seconds()
		c.wait += (first[j] - o.Arrival).Seconds()
		c.tail += (o.Completion - lastMap[j]).Seconds()
	}
	for i := range out {
		c := &out[i]
		if c.jobs > 0 {
			n := float64(c.jobs)
			c.turnaround /= n
			c.wait /= n
			c.tail /= n
		}
		if b := busy[c.name]; b[1] > 0 {
			c.slowShare = b[0] / b[1]
		}
	}
	return out
}

// TestCOSHHYahooDiagnosis prints, per controlled variant of the Yahoo
// heterogeneous experiment, each policy's mean completion time and its
// per-category breakdown (MRBOUND_COSHH_DIAG=variant[,variant...]; seeds from
// MRBOUND_COSHH_SEEDS, default 3). It is the instrument behind docs/results.md
// "Why Yahoo differs"; it asserts only what runCOSHH does (checker, critical
// path).
func TestCOSHHYahooDiagnosis(t *testing.T) {
	spec := os.Getenv("MRBOUND_COSHH_DIAG")
	if spec == "" {
		t.Skip("set MRBOUND_COSHH_DIAG=base,... to run the Yahoo diagnosis")
	}
	n := envSeeds(t, 3)
	trace := "yahoo"
	if s := os.Getenv("MRBOUND_COSHH_TRACE"); s != "" {
		trace = s
	}
	pols := []string{"fifo", "fair", "coshh"}
	if s := os.Getenv("MRBOUND_COSHH_POLICIES"); s != "" {
		pols = strings.Split(s, ",")
	}
	for _, name := range strings.Split(spec, ",") {
		v, ok := diagVariants[name]
		if !ok {
			t.Fatalf("unknown variant %q", name)
		}
		for _, pol := range pols {
			var acts []float64
			agg := map[string]*categoryBreakdown{}
			var order []string
			for seed := int64(1); seed <= int64(n); seed++ {
				c := v
				c.trace, c.seed, c.policy = trace, seed, pol
				c.inspect = func(w *sim.Workload, res *sim.Result, p sim.Policy) {
					for _, b := range breakdown(w, res) {
						a, ok := agg[b.name]
						if !ok {
							a = &categoryBreakdown{name: b.name}
							agg[b.name] = a
							order = append(order, b.name)
						}
						a.jobs += b.jobs
						a.turnaround += b.turnaround * float64(b.jobs)
						a.wait += b.wait * float64(b.jobs)
						a.tail += b.tail * float64(b.jobs)
						a.slowShare += b.slowShare
						a.mapsOnSlow += b.mapsOnSlow
						a.redsOnSlow += b.redsOnSlow
						a.launchesMaps += b.launchesMaps
						a.launchesReds += b.launchesReds
					}
					if cp, ok := p.(*coshh.Policy); ok && seed == 1 {
						logSuggested(t, w, cp)
					}
				}
				r := runCOSHH(t, c)
				acts = append(acts, r.turnaround)
			}
			m := 0.0
			for _, x := range acts {
				m += x
			}
			m /= float64(len(acts))
			t.Logf("== %s %s: ACT mean %.0f min %.0f max %.0f (%d seeds) per seed %.0f", name, pol, m, slices.Min(acts), slices.Max(acts), n, acts)
			for _, k := range order {
				a := agg[k]
				if a.jobs == 0 {
					continue
				}
				t.Logf("   %-22s jobs %3d  T %9.0f  wait %9.0f  tail %9.0f  slow-node time %5.1f%%  maps on slow %d/%d  reds on slow %d/%d",
					k, a.jobs, a.turnaround/float64(a.jobs), a.wait/float64(a.jobs), a.tail/float64(a.jobs),
					100*a.slowShare/float64(n), a.mapsOnSlow, a.launchesMaps, a.redsOnSlow, a.launchesReds)
			}
		}
	}
}

// logSuggested prints COSHH's final classes per category and suggested sets
// per node.
func logSuggested(t *testing.T, w *sim.Workload, p *coshh.Policy) {
	cls := map[string][2]map[int]int{}
	for j, job := range w.Jobs {
		c, ok := cls[job.Category]
		if !ok {
			c = [2]map[int]int{{}, {}}
			cls[job.Category] = c
		}
		for k := 0; k < 2; k++ {
			c[k][p.Class(k, j)]++
		}
	}
	for name, c := range cls {
		t.Logf("   class of %-22s primary %v secondary %v", name, c[0], c[1])
	}
	for x, n := range w.Cluster.Nodes {
		t.Logf("   node %s (speed %g): SC %v SC' %v", n.Name, n.Speed, p.Suggested(0, x), p.Suggested(1, x))
	}
	t.Logf("   stats %+v", p.Stats)
}

// diagVariants are the controlled variants: each changes one factor of the
// default run (Table 3, ρ = 0.9, H = 3 s, slow-start 0.05, storage literal).
var diagVariants = map[string]coshhRun{
	"base": {},
	// reduces launch only after the job's last map (no slot held in shuffle)
	"ss1": {options: func(o *sim.Options) { o.SlowStart = 1 }},
	// a launched reduce's work overlaps the map phase entirely (ω = 1)
	"overlap": {options: func(o *sim.Options) { o.Overlap = 1 }},
	// ideal offers (H = 0) instead of 3 s heartbeats
	"ideal": {options: func(o *sim.Options) { o.Heartbeat = 0 }},
	// offered load
	"rho0.5": {rho: 0.5},
	"rho1.5": {rho: 1.5},
	// every resource can hold blocks (A-C7 ignore)
	"storage": {ignoreStorage: true},
	// min shares scaled so that they add up to the cluster's 54 slots
	"mins54": {workload: func(w *sim.Workload) { scaleMinShares(w, 54) }},
	// the two readings closest to the paper's published locality and to a
	// reduce model without slot holding, together
	"ss1-storage": {ignoreStorage: true, options: func(o *sim.Options) { o.SlowStart = 1 }},
	// no min shares, weights kept
	"mins0": {workload: func(w *sim.Workload) { scaleMinShares(w, 0) }},
}

// scaleMinShares scales every user's min share so that they add up to total
// (rounded down; 0 removes them).
func scaleMinShares(w *sim.Workload, total int) {
	sum := 0
	for _, u := range w.Users {
		sum += u.MinShare
	}
	if sum == 0 {
		return
	}
	for i := range w.Users {
		w.Users[i].MinShare = w.Users[i].MinShare * total / sum
	}
}

// TestCOSHHMeanTurnaroundBound prints, per seed of the main experiment's
// streams (MRBOUND_COSHH_BOUND=trace[,trace]), the lower bound on the mean
// completion time that no schedule beats (package lowerbound, valid for any
// policy under ω = 0), and each Yahoo category's critical path: the floor
// under any "COSHH x % below Fair" claim. MRBOUND_COSHH_RHO sets the offered
// load (default 0.9).
func TestCOSHHMeanTurnaroundBound(t *testing.T) {
	spec := os.Getenv("MRBOUND_COSHH_BOUND")
	if spec == "" {
		t.Skip("set MRBOUND_COSHH_BOUND=yahoo[,facebook] to print the mean-completion bounds")
	}
	n := envSeeds(t, 5)
	rho := 0.0
	if s := os.Getenv("MRBOUND_COSHH_RHO"); s != "" {
		fmt.Sscan(s, &rho)
	}
	for _, trace := range strings.Split(spec, ",") {
		for _, homog := range []bool{false, true} {
			var lbs []float64
			for seed := int64(1); seed <= int64(n); seed++ {
				c := coshhRun{trace: trace, seed: seed, homog: homog, rho: rho}
				w, _ := coshhWorkload(t, c)
				b := streamBounds(t, w, coshhOptions(c))
				lb := b.Get(lowerbound.MeanTurnaround).Value / 1000
				lbs = append(lbs, lb)
				if seed == 1 && !homog {
					perCat := map[string][]float64{}
					for j, job := range w.Jobs {
						perCat[job.Category] = append(perCat[job.Category], b.CriticalPath[j]/1000)
					}
					for k, v := range perCat {
						t.Logf("   %s seed 1 %-22s jobs %3d critical path %.0f s", trace, k, len(v), slices.Max(v))
					}
				}
				t.Logf("%s homogeneous=%v seed %d: mean completion ≥ %.0f s (%d jobs, %d tasks)", trace, homog, seed, lb, len(w.Jobs), w.NumTasks())
			}
			t.Logf("%s homogeneous=%v: bound mean over %d seeds %.0f [%.0f–%.0f]", trace, homog, n, mean(lbs), slices.Min(lbs), slices.Max(lbs))
		}
	}
}

// boundCache holds each stream's mean-completion bound: every policy of a
// run set shares the stream (common random numbers), so it is computed once.
var boundCache = map[string]float64{}

// meanCompletionBound is package lowerbound's bound on the mean completion
// time (s) of run c's stream, valid for every schedule with ω = 0: a finished
// run below it is a simulator or checker defect.
func meanCompletionBound(t testing.TB, c coshhRun, w *sim.Workload, opt sim.Options) float64 {
	// The bound depends only on the tasks' work, the arrivals and the slots;
	// the fingerprint guards the key against a workload hook changing them.
	var arrivals sim.Time
	for _, j := range w.Jobs {
		arrivals += j.Arrival
	}
	key := fmt.Sprintf("%s|%d|%d|%s:%d|%g|%g|%v|tasks=%d|arrivals=%d", c.trace, c.seed, c.jobs, c.cluster, c.resources,
		c.interarrival, c.rho, c.trim, w.NumTasks(), arrivals)
	if lb, ok := boundCache[key]; ok {
		return lb
	}
	lb := streamBounds(t, w, opt).Get(lowerbound.MeanTurnaround).Value / 1000
	boundCache[key] = lb
	return lb
}

// streamBounds are package lowerbound's bounds for w run with opt.
func streamBounds(t testing.TB, w *sim.Workload, opt sim.Options) *lowerbound.Bounds {
	p, err := simbridge.Problem(w, opt, false)
	if err != nil {
		t.Fatal(err)
	}
	b, err := lowerbound.Compute(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCOSHHStoredRunsAboveBound re-checks every finished run in a run store
// (MRBOUND_COSHH_OUT, with MRBOUND_COSHH_VERIFY set) against its stream's
// mean-completion lower bound: the check runCOSHH now makes on every run,
// applied to runs stored before it existed.
func TestCOSHHStoredRunsAboveBound(t *testing.T) {
	out := os.Getenv("MRBOUND_COSHH_OUT")
	if out == "" || os.Getenv("MRBOUND_COSHH_VERIFY") == "" {
		t.Skip("set MRBOUND_COSHH_OUT=folder and MRBOUND_COSHH_VERIFY=1 to re-check a run store")
	}
	store, err := openRunStore(filepath.Join(out, "coshh-runs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	checked, closest := 0, math.Inf(1)
	for _, part := range []string{"main", "storage", "error", "jobs", "resources"} {
		for _, c := range coshhPlan(part, []string{"facebook", "yahoo"}, envSeeds(t, 5)) {
			r, ok := store.get(c)
			if !ok || r.completed != r.jobs {
				continue
			}
			w, _ := coshhWorkload(t, c)
			lb := meanCompletionBound(t, c, w, coshhOptions(c))
			if r.turnaround < lb-cpTol {
				t.Errorf("%s: mean completion %v s below the bound %v s", runKey(c), r.turnaround, lb)
			}
			checked++
			closest = min(closest, r.turnaround/lb)
		}
	}
	t.Logf("%d stored runs checked; the closest is %.2f× its bound", checked, closest)
}
