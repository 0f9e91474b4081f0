package lowerbound

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/mrbound/mrbound/internal/sizelimit"
	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

// TimeIndexedOptions configure TimeIndexedLP.
type TimeIndexedOptions struct {
	// Incumbent > 0 is the total turnaround in ms of a schedule known to
	// exist (a verified one): it narrows every job's window (docs/bounds.md
	// §4g). A value below the optimum makes the bound invalid; 0 uses the
	// semi-active horizon alone.
	Incumbent int64
	// MaxColumns refuses a model of more start columns (0: 2,000,000).
	MaxColumns int
	// Solve is passed to the LP solver.
	Solve solve.Options

	// shift is added to every completion row's right-hand side, in units:
	// 0 always but in the test that shows the property test can fail.
	shift float64
}

// defaultTIColumns caps TimeIndexedLP's start columns: beyond a few million
// the LP is more than a line's budget for either solver.
const defaultTIColumns = 2_000_000

// ErrTimeIndexedPreemptive: the relaxation charges each task one unbroken
// window, which a suspended task does not have.
var ErrTimeIndexedPreemptive = errors.New("lowerbound: the time-indexed LP needs non-preemptive tasks")

// TimeIndexedLP bounds the total turnaround by the LP relaxation of the
// pooled time-indexed model of non-preemptive slot scheduling
// (docs/bounds.md §4g): durations shortened to each task's fastest group, the
// slots of a kind pooled, time in units u (the gcd of every arrival and
// duration, so that an optimal semi-active schedule starts every task at a
// multiple of u), and per task group g (a job's tasks of one kind and one
// duration, n_g of them) the cumulative start counts F_g(τ), with
//
//	F_g(τ) − F_g(τ−1) ≥ 0                                   (starts)
//	Σ_g [F_g(τ) − F_g(τ − e_g)] ≤ c_k                       (capacity, each kind and unit τ)
//	n_m·F_r(τ) ≤ n_r·F_m(τ − e_m)                           (a reduce only after every map)
//	C_j ≥ e_g + lst_g − Σ_τ F_g(τ)/n_g                      (the last start ≥ the mean start)
//
// It sees non-preemption on the slots (a task holds a slot for its whole
// window, so a capacity row counts every task started within e_g before τ),
// which the interval relaxation of §4b cannot, but only fractionally. It has
// a column per task group and unit of its window, so it is meant for
// instances of a few thousand units and a few dozen groups (the small
// day-like family of bench/looseside); the value is certified from the row
// duals as BucketLP's.
func TimeIndexedLP(ctx context.Context, p *Problem, o TimeIndexedOptions) (LPResult, error) {
	if err := p.Validate(); err != nil {
		return LPResult{}, err
	}
	if p.Preemptive {
		return LPResult{}, ErrTimeIndexedPreemptive
	}
	pr := newPrep(p)
	if len(pr.jobs) == 0 {
		return LPResult{Status: solve.Optimal}, nil
	}
	m, err := pr.timeIndexedModel(o)
	if err != nil {
		return LPResult{}, err
	}
	res, err := solveLP(ctx, m, o.Solve)
	return o.atMostIncumbent(res), err
}

// atMostIncumbent caps the value at the incumbent's: the windows hold for
// schedules no worse than it, so the LP bounds the optimum only when the
// incumbent is a schedule's value — and then the optimum is at most it too
// (rev17a: a wrong incumbent must not make the bound exceed it).
func (o TimeIndexedOptions) atMostIncumbent(r LPResult) LPResult {
	if o.Incumbent > 0 && r.Value > float64(o.Incumbent) {
		r.Value = float64(o.Incumbent)
	}
	return r
}

// tiGroup is one task group of the time-indexed model.
type tiGroup struct {
	job, kind int
	// n tasks of duration e units; est and lst (units) bound every start:
	// F is a variable on [est, lst), 0 before est and n from lst on.
	n, e, est, lst int64
	// vars[τ − est] is the column of F(τ).
	vars []model.Var
}

// f adds coef·F_g(τ) to row, returning the constant part (F outside the
// window) instead of adding it.
func (g *tiGroup) f(row *model.Expr, tau int64, coef float64) float64 {
	switch {
	case tau < g.est:
		return 0
	case tau >= g.lst:
		return coef * float64(g.n)
	}
	row.Add(g.vars[tau-g.est], coef)
	return 0
}

