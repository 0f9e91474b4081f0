package mrcp

import (
	"fmt"
	"math"

	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/model"
)

// timeIndexed emits
//
//	Σ_{ℓ,τ} x[t,ℓ,τ] = 1                                   each task t     (1)
//	Σ_t q_t Σ_{τ' ∈ (τ−e_t, τ]} x[t,ℓ,τ'] ≤ cap_ℓ          each lane ℓ, τ  (6, 7)
//	F_t(τ) = Σ_{ℓ, τ' ≤ τ} x[t,ℓ,τ']                        cumulative start
//	F_r(τ) ≤ F_m(τ − e_m)          each reduce r, map m of its job, τ       (3)
//	C_j ≥ Σ_{ℓ,τ} (τ + e_r) x[r,ℓ,τ]                         each reduce r   (4)
//
// with τ restricted to each task's window (so (2) holds by construction).
// Lanes are the resources (x[t,r,τ], with cap c^mp_r or c^rd_r) or, when
// every demand is 1 and PerResource is off, one pooled lane per slot kind
// with the total capacity: unit-demand tasks that never overlap more than the
// total slot count can always be given slots (interval colouring), so both
// forms have the same schedules and the pooled one has no resource symmetry.
//
// Where a kind has one lane, the inner sum of (6, 7) is F_t(τ) − F_t(τ − e_t):
// two nonzeros instead of e_t. With one lane for both kinds (pooled) the
// model is in step form: x is eliminated, x[t,τ] = F_t(τ) − F_t(τ−1), and
//
//	F_t(τ) ≥ F_t(τ−1)                                         (x ≥ 0)
//	F_t(est−1) = 0, F_t(lst) = n_t   (constants, standing for (1))
//	Σ_τ τ·x[t,τ] = lst_t − Σ_{est ≤ τ < lst} F_t(τ)           (in (4))
//
// with F_t integer: the same LP relaxation (x ≤ min(n, cap) is implied by
// (6, 7) wherever a capacity row is emitted, and by n ≤ cap elsewhere),
// half the columns and a fifth of the nonzeros of the x form on the 20-job
// mixed streams (docs/results.md, issue 26, s10exact).
func (bt *Built) timeIndexed(b *model.Builder, o Options) error {
	in := bt.Instance
	unit := true
	for _, t := range bt.tasks {
		unit = unit && t.q == 1
	}
	bt.Pooled = unit && !o.PerResource
	for _, k := range []mrcpscenario.TaskKind{mrcpscenario.Map, mrcpscenario.Reduce} {
		if bt.Pooled {
			total := 0
			for _, r := range in.Resources {
				total += r.Slots(k)
			}
			bt.lanes[k] = []lane{{resource: -1, cap: total}}
		} else {
			for r, res := range in.Resources {
				bt.lanes[k] = append(bt.lanes[k], lane{resource: r, cap: res.Slots(k)})
			}
		}
	}
	// Groups: with pooled lanes, the identical maps of a job (same duration)
	// share one integer count per start time; every other task is a group
	// of its own with binaries.
	bt.groupOf = make([]int, len(bt.tasks))
	bt.groups = nil
	for i, t := range bt.tasks {
		if bt.Pooled && !o.Disaggregated && t.ref.Kind == mrcpscenario.Map && i > 0 {
			g := bt.groupOf[i-1]
			p := bt.tasks[bt.groups[g].tasks[0]]
			if p.ref.Job == t.ref.Job && p.ref.Kind == mrcpscenario.Map && p.dur == t.dur && p.q == t.q {
				bt.groupOf[i] = g
				bt.groups[g].tasks = append(bt.groups[g].tasks, i)
				continue
			}
		}
		bt.groupOf[i] = len(bt.groups)
		bt.groups = append(bt.groups, taskGroup{tasks: []int{i}})
	}
	// Step form: with one lane per kind that every task fits, the counts
	// F_g(τ) determine the schedule, x[g,τ] = F_g(τ) − F_g(τ−1), so the
	// x columns, their assignment and definition rows go and F_g is the
	// integer variable, non-decreasing (see the package doc).
	bt.step = bt.Pooled && !o.xForm
	for _, gr := range bt.groups {
		t := bt.tasks[gr.tasks[0]]
		bt.step = bt.step && len(bt.lanes[t.ref.Kind]) == 1 && bt.lanes[t.ref.Kind][0].cap >= t.q
	}
	if err := bt.checkTimeIndexedSize(); err != nil {
		return err
	}
	if cols, _ := bt.timeIndexedSize(); o.MaxStartColumns > 0 && cols > float64(o.MaxStartColumns) {
		return fmt.Errorf("%w: %.0f start columns, at most %d", ErrTooManyColumns, cols, o.MaxStartColumns)
	}
	type xKey struct {
		T    mrcpscenario.TaskRef
		L, S int
	}
	type fKey struct {
		T mrcpscenario.TaskRef
		S int
	}
	bt.xs = make([][]startVar, len(bt.tasks))
	if !bt.step {
		xf := model.NewFamily[xKey](b, "x")
		one := model.NewRowFamily[mrcpscenario.TaskRef](b, "assign")
		for g := range bt.groups {
			if o.stop.tick() {
				return errBuildStopped
			}
			gr := &bt.groups[g]
			t := bt.tasks[gr.tasks[0]]
			n := len(gr.tasks)
			typ := model.Binary
			if n > 1 {
				typ = model.Integer
			}
			e := model.Expr{}
			for l, ln := range bt.lanes[t.ref.Kind] {
				if ln.cap < t.q {
					continue
				}
				for tau := t.est; tau <= t.lst; tau++ {
					v := xf.Add(xKey{t.ref, l, tau}, 0, float64(min(n, ln.cap)), 0, typ)
					gr.xs = append(gr.xs, startVar{lane: l, tau: tau, v: v})
					e.Add(v, 1)
				}
			}
			one.Equal(t.ref, e, float64(n))
			if n == 1 {
				bt.xs[gr.tasks[0]] = gr.xs
			}
		}
	}
	// Cumulative starts F_g(τ), τ ∈ [est, lst), a count in [0, n_g] for a
	// group of n_g tasks: F_g(τ) = F_g(τ−1) + Σ_ℓ x[g,ℓ,τ] (Fdef), or in
	// step form integer with F_g(τ) ≥ F_g(τ−1) (step), F_g(lst) = n_g
	// standing for the assignment.
	ff := model.NewFamily[fKey](b, "F")
	fdef := model.NewRowFamily[fKey](b, "Fdef")
	stepRows := model.NewRowFamily[fKey](b, "step")
	F := make([]map[int]model.Var, len(bt.groups))
	for g := range bt.groups {
		if o.stop.tick() {
			return errBuildStopped
		}
		gr := &bt.groups[g]
		t := bt.tasks[gr.tasks[0]]
		n := len(gr.tasks)
		F[g] = map[int]model.Var{}
		typ := model.Continuous
		if bt.step {
			typ = model.Binary
			if n > 1 {
				typ = model.Integer
			}
		}
		for tau := t.est; tau < t.lst; tau++ {
			v := ff.Add(fKey{t.ref, tau}, 0, float64(n), 0, typ)
			F[g][tau] = v
			e := model.Expr{}
			e.Add(v, 1)
			if p, ok := F[g][tau-1]; ok {
				e.Add(p, -1)
			}
			if bt.step {
				gr.fs = append(gr.fs, v)
				if tau > t.est {
					stepRows.GreaterEq(fKey{t.ref, tau}, e, 0)
				}
				continue
			}
			for _, sv := range gr.xs {
				if sv.tau == tau {
					e.Add(sv.v, -1)
				}
			}
			fdef.Equal(fKey{t.ref, tau}, e, 0)
		}
	}
	// fAt is F_g(τ) as an expression: 0 before the window, n_g from lst on.
	fAt := func(g, tau int) (model.Expr, bool) {
		t := bt.tasks[bt.groups[g].tasks[0]]
		switch {
		case tau < t.est:
			return model.Expr{}, true
		case tau >= t.lst:
			return model.Expr{Constant: float64(len(bt.groups[g].tasks))}, true
		}
		return model.Sum(F[g][tau]), false
	}
	// Capacity, only where the tasks that could run exceed the lane.
	type capKey struct {
		K    mrcpscenario.TaskKind
		L, S int
	}
	capRows := model.NewRowFamily[capKey](b, "cap")
	for _, k := range []mrcpscenario.TaskKind{mrcpscenario.Map, mrcpscenario.Reduce} {
		lo, hi := -1, -1
		for _, t := range bt.tasks {
			if t.ref.Kind == k {
				if lo < 0 || t.est < lo {
					lo = t.est
				}
				hi = max(hi, t.lst+t.dur)
			}
		}
		// With one lane of the kind, F_g counts the starts on it.
		cumulative := len(bt.lanes[k]) == 1
		for l, ln := range bt.lanes[k] {
			for tau := lo; tau < hi; tau++ {
				if o.stop.tick() {
					return errBuildStopped
				}
				e := model.Expr{}
				potential := 0
				for g, gr := range bt.groups {
					t := bt.tasks[gr.tasks[0]]
					if t.ref.Kind != k || t.q > ln.cap || t.est > tau || t.lst+t.dur <= tau {
						continue
					}
					potential += t.q * len(gr.tasks)
					if bt.step || (cumulative && t.dur > 2) {
						// Σ_{τ' ∈ (τ−e, τ]} x[g,τ'] = F_g(τ) − F_g(τ−e): two
						// terms instead of up to e (the same LP).
						now, _ := fAt(g, tau)
						before, _ := fAt(g, tau-t.dur)
						e.AddExpr(now, float64(t.q))
						e.AddExpr(before, -float64(t.q))
						continue
					}
					for _, sv := range gr.xs {
						if sv.lane == l && sv.tau <= tau && sv.tau > tau-t.dur {
							e.Add(sv.v, float64(t.q))
						}
					}
				}
				if potential > ln.cap {
					capRows.LessEq(capKey{k, l, tau}, e, float64(ln.cap))
				}
			}
		}
	}
	// Precedence of reduce r (a group of one) after map group m of n_m
	// tasks: n_m·F_r(τ) ≤ F_m(τ − e_m), i.e. r may have started by τ only
	// when all n_m maps had started by τ − e_m (n_m = 1 is (3) itself).
	// precPollEvery is how many precedence rows go between two reads of the
	// context and the clock (a read is well under a microsecond, a row a
	// few).
	const precPollEvery = 256
	type precKey struct {
		R, M mrcpscenario.TaskRef
		S    int
	}
	prec := model.NewRowFamily[precKey](b, "prec")
	for ri, r := range bt.tasks {
		if o.stop.tick() {
			return errBuildStopped
		}
		if r.ref.Kind != mrcpscenario.Reduce {
			continue
		}
		rg := bt.groupOf[ri]
		done := map[int]bool{}
		for m := range in.Jobs[r.ref.Job].Maps {
			mg := bt.groupOf[bt.index[mrcpscenario.TaskRef{Job: r.ref.Job, Kind: mrcpscenario.Map, Index: m}]]
			if done[mg] {
				continue
			}
			done[mg] = true
			gm := bt.groups[mg]
			nm := len(gm.tasks)
			mt := bt.tasks[gm.tasks[0]]
			for tau := r.est; tau <= r.lst; tau++ {
				// A reduce's window spans the horizon: 10^4 rows per map
				// group at 1-ms units, so the context is read within it.
				if (tau-r.est)%precPollEvery == precPollEvery-1 && o.stop.poll() {
					return errBuildStopped
				}
				fm, fixed := fAt(mg, tau-mt.dur)
				if fixed && fm.Constant == float64(nm) {
					continue
				}
				fr, _ := fAt(rg, tau)
				row := model.Expr{}
				row.AddExpr(fr, float64(nm))
				row.AddExpr(fm, -1)
				prec.LessEq(precKey{r.ref, mt.ref, tau}, row, 0)
			}
		}
	}
	// Identical tasks of a job start in index order.
	sym := model.NewRowFamily[mrcpscenario.TaskRef](b, "order")
	startExpr := func(i int) model.Expr {
		e := model.Expr{}
		if bt.step {
			// Σ_τ τ·x(τ) = lst − Σ_{est ≤ τ < lst} F(τ) (summation by
			// parts, F(est−1) = 0, F(lst) = 1) for a task of its own.
			t := bt.tasks[i]
			e.AddConst(float64(t.lst))
			for _, v := range bt.groups[bt.groupOf[i]].fs {
				e.Add(v, -1)
			}
			return e
		}
		for _, sv := range bt.xs[i] {
			e.Add(sv.v, float64(sv.tau))
		}
		return e
	}
	for _, p := range bt.identicalPairs() {
		if len(bt.groups[bt.groupOf[p[0]]].tasks) > 1 {
			continue // one group: no order to impose
		}
		e := startExpr(p[0])
		e.AddExpr(startExpr(p[1]), -1)
		sym.LessEq(bt.tasks[p[1]].ref, e, 0)
	}
	var err error
	bt.jv, err = bt.jobs(b, func(j int) []model.Expr {
		var out []model.Expr
		for r := range in.Jobs[j].Reduces {
			i := bt.index[mrcpscenario.TaskRef{Job: j, Kind: mrcpscenario.Reduce, Index: r}]
			e := startExpr(i)
			e.AddConst(float64(bt.tasks[i].dur))
			out = append(out, e)
		}
		return out
	})
	if err != nil {
		return err
	}
	// Lateness in the strong form: a reduce that starts after d_j − e_r makes
	// job j late, N_j ≥ 1 − F_r(d_j − e_r) (the big-M row alone is weak in
	// the LP relaxation).
	lateRows := model.NewRowFamily[mrcpscenario.TaskRef](b, "latestart")
	for ri, r := range bt.tasks {
		if r.ref.Kind != mrcpscenario.Reduce {
			continue
		}
		d := in.Jobs[r.ref.Job].Deadline - r.dur
		if d < r.est || d >= r.lst {
			continue // N_j is forced to 1 by C_j's bounds, or r always ends in time
		}
		fr, _ := fAt(bt.groupOf[ri], d)
		row := model.Expr{}
		row.Add(bt.jv.n[r.ref.Job], 1)
		row.AddExpr(fr, 1)
		lateRows.GreaterEq(r.ref, row, 1)
	}
	return nil
}

