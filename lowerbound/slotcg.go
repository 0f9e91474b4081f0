package lowerbound

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

// SlotColumnsOptions configure SlotColumns.
type SlotColumnsOptions struct {
	// Tracked is the most single-task reduce groups the pricing keeps from
	// repeating in a column (0: 12; negative: none, pseudo-schedules only).
	// The pricing's states grow as 2^Tracked.
	Tracked int
	// Spans is the most multi-task reduce groups given a span row (0: 4;
	// negative: none). The pricing's states grow as 2^(Tracked + Spans).
	Spans int
	// Iterations caps the master solves (0: 400).
	Iterations int
	// Grid > 0 is the unit in ms, every arrival and duration rounded down to
	// a multiple of it (a relaxation, docs/bounds.md §4h); 0: the gcd of the
	// data, exact.
	Grid int64
	// Incumbent > 0 is the total turnaround in ms of a verified schedule: it
	// caps each job's completion as §4g's windows do, and the value.
	Incumbent int64
	// Solve is passed to the master's LP solver.
	Solve solve.Options
	// ExactCover makes the cover rows equalities (each reduce on exactly one
	// slot, as in S*) and writes each completion row relative to its
	// group's release, so that the master's coefficients are window-sized,
	// not absolute times (docs/bounds.md §4h).
	ExactCover bool
	// Smoothing in (0, 1) prices at Smoothing·(the duals of the best
	// bound so far) + (1 − Smoothing)·(the master's) first (Wentges); when
	// that finds no column improving the master, the master's own duals are
	// priced, so convergence is decided there (0: the master's only).
	Smoothing float64
	// Compact first solves the master without span rows in its compact
	// form (the time-indexed arc-flow LP of the pseudo-schedules,
	// docs/bounds.md §4h) and prices its cover and completion duals: their
	// bound counts, and they are the smoothing's first centre. The master
	// also starts from a shortest-ready-first list schedule and from the
	// compact LP's flow.
	Compact bool
	// CompactWindow > 0 lets the compact LP start a task only in the first
	// CompactWindow units after its release: a restriction, so its value is
	// no bound, but its duals, priced over the whole windows, are (0: the
	// whole windows).
	CompactWindow int64
	// CompactRounds caps the compact LP's rounds of arc generation (0: 50;
	// negative: none, the LP over the first arcs only).
	CompactRounds int
	// Progress, when set, is called after each master solve with the
	// iteration, the master's value and the best bound so far (ms).
	Progress func(iteration int, master, bound float64)

	// lateBy delays every reduce's release by that many units: 0 always but
	// in the test that shows the property test can fail.
	lateBy int64
}

// SlotColumnsResult is SlotColumns' answer.
type SlotColumnsResult struct {
	// Value is the certified bound on the total turnaround in ms (the best
	// Lagrangian value over the iterations, docs/bounds.md §4h).
	Value float64
	// Master is the last master LP's value in ms (not a bound unless
	// Converged).
	Master float64
	// Converged: no column of negative reduced cost was left.
	Converged bool
	// Stop says why the iterations ended: "converged", "no new column"
	// (every improving column is in the master already: the solver's duals
	// and the pricing disagree), "master <status>", "iterations" or
	// "context".
	Stop string
	// CompactValue is the compact LP's value in ms (not a bound: a
	// solver's value) and CompactBound the certified bound at its duals,
	// with Compact; both 0 otherwise or when the compact LP failed.
	CompactValue, CompactBound float64
	// Completions are the last master's C_j in ms: what the relaxation
	// charges each job.
	Completions []float64
	// Iterations, Columns, Tracked, Spanned and Units describe the run:
	// master solves, columns in the last master, groups kept elementary,
	// groups with a span row, horizon in units of Unit ms.
	Iterations, Columns, Tracked, Spanned int
	Units, Unit                           int64
}

// Defaults of SlotColumnsOptions, and the pricing's state cap: a float and
// a parent per (subset, unit) state.
const (
	defaultSlotTracked    = 12
	defaultSlotSpans      = 4
	defaultSlotIterations = 400
	slotStateLimit        = 1 << 24
	// slotCompactLimit caps the compact LP's arcs (columns).
	slotCompactLimit = 1 << 23
	// slotPriceTolerance, relative to the master's value, is how far below
	// −mu a column's reduced cost must be to count as improving: the
	// solver's duals are exact only to its own tolerances.
	slotPriceTolerance = 1e-9
)

// ErrSlotColumnsPreemptive: a column is a sequence of whole tasks on a slot.
var ErrSlotColumnsPreemptive = errors.New("lowerbound: the slot-column bound needs non-preemptive tasks")

// slotGroup is one reduce group of the relaxation: a job's n reduces of
// duration e units, released at rel (units); completions end by last.
type slotGroup struct {
	job       int
	n, e      int64
	rel, last int64
	delta     float64 // C_j ≥ (mean completion) + delta (units)
	tracked   int     // bit index in the pricing's subset, or −1
	// span ≥ 0 (the bit index in the pricing's F) gives g a span row:
	// spread·(C_j − L_j) ≥ Σ_slots (ℓ_g − L_j)⁺, ℓ_g the last end of g's
	// tasks on a slot, spread = min(n, R).
	span, spread   int
	sigma, pi, rho float64 // duals of its cover, completion and span rows
}

// slotColumn is one slot's sequence: per group, the tasks it holds, the sum
// of their completions and the last one (units).
type slotColumn struct {
	count map[int]int64
	sumC  map[int]int64
	lastC map[int]int64
}

