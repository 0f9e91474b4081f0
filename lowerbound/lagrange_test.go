package lowerbound

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// lagrangeGrids are the option sets the property test cycles through, from
// coarse grids that push work into the free tail to fine ones.
var lagrangeGrids = []LagrangeOptions{
	{Intervals: 4, Iterations: 40},
	{Intervals: 32, Work: 30000}, // the work budget's steps and stop
	{Intervals: 256, Iterations: 60},
	{Intervals: 1024, Iterations: 80},
}

// TestIntervalLagrangianNeverExceedsOptimum is the property test of the
// interval Lagrangian: on hundreds of seeded tiny instances its certified
// value is at most the enumerated optimal total turnaround, and its dual
// certificate, re-evaluated by an independent fine-grid computation
// (lagrangianAt), gives at least the reported value and at most the optimum.
func TestIntervalLagrangianNeverExceedsOptimum(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 150
	}
	rng := rand.New(rand.NewPCG(26, 19))
	stronger, withStarts, startsGain := 0, 0, 0
	for i := range n {
		p, opt := randomWithOptimum(t, rng)
		o := lagrangeGrids[i%len(lagrangeGrids)]
		res, err := IntervalLagrangian(context.Background(), p, o)
		if err != nil {
			t.Fatal(err)
		}
		optT := float64(opt.TotalTurnaround)
		if res.Value > optT+roundingSlack(optT) {
			t.Errorf("instance %d (%+v): Lagrangian bound %.9g > optimum %g\n%s", i, o, res.Value, optT, dump(p))
		}
		if res.Certificate == nil {
			t.Fatalf("instance %d: no certificate", i)
		}
		indep := lagrangianAt(p, res.Certificate)
		if res.Value > indep+1e-6*math.Max(1, math.Abs(indep)) {
			t.Errorf("instance %d: reported %.9g above its certificate's value %.9g", i, res.Value, indep)
		}
		if indep > optT+roundingSlack(optT) {
			t.Errorf("instance %d: certificate value %.9g > optimum %g\n%s", i, indep, optT, dump(p))
		}
		b, err := Compute(p)
		if err != nil {
			t.Fatal(err)
		}
		if res.Value > b.Get(TotalTurnaround).Value+1e-6 {
			stronger++
		}
		if slices.Contains(res.Certificate.Starts, true) {
			withStarts++
		}
		o.NoStarts = true
		alone, err := IntervalLagrangian(context.Background(), p, o)
		if err != nil {
			t.Fatal(err)
		}
		if res.Value > alone.Value+1e-6*math.Max(1, alone.Value) {
			startsGain++
		}
	}
	t.Logf("Lagrangian stronger than the combinatorial bounds on %d of %d instances; start-time terms in the best certificate on %d, a higher value than without them on %d",
		stronger, n, withStarts, startsGain)
	// The start-time terms must be exercised (their validity is what the
	// checks above test).
	if withStarts == 0 || startsGain == 0 {
		t.Errorf("start-time terms used on %d instances and stronger on %d: the property test does not exercise them", withStarts, startsGain)
	}
}

// lagrangianAt evaluates the Lagrangian of docs/bounds.md §4b at cert,
// independently of IntervalLagrangian's batched scan: each job's fractional
// knapsack over every interval after its release is solved by sorting all of
// them.
func lagrangianAt(p *Problem, cert *LagrangeCertificate) float64 {
	pr := newPrep(p)
	v, bp := cert.Weighting, cert.Breakpoints
	nInt := len(bp) - 1
	rows := len(cert.Lambda)
	val := 0.0
	for r := range rows {
		rate := pr.rate[v][r]
		for t := range nInt {
			val -= cert.Lambda[r][t] * rate * (bp[t+1] - bp[t])
		}
	}
	for j := range pr.jobs {
		ji := &pr.jobs[j]
		if a, b := cert.Alpha[j], cert.Beta[j]; !(a >= 0 && b >= 0 && a+b <= 1+1e-12) {
			// Weights outside the simplex make no valid bound, whatever
			// the value.
			return math.Inf(1)
		}
		if cert.Starts != nil && cert.Starts[j] {
			val += startTermAt(pr, cert, j)
			continue
		}
		val += (1-cert.Alpha[j]-cert.Beta[j])*(ji.a+ji.cp) - ji.a
		for k := range 2 {
			w := ji.work[v][k]
			theta := [2]float64{cert.Alpha[j], cert.Beta[j]}[k]
			if w <= 0 || theta == 0 {
				continue
			}
			c := pr.jobRateCap(j, k, v)
			release, h := ji.a+ji.head, w/(2*c)
			if k == kMap {
				release, h = ji.a, h+ji.tail
			}
			lam := cert.Lambda[min(k, rows-1)]
			type cand struct{ cost, room float64 }
			var cs []cand
			for t := range nInt {
				if bp[t] >= release {
					cs = append(cs, cand{theta*bp[t]/w + lam[t], c * (bp[t+1] - bp[t])})
				}
			}
			cs = append(cs, cand{theta * bp[nInt] / w, math.Inf(1)})
			sort.SliceStable(cs, func(x, y int) bool { return cs[x].cost < cs[y].cost })
			left, sum := w, 0.0
			for _, x := range cs {
				y := math.Min(left, x.room)
				sum += y * x.cost
				if left -= y; left <= 0 {
					break
				}
			}
			val += sum + theta*h
		}
	}
	return val
}

