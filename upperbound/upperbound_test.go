package upperbound_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mrbound/mrbound/compare"
	"github.com/mrbound/mrbound/compare/simbridge"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/policy/fair"
	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
	"github.com/mrbound/mrbound/sim/simtest"
	"github.com/mrbound/mrbound/upperbound"
)

// TestConformance: every construction, and a search order, passes the
// policy conformance suite on each of its cases — each trace verified by
// sim/check, no invalid action, every job completed, deterministic, the
// wake contract kept. A construction is built from the case's workload (it
// is clairvoyant), so the cases are run one by one with simtest.CheckCase.
func TestConformance(t *testing.T) {
	builders := map[string]func(w *sim.Workload) (sim.Policy, error){
		"order": func(w *sim.Workload) (sim.Policy, error) {
			order := make([]int, len(w.Jobs))
			for i := range order {
				order[i] = len(order) - 1 - i // last arrival first
			}
			return upperbound.NewOrder(w, order)
		},
	}
	// The search's candidates around a dynamic rule: seeded offsets of up
	// to ±20 s on each job's key.
	for _, r := range []upperbound.Rule{upperbound.SRPT, upperbound.LRPT, upperbound.Johnson, upperbound.SRPTHold} {
		builders[r.String()+"-offsets"] = func(w *sim.Workload) (sim.Policy, error) {
			rng := rand.New(rand.NewPCG(uint64(len(w.Jobs)), 7))
			off := make([]float64, len(w.Jobs))
			for j := range off {
				off[j] = (rng.Float64()*2 - 1) * 20000
			}
			return upperbound.NewWithOffsets(w, r, off)
		}
	}
	for _, r := range upperbound.Rules(lowerbound.MeanTurnaround) {
		builders[r.String()] = func(w *sim.Workload) (sim.Policy, error) { return upperbound.New(w, r) }
		builders[r.String()+"-fast"] = func(w *sim.Workload) (sim.Policy, error) { return upperbound.NewFast(w, r) }
	}
	for name, build := range builders {
		t.Run(name, func(t *testing.T) {
			for _, c := range simtest.Cases() {
				t.Run(c.Name, func(t *testing.T) {
					simtest.CheckCase(adapter{t}, c, func() sim.Policy {
						p, err := build(c.Workload)
						if err != nil {
							t.Fatal(err)
						}
						return p
					}, simtest.Caps{})
				})
			}
		})
	}
}

// adapter is a *testing.T as a simtest.T.
type adapter struct{ *testing.T }

func (a adapter) Run(name string, f func(simtest.T)) bool {
	return a.T.Run(name, func(t *testing.T) { f(adapter{t}) })
}

// tinyWorkload is a seeded random instance small enough for
// lowerbound.Exact: 1–2 nodes, 2–3 jobs, at most 8 tasks, whole-second
// durations, no non-local penalty (so the problem's durations are the true
// ones).
func tinyWorkload(rng *rand.Rand) *sim.Workload {
	w := &sim.Workload{Name: "tiny"}
	for range 1 + rng.IntN(2) {
		w.Cluster.Nodes = append(w.Cluster.Nodes, sim.Node{MapSlots: 1 + rng.IntN(2), ReduceSlots: 1})
	}
	tasks := 0
	for j := range 2 + rng.IntN(2) {
		job := sim.Job{Arrival: sim.Time(rng.IntN(4) * 1000), Deadline: sim.NoDeadline, Parent: -1}
		if j%2 == 0 {
			job.Deadline = job.Arrival + sim.Time((3+rng.IntN(6))*1000)
		}
		for range 1 + rng.IntN(2) {
			if tasks < 8 {
				job.Maps = append(job.Maps, sim.TaskSpec{Work: sim.Time((1 + rng.IntN(5)) * 1000)})
				tasks++
			}
		}
		if rng.IntN(2) == 0 && tasks < 8 {
			job.Reduces = append(job.Reduces, sim.TaskSpec{Work: sim.Time((1 + rng.IntN(4)) * 1000)})
			tasks++
		}
		w.Jobs = append(w.Jobs, job)
	}
	return w
}