func newSlotColumn() slotColumn {
	return slotColumn{count: map[int]int64{}, sumC: map[int]int64{}, lastC: map[int]int64{}}
}

// add puts a task of group gi ending at end (units) on the slot.
func (c *slotColumn) add(gi int, end int64) {
	c.count[gi]++
	c.sumC[gi] += end
	c.lastC[gi] = max(c.lastC[gi], end)
}

// SlotColumns bounds the total turnaround by the per-slot set-partitioning
// relaxation of the reduce side (docs/bounds.md §4h): a column is one reduce
// slot's sequence of whole reduces, released at their job's earliest map
// end; the master covers every reduce, uses at most R columns and charges each
// job the mean completion of each of its reduce groups (plus the spread R
// identical slots force) and, for up to Spans groups of several tasks, the
// average over the slots of their last ends; the pricing is a dynamic
// programme over time on one slot, elementary in up to Tracked single-task
// groups. The value is the Lagrangian bound of the best duals seen, so any
// stop is valid.
func SlotColumns(ctx context.Context, p *Problem, o SlotColumnsOptions) (SlotColumnsResult, error) {
	if err := p.Validate(); err != nil {
		return SlotColumnsResult{}, err
	}
	if p.Preemptive {
		return SlotColumnsResult{}, ErrSlotColumnsPreemptive
	}
	if o.Grid < 0 {
		return SlotColumnsResult{}, fmt.Errorf("lowerbound: slot columns: the grid %d ms is negative", o.Grid)
	}
	if !(o.Smoothing >= 0 && o.Smoothing < 1) {
		return SlotColumnsResult{}, fmt.Errorf("lowerbound: slot columns: the smoothing %g is not in [0, 1)", o.Smoothing)
	}
	pr := newPrep(p)
	if len(pr.jobs) == 0 {
		return SlotColumnsResult{Converged: true}, nil
	}
	sc, err := newSlotCG(pr, o)
	if err != nil {
		return SlotColumnsResult{}, err
	}
	res, err := sc.run(ctx)
	if o.Incumbent > 0 {
		res.Value = min(res.Value, float64(o.Incumbent))
	}
	return res, err
}

// slotCG holds one run of SlotColumns.
type slotCG struct {
	o             SlotColumnsOptions
	u             int64
	slots         int64
	groups        []slotGroup
	floor         []float64 // L_j: C_j ≥ L_j (units)
	sumA          float64   // Σ a_j in ms
	byJob         [][]int   // slot groups per job
	nTrack, nSpan int
	// mu is the price of a slot (minus the slot row's dual): a column
	// improves the master when its reduced cost is below −mu.
	mu          float64
	masterValue float64 // the last master's value (units)
	// completions are the last master's C_j in ms.
	completions []float64
	cols        []slotColumn
	seen        map[string]bool
	// greedyStarts are the first columns' tasks: (group, start).
	greedyStarts [][2]int64
	// horizon is the latest completion of any group (units).
	horizon int64
	// The pricing's tables, reused: f[(t − origin)·states + state] and its
	// choice.
	f      []float64
	choice []int32
	origin int64
}

// ceilUnits is ⌈ms/u⌉ for ms ≥ 0, with a little slack against a float head
// that should be an integer.
func ceilUnits(ms float64, u int64) int64 {
	return int64(math.Ceil(ms/float64(u) - 1e-9))
}