// startTermAt evaluates job j's start-time term of docs/bounds.md §4c at
// cert (C_j − a_j plus priced usage), independently of startMin: fills by
// sorting every interval, every candidate start tried without pruning, and
// prices integrated interval by interval.
func startTermAt(pr *prep, cert *LagrangeCertificate, j int) float64 {
	v, bp := cert.Weighting, cert.Breakpoints
	nInt := len(bp) - 1
	ji, job := &pr.jobs[j], &pr.p.Jobs[j]
	lamM, lamR := cert.Lambda[0], cert.Lambda[len(cert.Lambda)-1]
	first := func(x float64) int { // first breakpoint ≥ x, or the last
		for t, b := range bp {
			if b >= x {
				return t
			}
		}
		return nInt
	}
	// cover is the cheapest fill of w at rate ≤ c over intervals [lo, hi).
	cover := func(lam []float64, w, c float64, lo, hi int) float64 {
		type cand struct{ cost, room float64 }
		var cs []cand
		for t := lo; t < hi; t++ {
			cs = append(cs, cand{lam[t], c * (bp[t+1] - bp[t])})
		}
		sort.SliceStable(cs, func(x, y int) bool { return cs[x].cost < cs[y].cost })
		left, sum := w, 0.0
		for _, x := range cs {
			y := math.Min(left, x.room)
			sum += y * x.cost
			if left -= y; left <= 0 {
				return sum
			}
		}
		return math.Inf(1)
	}
	// price is the integral of lamR over [x, y].
	price := func(x, y float64) float64 {
		sum := 0.0
		for t := range nInt {
			if ov := math.Min(y, bp[t+1]) - math.Max(x, bp[t]); ov > 0 {
				sum += lamR[t] * ov
			}
		}
		return sum
	}
	head := first(ji.a + ji.head)
	wm, wr := ji.work[v][kMap], ji.work[v][kRed]
	h, q := math.Inf(1), math.Inf(1)
	for g, ok := range pr.eligible[kRed] {
		if ok {
			h = math.Min(h, pr.weights[v][kRed][g])
		}
	}
	for i := range job.Reduces {
		q = math.Min(q, pr.pmin(&job.Reduces[i], kRed))
	}
	K := len(startOffsets) - 1
	best := math.Inf(1)
	for i := 0; i <= K; i++ {
		from := min(head+startOffsets[i], nInt)
		e := bp[from]
		mc := 0.0
		if i < K && wm > 0 {
			mc = cover(lamM, wm, pr.jobRateCap(j, kMap, v), first(ji.a), min(head+startOffsets[i+1], nInt))
		}
		rc := math.Inf(1)
		switch {
		case len(job.Reduces) == 0:
			rc = e + ji.tail - ji.a
		case len(job.Reduces) > pr.slots[kRed] && wr > 0:
			for t := from; t < nInt; t++ {
				rc = math.Min(rc, math.Max(bp[t], e+ji.tail)-ji.a+cover(lamR, wr, pr.jobRateCap(j, kRed, v), from, t+1))
			}
			rc = math.Min(rc, math.Max(bp[nInt], e+ji.tail)-ji.a)
		default:
			cands := []float64{e, e + ji.tail - q}
			for _, b := range bp {
				cands = append(cands, b, b-q)
			}
			for _, x := range cands {
				if x >= e {
					c := math.Max(x+q, e+ji.tail) - ji.a + float64(len(job.Reduces))*h*price(x, x+q)
					rc = math.Min(rc, c)
				}
			}
		}
		best = math.Min(best, mc+rc)
	}
	return best
}

