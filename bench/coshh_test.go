package bench

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mrbound/mrbound/instances/coshhscenario"
	"github.com/mrbound/mrbound/policy/coshh"
	"github.com/mrbound/mrbound/policy/fair"
	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
	"github.com/mrbound/mrbound/sim/report"
	_ "github.com/mrbound/mrbound/solve/native"
	"github.com/mrbound/mrbound/workload/coshhsim"
)

// timed wraps a policy and times every callback: the wall time of one
// decision (an offer, or an arrival with its classification and placement).
type timed struct {
	sim.Policy
	offers, arrivals stat
}

type stat struct {
	n        int
	sum, max time.Duration
}

func (s *stat) add(d time.Duration) {
	s.n++
	s.sum += d
	s.max = max(s.max, d)
}

func (s stat) mean() time.Duration {
	if s.n == 0 {
		return 0
	}
	return s.sum / time.Duration(s.n)
}

func (p *timed) Offer(s *sim.Sim, x int, f sim.Free) {
	t0 := time.Now()
	p.Policy.Offer(s, x, f)
	p.offers.add(time.Since(t0))
}

func (p *timed) JobArrival(s *sim.Sim, j int) {
	t0 := time.Now()
	p.Policy.JobArrival(s, j)
	p.arrivals.add(time.Since(t0))
}

// timedPlacer also forwards BlockPlacer; placement is timed with the arrival.
type timedPlacer struct {
	*timed
	placer sim.BlockPlacer
	place  time.Duration
}

func (p *timedPlacer) PlaceBlocks(s *sim.Sim, j int) {
	t0 := time.Now()
	p.placer.PlaceBlocks(s, j)
	p.place = time.Since(t0)
}

func (p *timedPlacer) JobArrival(s *sim.Sim, j int) {
	t0 := time.Now()
	p.Policy.JobArrival(s, j)
	p.arrivals.add(time.Since(t0) + p.place)
	p.place = 0
}

func wrap(p sim.Policy) (sim.Policy, *timed) {
	t := &timed{Policy: p}
	if bp, ok := p.(sim.BlockPlacer); ok {
		return &timedPlacer{timed: t, placer: bp}, t
	}
	return t, t
}

// coshhRow is one simulated run of the COSHH experiment.
type coshhRow struct {
	trace, users, policy string
	seed                 int64
	errI                 float64
	turnaround           float64 // s
	user                 report.UserReadings
	locality             float64
	overhead             time.Duration
	offers, arrivals     stat
	stats                coshh.Stats
	completed, jobs      int
	tasks                int
	wall                 time.Duration
	// nJobs and resources are the scaling parts' x (0: 100 jobs, Table 3).
	nJobs, resources int
}

func newCOSHHPolicy(name string, sc *coshhscenario.Scenario) sim.Policy {
	switch name {
	case "fifo":
		return fifo.New()
	case "fair":
		return fair.New()
	case "fair-nodelay":
		p := fair.New()
		p.NoDelay = true
		return p
	}
	p := coshh.New()
	p.Fallback = name == "coshh-fallback"
	p.AllSuggested = name == "coshh-nolp"
	p.UserRates = coshhsim.UserRates(sc)
	return p
}

// coshhRun names one run: a generated stream of Jobs (0: 100) on Table 3 at
// ρ = 0.9; Trim cuts every job to 50 maps and 10 reduces (tests).
type coshhRun struct {
	trace  string
	homog  bool
	seed   int64
	errI   float64
	policy string
	jobs   int
	trim   bool
	// ignoreStorage: every resource can hold a block (A-C7 "ignore").
	ignoreStorage bool
	// rho is the offered load (0: 0.9); cluster and resources pick another
	// cluster (default Table 3); interarrival, when > 0, fixes the mean gap
	// (s) instead of rho.
	rho          float64
	cluster      string
	resources    int
	interarrival float64
	// workload and options, when set, change the converted workload and the
	// simulator options (the controlled variants of the Yahoo diagnosis).
	workload func(*sim.Workload)
	options  func(*sim.Options)
	// inspect, when set, sees the finished run (diagnostics).
	inspect func(w *sim.Workload, res *sim.Result, p sim.Policy)
}