func newSlotCG(pr *prep, o SlotColumnsOptions) (*slotCG, error) {
	p := pr.p
	u := pr.timeIndexedUnit()
	if o.Grid > 0 {
		u = o.Grid
	}
	sc := &slotCG{o: o, u: u, slots: int64(pr.slots[kRed]), seen: map[string]bool{}}
	if sc.o.Tracked == 0 {
		sc.o.Tracked = defaultSlotTracked
	}
	if sc.o.Spans == 0 {
		sc.o.Spans = defaultSlotSpans
	}
	if sc.o.Iterations <= 0 {
		sc.o.Iterations = defaultSlotIterations
	}
	// The relaxed problem of §4g: pmin everywhere, slots of a kind pooled.
	// horizon: its semi-active horizon max a_j + Σ pmin (units).
	var maxA, total int64
	for j := range p.Jobs {
		maxA = max(maxA, p.Jobs[j].Arrival/u)
		for k, tasks := range [2][]Task{p.Jobs[j].Maps, p.Jobs[j].Reduces} {
			for i := range tasks {
				total += int64(pr.pmin(&tasks[i], k)) / u
			}
		}
	}
	horizon := maxA + total
	sc.floor = make([]float64, len(p.Jobs))
	sc.byJob = make([][]int, len(p.Jobs))
	floors := make([]int64, len(p.Jobs))
	heads := make([]int64, len(p.Jobs))
	for j := range p.Jobs {
		job := &p.Jobs[j]
		a := job.Arrival / u
		sc.sumA += float64(job.Arrival)
		// head: the last map end minus a_j, at least the map waves on the
		// pooled map slots and the map work over min(#maps, slots); the
		// reduces' waves likewise after it.
		var phase [2]int64
		for k, tasks := range [2][]Task{job.Maps, job.Reduces} {
			if len(tasks) == 0 {
				continue
			}
			d := make([]float64, len(tasks))
			var work float64
			for i := range tasks {
				d[i] = float64(int64(pr.pmin(&tasks[i], k)) / u)
				work += d[i]
			}
			slices.SortFunc(d, func(x, y float64) int { return cmp.Compare(y, x) })
			c := min(len(tasks), pr.slots[k])
			phase[k] = max(int64(math.Round(waves(d, pr.slots[k]))), int64(math.Ceil(work/float64(c)-1e-9)))
		}
		heads[j] = phase[kMap]
		floors[j] = a + phase[kMap] + phase[kRed]
	}
	// latest[j]: C_j ≤ it in some optimal relaxed schedule (the horizon, and
	// with an incumbent U, ⌊(a_j + U − Σ_{k≠j} (u·floor_k − a_k))/u⌋, as §4g;
	// in ms, because on a grid u·floor_k − a_k need not be whole units).
	var sumFloor int64 // ms
	for j := range p.Jobs {
		sumFloor += floors[j]*u - p.Jobs[j].Arrival
	}
	for j := range p.Jobs {
		job := &p.Jobs[j]
		a := job.Arrival / u
		latest := horizon
		if o.Incumbent > 0 {
			others := sumFloor - (floors[j]*u - job.Arrival)
			latest = min(latest, (job.Arrival+o.Incumbent-others)/u)
		}
		if latest < floors[j] {
			return nil, fmt.Errorf("lowerbound: slot columns: job %d cannot finish by %d ms: the incumbent %d ms is below the optimum", j, latest*u, o.Incumbent)
		}
		sc.floor[j] = float64(floors[j])
		counts := map[int64]int64{}
		var order []int64
		for i := range job.Reduces {
			e := int64(pr.pmin(&job.Reduces[i], kRed)) / u
			if e == 0 {
				continue // holds no slot; C_j ≥ its release is in the floor
			}
			if counts[e] == 0 {
				order = append(order, e)
			}
			counts[e]++
		}
		for _, e := range order {
			n := counts[e]
			// Among n tasks of length e on R slots at most R end in any
			// (t − e, t], so the i-th smallest completion is ≤ the largest
			// − ⌊(n − i)/R⌋·e.
			var spread int64
			for i := int64(1); i <= n; i++ {
				spread += (n - i) / sc.slots
			}
			g := slotGroup{job: j, n: n, e: e, rel: a + heads[j] + o.lateBy, last: latest,
				delta: float64(spread*e) / float64(n), tracked: -1, span: -1, spread: int(min(n, sc.slots))}
			if g.rel+e > g.last {
				return nil, fmt.Errorf("lowerbound: slot columns: job %d's reduces cannot end by %d ms", j, g.last*u)
			}
			sc.byJob[j] = append(sc.byJob[j], len(sc.groups))
			sc.groups = append(sc.groups, g)
			sc.horizon = max(sc.horizon, g.last)
		}
	}
	// Span rows for the multi-task groups of most work, then track the
	// shortest single-task groups (the cheapest to repeat), as many of each
	// as the options and the state cap allow.
	var singles, multis []int
	for i, g := range sc.groups {
		if g.n == 1 {
			singles = append(singles, i)
		} else {
			multis = append(multis, i)
		}
	}
	slices.SortStableFunc(singles, func(x, y int) int { return int(sc.groups[x].e - sc.groups[y].e) })
	slices.SortStableFunc(multis, func(x, y int) int {
		return int(sc.groups[y].n*sc.groups[y].e - sc.groups[x].n*sc.groups[x].e)
	})
	sc.origin = sc.horizon
	for _, g := range sc.groups {
		sc.origin = min(sc.origin, g.rel)
	}
	width := sc.horizon - sc.origin + 2
	if len(sc.groups) > 0 && width > slotStateLimit {
		return nil, fmt.Errorf("lowerbound: slot columns: a horizon of %d units of %d ms is too long for the pricing", width, u)
	}
	nSpan := max(0, min(len(multis), sc.o.Spans))
	for nSpan > 0 && (int64(1)<<nSpan)*width > slotStateLimit {
		nSpan--
	}
	nTrack := max(0, min(len(singles), sc.o.Tracked))
	for nTrack > 0 && (int64(1)<<(nTrack+nSpan))*width > slotStateLimit {
		nTrack--
	}
	for b, i := range singles[:nTrack] {
		sc.groups[i].tracked = b
	}
	for b, i := range multis[:nSpan] {
		sc.groups[i].span = b
	}
	sc.nTrack, sc.nSpan = nTrack, nSpan
	return sc, nil
}