// timeIndexedUnit is the gcd of every arrival and every task's shortest
// duration on a group of its kind: the data of the relaxed problem (1 when all
// are 0).
func (pr *prep) timeIndexedUnit() int64 {
	var u int64
	gcd := func(a, b int64) int64 {
		for b != 0 {
			a, b = b, a%b
		}
		return a
	}
	for j := range pr.p.Jobs {
		job := &pr.p.Jobs[j]
		u = gcd(u, job.Arrival)
		for k, tasks := range [2][]Task{job.Maps, job.Reduces} {
			for i := range tasks {
				u = gcd(u, int64(pr.pmin(&tasks[i], k)))
			}
		}
	}
	return max(u, 1)
}

// timeIndexedModel builds the LP of TimeIndexedLP.
func (pr *prep) timeIndexedModel(o TimeIndexedOptions) (*model.Model, error) {
	p := pr.p
	u := pr.timeIndexedUnit()
	// Times in units from t0 = min_j a_j (every release is at or after it).
	t0 := pr.minArrival / u
	// The relaxed problem's semi-active horizon: max a_j + Σ pmin (each start
	// of a semi-active schedule is a release, the end of a map of its job or
	// the end of the task before it on its slot).
	var horizon, maxA int64
	floor := make([]int64, len(p.Jobs)) // longest map + longest reduce: C_j − a_j in every schedule
	groups := []tiGroup{}
	for j := range p.Jobs {
		job := &p.Jobs[j]
		maxA = max(maxA, job.Arrival/u-t0)
		var longest [2]int64
		for k, tasks := range [2][]Task{job.Maps, job.Reduces} {
			counts := map[int64]int64{}
			var order []int64
			for i := range tasks {
				e := int64(pr.pmin(&tasks[i], k)) / u
				horizon += e
				longest[k] = max(longest[k], e)
				if counts[e] == 0 {
					order = append(order, e)
				}
				counts[e]++
			}
			for _, e := range order {
				groups = append(groups, tiGroup{job: j, kind: k, n: counts[e], e: e})
			}
		}
		floor[j] = longest[0] + longest[1]
	}
	horizon += maxA
	// latest[j] bounds C_j (units from t0): the horizon, and with an
	// incumbent U, a_j + U − Σ_{k≠j} floor_k (every schedule of value ≤ U).
	latest := make([]int64, len(p.Jobs))
	var sumFloor int64
	for j := range p.Jobs {
		sumFloor += floor[j]
	}
	for j := range p.Jobs {
		latest[j] = horizon
		if o.Incumbent > 0 {
			l := p.Jobs[j].Arrival/u - t0 + o.Incumbent/u - (sumFloor - floor[j])
			latest[j] = min(latest[j], l)
		}
		if latest[j] < p.Jobs[j].Arrival/u-t0+floor[j] {
			return nil, fmt.Errorf("lowerbound: time-indexed LP: job %d cannot finish by %d ms: the incumbent %d ms is below the optimum", j, (latest[j]+t0)*u, o.Incumbent)
		}
	}
	maxCols := o.MaxColumns
	if maxCols <= 0 {
		maxCols = defaultTIColumns
	}
	longestMap := make([]int64, len(p.Jobs))
	byJob := make([][]int, len(p.Jobs)) // the groups of each job
	for i, g := range groups {
		byJob[g.job] = append(byJob[g.job], i)
		if g.kind == kMap {
			longestMap[g.job] = max(longestMap[g.job], g.e)
		}
	}
	cols := 0
	for i := range groups {
		g := &groups[i]
		a := p.Jobs[g.job].Arrival/u - t0
		g.est = a
		if g.kind == kRed {
			g.est = a + longestMap[g.job] // every map of the job ends first
		}
		g.lst = max(g.est, latest[g.job]-g.e)
		cols += int(g.lst - g.est)
		if cols > maxCols {
			return nil, fmt.Errorf("lowerbound: time-indexed LP: more than %d start columns (%d jobs, horizon %d units of %d ms)", maxCols, len(p.Jobs), horizon, u)
		}
	}
	// The model's size, counted from the groups before anything is made
	// (rev17a: a fixed number of nonzeros per column undercounted jobs of
	// many map and reduce groups 7.7 times): a row costs a nonzero's share.
	rows, nnz := timeIndexedSize(groups, byJob)
	if err := sizelimit.CheckBytes("TimeIndexedLP", float64(cols)*sizelimit.ModelColumn+(nnz+rows)*sizelimit.ModelNonzero,
		fmt.Sprintf("a time-indexed LP of %d columns, %.3g rows and %.3g nonzeros", cols, rows, nnz)); err != nil {
		return nil, err
	}
	// Only units where some F(τ) or F(τ − e) is a column get a capacity
	// row (the others hold constants only): at most twice the columns,
	// however far apart the arrivals (rev17a: a loop to the last latest end
	// ran for ever on arrivals 2^40 ms apart). Each row scans the groups.
	units := capacityUnits(groups)
	if w := float64(len(units)) * float64(len(groups)); w > tiScanLimit {
		return nil, fmt.Errorf("lowerbound: time-indexed LP: %d task groups over %d time units are too many to scan (%.3g > %.3g)", len(groups), len(units), w, float64(tiScanLimit))
	}
	b := model.NewBuilder("lowerbound-time-indexed-lp")
	for i := range groups {
		g := &groups[i]
		g.vars = make([]model.Var, g.lst-g.est)
		for i := range g.vars {
			g.vars[i] = b.Continuous("", 0, float64(g.n))
		}
		// Starts: F non-decreasing.
		for tau := g.est + 1; tau < g.lst; tau++ {
			var row model.Expr
			g.f(&row, tau, 1)
			g.f(&row, tau-1, -1)
			b.GreaterEq("", row, 0)
		}
	}
	cj := make([]model.Var, len(p.Jobs))
	var obj model.Expr
	var sumA float64
	for j := range p.Jobs {
		a := p.Jobs[j].Arrival/u - t0
		cj[j] = b.Continuous("", float64(a+floor[j]), float64(latest[j])+o.shift)
		obj.Add(cj[j], float64(u))
		sumA += float64(p.Jobs[j].Arrival)
	}
	// Completion: the last start of a group is at least its mean start,
	// est + Σ_{τ ∈ [est, lst)} (1 − F(τ)/n).
	for i := range groups {
		g := &groups[i]
		row := model.NewExpr(int(g.lst-g.est) + 1)
		row.Add(cj[g.job], 1)
		for tau := g.est; tau < g.lst; tau++ {
			g.f(&row, tau, 1/float64(g.n))
		}
		b.GreaterEq("", row, float64(g.e+g.lst)+o.shift)
	}
	// Mean busy times (§4b's rows, per job and kind): the work of kind k,
	// W = Σ_g n_g·e_g, runs at rate ≤ c = min(#tasks, slots), so its last
	// piece ends ≥ μ + W/(2c), μ its mean busy time, Σ_g n_g·e_g·(mean
	// start_g + e_g/2)/W with mean start_g = lst_g − Σ_τ F_g(τ)/n_g. The maps'
	// end is the last map end, which precedes every reduce start (so the
	// reduces' mean starts too) and C_j − R_j.
	for j := range p.Jobs {
		var busy [2]model.Expr // Σ_g (e_g/W)·Σ_τ F_g(τ)
		var rhs, w [2]float64  // (1/W)·Σ_g n_g·e_g·(lst_g + e_g/2); W
		var count [2]int64
		var longest [2]int64
		for i := range groups {
			g := &groups[i]
			if g.job == j {
				w[g.kind] += float64(g.n * g.e)
				count[g.kind] += g.n
				longest[g.kind] = max(longest[g.kind], g.e)
			}
		}
		for k := range 2 {
			if w[k] == 0 {
				continue
			}
			for i := range groups {
				g := &groups[i]
				if g.job != j || g.kind != k {
					continue
				}
				for tau := g.est; tau < g.lst; tau++ {
					g.f(&busy[k], tau, float64(g.e)/w[k])
				}
				rhs[k] += float64(g.n*g.e) * (float64(g.lst) + float64(g.e)/2) / w[k]
			}
			c := float64(min(count[k], int64(pr.slots[k])))
			end := w[k]/(2*c) + rhs[k] // the kind's last end ≥ end − busy
			row := model.NewExpr(len(busy[k].Terms) + 1)
			row.Add(cj[j], 1)
			row.AddExpr(busy[k], 1)
			tail := 0.0
			if k == kMap {
				tail = float64(longest[kRed])
			}
			b.GreaterEq("", row, end+tail+o.shift)
			if k == kMap {
				// Every reduce group's mean start ≥ the last map end:
				// lst_r − Σ F_r/n_r ≥ end − busy.
				for i := range groups {
					r := &groups[i]
					if r.job != j || r.kind != kRed {
						continue
					}
					row := model.NewExpr(len(busy[k].Terms) + int(r.lst-r.est))
					row.AddExpr(busy[k], 1)
					for tau := r.est; tau < r.lst; tau++ {
						r.f(&row, tau, -1/float64(r.n))
					}
					b.GreaterEq("", row, end-float64(r.lst))
				}
			}
		}
	}
	// Precedence: n_m·F_r(τ) − n_r·F_m(τ − e_m) ≤ 0.
	for _, r := range groups {
		if r.kind != kRed {
			continue
		}
		for _, mi := range byJob[r.job] {
			m := groups[mi]
			if m.kind != kMap {
				continue
			}
			// τ = lst_r too, where F_r = n_r: every map must have started
			// by lst_r − e_m (later τ follow by the start rows).
			for tau := r.est; tau <= r.lst; tau++ {
				if tau-m.e >= m.lst {
					continue // every map started: F_r ≤ n_r is its bound
				}
				var row model.Expr
				c := r.f(&row, tau, float64(m.n))
				c += m.f(&row, tau-m.e, -float64(r.n))
				b.LessEq("", row, -c)
			}
		}
	}
	// Capacity: per kind (one pool when fungible) and unit τ, the tasks
	// running in [τ, τ+1) are those started in (τ − e, τ].
	pools := 2
	if pr.fungible {
		pools = 1
	}
	for k := range pools {
		capacity := float64(pr.slots[k])
		for _, tau := range units {
			var row model.Expr
			c := 0.0
			for i := range groups {
				g := &groups[i]
				if g.e == 0 || (!pr.fungible && g.kind != k) || tau < g.est || tau >= g.lst+g.e {
					continue
				}
				c += g.f(&row, tau, 1)
				c += g.f(&row, tau-g.e, -1)
			}
			if len(row.Terms) > 0 {
				b.LessEq("", row, capacity-c)
			}
		}
	}
	obj.AddConst(float64(t0*u)*float64(len(p.Jobs)) - sumA)
	b.Minimize(obj)
	m, err := b.Build()
	if err != nil {
		return nil, fmt.Errorf("lowerbound: time-indexed LP: %w", err)
	}
	return m, nil
}