// coshhWorkload generates run c's stream and converts it for the simulator.
func coshhWorkload(t testing.TB, c coshhRun) (*sim.Workload, *coshhscenario.Scenario) {
	rho := c.rho
	if rho == 0 && c.interarrival == 0 {
		rho = 0.9
	}
	sc, err := coshhscenario.Generate(coshhscenario.GenOptions{Trace: c.trace, Jobs: c.jobs, Seed: c.seed, Rho: rho, Tasks: true,
		Homogeneous: c.homog, MaxError: c.errI, IgnoreStorage: c.ignoreStorage, Cluster: c.cluster, Resources: c.resources,
		MeanInterarrival: c.interarrival})
	if err != nil {
		t.Fatal(err)
	}
	w, err := coshhsim.Workload("gen", sc)
	if err != nil {
		t.Fatal(err)
	}
	for j := range w.Jobs {
		if c.trim {
			w.Jobs[j].Maps = w.Jobs[j].Maps[:min(50, len(w.Jobs[j].Maps))]
			w.Jobs[j].Reduces = w.Jobs[j].Reduces[:min(10, len(w.Jobs[j].Reduces))]
		}
	}
	if c.workload != nil {
		c.workload(w)
	}
	return w, sc
}

// coshhOptions are run c's simulator options: hadoop1 mode (H = 3 s),
// slow-start 0.05, the workload's estimates.
func coshhOptions(c coshhRun) sim.Options {
	opt := sim.DefaultOptions()
	opt.Seed = uint64(c.seed)
	opt.Estimates = sim.EstimateGiven
	if c.options != nil {
		c.options(&opt)
	}
	return opt
}

// runCOSHH simulates one run and checks its trace.
func runCOSHH(t testing.TB, c coshhRun) coshhRow {
	w, sc := coshhWorkload(t, c)
	opt := coshhOptions(c)
	p, tm := wrap(newCOSHHPolicy(c.policy, sc))
	res, err := sim.Run(w, p, opt)
	if err != nil {
		t.Fatal(err)
	}
	if err := check.Verify(w, res); err != nil {
		t.Fatalf("%s %s seed %d: checker: %v", c.trace, c.policy, c.seed, err)
	}
	if res.Rejected > 0 {
		t.Fatalf("%s %s: %d invalid actions", c.trace, c.policy, res.Rejected)
	}
	if j, cp := belowCriticalPath(w, res); j >= 0 {
		t.Fatalf("%s %s seed %d: job %d took %v s, below its critical path %v s", c.trace, c.policy, c.seed, j,
			(res.Jobs[j].Completion - res.Jobs[j].Arrival).Seconds(), cp)
	}
	if res.Metrics.CompletedJobs == len(w.Jobs) && opt.Overlap == 0 {
		lb := meanCompletionBound(t, c, w, opt)
		if res.Metrics.MeanTurnaround < lb-cpTol {
			t.Fatalf("%s %s seed %d: mean completion %v s below the lower bound %v s", c.trace, c.policy, c.seed,
				res.Metrics.MeanTurnaround, lb)
		}
	}
	r := coshhRow{trace: c.trace, users: "heterogeneous", policy: c.policy, seed: c.seed, errI: c.errI,
		turnaround: res.Metrics.MeanTurnaround, user: userReadings(w, res), locality: res.Metrics.Locality,
		overhead: res.Overhead, offers: tm.offers, arrivals: tm.arrivals, completed: res.Metrics.CompletedJobs,
		jobs: len(w.Jobs), tasks: w.NumTasks(), wall: res.Wall, nJobs: c.jobs, resources: c.resources}
	if c.homog {
		r.users = "homogeneous"
	}
	if c.ignoreStorage {
		r.users += ", storage ignored"
	}
	if cp, ok := tm.Policy.(*coshh.Policy); ok {
		r.stats = cp.Stats
	}
	if c.inspect != nil {
		c.inspect(w, res, tm.Policy)
	}
	return r
}