// run alternates master solves and pricing until no column prices out, the
// iterations are spent or ctx ends.
func (sc *slotCG) run(ctx context.Context) (SlotColumnsResult, error) {
	res := SlotColumnsResult{Tracked: sc.nTrack, Spanned: sc.nSpan, Unit: sc.u, Units: sc.horizon - sc.origin + 1}
	best := math.Inf(-1)
	// record keeps the best bound and says whether lb improved it.
	record := func(lb float64) bool {
		if v := lb*float64(sc.u) - sc.sumA; v > best {
			best = v
			return true
		}
		return false
	}
	if len(sc.groups) == 0 {
		var s float64
		for _, f := range sc.floor {
			s += f
		}
		record(s)
		res.Value, res.Master, res.Converged = max(0, best), max(0, best), true
		return res, nil
	}
	sc.greedyColumns()
	res.Stop = "iterations"
	// center: the duals of the best bound so far (Wentges' stability
	// centre), nil until one is priced.
	var center []slotDuals
	if sc.o.Compact {
		sc.shortestReadyColumns()
		v, ok, err := sc.compact(ctx)
		if err != nil {
			return res, err
		}
		if ok {
			sc.normaliseDuals()
			minRC, _ := sc.price()
			lb := sc.lagrangian(minRC)
			record(lb)
			center = sc.duals()
			res.CompactValue = v*float64(sc.u) - sc.sumA
			res.CompactBound = max(0, lb*float64(sc.u)-sc.sumA)
		}
	}
	for it := 0; it < sc.o.Iterations; it++ {
		if err := ctx.Err(); err != nil {
			res.Stop = "context"
			break
		}
		master, status, err := sc.master(ctx)
		if err != nil {
			return res, err
		}
		res.Iterations++
		if status != solve.Optimal {
			res.Stop = "master " + status.String()
			if ctx.Err() != nil {
				res.Stop = "context"
			}
			break
		}
		res.Master = master*float64(sc.u) - sc.sumA
		sc.masterValue = master
		sc.normaliseDuals()
		tol := slotPriceTolerance * max(1, math.Abs(master))
		if center != nil && sc.o.Smoothing > 0 {
			// Price at the smoothed duals first: their bound counts, and
			// their columns go in when they improve the master.
			own := sc.duals()
			sc.setBlend(center, own, sc.o.Smoothing)
			minRC, cols := sc.price()
			if record(sc.lagrangian(minRC)) {
				center = sc.duals()
			}
			sc.setDuals(own)
			added := 0
			for _, c := range cols {
				if sc.reducedCost(c)+sc.mu < -tol && sc.addColumn(c) {
					added++
				}
			}
			if added > 0 {
				if sc.o.Progress != nil {
					sc.o.Progress(res.Iterations, res.Master, best)
				}
				continue
			}
			// A mispricing: the master's own duals are priced below.
		}
		minRC, newCols := sc.price()
		if record(sc.lagrangian(minRC)) || center == nil {
			center = sc.duals()
		}
		if sc.o.Progress != nil {
			sc.o.Progress(res.Iterations, res.Master, best)
		}
		added := 0
		for _, c := range newCols {
			if sc.addColumn(c) {
				added++
			}
		}
		// Improving: below −mu by more than the master's own rounding.
		if minRC+sc.mu > -tol {
			res.Converged, res.Stop = true, "converged"
			break
		}
		if added == 0 {
			res.Stop = "no new column"
			break
		}
	}
	res.Columns = len(sc.cols)
	res.Completions = sc.completions
	res.Value = max(0, best)
	return res, nil
}