// checkTimeIndexedSize refuses a time-indexed model that would not fit the
// memory budget, from the groups and windows alone, before any variable is
// made (see timeIndexedSize). It errs on the side of refusing.
func (bt *Built) checkTimeIndexedSize() error {
	cols, nnz := bt.timeIndexedSize()
	return checkModelSize("time-indexed", bt.Horizon, cols, nnz)
}

// timeIndexedSize is the start columns (exactly) and at least the
// nonzeros the time-indexed model will have (bt.groups, bt.lanes and
// bt.step set). Per group of window w:
//
//	x form: one x column per lane and start and one F column per start
//	        but the last (F is n_g from lst on);
//	        each x appears in its assignment row, its F definition, the
//	        completion row, the symmetry row of identical tasks and in at
//	        most min(duration, w) capacity rows (2 with one lane, where the
//	        rows take F differences), each F in its definition rows (2) and
//	        those capacity rows (2);
//	step form (every kind on one lane): one F column per start but the
//	        last, in two step rows, two capacity rows, the completion and
//	        the symmetry row.
//
// Each precedence row of a reduce has two F terms per map group of its job.
// Capacity rows are only emitted where the tasks could exceed the lane, so
// this overcounts.
func (bt *Built) timeIndexedSize() (cols, nnz float64) {
	for _, gr := range bt.groups {
		t := bt.tasks[gr.tasks[0]]
		window := float64(t.lst-t.est) + 1
		if bt.step {
			cols += window - 1
			nnz += 6 * window
			continue
		}
		lanes := 0.0
		for _, ln := range bt.lanes[t.ref.Kind] {
			if ln.cap >= t.q {
				lanes++
			}
		}
		cols += lanes*window + window - 1
		caps := math.Min(float64(t.dur), window)
		if lanes == 1 {
			caps = 2
		}
		nnz += lanes * window * (4 + caps)
		nnz += 4 * window
	}
	for _, r := range bt.tasks {
		if r.ref.Kind == mrcpscenario.Reduce {
			nnz += 2 * float64(len(bt.Instance.Jobs[r.ref.Job].Maps)) * (float64(r.lst-r.est) + 1)
		}
	}
	return cols, nnz
}