// TestNeverBelowOptimum: on seeded random tiny instances, the best verified
// construction of every metric is at least the enumerated optimum and the
// certified bound — an upper value below either would be a bug in the
// constructions, the simulator, the checker or a bound.
func TestNeverBelowOptimum(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 1))
	n := 60
	if testing.Short() {
		n = 15
	}
	opt := simbridge.IdealOptions()
	attained := 0
	for i := range n {
		w := tinyWorkload(rng)
		p, err := simbridge.Problem(w, opt, false)
		if err != nil {
			t.Fatal(err)
		}
		ex, err := lowerbound.Exact(p)
		if err != nil {
			t.Fatal(err)
		}
		bd, err := lowerbound.Compute(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range lowerbound.Metrics() {
			r, err := upperbound.Best(context.Background(), w, p, upperbound.Options{Metric: m, Sim: opt, Evaluations: 8, Seed: uint64(i)})
			if err != nil {
				t.Fatal(err)
			}
			if r.Best == nil {
				t.Fatalf("instance %d, %s: no verified construction: %+v", i, m, r.Tried)
			}
			o := ex.Value(m, len(p.Jobs))
			if r.Best.Value < o-1e-9 || r.Best.Value < bd.Get(m).Certified-1e-9 {
				t.Errorf("instance %d, %s: upper %g (by %s) below the optimum %g or the bound %g", i, m, r.Best.Value, r.Best.By, o, bd.Get(m).Certified)
			}
			if r.Best.Value == o {
				attained++
			}
		}
	}
	t.Logf("the upper value is the optimum in %d of %d (instance, metric) pairs", attained, n*len(lowerbound.Metrics()))
}

// loaded is simtest's random stream of 24 jobs squeezed onto two nodes
// (two map slots and one reduce slot each), no non-local penalty.
func loaded() *sim.Workload {
	w := simtest.Random(1, simtest.RandomSpec{})
	w.Cluster.Nodes = w.Cluster.Nodes[:2]
	w.Cluster.NonLocalPenalty = 0
	return w
}