// greedyColumns seeds the master with a feasible list schedule: groups'
// tasks in release order, each on the earliest-free slot.
func (sc *slotCG) greedyColumns() {
	var order []int // a group per task
	for i, g := range sc.groups {
		for range g.n {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(x, y int) int {
		gx, gy := sc.groups[x], sc.groups[y]
		if gx.rel != gy.rel {
			return int(gx.rel - gy.rel)
		}
		return int(gx.e - gy.e)
	})
	next := 0
	sc.listColumns(int64(len(order)), func(int64) int {
		next++
		return order[next-1]
	})
}

// shortestReadyColumns adds a second list schedule's columns (and arcs for
// the compact LP): whenever a slot frees, the shortest released task (the
// earliest released when none is), which on a loaded reduce side is far
// closer to the optimum than the release order.
func (sc *slotCG) shortestReadyColumns() {
	left := make([]int64, len(sc.groups))
	total := int64(0)
	for gi, g := range sc.groups {
		left[gi] = g.n
		total += g.n
	}
	sc.listColumns(total, func(free int64) int {
		pick := -1
		for gi, g := range sc.groups {
			if left[gi] == 0 {
				continue
			}
			if pick < 0 {
				pick = gi
				continue
			}
			p := sc.groups[pick]
			ready, pReady := g.rel <= free, p.rel <= free
			switch {
			case ready && !pReady, ready && pReady && g.e < p.e, !ready && !pReady && g.rel < p.rel:
				pick = gi
			}
		}
		left[pick]--
		return pick
	})
}

// listColumns adds the columns of a list schedule of tasks tasks: each, in
// turn, on the earliest-free slot, of the group pick gives for the instant
// that slot frees. The tasks' starts are kept in greedyStarts.
func (sc *slotCG) listColumns(tasks int64, pick func(free int64) int) {
	slots := int(min(sc.slots, tasks))
	free := make([]int64, slots)
	cols := make([]slotColumn, slots)
	for i := range cols {
		cols[i] = newSlotColumn()
	}
	for range tasks {
		s := 0
		for i := range free {
			if free[i] < free[s] {
				s = i
			}
		}
		gi := pick(free[s])
		g := sc.groups[gi]
		end := max(free[s], g.rel) + g.e
		free[s] = end
		cols[s].add(gi, end)
		sc.greedyStarts = append(sc.greedyStarts, [2]int64{int64(gi), end - g.e})
	}
	for _, c := range cols {
		sc.addColumn(c)
	}
}

// addColumn adds c unless the master has it.
func (sc *slotCG) addColumn(c slotColumn) bool {
	key := fmt.Sprint(c.count, c.sumC, c.lastC)
	if sc.seen[key] {
		return false
	}
	sc.seen[key] = true
	sc.cols = append(sc.cols, c)
	return true
}

// compact solves the master without span rows in its compact form and, when
// its status is optimal, puts its cover and completion duals in the groups
// (ρ = 0) and returns its value (units). A column of Q whose groups are all
// untracked is a path from the origin to the horizon of task arcs (a task
// of g started at s: s → s + e_g, r_g ≤ s, s + e_g ≤ last_g) and idle arcs
// (t → t + 1), so R columns are a flow of value ≤ R and conversely; the
// cover is exact and the completion rows relative to the release, as with
// ExactCover. Its duals are multipliers like any others: the bound priced
// at them is valid whatever the solver did (and tracked groups only raise
// the pricing's minimum). The task arcs are generated: first those within
// CompactWindow units of the release (all when 0), then, each round, the
// arcs of negative reduced cost at the LP's duals, until none is left (the
// LP over every arc is then solved) or the rounds are spent.
func (sc *slotCG) compact(ctx context.Context) (value float64, ok bool, err error) {
	width := sc.horizon - sc.origin // nodes 0 … width; width is the sink
	ng := len(sc.groups)
	in := make([][]bool, ng) // in[g][s − r_g]: the arc is in the LP
	arcs := width
	for gi, g := range sc.groups {
		in[gi] = make([]bool, max(0, g.last-g.e-g.rel+1))
		for k := range in[gi] {
			if w := sc.o.CompactWindow; w <= 0 || int64(k) <= w {
				in[gi][k] = true
				arcs++
			}
		}
	}
	// The first columns' arcs keep the LP feasible.
	for _, gs := range sc.greedyStarts {
		// (A greedy task may end after its window: no arc then.)
		if k := gs[1] - sc.groups[gs[0]].rel; k >= 0 && k < int64(len(in[gs[0]])) && !in[gs[0]][k] {
			in[gs[0]][k] = true
			arcs++
		}
	}
	rounds := sc.o.CompactRounds
	switch {
	case rounds == 0:
		rounds = 50
	case rounds < 0:
		rounds = 0
	}
	for round := 0; ; round++ {
		if arcs > slotCompactLimit {
			return 0, false, nil
		}
		r, ca, ok, err := sc.compactSolve(ctx, in, width)
		if err != nil || !ok {
			return 0, false, err
		}
		duals := r.RowDuals
		// An arc's reduced cost: −(σ'_g − π_g·(s + e_g − r_g) + φ_s − φ_{s+e_g}),
		// φ the flow rows' duals (φ_width = 0: the sink has no row).
		phi := func(t int64) float64 {
			if t >= width {
				return 0
			}
			return duals[2*ng+int(t)]
		}
		added := 0
		if round < rounds {
			tol := 1e-9 * max(1, math.Abs(r.Objective))
			for gi, g := range sc.groups {
				for k := range in[gi] {
					if in[gi][k] {
						continue
					}
					s := g.rel + int64(k)
					rc := -(duals[gi] - duals[ng+gi]*float64(s+g.e-g.rel) + phi(s-sc.origin) - phi(s+g.e-sc.origin))
					if rc < -tol {
						in[gi][k] = true
						added++
					}
				}
			}
		}
		arcs += int64(added)
		if added > 0 {
			continue
		}
		var offset float64
		for _, f := range sc.floor {
			offset += f
		}
		for gi := range sc.groups {
			g := &sc.groups[gi]
			g.pi = max(0, duals[ng+gi])
			g.sigma = duals[gi] + float64(g.rel)*g.pi
			g.rho = 0
		}
		for _, c := range sc.decompose(r.X, ca, width) {
			sc.addColumn(c)
		}
		return r.Objective + offset, true, nil
	}
}

// compactArc is a task arc of the compact LP: a task of group g started at
// s, the LP's column col.
type compactArc struct {
	g   int
	s   int64
	col int
}

// compactArcs are the compact LP's task arcs and its idle arcs' columns
// (t → t + 1 for t = 0 … width − 1, from the origin).
type compactArcs struct {
	task []compactArc
	idle []int
}

// decompose splits the compact LP's flow x into paths from the origin, each
// a slot's sequence: the columns of the master that give the compact LP's
// solution (the master starts from them). The solver's flow is kept only
// approximately, so a walk that finds no arc with flow idles on.
func (sc *slotCG) decompose(x []float64, ca compactArcs, width int64) []slotColumn {
	const eps = 1e-7
	out := make([][]int, width) // task arcs leaving each node
	for i, a := range ca.task {
		if x[a.col] > eps {
			t := a.s - sc.origin
			out[t] = append(out[t], i)
		}
	}
	rest := slices.Clone(x) // the flow not yet on a path
	var cols []slotColumn
	for range 4 * len(ca.task) {
		// The path's arcs: task arcs by index, idle arcs as −1 − t.
		var path []int
		bottleneck := math.Inf(1)
		for t := int64(0); t < width; {
			next := -1
			for _, i := range out[t] {
				if rest[ca.task[i].col] > eps {
					next = i
					break
				}
			}
			if next >= 0 {
				path = append(path, next)
				bottleneck = min(bottleneck, rest[ca.task[next].col])
				t += sc.groups[ca.task[next].g].e
				continue
			}
			path = append(path, -1-int(t))
			if v := rest[ca.idle[t]]; v > eps {
				bottleneck = min(bottleneck, v)
			}
			t++
		}
		c := newSlotColumn()
		tasks := 0
		for _, i := range path {
			if i >= 0 {
				a := ca.task[i]
				c.add(a.g, a.s+sc.groups[a.g].e)
				rest[a.col] -= bottleneck
				tasks++
			} else if col := ca.idle[-1-i]; rest[col] > eps {
				rest[col] -= bottleneck
			}
		}
		if tasks == 0 || math.IsInf(bottleneck, 1) {
			break
		}
		cols = append(cols, c)
	}
	return cols
}

// compactSolve solves the compact LP over the task arcs in in (and every
// idle arc): rows are the covers, the completions, then one flow row per
// node 0 … width − 1 (the origin's outflow ≤ R, the others kept).
func (sc *slotCG) compactSolve(ctx context.Context, in [][]bool, width int64) (solve.Result, compactArcs, bool, error) {
	var ca compactArcs
	b := model.NewBuilder("lowerbound-slot-columns-compact")
	d := make([]model.Var, len(sc.floor))
	var obj model.Expr
	for j := range sc.floor {
		d[j] = b.Continuous("", 0, math.Inf(1))
		obj.Add(d[j], 1)
	}
	flow := make([]model.Expr, width)
	ng := len(sc.groups)
	cover := make([]model.Expr, ng)
	completion := make([]model.Expr, ng)
	for gi, g := range sc.groups {
		for k, on := range in[gi] {
			if !on {
				continue
			}
			s := g.rel + int64(k)
			y := b.Continuous("", 0, math.Inf(1))
			ca.task = append(ca.task, compactArc{gi, s, y.Index()})
			cover[gi].Add(y, 1)
			completion[gi].Add(y, -float64(s+g.e-g.rel))
			flow[s-sc.origin].Add(y, 1)
			if end := s + g.e - sc.origin; end < width {
				flow[end].Add(y, -1)
			}
		}
	}
	for t := int64(0); t < width; t++ {
		z := b.Continuous("", 0, math.Inf(1))
		ca.idle = append(ca.idle, z.Index())
		flow[t].Add(z, 1)
		if t+1 < width {
			flow[t+1].Add(z, -1)
		}
	}
	// Each cover row is elastic: an uncovered task costs more than any
	// window, so the first rounds stay feasible when their arcs cannot
	// cover every task (the duals are multipliers whatever they are).
	penalty := 2 * float64(width+1)
	for gi, g := range sc.groups {
		miss := b.Continuous("", 0, math.Inf(1))
		obj.Add(miss, penalty)
		cover[gi].Add(miss, 1)
		b.Equal("", cover[gi], float64(g.n))
	}
	for gi, g := range sc.groups {
		row := completion[gi]
		row.Add(d[g.job], float64(g.n))
		b.GreaterEq("", row, float64(g.n)*(g.delta+float64(g.rel)-sc.floor[g.job]))
	}
	b.LessEq("", flow[0], float64(sc.slots))
	for t := int64(1); t < width; t++ {
		b.Equal("", flow[t], 0)
	}
	b.Minimize(obj)
	m, err := b.Build()
	if err != nil {
		return solve.Result{}, ca, false, fmt.Errorf("lowerbound: slot columns' compact LP: %w", err)
	}
	r, err := solve.Solve(ctx, m, sc.o.Solve)
	if err != nil {
		return r, ca, false, err
	}
	ok := r.Status == solve.Optimal && len(r.RowDuals) == m.NumRows() && len(r.X) == m.NumCols() &&
		!slices.ContainsFunc(r.RowDuals, notFinite)
	return r, ca, ok, nil
}

// master solves the restricted master LP over the columns so far and keeps
// its duals in the groups when its status is optimal (with finite duals).
// With ExactCover the cover rows are equalities and job j's completion is
// L_j + D_j, D_j ≥ 0, with each completion row taken relative to its
// group's release r_g: n_g·D_j − Σ_q (c_gq − a_gq·r_g)·x_q ≥ n_g·(δ_g + r_g
// − L_j), the original row plus r_g times the cover equality; so the
// original row's multipliers are π_g and σ_g = σ'_g + r_g·π_g.
func (sc *slotCG) master(ctx context.Context) (value float64, status solve.Status, err error) {
	exact := sc.o.ExactCover
	b := model.NewBuilder("lowerbound-slot-columns")
	x := make([]model.Var, len(sc.cols))
	for i := range x {
		x[i] = b.Continuous("", 0, math.Inf(1))
	}
	cj := make([]model.Var, len(sc.floor))
	var obj model.Expr
	var offset float64 // Σ_j L_j when the C_j are shifted
	for j, f := range sc.floor {
		lo := f
		if exact {
			lo, offset = 0, offset+f
		}
		cj[j] = b.Continuous("", lo, math.Inf(1))
		obj.Add(cj[j], 1)
	}
	// Each row's terms, gathered column by column.
	ng := len(sc.groups)
	cover := make([]model.Expr, ng)
	completion := make([]model.Expr, ng)
	span := make([]model.Expr, ng)
	for i, c := range sc.cols {
		for gi, n := range c.count {
			g := &sc.groups[gi]
			cover[gi].Add(x[i], float64(n))
			sum := float64(c.sumC[gi])
			if exact {
				sum -= float64(n * g.rel)
			}
			completion[gi].Add(x[i], -sum)
			if l := float64(c.lastC[gi]); g.span >= 0 && l > sc.floor[g.job] {
				span[gi].Add(x[i], -(l - sc.floor[g.job]))
			}
		}
	}
	// Cover rows, then completion rows, then span rows, then the slot count.
	for gi, g := range sc.groups {
		if exact {
			b.Equal("", cover[gi], float64(g.n))
		} else {
			b.GreaterEq("", cover[gi], float64(g.n))
		}
	}
	for gi, g := range sc.groups {
		row := completion[gi]
		row.Add(cj[g.job], float64(g.n))
		rhs := float64(g.n) * g.delta
		if exact {
			rhs += float64(g.n) * (float64(g.rel) - sc.floor[g.job])
		}
		b.GreaterEq("", row, rhs)
	}
	// Span rows: spread·C_j − Σ_col x·(ℓ_g − L_j)⁺ ≥ spread·L_j (0 on the
	// right with C_j shifted).
	var spanned []int
	for gi, g := range sc.groups {
		if g.span < 0 {
			continue
		}
		spanned = append(spanned, gi)
		row := span[gi]
		row.Add(cj[g.job], float64(g.spread))
		rhs := float64(g.spread) * sc.floor[g.job]
		if exact {
			rhs = 0
		}
		b.GreaterEq("", row, rhs)
	}
	var slots model.Expr
	for i := range x {
		slots.Add(x[i], 1)
	}
	b.LessEq("", slots, float64(sc.slots))
	b.Minimize(obj)
	m, err := b.Build()
	if err != nil {
		return 0, solve.StatusUnknown, fmt.Errorf("lowerbound: slot columns master: %w", err)
	}
	r, err := solve.Solve(ctx, m, sc.o.Solve)
	if err != nil {
		return 0, solve.StatusUnknown, err
	}
	if r.Status != solve.Optimal {
		return 0, r.Status, nil
	}
	if len(r.RowDuals) != m.NumRows() || len(r.X) != m.NumCols() || slices.ContainsFunc(r.RowDuals, notFinite) {
		return 0, solve.StatusUnknown, nil
	}
	for gi := range sc.groups {
		g := &sc.groups[gi]
		g.pi = max(0, r.RowDuals[ng+gi])
		if exact {
			g.sigma = r.RowDuals[gi] + float64(g.rel)*g.pi
		} else {
			g.sigma = max(0, r.RowDuals[gi])
		}
		g.rho = 0
	}
	for k, gi := range spanned {
		sc.groups[gi].rho = max(0, r.RowDuals[2*ng+k])
	}
	sc.mu = max(0, -r.RowDuals[2*ng+len(spanned)])
	sc.completions = sc.completions[:0]
	for j := range cj {
		v := r.X[cj[j].Index()]
		if exact {
			v += sc.floor[j]
		}
		sc.completions = append(sc.completions, v*float64(sc.u))
	}
	return r.Objective + offset, solve.Optimal, nil
}

// slotDuals are one group's multipliers: cover, completion and span.
type slotDuals struct{ sigma, pi, rho float64 }

// duals copies the groups' multipliers.
func (sc *slotCG) duals() []slotDuals {
	d := make([]slotDuals, len(sc.groups))
	for gi, g := range sc.groups {
		d[gi] = slotDuals{g.sigma, g.pi, g.rho}
	}
	return d
}

// setDuals puts d in the groups.
func (sc *slotCG) setDuals(d []slotDuals) {
	for gi := range sc.groups {
		g := &sc.groups[gi]
		g.sigma, g.pi, g.rho = d[gi].sigma, d[gi].pi, d[gi].rho
	}
}

// setBlend puts a·c + (1 − a)·d in the groups. Both have π, ρ ≥ 0 and
// cWeight ≤ 1 (and σ ≥ 0 unless the cover is exact), and so has the blend:
// its bound is valid.
func (sc *slotCG) setBlend(c, d []slotDuals, a float64) {
	for gi := range sc.groups {
		g := &sc.groups[gi]
		g.sigma = a*c[gi].sigma + (1-a)*d[gi].sigma
		g.pi = a*c[gi].pi + (1-a)*d[gi].pi
		g.rho = a*c[gi].rho + (1-a)*d[gi].rho
	}
}

// reducedCost is column c's reduced cost at the groups' multipliers, the
// slot row's left out: Σ_g [π_g·c_g − σ_g·a_g + ρ_g·(ℓ_g − L_j)⁺].
func (sc *slotCG) reducedCost(c slotColumn) float64 {
	var rc float64
	for gi, n := range c.count {
		g := &sc.groups[gi]
		rc += g.pi*float64(c.sumC[gi]) - g.sigma*float64(n)
		if g.span >= 0 {
			rc += g.rho * max(0, float64(c.lastC[gi])-sc.floor[g.job])
		}
	}
	return rc
}

// cWeight is Σ_g (n_g·π_g + spread_g·ρ_g) over job j's groups: C_j's
// coefficient in the Lagrangian is 1 minus it.
func (sc *slotCG) cWeight(j int) float64 {
	var s float64
	for _, gi := range sc.byJob[j] {
		g := &sc.groups[gi]
		s += float64(g.n)*g.pi + float64(g.spread)*g.rho
	}
	return s
}

// normaliseDuals scales each job's completion and span duals so that
// cWeight ≤ 1 (C_j's reduced cost ≥ 0): any such point gives a valid
// Lagrangian bound.
func (sc *slotCG) normaliseDuals() {
	for j, gs := range sc.byJob {
		if s := sc.cWeight(j); s > 1 {
			for _, gi := range gs {
				sc.groups[gi].pi /= s
				sc.groups[gi].rho /= s
			}
		}
	}
}

// lagrangian is the bound of §4h at the groups' duals (units, before the
// arrivals are subtracted), given the least reduced cost of one slot's
// column: Σ_g [n_g(σ_g + π_g·δ_g) + spread_g·ρ_g·L_j] + Σ_j (1 − cWeight_j)·L_j
// + R·min(0, minRC), lowered by a slack for rounding.
func (sc *slotCG) lagrangian(minRC float64) float64 {
	var v, mag float64
	for j, f := range sc.floor {
		v += max(0, 1-sc.cWeight(j)) * f
		mag += math.Abs(f)
	}
	for _, g := range sc.groups {
		t := float64(g.n)*(g.sigma+g.pi*g.delta) + float64(g.spread)*g.rho*sc.floor[g.job]
		v += t
		mag += math.Abs(t)
	}
	t := float64(sc.slots) * min(0, minRC)
	v += t
	mag += math.Abs(t)
	return v - 1e-9*mag - 1e-9
}

// price runs the dynamic programme of §4h on one slot, backwards in time:
// f(S, F, t) is the least Σ (π_g·C − σ_g) + Σ_{g ∈ F} ρ_g·(ℓ_g − L_j)⁺ over
// sequences of tasks that start at or after t and end by their group's last
// end, whose tracked tasks are the set S and whose spanned groups present
// are F (ℓ_g the last end of g's tasks); other groups may repeat. It returns
// the least reduced cost (0 for the empty column) and up to 10 of the most
// negative columns that improve the master (below −mu), one per final state.
func (sc *slotCG) price() (float64, []slotColumn) {
	width := sc.horizon - sc.origin + 2 // t = origin … horizon + 1
	nSt := 1 << (sc.nTrack + sc.nSpan)
	need := int(int64(nSt) * width)
	if cap(sc.f) < need {
		sc.f = make([]float64, need)
		sc.choice = make([]int32, need)
	}
	f, choice := sc.f[:need], sc.choice[:need]
	inf := math.Inf(1)
	// A task is worth placing only where π·C < σ (ρ's terms are ≥ 0): its
	// last useful end.
	lastUseful := make([]int64, len(sc.groups))
	for gi, g := range sc.groups {
		end := g.last
		switch {
		case g.sigma <= 0:
			end = g.rel // never negative
		case g.pi > 0:
			// In floats: σ/π may be beyond any int64.
			if v := math.Ceil(g.sigma / g.pi); v < float64(end) {
				end = int64(v)
			}
		}
		lastUseful[gi] = end
	}
	at := func(st int, ti int64) int64 { return ti*int64(nSt) + int64(st) }
	for st := range nSt {
		f[at(st, width-1)], choice[at(st, width-1)] = inf, -1
	}
	f[at(0, width-1)] = 0
	// The groups that may start at t are those with r_g ≤ t and t + e_g ≤
	// their last useful end: kept in a list (in group order, as a full scan
	// would visit them), added as t falls to their last useful start and
	// dropped below their release.
	byStart := make([]int, 0, len(sc.groups))
	for gi, g := range sc.groups {
		if lastUseful[gi]-g.e >= g.rel {
			byStart = append(byStart, gi)
		}
	}
	slices.SortStableFunc(byStart, func(x, y int) int {
		return cmp.Compare(lastUseful[y]-sc.groups[y].e, lastUseful[x]-sc.groups[x].e)
	})
	var active []int
	for ti := width - 2; ti >= 0; ti-- {
		t := sc.origin + ti
		kept := active[:0]
		for _, gi := range active {
			if sc.groups[gi].rel <= t {
				kept = append(kept, gi)
			}
		}
		active = kept
		added := false
		for len(byStart) > 0 && lastUseful[byStart[0]]-sc.groups[byStart[0]].e >= t {
			if gi := byStart[0]; sc.groups[gi].rel <= t {
				active = append(active, gi)
				added = true
			}
			byStart = byStart[1:]
		}
		if added {
			slices.Sort(active)
		}
		for st := range nSt {
			best, arg := f[at(st, ti+1)], int32(-1)
			for _, gi := range active {
				g := &sc.groups[gi]
				end := t + g.e
				c := g.pi*float64(end) - g.sigma
				next := ti + g.e
				switch {
				case g.tracked >= 0:
					if st&(1<<g.tracked) == 0 {
						continue
					}
					if v := f[at(st&^(1<<g.tracked), next)] + c; v < best {
						best, arg = v, int32(2*gi)
					}
				case g.span >= 0:
					bit := 1 << (sc.nTrack + g.span)
					if st&bit == 0 {
						continue
					}
					// A later task of g exists, or this one is g's last.
					if v := f[at(st, next)] + c; v < best {
						best, arg = v, int32(2*gi)
					}
					last := c + g.rho*max(0, float64(end)-sc.floor[g.job])
					if v := f[at(st&^bit, next)] + last; v < best {
						best, arg = v, int32(2*gi+1)
					}
				default:
					if v := f[at(st, next)] + c; v < best {
						best, arg = v, int32(2*gi)
					}
				}
			}
			f[at(st, ti)], choice[at(st, ti)] = best, arg
		}
	}
	type end struct {
		st int
		v  float64
	}
	var ends []end
	minRC := 0.0
	for st := range nSt {
		v := f[at(st, 0)]
		minRC = min(minRC, v)
		if v+sc.mu < -slotPriceTolerance*max(1, math.Abs(sc.masterValue)) {
			ends = append(ends, end{st, v})
		}
	}
	slices.SortFunc(ends, func(x, y end) int { return cmp.Compare(x.v, y.v) })
	var cols []slotColumn
	for _, e := range ends[:min(len(ends), 10)] {
		cols = append(cols, sc.backtrack(e.st, nSt, width))
	}
	return minRC, cols
}

// backtrack rebuilds the sequence of f(st, origin).
func (sc *slotCG) backtrack(st, nSt int, width int64) slotColumn {
	c := newSlotColumn()
	for ti := int64(0); ti < width-1; {
		arg := sc.choice[ti*int64(nSt)+int64(st)]
		if arg < 0 {
			ti++
			continue
		}
		gi := int(arg / 2)
		g := &sc.groups[gi]
		end := sc.origin + ti + g.e
		c.add(gi, end)
		switch {
		case g.tracked >= 0:
			st &^= 1 << g.tracked
		case g.span >= 0 && arg%2 == 1:
			st &^= 1 << (sc.nTrack + g.span)
		}
		ti += g.e
	}
	return c
}