// TestIntervalLagrangianLoadedStream: on a loaded stream of one- and two-map
// jobs (per-job parallelism binds, and queueing adds to the critical paths)
// the Lagrangian beats every combinatorial component of ComputeWith, and it
// is reported under its name in the total and mean turnaround bounds.
func TestIntervalLagrangianLoadedStream(t *testing.T) {
	p := loadedStream()
	plain, err := Compute(p)
	if err != nil {
		t.Fatal(err)
	}
	// 60 steps: the work budget's 300 gain 0.01 % here.
	with, err := ComputeWith(context.Background(), p, Options{Lagrange: &LagrangeOptions{Iterations: 60}})
	if err != nil {
		t.Fatal(err)
	}
	tb := with.Get(TotalTurnaround)
	if tb.By != LagrangeComponent || tb.Value <= plain.Get(TotalTurnaround).Value {
		t.Errorf("Lagrangian %+v does not beat the combinatorial %g", tb, plain.Get(TotalTurnaround).Value)
	}
	if mb := with.Get(MeanTurnaround); mb.By != LagrangeComponent || mb.Value != tb.Value/float64(len(p.Jobs)) {
		t.Errorf("mean bound %+v, want %s at %g", mb, LagrangeComponent, tb.Value/float64(len(p.Jobs)))
	}
	t.Logf("total turnaround: Lagrangian %.6g, combinatorial %.6g (%s)", tb.Value, plain.Get(TotalTurnaround).Value, plain.Get(TotalTurnaround).By)
}

