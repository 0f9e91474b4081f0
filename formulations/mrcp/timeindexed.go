package mrcp

import (
	inst "github.com/mrbound/mrbound/instances/mrcp"
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
func (bt *Built) timeIndexed(b *model.Builder, o Options) error {
	in := bt.Instance
	unit := true
	for _, t := range bt.tasks {
		unit = unit && t.q == 1
	}
	bt.Pooled = unit && !o.PerResource
	for _, k := range []inst.TaskKind{inst.Map, inst.Reduce} {
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
	type xKey struct {
		T    inst.TaskRef
		L, S int
	}
	xf := model.NewFamily[xKey](b, "x")
	bt.xs = make([][]startVar, len(bt.tasks))
	one := model.NewRowFamily[inst.TaskRef](b, "assign")
	for i, t := range bt.tasks {
		e := model.Expr{}
		for l, ln := range bt.lanes[t.ref.Kind] {
			if ln.cap < t.q {
				continue
			}
			for tau := t.est; tau <= t.lst; tau++ {
				v := xf.Add(xKey{t.ref, l, tau}, 0, 1, 0, model.Binary)
				bt.xs[i] = append(bt.xs[i], startVar{lane: l, tau: tau, v: v})
				e.Add(v, 1)
			}
		}
		one.Equal(t.ref, e, 1)
	}
	// Capacity, only where the tasks that could run exceed the lane.
	type capKey struct {
		K    inst.TaskKind
		L, S int
	}
	capRows := model.NewRowFamily[capKey](b, "cap")
	for _, k := range []inst.TaskKind{inst.Map, inst.Reduce} {
		lo, hi := -1, -1
		for _, t := range bt.tasks {
			if t.ref.Kind == k {
				if lo < 0 || t.est < lo {
					lo = t.est
				}
				hi = max(hi, t.lst+t.dur)
			}
		}
		for l, ln := range bt.lanes[k] {
			for tau := lo; tau < hi; tau++ {
				e := model.Expr{}
				potential := 0
				for i, t := range bt.tasks {
					if t.ref.Kind != k || t.q > ln.cap || t.est > tau || t.lst+t.dur <= tau {
						continue
					}
					potential += t.q
					for _, sv := range bt.xs[i] {
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
	// Cumulative starts F_t(τ), τ ∈ [est, lst): F_t(τ) = F_t(τ−1) + Σ_ℓ x[t,ℓ,τ].
	type fKey struct {
		T inst.TaskRef
		S int
	}
	ff := model.NewFamily[fKey](b, "F")
	fdef := model.NewRowFamily[fKey](b, "Fdef")
	F := make([]map[int]model.Var, len(bt.tasks))
	for i, t := range bt.tasks {
		F[i] = map[int]model.Var{}
		for tau := t.est; tau < t.lst; tau++ {
			v := ff.Add(fKey{t.ref, tau}, 0, 1, 0, model.Continuous)
			F[i][tau] = v
			e := model.Expr{}
			e.Add(v, 1)
			if p, ok := F[i][tau-1]; ok {
				e.Add(p, -1)
			}
			for _, sv := range bt.xs[i] {
				if sv.tau == tau {
					e.Add(sv.v, -1)
				}
			}
			fdef.Equal(fKey{t.ref, tau}, e, 0)
		}
	}
	// fAt is F_t(τ) as an expression: 0 before the window, 1 from lst on.
	fAt := func(i, tau int) (model.Expr, bool) {
		t := bt.tasks[i]
		switch {
		case tau < t.est:
			return model.Expr{}, true
		case tau >= t.lst:
			return model.Expr{Constant: 1}, true
		}
		return model.Sum(F[i][tau]), false
	}
	type precKey struct {
		R, M inst.TaskRef
		S    int
	}
	prec := model.NewRowFamily[precKey](b, "prec")
	for ri, r := range bt.tasks {
		if r.ref.Kind != inst.Reduce {
			continue
		}
		job := in.Jobs[r.ref.Job]
		for m := range job.Maps {
			mi := bt.index[inst.TaskRef{Job: r.ref.Job, Kind: inst.Map, Index: m}]
			for tau := r.est; tau <= r.lst; tau++ {
				fm, fixed := fAt(mi, tau-bt.tasks[mi].dur)
				if fixed && fm.Constant == 1 {
					continue
				}
				row, _ := fAt(ri, tau)
				row.AddExpr(fm, -1)
				prec.LessEq(precKey{r.ref, bt.tasks[mi].ref, tau}, row, 0)
			}
		}
	}
	// Identical tasks of a job start in index order.
	sym := model.NewRowFamily[inst.TaskRef](b, "order")
	startExpr := func(i int) model.Expr {
		e := model.Expr{}
		for _, sv := range bt.xs[i] {
			e.Add(sv.v, float64(sv.tau))
		}
		return e
	}
	for _, p := range bt.identicalPairs() {
		e := startExpr(p[0])
		e.AddExpr(startExpr(p[1]), -1)
		sym.LessEq(bt.tasks[p[1]].ref, e, 0)
	}
	var err error
	bt.jv, err = bt.jobs(b, func(j int) []model.Expr {
		var out []model.Expr
		for r := range in.Jobs[j].Reduces {
			i := bt.index[inst.TaskRef{Job: j, Kind: inst.Reduce, Index: r}]
			e := startExpr(i)
			e.AddConst(float64(bt.tasks[i].dur))
			out = append(out, e)
		}
		return out
	})
	return err
}
