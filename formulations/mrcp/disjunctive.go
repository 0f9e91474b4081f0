package mrcp

import (
	"fmt"
	"math"

	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/model"
)

// disjunctive emits, over the unit slots m of each kind (slot i of resource r
// is one machine; all are interchangeable because every demand is 1):
//
//	S_t ∈ [est_t, lst_t] integer                                 (2, 10)
//	Σ_m y[t,m] = 1                                               (1)
//	o[t,u] + o[u,t] ≥ y[t,m] + y[u,m] − 1     each pair, m       (6, 7)
//	S_t + e_t ≤ S_u + M_tu·(1 − o[t,u]),  M_tu = lst_t + e_t − est_u
//	S_r ≥ S_m + e_m                          reduce r, map m     (3)
//	C_j ≥ S_r + e_r                                              (4)
//
// Pairs whose windows cannot overlap get no variables. Symmetry is broken by
// letting the i-th task of a kind use only machines 0..i (machines are
// relabelled in order of their first task) and by starting identical tasks of
// a job in index order (then only o[t,u] exists for them).
func (bt *Built) disjunctive(b *model.Builder, stop *stopper) error {
	in := bt.Instance
	for _, t := range bt.tasks {
		if t.q != 1 {
			return fmt.Errorf("%w: %s demands %d slots; the disjunctive model needs demand 1 (use time-indexed)", ErrUnsupported, t.ref, t.q)
		}
	}
	if err := bt.checkDisjunctiveSize(); err != nil {
		return err
	}
	for _, k := range []mrcpscenario.TaskKind{mrcpscenario.Map, mrcpscenario.Reduce} {
		for r, res := range in.Resources {
			for s := 0; s < res.Slots(k); s++ {
				bt.machines[k] = append(bt.machines[k], unitSlot{r, s})
			}
		}
	}
	sf := model.NewFamily[mrcpscenario.TaskRef](b, "S")
	bt.start = make([]model.Var, len(bt.tasks))
	for i, t := range bt.tasks {
		bt.start[i] = sf.Add(t.ref, float64(t.est), float64(t.lst), 0, model.Integer)
	}
	type yKey struct {
		T mrcpscenario.TaskRef
		M int
	}
	yf := model.NewFamily[yKey](b, "y")
	one := model.NewRowFamily[mrcpscenario.TaskRef](b, "assign")
	bt.assign = make([][]model.Var, len(bt.tasks))
	rank := [3]int{}
	for i, t := range bt.tasks {
		k := t.ref.Kind
		nm := min(len(bt.machines[k]), rank[k]+1)
		rank[k]++
		if len(bt.machines[k]) == 1 {
			continue // the only machine; no choice
		}
		e := model.Expr{}
		for m := 0; m < nm; m++ {
			v := yf.Add(yKey{t.ref, m}, 0, 1, 0, model.Binary)
			bt.assign[i] = append(bt.assign[i], v)
			e.Add(v, 1)
		}
		one.Equal(t.ref, e, 1)
	}
	ident := map[[2]int]bool{}
	for _, p := range bt.identicalPairs() {
		ident[p] = true
	}
	type pairKey struct{ T, U mrcpscenario.TaskRef }
	of := model.NewFamily[pairKey](b, "o")
	type linkKey struct {
		T, U mrcpscenario.TaskRef
		M    int
	}
	link := model.NewRowFamily[linkKey](b, "link")
	disj := model.NewRowFamily[pairKey](b, "disj")
	order := model.NewRowFamily[pairKey](b, "order")
	for i := range bt.tasks {
		if stop.tick() {
			return errBuildStopped
		}
		for u := i + 1; u < len(bt.tasks); u++ {
			t, w := bt.tasks[i], bt.tasks[u]
			if t.ref.Kind != w.ref.Kind || t.lst+t.dur <= w.est || w.lst+w.dur <= t.est {
				continue
			}
			addOrder := func(a, c int) model.Var { // o[a,c]: a before c when on one machine
				ta, tc := bt.tasks[a], bt.tasks[c]
				o := of.Add(pairKey{ta.ref, tc.ref}, 0, 1, 0, model.Binary)
				bigM := float64(ta.lst + ta.dur - tc.est)
				e := model.Expr{}
				e.Add(bt.start[a], 1).Add(bt.start[c], -1).Add(o, bigM)
				disj.LessEq(pairKey{ta.ref, tc.ref}, e, bigM-float64(ta.dur))
				return o
			}
			e := model.Expr{}
			e.Add(addOrder(i, u), 1)
			if ident[[2]int{i, u}] {
				s := model.Expr{}
				s.Add(bt.start[i], 1).Add(bt.start[u], -1)
				order.LessEq(pairKey{t.ref, w.ref}, s, 0)
			} else {
				e.Add(addOrder(u, i), 1)
			}
			if len(bt.machines[t.ref.Kind]) == 1 {
				link.GreaterEq(linkKey{t.ref, w.ref, 0}, e, 1)
				continue
			}
			for m := 0; m < min(len(bt.assign[i]), len(bt.assign[u])); m++ {
				row := model.Expr{}
				row.AddExpr(e, 1)
				row.Add(bt.assign[i][m], -1).Add(bt.assign[u][m], -1)
				link.GreaterEq(linkKey{t.ref, w.ref, m}, row, -1)
			}
		}
	}
	prec := model.NewRowFamily[pairKey](b, "prec")
	for ri, r := range bt.tasks {
		if r.ref.Kind != mrcpscenario.Reduce {
			continue
		}
		for m := range in.Jobs[r.ref.Job].Maps {
			mi := bt.index[mrcpscenario.TaskRef{Job: r.ref.Job, Kind: mrcpscenario.Map, Index: m}]
			e := model.Expr{}
			e.Add(bt.start[ri], 1).Add(bt.start[mi], -1)
			prec.GreaterEq(pairKey{r.ref, bt.tasks[mi].ref}, e, float64(bt.tasks[mi].dur))
		}
	}
	var err error
	bt.jv, err = bt.jobs(b, func(j int) []model.Expr {
		var out []model.Expr
		for r := range in.Jobs[j].Reduces {
			i := bt.index[mrcpscenario.TaskRef{Job: j, Kind: mrcpscenario.Reduce, Index: r}]
			e := model.Sum(bt.start[i])
			e.AddConst(float64(bt.tasks[i].dur))
			out = append(out, e)
		}
		return out
	})
	return err
}

// checkDisjunctiveSize refuses a disjunctive model that would not fit the
// memory budget, before any variable is made: for n tasks of a kind on m
// unit slots, up to n·min(n, m) assignment columns and, for each of the
// n(n−1)/2 pairs, two order columns, two big-M rows of three terms and
// min(n, m) link rows of up to four.
func (bt *Built) checkDisjunctiveSize() error {
	var n, m [3]float64
	for _, t := range bt.tasks {
		n[t.ref.Kind]++
	}
	for _, r := range bt.Instance.Resources {
		m[mrcpscenario.Map] += float64(r.MapSlots)
		m[mrcpscenario.Reduce] += float64(r.ReduceSlots)
	}
	cols, nnz := 0.0, 0.0
	for _, k := range []mrcpscenario.TaskKind{mrcpscenario.Map, mrcpscenario.Reduce} {
		slots := math.Min(n[k], m[k])
		pairs := n[k] * (n[k] - 1) / 2
		cols += n[k] + n[k]*slots + 2*pairs
		nnz += n[k]*slots + pairs*(6+4*slots)
	}
	return checkModelSize("disjunctive", bt.Horizon, cols, nnz)
}