// TestIntervalLagrangianWorkBudget: without a step count the work budget
// decides the steps (docs/bounds.md §4b): a run spends at least its budget
// and stops within one step of it, the same budget gives the same run, a
// larger one runs more steps, and the default budget stops on a small
// stream once the value no longer rises, before maxLagrangeIters.
func TestIntervalLagrangianWorkBudget(t *testing.T) {
	p := loadedStream()
	p.Jobs = p.Jobs[:8]
	run := func(o LagrangeOptions) LagrangeResult {
		t.Helper()
		res, err := IntervalLagrangian(context.Background(), p, o)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	const budget = 50_000
	small, again, larger := run(LagrangeOptions{Work: budget}), run(LagrangeOptions{Work: budget}), run(LagrangeOptions{Work: 4 * budget})
	if small.Work < budget || small.Work-small.Work/int64(small.Iterations)*3 > budget {
		t.Errorf("budget %d: %d steps spent %d units", budget, small.Iterations, small.Work)
	}
	if again.Value != small.Value || again.Iterations != small.Iterations || again.Work != small.Work {
		t.Errorf("the same budget gave %+v, then %+v", small, again)
	}
	if larger.Iterations <= small.Iterations {
		t.Errorf("budget %d: %d steps; 4× the budget: %d", budget, small.Iterations, larger.Iterations)
	}
	def := run(LagrangeOptions{})
	if def.Iterations >= maxLagrangeIters || def.Work >= defaultLagrangeWork || def.Value < larger.Value {
		t.Errorf("default budget: %d steps, %d units, value %.6g (4× %d units: %.6g): want the plateau's stop, at least as high",
			def.Iterations, def.Work, def.Value, budget, larger.Value)
	}
	t.Logf("%d units: %d steps, %d: %d, default: %d steps (%d units)", budget, small.Iterations, 4*budget, larger.Iterations, def.Iterations, def.Work)
}

// loadedStream is TestComputeWithLP's stream: 60 jobs of 1–2 maps and one
// reduce (20–60 s each) on 4 nodes of 2 + 2 slots, Poisson arrivals 9 s apart.
func loadedStream() *Problem {
	rng := rand.New(rand.NewPCG(7, 7))
	p := &Problem{Mode: Fixed, Groups: 1}
	for range 4 {
		p.Nodes = append(p.Nodes, Node{MapSlots: 2, ReduceSlots: 2})
	}
	now := 0.0
	for range 60 {
		j := Job{Arrival: int64(now)}
		for range 1 + rng.IntN(2) {
			j.Maps = append(j.Maps, Task{Dur: []int64{20000 + rng.Int64N(40000)}})
		}
		j.Reduces = []Task{{Dur: []int64{20000 + rng.Int64N(40000)}}}
		p.Jobs = append(p.Jobs, j)
		now += rng.ExpFloat64() * 9000
	}
	return p
}

// TestStartTermsWideJobs: on a loaded stream where one job in eight has more
// reduces than there are reduce slots (FB-2009's shape at 20 nodes, docs/
// bounds.md §4c), the start-time terms raise the Lagrangian above the
// relaxation of §4b alone, and it stays below the total turnaround of a
// feasible schedule (FIFO list scheduling, each task on the earliest free
// slot of its kind).
func TestStartTermsWideJobs(t *testing.T) {
	p := wideStream()
	with, err := IntervalLagrangian(context.Background(), p, LagrangeOptions{Iterations: 60})
	if err != nil {
		t.Fatal(err)
	}
	alone, err := IntervalLagrangian(context.Background(), p, LagrangeOptions{Iterations: 60, NoStarts: true})
	if err != nil {
		t.Fatal(err)
	}
	fifo := fifoTotal(p)
	if with.Value <= alone.Value || with.Value > fifo {
		t.Errorf("with start-time terms %.6g, without %.6g, a feasible schedule %.6g: want without < with ≤ feasible", with.Value, alone.Value, fifo)
	}
	t.Logf("mean turnaround: with start-time terms %.2f s, without %.2f s, FIFO %.2f s", with.Value/80e3, alone.Value/80e3, fifo/80e3)
}

// wideStream: 80 jobs of 1–3 maps (1–5 s) and one reduce, or (one in eight)
// nine equal reduces (30–90 s), Poisson arrivals 24 s apart, on 4 nodes of
// 2 map and 1 reduce slots: the reduce slots are overloaded.
func wideStream() *Problem {
	rng := rand.New(rand.NewPCG(26, 10))
	p := &Problem{Mode: Fixed, Groups: 1}
	for range 4 {
		p.Nodes = append(p.Nodes, Node{MapSlots: 2, ReduceSlots: 1})
	}
	now := 0.0
	for range 80 {
		j := Job{Arrival: int64(now)}
		for range 1 + rng.IntN(3) {
			j.Maps = append(j.Maps, Task{Dur: []int64{1000 + rng.Int64N(4000)}})
		}
		n := 1
		if rng.IntN(8) == 0 {
			n = 9
		}
		d := 30000 + rng.Int64N(60000)
		for range n {
			j.Reduces = append(j.Reduces, Task{Dur: []int64{d}})
		}
		p.Jobs = append(p.Jobs, j)
		now += rng.ExpFloat64() * 24000
	}
	return p
}

// fifoTotal is Σ (C_j − a_j) of a feasible schedule of a single-group,
// fixed-slot problem: jobs in arrival order, each map on the earliest free
// map slot from a_j, each reduce on the earliest free reduce slot from the
// job's last map end.
func fifoTotal(p *Problem) float64 {
	var free [2][]int64
	for _, n := range p.Nodes {
		for range n.MapSlots {
			free[kMap] = append(free[kMap], 0)
		}
		for range n.ReduceSlots {
			free[kRed] = append(free[kRed], 0)
		}
	}
	place := func(k int, release, d int64) int64 {
		s := slices.Index(free[k], slices.Min(free[k]))
		start := max(release, free[k][s])
		free[k][s] = start + d
		return start + d
	}
	order := make([]int, len(p.Jobs))
	for j := range order {
		order[j] = j
	}
	sort.SliceStable(order, func(x, y int) bool { return p.Jobs[order[x]].Arrival < p.Jobs[order[y]].Arrival })
	total := 0.0
	for _, j := range order {
		job := &p.Jobs[j]
		end := job.Arrival
		for _, m := range job.Maps {
			end = max(end, place(kMap, job.Arrival, m.Dur[0]))
		}
		c := end
		for _, r := range job.Reduces {
			c = max(c, place(kRed, end, r.Dur[0]))
		}
		total += float64(c - job.Arrival)
	}
	return total
}