// userReadings are COSHH's dissatisfaction and fairness (zero without users).
func userReadings(w *sim.Workload, res *sim.Result) report.UserReadings {
	rd, _ := (&report.Report{Workload: w, Result: res}).UserReadings()
	return rd
}

// belowCriticalPath returns a completed job whose turnaround is below its
// critical path (policies.md §6), or -1:
//
//	CP_j = max(maxMap_j, W^m_j/S_m) + max(maxRed_j, W^r_j/S_r)
//
// with every task at the fastest node's speed and S_m, S_r the cluster's map
// and reduce slots; with ω = 0 no schedule does better. With ω > 0 a reduce
// may work during the map phase, so only
//
//	CP_j = max(M_j + (1−ω)·maxRed_j, max(maxRed_j, W^r_j/S_r))
//
// holds (M_j the map term above): every reduce ends at least (1−ω)·d after
// the last map, and the reduce work needs its slots whatever the overlap.
func belowCriticalPath(w *sim.Workload, res *sim.Result) (int, float64) {
	speed, sm, sr := 0.0, 0, 0
	for _, n := range w.Cluster.Nodes {
		speed = max(speed, n.Speed)
		sm += n.MapSlots
		sr += n.ReduceSlots
	}
	phase := func(ts []sim.TaskSpec, slots int) (float64, float64) {
		longest, sum := 0.0, 0.0
		for _, t := range ts {
			d := t.Work.Seconds() / speed
			longest = max(longest, d)
			sum += d
		}
		if len(ts) == 0 {
			return 0, 0
		}
		return max(longest, sum/float64(slots)), longest
	}
	omega := res.Options.Overlap
	for j, o := range res.Jobs {
		if !o.Done {
			continue
		}
		m, _ := phase(w.Jobs[j].Maps, sm)
		r, longest := phase(w.Jobs[j].Reduces, sr)
		cp := m + r
		if omega > 0 {
			cp = max(m+(1-omega)*longest, r)
		}
		if (o.Completion - o.Arrival).Seconds() < cp-cpTol {
			return j, cp
		}
	}
	return -1, 0
}

// cpTol absorbs the simulator's rounding of each task to whole milliseconds
// (seconds; a job's path has at most two rounded tasks plus phase sums).
const cpTol = 0.01

// TestCOSHHSmoke runs the experiment's pipeline on a short trimmed stream:
// every policy's trace passes the checker (inside runCOSHH), COSHH classified
// without an LP failure, and the work-conserving policies finish every job.
func TestCOSHHSmoke(t *testing.T) {
	for _, pol := range []string{"fifo", "fair", "coshh", "coshh-fallback"} {
		r := runCOSHH(t, coshhRun{trace: "facebook", seed: 2, policy: pol, jobs: 12, trim: true})
		if strings.HasPrefix(pol, "coshh") && (r.stats.Classifications == 0 || r.stats.LPFailures > 0) {
			t.Errorf("%s: stats %+v", pol, r.stats)
		}
		if pol != "coshh" && r.completed != r.jobs {
			t.Errorf("%s: %d of %d jobs completed", pol, r.completed, r.jobs)
		}
	}
}