// tiScanLimit caps the group visits of the capacity rows (units × groups):
// a few seconds of building.
const tiScanLimit = 4e8

// capacityUnits returns, in order and once each, the units τ at which some
// group has a column F(τ) or F(τ − e): ∪_g [est, lst) ∪ [est + e, lst + e).
func capacityUnits(groups []tiGroup) []int64 {
	type span struct{ lo, hi int64 }
	var spans []span
	for _, g := range groups {
		if g.e == 0 || g.lst <= g.est {
			continue
		}
		spans = append(spans, span{g.est, g.lst}, span{g.est + g.e, g.lst + g.e})
	}
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.lo, b.lo) })
	var out []int64
	next := int64(math.MinInt64)
	for _, sp := range spans {
		for tau := max(sp.lo, next); tau < sp.hi; tau++ {
			out = append(out, tau)
		}
		next = max(next, sp.hi)
	}
	return out
}

// timeIndexedSize counts the rows and nonzeros timeIndexedModel makes (the
// capacity rows bounded by twice the columns and two nonzeros per column per
// pool), before it makes them.
func timeIndexedSize(groups []tiGroup, byJob [][]int) (rows, nnz float64) {
	var kindCols [2][]float64
	kindCols[0] = make([]float64, len(byJob))
	kindCols[1] = make([]float64, len(byJob))
	var cols float64
	for _, g := range groups {
		c := float64(g.lst - g.est)
		cols += c
		rows += max(c-1, 0) + 1 // starts non-decreasing; completion
		nnz += 2*max(c-1, 0) + c + 1
		kindCols[g.kind][g.job] += c
		nnz += 4 * c // capacity, in at most two pools
	}
	for j, gs := range byJob {
		rows += 2 // mean busy times per kind
		nnz += kindCols[0][j] + kindCols[1][j] + 2
		for _, ri := range gs {
			r := groups[ri]
			if r.kind != kRed {
				continue
			}
			rows++ // the reduces' mean start after the maps
			nnz += kindCols[0][j] + float64(r.lst-r.est)
			for _, mi := range gs {
				if groups[mi].kind == kMap {
					c := float64(r.lst-r.est) + 1
					rows += c // precedence
					nnz += 2 * c
				}
			}
		}
	}
	rows += 4 * cols // capacity: at most twice the columns' units per pool
	return rows, nnz
}