// TestBeatsOnlinePolicies: on a loaded stream the offline side strictly
// improves on FIFO and Fair for mean turnaround, makespan and max
// turnaround (values measured once in the log; the assertion is the
// inequality, not a number).
func TestBeatsOnlinePolicies(t *testing.T) {
	w, opt, p := loadedProblem(t)
	for _, m := range []lowerbound.Metric{lowerbound.MeanTurnaround, lowerbound.Makespan, lowerbound.MaxTurnaround} {
		best := 0.0
		for i, pol := range []sim.Policy{fifo.New(), fair.New()} {
			res, err := sim.Run(w, pol, opt)
			if err != nil {
				t.Fatal(err)
			}
			c, err := simbridge.Completions(res)
			if err != nil {
				t.Fatal(err)
			}
			v, err := compare.Value(p, m, c)
			if err != nil {
				t.Fatal(err)
			}
			if i == 0 || v < best {
				best = v
			}
		}
		r, err := upperbound.Best(context.Background(), w, p, upperbound.Options{Metric: m, Sim: opt, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if r.Best == nil {
			t.Fatalf("%s: no verified construction", m)
		}
		t.Logf("%s: best of fifo and fair %g, offline %g (by %s)", m, best, r.Best.Value, r.Best.By)
		if !(r.Best.Value < best) {
			t.Errorf("%s: offline %g (by %s) does not improve on the best of FIFO and Fair %g", m, r.Best.Value, r.Best.By, best)
		}
	}
}

// TestSeedFixesResult: Best twice with the same seed gives the same best
// schedule (value, construction, every completion) for each search kind.
func TestSeedFixesResult(t *testing.T) {
	w, opt, p := loadedProblem(t)
	for _, m := range []lowerbound.Metric{lowerbound.MeanTurnaround, lowerbound.Makespan, lowerbound.MaxTurnaround} {
		var got [2]*upperbound.Result
		for i := range got {
			var err error
			if got[i], err = upperbound.Best(context.Background(), w, p, upperbound.Options{Metric: m, Sim: opt, Evaluations: 25, Seed: 3}); err != nil {
				t.Fatal(err)
			}
		}
		a, b := got[0].Best, got[1].Best
		if a == nil || b == nil || a.Value != b.Value || a.By != b.By || !slices.Equal(a.Completion, b.Completion) || got[0].Evaluations != got[1].Evaluations {
			t.Errorf("%s: two runs with seed 3 differ: %+v and %+v", m, a, b)
		}
	}
}

// loadedProblem is the loaded stream, the ideal mode and its bounds'
// problem.
func loadedProblem(t *testing.T) (*sim.Workload, sim.Options, *lowerbound.Problem) {
	t.Helper()
	w := loaded()
	opt := simbridge.IdealOptions()
	p, err := simbridge.Problem(w, opt, false)
	if err != nil {
		t.Fatal(err)
	}
	return w, opt, p
}

// TestJohnsonFeedsReduces: two jobs arrive together on one node with one
// map and one reduce slot. A has a 3 s map and a 1 s reduce, B a 1 s map
// and a 3 s reduce. Johnson's order runs B's map first, so B's reduce
// overlaps A's map: both finish by 5 s (B's map [0,1], its reduce [1,4];
// A's map [1,4], its reduce [4,5]). Any schedule needs 5 s: the reduces
// take 4 s on the one slot and none can start before 1 s. Arrival order
// (A first) needs 7 s. The test asserts the launch order, the verified
// value 5 s for max turnaround and makespan, and that it equals the
// enumerated optimum.
func TestJohnsonFeedsReduces(t *testing.T) {
	w := &sim.Workload{Name: "johnson", Cluster: sim.Cluster{Nodes: []sim.Node{{MapSlots: 1, ReduceSlots: 1}}}}
	for _, d := range [][2]sim.Time{{3000, 1000}, {1000, 3000}} {
		w.Jobs = append(w.Jobs, sim.Job{Deadline: sim.NoDeadline, Parent: -1,
			Maps: []sim.TaskSpec{{Work: d[0]}}, Reduces: []sim.TaskSpec{{Work: d[1]}}})
	}
	opt := simbridge.IdealOptions()
	p, err := simbridge.Problem(w, opt, false)
	if err != nil {
		t.Fatal(err)
	}
	pol, err := upperbound.New(w, upperbound.Johnson)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(w, pol, opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := check.Verify(w, res); err != nil {
		t.Fatal(err)
	}
	if len(res.Trace) == 0 || res.Trace[0].Job != 1 || res.Trace[0].Kind != sim.Map {
		t.Errorf("first attempt %+v: want job 1's map (the shorter map, the longer reduce)", res.Trace)
	}
	ex, err := lowerbound.Exact(p)
	if err != nil {
		t.Fatal(err)
	}
	c, err := simbridge.Completions(res)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []lowerbound.Metric{lowerbound.MaxTurnaround, lowerbound.Makespan} {
		v, err := compare.Value(p, m, c)
		if err != nil {
			t.Fatal(err)
		}
		if o := ex.Value(m, len(p.Jobs)); v != 5000 || o != 5000 {
			t.Errorf("%s: johnson %g, optimum %g: want 5000 both", m, v, o)
		}
	}
}

// TestConstructionsNeverBelowOptimum: on seeded random tiny instances,
// every construction (and its -fast variant) passes sim/check and, for
// every metric, its value is at least the enumerated optimum — each
// construction's schedule, not only the best one Best keeps.
func TestConstructionsNeverBelowOptimum(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 2))
	n := 40
	if testing.Short() {
		n = 10
	}
	opt := simbridge.IdealOptions()
	for i := range n {
		w := tinyWorkload(rng)
		p, err := simbridge.Problem(w, opt, false)
		if err != nil {
			t.Fatal(err)
		}
		ex, err := lowerbound.Exact(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range upperbound.Rules(lowerbound.MeanTurnaround) {
			for fast, build := range []func(*sim.Workload, upperbound.Rule) (*upperbound.List, error){upperbound.New, upperbound.NewFast} {
				pol, err := build(w, r)
				if err != nil {
					t.Fatal(err)
				}
				res, err := sim.Run(w, pol, opt)
				if err != nil {
					t.Fatal(err)
				}
				if err := check.Verify(w, res); err != nil {
					t.Fatalf("instance %d, %v (fast %d): %v", i, r, fast, err)
				}
				c, err := simbridge.Completions(res)
				if err != nil {
					t.Fatalf("instance %d, %v (fast %d): %v", i, r, fast, err)
				}
				for _, m := range lowerbound.Metrics() {
					v, err := compare.Value(p, m, c)
					if err != nil {
						t.Fatal(err)
					}
					if o := ex.Value(m, len(p.Jobs)); v < o-1e-9 {
						t.Errorf("instance %d, %v (fast %d), %s: %g below the optimum %g", i, r, fast, m, v, o)
					}
				}
			}
		}
	}
}