// TestCOSHHExperiment reproduces COSHH §5–6 in simulation (minutes of CPU);
// it runs only with MRBOUND_COSHH_OUT set to a folder and MRBOUND_COSHH_PART
// to main, storage, error, jobs (§6.2.1) or resources (§6.2.2). Every
// finished run is appended to DIR/coshh-runs.jsonl and not run again, so a
// part can be spread over several commands: MRBOUND_COSHH_BUDGET (default
// 9m) stops starting runs after that much wall time, MRBOUND_COSHH_TRACE
// keeps one trace, MRBOUND_COSHH_SEEDS sets the seeds (1..n, default 5).
// Each call then writes the part's tables (coshh-PART.md) and plots from
// every stored run.
func TestCOSHHExperiment(t *testing.T) {
	out, part := os.Getenv("MRBOUND_COSHH_OUT"), os.Getenv("MRBOUND_COSHH_PART")
	if out == "" || !slices.Contains([]string{"main", "error", "storage", "jobs", "resources"}, part) {
		t.Skip("set MRBOUND_COSHH_OUT=folder and MRBOUND_COSHH_PART=main, error, storage, jobs or resources to run the COSHH experiment")
	}
	nSeeds := envSeeds(t, 5)
	budget := 9 * time.Minute
	if s := os.Getenv("MRBOUND_COSHH_BUDGET"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("MRBOUND_COSHH_BUDGET: %v", err)
		}
		budget = d
	}
	traces := []string{"facebook", "yahoo"}
	if s := os.Getenv("MRBOUND_COSHH_TRACE"); s != "" {
		traces = []string{s}
	}
	store, err := openRunStore(filepath.Join(out, "coshh-runs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	plan := coshhPlan(part, traces, nSeeds)
	start, left := time.Now(), 0
	for _, c := range plan {
		if store.has(c) {
			continue
		}
		if time.Since(start) > budget {
			left++
			continue
		}
		r := runCOSHH(t, c)
		t.Logf("%s %s %s n=%d res=%d I=%.1f seed %d: T %.0f s, done %d/%d, loc %.3f, overhead %v, wall %v",
			c.trace, r.users, c.policy, c.jobs, c.resources, c.errI, c.seed, r.turnaround, r.completed, r.jobs, r.locality, r.overhead, r.wall)
		if err := store.add(c, r); err != nil {
			t.Fatal(err)
		}
	}
	if left > 0 {
		t.Logf("budget %v reached: %d runs of part %s left; run the command again", budget, left, part)
	}
	var rows []coshhRow
	for _, c := range coshhPlan(part, []string{"facebook", "yahoo"}, nSeeds) {
		if r, ok := store.get(c); ok {
			rows = append(rows, r)
		}
	}
	if err := writeCOSHHPart(out, part, rows, nSeeds); err != nil {
		t.Fatal(err)
	}
}

// coshhPolicies are the policies of the main experiment.
var coshhPolicies = []string{"fifo", "fair", "coshh", "coshh-fallback"}

// scaleJobs and scaleResources are the x values of §6.2.1 (jobs submitted,
// 5 → 100) and §6.2.2 (Table 10 resources, 6 → 102).
var (
	scaleJobs      = []int{5, 10, 20, 30, 40, 50, 75, 100}
	scaleResources = []int{6, 12, 24, 42, 57, 78, 102}
)

// coshhPlan lists the runs of a part.
func coshhPlan(part string, traces []string, nSeeds int) []coshhRun {
	var plan []coshhRun
	for _, trace := range traces {
		for seed := int64(1); seed <= int64(nSeeds); seed++ {
			switch part {
			case "main", "storage":
				for _, homog := range []bool{false, true} {
					if homog && part == "storage" {
						continue
					}
					for _, pol := range coshhPolicies {
						plan = append(plan, coshhRun{trace: trace, homog: homog, seed: seed, policy: pol, ignoreStorage: part == "storage"})
					}
				}
			case "error":
				for _, e := range []float64{0, 0.1, 0.2, 0.3, 0.4} {
					plan = append(plan, coshhRun{trace: trace, seed: seed, errI: e, policy: "coshh"})
				}
			case "jobs":
				for _, n := range scaleJobs {
					for _, pol := range coshhPolicies[:3] {
						plan = append(plan, coshhRun{trace: trace, seed: seed, policy: pol, jobs: n})
					}
				}
			case "resources":
				for _, n := range scaleResources {
					for _, pol := range coshhPolicies[:3] {
						plan = append(plan, coshhRun{trace: trace, seed: seed, policy: pol, cluster: "table10", resources: n,
							interarrival: table3Interarrival(trace)})
					}
				}
			}
		}
	}
	return plan
}

// table3Interarrival is the mean gap (s) that offers ρ = 0.9 to Table 3: the
// arrival rate §6.2.2's scaling keeps while resources are added ("increasing
// the number of resources reduces the load").
func table3Interarrival(trace string) float64 {
	cats, err := coshhscenario.Trace(trace)
	if err != nil {
		panic(err)
	}
	res, err := coshhscenario.Cluster("table3", 0)
	if err != nil {
		panic(err)
	}
	return coshhscenario.MeanWork(cats) / (0.9 * coshhscenario.SlotCapacity(res))
}

// mean over rows matching keep of f, with the 95% half-width (normal).
func meanOf(rows []coshhRow, keep func(coshhRow) bool, f func(coshhRow) float64) (m, hw float64, n int) {
	var xs []float64
	for _, r := range rows {
		if keep(r) {
			xs = append(xs, f(r))
		}
	}
	n = len(xs)
	if n == 0 {
		return math.NaN(), 0, 0
	}
	for _, x := range xs {
		m += x
	}
	m /= float64(n)
	if n > 1 {
		v := 0.0
		for _, x := range xs {
			v += (x - m) * (x - m)
		}
		hw = 1.96 * math.Sqrt(v/float64(n-1)/float64(n))
	}
	return m, hw, n
}

// minMaxOf is the range of f over rows matching keep (NaN, NaN for none).
func minMaxOf(rows []coshhRow, keep func(coshhRow) bool, f func(coshhRow) float64) (lo, hi float64) {
	lo, hi = math.NaN(), math.NaN()
	for _, r := range rows {
		if keep(r) {
			v := f(r)
			if math.IsNaN(lo) || v < lo {
				lo = v
			}
			if math.IsNaN(hi) || v > hi {
				hi = v
			}
		}
	}
	return lo, hi
}

func coshhMarkdown(rows, errRows []coshhRow, policies []string, nSeeds int) string {
	var b strings.Builder
	for _, trace := range []string{"facebook", "yahoo"} {
		if len(rows) == 0 {
			break
		}
		for _, users := range []string{"heterogeneous", "homogeneous", "heterogeneous, storage ignored"} {
			if !slices.ContainsFunc(rows, func(r coshhRow) bool { return r.users == users }) {
				continue
			}
			label := users + " users"
			if u, ok := strings.CutSuffix(users, ", storage ignored"); ok {
				label = u + " users, storage ignored"
			}
			fmt.Fprintf(&b, "\n**%s, %s** (Table 3, 100 jobs, ρ = 0.9, H = 3 s; mean over %d seeds, ± 95%% half-width, [min–max])\n\n", trace, label, nSeeds)
			b.WriteString("| policy | avg completion (s) | jobs done | dissatisfaction (completions / time avg / last) | fairness (completions / time avg / last) | locality | overhead (s) | offer mean / max (µs) | arrival mean / max (ms) | classifications | LP solves (wall s) |\n")
			b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|\n")
			for _, pol := range policies {
				keep := func(r coshhRow) bool { return r.trace == trace && r.users == users && r.policy == pol }
				f := func(g func(coshhRow) float64) float64 { m, _, _ := meanOf(rows, keep, g); return m }
				T, hw, _ := meanOf(rows, keep, func(r coshhRow) float64 { return r.turnaround })
				lo, hi := minMaxOf(rows, keep, func(r coshhRow) float64 { return r.turnaround })
				maxOffer, maxArr := time.Duration(0), time.Duration(0)
				for _, r := range rows {
					if keep(r) {
						maxOffer = max(maxOffer, r.offers.max)
						maxArr = max(maxArr, r.arrivals.max)
					}
				}
				fmt.Fprintf(&b, "| %s | %.0f ± %.0f [%.0f–%.0f] | %.1f/100 | %.3f / %.3f / %.3f | %.3f / %.3f / %.3f | %.1f %% | %.2f | %.1f / %.0f | %.2f / %.1f | %.1f | %.1f (%.2f) |\n",
					pol, T, hw, lo, hi, f(func(r coshhRow) float64 { return float64(r.completed) }),
					f(func(r coshhRow) float64 { return r.user.Dissatisfaction.AtCompletions }),
					f(func(r coshhRow) float64 { return r.user.Dissatisfaction.TimeAverage }),
					f(func(r coshhRow) float64 { return r.user.Dissatisfaction.Last }),
					f(func(r coshhRow) float64 { return r.user.Fairness.AtCompletions }),
					f(func(r coshhRow) float64 { return r.user.Fairness.TimeAverage }),
					f(func(r coshhRow) float64 { return r.user.Fairness.Last }),
					100*f(func(r coshhRow) float64 { return r.locality }),
					f(func(r coshhRow) float64 { return r.overhead.Seconds() }),
					f(func(r coshhRow) float64 { return float64(r.offers.mean().Nanoseconds()) / 1e3 }), float64(maxOffer.Nanoseconds())/1e3,
					f(func(r coshhRow) float64 { return float64(r.arrivals.mean().Nanoseconds()) / 1e6 }), float64(maxArr.Nanoseconds())/1e6,
					f(func(r coshhRow) float64 { return float64(r.stats.Classifications) }),
					f(func(r coshhRow) float64 { return float64(r.stats.LPSolves) }),
					f(func(r coshhRow) float64 { return r.stats.LPWall.Seconds() }))
			}
		}
	}
	if len(errRows) == 0 {
		return b.String()
	}
	fmt.Fprintf(&b, "\n**Estimation error** (COSHH, heterogeneous users; estimates L·(1+E), E ~ U[−I, I] per job; mean over %d seeds ± 95%% half-width [min–max])\n\n", nSeeds)
	b.WriteString("| trace | I = 0 | I = 0.1 | I = 0.2 | I = 0.3 | I = 0.4 |\n|---|---|---|---|---|---|\n")
	for _, trace := range []string{"facebook", "yahoo"} {
		fmt.Fprintf(&b, "| %s |", trace)
		for _, e := range []float64{0, 0.1, 0.2, 0.3, 0.4} {
			keep := func(r coshhRow) bool { return r.trace == trace && r.errI == e }
			m, hw, _ := meanOf(errRows, keep, func(r coshhRow) float64 { return r.turnaround })
			lo, hi := minMaxOf(errRows, keep, func(r coshhRow) float64 { return r.turnaround })
			fmt.Fprintf(&b, " %.0f ± %.0f [%.0f–%.0f] |", m, hw, lo, hi)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestBelowCriticalPathCatches: two 10 s maps on one slot cannot finish in
// 15 s (CP = max(10, 20/1) = 20 s); 20 s passes.
func TestBelowCriticalPathCatches(t *testing.T) {
	w := &sim.Workload{Cluster: sim.Cluster{Nodes: []sim.Node{{MapSlots: 1, Speed: 1}}},
		Jobs: []sim.Job{{Parent: -1, Deadline: sim.NoDeadline, Maps: []sim.TaskSpec{{Work: 10000}, {Work: 10000}}}}}
	res := &sim.Result{Jobs: []sim.JobOutcome{{Arrived: true, Done: true, Completion: 15000}}}
	if j, cp := belowCriticalPath(w, res); j != 0 || cp != 20 {
		t.Errorf("15 s: got job %d, CP %v; want job 0, CP 20", j, cp)
	}
	res.Jobs[0].Completion = 20000
	if j, _ := belowCriticalPath(w, res); j != -1 {
		t.Errorf("20 s flagged job %d", j)
	}
}
