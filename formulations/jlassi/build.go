package jlassi

import (
	"fmt"
	"math"

	"github.com/mrbound/mrbound/instances/jlassiscenario"
	"github.com/mrbound/mrbound/internal/stopper"
	"github.com/mrbound/mrbound/model"
)

// redundancyTol is the slack below which a row whose largest possible
// activity does not exceed its right-hand side is dropped as redundant
// (strong form only); data are in MB and MB/s, so 1e-9 is far below any
// meaningful amount.
const redundancyTol = 1e-9

// Keys of the variable families.
type (
	wKey struct{ I, J, S, T int }      // task I on slot class S of machine J in interval T
	uKey struct{ B, From, To, T int }  // block B migrates From → To during T
	yKey struct{ B, J, T int }         // block B present on J in T after a migration
	zKey struct{ R, M, JR, JM, T int } // shuffle reduce R on JR ← map M on JM booked in T
	sKey struct {
		J    int
		K    jlassiscenario.TaskKind
		S, T int
	} // a slot-interval
)

// BuildOptions choose the model.
type BuildOptions struct {
	// Objective; zero means RealTime.
	Objective Objective
	// Form; zero means Strong.
	Form Form
	// T is the number of intervals; > 0.
	T int
	// Stop, when not nil, is ticked by the build's loops; once it reports a
	// stop, Build returns stopper.ErrStopped and no model.
	Stop *stopper.Stopper
}

// Model is a built model with what is needed to decode its solutions.
type Model struct {
	Model     *model.Model
	Inst      *jlassiscenario.Instance
	T         int
	Objective Objective
	Form      Form

	// classes[j][k][c] lists the slots of kind k (0 map, 1 reduce) of
	// machine j in slot class c: in the strong form, slots that no task and
	// no cost tells apart share one class (and one w variable per task and
	// interval); in the published form every slot is its own class.
	classes [][2][][]int

	w *model.Family[wKey]
	u *model.Family[uKey]
	y *model.Family[yKey]
	z *model.Family[zKey]
	l *model.Family[int]
}

// builder holds the indices used while emitting rows.
type builder struct {
	in   *jlassiscenario.Instance
	T    int
	form Form
	b    *model.Builder
	m    *Model
	// stop is ticked once per interval of every family's loop, so that a
	// long horizon's build is left within a millisecond of a stop.
	stop *stopper.Stopper

	wIT  map[[2]int][]model.Var // (task, t) → w
	wIJT map[[3]int][]model.Var // (task, machine, t) → w
	wS   map[sKey][]wEntry      // slot-interval → w with durations
	wJT  map[[2]int][]wEntry    // (machine, t) → w (all kinds)
	yV   map[yKey]model.Var
	uTo  map[[3]int][]uEntry // (block, to, t) → u
	uAll []uEntry
}

type wEntry struct {
	v    model.Var
	task int
	p    float64
}

type uEntry struct {
	v   model.Var
	key uKey
}

// Build emits the time-indexed model of the instance; see the package doc.
func Build(in *jlassiscenario.Instance, opts BuildOptions) (*Model, error) {
	if opts.Objective == ObjectiveUnknown {
		opts.Objective = RealTime
	}
	if opts.Form == FormUnknown {
		opts.Form = Strong
	}
	if opts.T <= 0 {
		return nil, fmt.Errorf("jlassi: horizon T must be positive, got %d", opts.T)
	}
	mb := model.NewBuilder(fmt.Sprintf("jlassi_%s_T%d", opts.Form, opts.T))
	m := &Model{Inst: in, T: opts.T, Objective: opts.Objective, Form: opts.Form,
		w: model.NewFamily[wKey](mb, "w"), u: model.NewFamily[uKey](mb, "u"),
		y: model.NewFamily[yKey](mb, "y"), z: model.NewFamily[zKey](mb, "z"),
		l: model.NewFamily[int](mb, "L")}
	bd := &builder{in: in, T: opts.T, form: opts.Form, b: mb, m: m, stop: opts.Stop,
		wIT: map[[2]int][]model.Var{}, wIJT: map[[3]int][]model.Var{}, wS: map[sKey][]wEntry{},
		wJT: map[[2]int][]wEntry{}, yV: map[yKey]model.Var{}, uTo: map[[3]int][]uEntry{}}
	m.classes = slotClasses(in, opts.Form == Strong)
	if err := checkSize(in, opts.T, m.classes); err != nil {
		return nil, err
	}
	bd.vars()
	if !bd.stop.Stopped() {
		bd.rows()
	}
	if bd.stop.Stopped() {
		return nil, stopper.ErrStopped
	}
	mod, err := mb.Build()
	if err != nil {
		return nil, fmt.Errorf("jlassi: %w", err)
	}
	m.Model = mod
	return m, nil
}

func kindIndex(k jlassiscenario.TaskKind) int {
	if k == jlassiscenario.Reduce {
		return 1
	}
	return 0
}

// slotClasses groups the slots of each machine and kind: with merge, slots
// with the same cost on which every task has the same processing time form
// one class (they are interchangeable); otherwise each slot is a class.
func slotClasses(in *jlassiscenario.Instance, merge bool) [][2][][]int {
	out := make([][2][][]int, len(in.Machines))
	for j := range in.Machines {
		for x, k := range []jlassiscenario.TaskKind{jlassiscenario.Map, jlassiscenario.Reduce} {
			slots := in.Machines[j].Slots(k)
			index := map[string]int{}
			for s := range slots {
				sig := fmt.Sprint(s)
				if merge {
					sig = fmt.Sprint(slots[s].Cost)
					for i := range in.Tasks {
						if in.Tasks[i].Kind == k && in.Tasks[i].P[j] != nil {
							sig += "," + fmt.Sprint(in.Tasks[i].P[j][s])
						}
					}
				}
				c, ok := index[sig]
				if !ok {
					c = len(out[j][x])
					index[sig] = c
					out[j][x] = append(out[j][x], nil)
				}
				out[j][x][c] = append(out[j][x][c], s)
			}
		}
	}
	return out
}

// allowed reports whether task i may run on machine j in interval t: a
// reduce never runs first, a map whose job has reduces never runs last, and a
// map never runs at t = 0 on a machine that lacks one of its blocks (a
// migration takes an interval).
func (bd *builder) allowed(i, j, t int) bool {
	task := &bd.in.Tasks[i]
	if task.P[j] == nil {
		return false
	}
	if task.Kind == jlassiscenario.Reduce {
		return t >= 1
	}
	if len(bd.in.Jobs[task.Job].Reduces) > 0 && t == bd.T-1 {
		return false
	}
	if t == 0 {
		for _, b := range task.Blocks {
			if !bd.in.Blocks[b].IsHome(j) {
				return false
			}
		}
	}
	return true
}

func (bd *builder) vars() {
	in, T, m := bd.in, bd.T, bd.m
	for t := 0; t < T; t++ {
		m.l.Add(t, 0, math.Inf(1), 0, model.Continuous)
	}
	for i := range in.Tasks {
		task := &in.Tasks[i]
		for j := range in.Machines {
			for t := 0; t < T; t++ {
				if bd.stop.Tick() {
					return
				}
				if !bd.allowed(i, j, t) {
					continue
				}
				for s, cls := range m.classes[j][kindIndex(task.Kind)] {
					p := task.P[j][cls[0]]
					v := m.w.Add(wKey{i, j, s, t}, 0, 1, 0, model.Binary)
					bd.wIT[[2]int{i, t}] = append(bd.wIT[[2]int{i, t}], v)
					bd.wIJT[[3]int{i, j, t}] = append(bd.wIJT[[3]int{i, j, t}], v)
					sk := sKey{j, task.Kind, s, t}
					bd.wS[sk] = append(bd.wS[sk], wEntry{v, i, p})
					bd.wJT[[2]int{j, t}] = append(bd.wJT[[2]int{j, t}], wEntry{v, i, p})
				}
			}
		}
	}
	for b := range in.Blocks {
		blk := &in.Blocks[b]
		for j := range in.Machines {
			if blk.IsHome(j) {
				continue
			}
			for t := 1; t < T; t++ {
				if bd.stop.Tick() {
					return
				}
				bd.yV[yKey{b, j, t}] = m.y.Add(yKey{b, j, t}, 0, 1, 0, model.Binary)
			}
		}
		for t := 0; t+1 < T; t++ {
			if bd.stop.Tick() {
				return
			}
			for from := range in.Machines {
				if !blk.IsHome(from) && t == 0 {
					continue
				}
				for to := range in.Machines {
					if to == from || blk.IsHome(to) {
						continue
					}
					k := uKey{b, from, to, t}
					e := uEntry{m.u.Add(k, 0, 1, 0, model.Binary), k}
					bd.uAll = append(bd.uAll, e)
					bd.uTo[[3]int{b, to, t}] = append(bd.uTo[[3]int{b, to, t}], e)
				}
			}
		}
	}
}

func (bd *builder) rows() {
	in, T, b, m := bd.in, bd.T, bd.b, bd.m
	strong := bd.form == Strong

	// assign (8, 9): every task exactly once.
	assign := model.NewRowFamily[int](b, "assign")
	for i := range in.Tasks {
		var e model.Expr
		for t := 0; t < T; t++ {
			if bd.stop.Tick() {
				return
			}
			for _, v := range bd.wIT[[2]int{i, t}] {
				e.Add(v, 1)
			}
		}
		assign.Equal(i, e, 1)
	}

	// slot (4, 5) and length (18).
	slot := model.NewRowFamily[sKey](b, "slot")
	length := model.NewRowFamily[sKey](b, "len")
	lengthTask := model.NewRowFamily[wKey](b, "len")
	for j := range in.Machines {
		for _, k := range []jlassiscenario.TaskKind{jlassiscenario.Map, jlassiscenario.Reduce} {
			for s, cls := range m.classes[j][kindIndex(k)] {
				size := float64(len(cls))
				for t := 0; t < T; t++ {
					if bd.stop.Tick() {
						return
					}
					sk := sKey{j, k, s, t}
					ws := bd.wS[sk]
					if len(ws) == 0 || (strong && len(ws) <= len(cls)) {
						// Too few binaries to exceed the class's slots.
					} else {
						var e model.Expr
						for _, x := range ws {
							e.Add(x.v, 1)
						}
						slot.LessEq(sk, e, size)
					}
					lt, _ := m.l.Get(t)
					if strong {
						if len(ws) == 0 {
							continue
						}
						var e model.Expr
						for _, x := range ws {
							e.Add(x.v, x.p)
						}
						e.Add(lt, -size)
						length.LessEq(sk, e, 0)
					} else {
						for _, x := range ws {
							var e model.Expr
							e.Add(x.v, x.p).Add(lt, -1)
							lengthTask.LessEq(wKey{x.task, j, s, t}, e, 0)
						}
					}
				}
			}
		}
	}

	if strong {
		bd.lengthCuts()
	}
	if bd.stop.Stopped() {
		return
	}

	// ram (3) and disk (6).
	ram := model.NewRowFamily[[2]int](b, "ram")
	disk := model.NewRowFamily[[2]int](b, "disk")
	for j := range in.Machines {
		mc := &in.Machines[j]
		for t := 0; t < T; t++ {
			if bd.stop.Tick() {
				return
			}
			var er, eh model.Expr
			var sumR, sumH float64
			for _, x := range bd.wJT[[2]int{j, t}] {
				task := &in.Tasks[x.task]
				if task.RAM > 0 {
					er.Add(x.v, task.RAM)
					sumR += task.RAM
				}
				if task.Disk > 0 {
					eh.Add(x.v, task.Disk)
					sumH += task.Disk
				}
			}
			for bl := range in.Blocks {
				if v, ok := bd.yV[yKey{bl, j, t}]; ok {
					eh.Add(v, in.Blocks[bl].Size)
					sumH += in.Blocks[bl].Size
				}
			}
			if len(er.Terms) > 0 && !(strong && sumR <= mc.RAM+redundancyTol) {
				ram.LessEq([2]int{j, t}, er, mc.RAM)
			}
			if len(eh.Terms) > 0 && !(strong && sumH <= mc.Disk+redundancyTol) {
				disk.LessEq([2]int{j, t}, eh, mc.Disk)
			}
		}
	}

	// precedence (7).
	bd.precedence()

	// arrival (11) and source.
	if !bd.stop.Stopped() {
		bd.arrival()
	}
	if bd.stop.Stopped() {
		return
	}

	// locality (12, 13).
	loc := model.NewRowFamily[[4]int](b, "loc")
	locSlot := model.NewRowFamily[[5]int](b, "loc")
	for i := range in.Tasks {
		task := &in.Tasks[i]
		for _, bl := range task.Blocks {
			for j := range in.Machines {
				if in.Blocks[bl].IsHome(j) || task.P[j] == nil {
					continue
				}
				for t := 1; t < T; t++ {
					if bd.stop.Tick() {
						return
					}
					ws := bd.wIJT[[3]int{i, j, t}]
					if len(ws) == 0 {
						continue
					}
					y := bd.yV[yKey{bl, j, t}]
					if strong {
						e := model.Sum(ws...)
						e.Add(y, -1)
						loc.LessEq([4]int{i, bl, j, t}, e, 0)
					} else {
						for s, v := range ws {
							var e model.Expr
							e.Add(v, 1).Add(y, -1)
							locSlot.LessEq([5]int{i, bl, j, s, t}, e, 0)
						}
					}
				}
			}
		}
	}

	// shuffle (15) and bandwidth (14).
	if bd.stop.Stopped() {
		return
	}
	bd.network()

	// objective.
	bd.objective()
}

// lengthCuts adds two families of valid inequalities on the interval
// lengths (strong form):
//
//	L_t ≥ Σ_{j,s} p_{i,j,s} · w[i,j,s,t]          for every task i and interval t
//	Σ_t L_t ≥ max_{l ∈ maps} p^min_l + max_{k ∈ reduces} p^min_k   for every job
//
// The first holds because a task occupies one slot of one interval; the
// second because every map of a job ends before any of its reduces starts,
// in an earlier interval. Neither cuts off an integer solution; both lift the
// LP bound, which the per-slot rows leave low when tasks are spread
// fractionally over slots.
func (bd *builder) lengthCuts() {
	in, T, m := bd.in, bd.T, bd.m
	lt := model.NewRowFamily[[2]int](bd.b, "lentask")
	for i := range in.Tasks {
		task := &in.Tasks[i]
		for t := 0; t < T; t++ {
			if bd.stop.Tick() {
				return
			}
			var e model.Expr
			for j := range in.Machines {
				for s, v := range bd.wIJT[[3]int{i, j, t}] {
					e.Add(v, task.P[j][s])
				}
			}
			if len(e.Terms) == 0 {
				continue
			}
			l, _ := m.l.Get(t)
			e.Add(l, -1)
			lt.LessEq([2]int{i, t}, e, 0)
		}
	}
	minP := func(i int) float64 { return shortest(in, i) }
	best := 0.0
	for _, jb := range in.Jobs {
		a, b := 0.0, 0.0
		for _, l := range jb.Maps {
			a = math.Max(a, minP(l))
		}
		for _, k := range jb.Reduces {
			b = math.Max(b, minP(k))
		}
		best = math.Max(best, a+b)
	}
	if best > 0 {
		var e model.Expr
		for t := 0; t < T; t++ {
			l, _ := m.l.Get(t)
			e.Add(l, 1)
		}
		bd.b.GreaterEq("critical_path", e, best)
	}
}

// precedence emits (7). Strong: the cumulative form
//
//	Σ_{t'≤t} W_k(t') ≤ Σ_{t'<t} W_l(t')   for every reduce k, map l of its job, t
//
// (k started by t implies l done before t). Published: the aggregated form
//
//	n^p_k · W_k(t) ≤ Σ_{l∈E_k} Σ_{t'<t} W_l(t').
func (bd *builder) precedence() {
	in, T := bd.in, bd.T
	prec := model.NewRowFamily[[3]int](bd.b, "prec")
	W := func(i, t int) []model.Var { return bd.wIT[[2]int{i, t}] }
	for _, jb := range in.Jobs {
		for _, k := range jb.Reduces {
			if bd.form == Strong {
				for _, l := range jb.Maps {
					for t := 1; t+1 < T; t++ {
						if bd.stop.Tick() {
							return
						}
						prec.LessEq([3]int{k, l, t}, cumulativePrecedence(W, k, l, t), 0)
					}
				}
				continue
			}
			for t := 0; t < T; t++ {
				if bd.stop.Tick() {
					return
				}
				if len(W(k, t)) == 0 {
					continue
				}
				var e model.Expr
				for _, v := range W(k, t) {
					e.Add(v, float64(len(jb.Maps)))
				}
				for _, l := range jb.Maps {
					for t2 := 0; t2 < t; t2++ {
						for _, v := range W(l, t2) {
							e.Add(v, -1)
						}
					}
				}
				prec.LessEq([3]int{k, -1, t}, e, 0)
			}
		}
	}
}

// cumulativePrecedence is Σ_{t'≤t} W_k(t') − Σ_{t'<t} W_l(t'), which is
// ≤ 0 when reduce k starting by t implies map l done before t.
func cumulativePrecedence(W func(i, t int) []model.Var, k, l, t int) model.Expr {
	var e model.Expr
	for t2 := 0; t2 <= t; t2++ {
		for _, v := range W(k, t2) {
			e.Add(v, 1)
		}
	}
	for t2 := 0; t2 < t; t2++ {
		for _, v := range W(l, t2) {
			e.Add(v, -1)
		}
	}
	return e
}

// reservation is z − Σ maps − Σ reds, which is ≥ −1 when z must book the
// shuffle once the map (maps: its w up to the interval) and the reduce
// (reds: its w from the interval on) are both placed.
func reservation(z model.Var, maps, reds []model.Var) model.Expr {
	var e model.Expr
	e.Add(z, 1)
	for _, v := range maps {
		e.Add(v, -1)
	}
	for _, v := range reds {
		e.Add(v, -1)
	}
	return e
}

// shortest is task i's least processing time over every machine and slot.
func shortest(in *jlassiscenario.Instance, i int) float64 {
	v := math.Inf(1)
	for _, ps := range in.Tasks[i].P {
		for _, p := range ps {
			v = math.Min(v, p)
		}
	}
	return v
}

// arrival emits (11) and the source rows. Strong, incrementally:
//
//	y[t] ≤ y[t−1] + Σ_j u[j→j',t−1],  y[t] ≥ y[t−1],  y[t] ≥ u[j→j',t−1]
//
// Published:
//
//	y[t] ≤ Σ_{j,t'<t} u[j→j',t'],  y[t] ≥ u[j→j',t'] for every t' < t.
//
// Both: u[b,j→j',t] ≤ y[b,j,t] when j is not a home of b.
func (bd *builder) arrival() {
	in, T := bd.in, bd.T
	up := model.NewRowFamily[[3]int](bd.b, "arr")
	mono := model.NewRowFamily[[3]int](bd.b, "stay")
	low := model.NewRowFamily[[5]int](bd.b, "keep")
	for b := range in.Blocks {
		for j := range in.Machines {
			if in.Blocks[b].IsHome(j) {
				continue
			}
			for t := 1; t < T; t++ {
				if bd.stop.Tick() {
					return
				}
				y := bd.yV[yKey{b, j, t}]
				var e model.Expr
				e.Add(y, 1)
				last := 0
				if bd.form == Strong {
					last = t - 1
					if prev, ok := bd.yV[yKey{b, j, t - 1}]; ok {
						e.Add(prev, -1)
						var f model.Expr
						f.Add(y, 1).Add(prev, -1)
						mono.GreaterEq([3]int{b, j, t}, f, 0)
					}
				}
				for t2 := last; t2 < t; t2++ {
					for _, u := range bd.uTo[[3]int{b, j, t2}] {
						e.Add(u.v, -1)
						var f model.Expr
						f.Add(y, 1).Add(u.v, -1)
						low.GreaterEq([5]int{b, u.key.From, j, t2, t}, f, 0)
					}
				}
				up.LessEq([3]int{b, j, t}, e, 0)
			}
		}
	}
	src := model.NewRowFamily[uKey](bd.b, "src")
	for _, u := range bd.uAll {
		if in.Blocks[u.key.B].IsHome(u.key.From) {
			continue
		}
		var e model.Expr
		e.Add(u.v, 1).Add(bd.yV[yKey{u.key.B, u.key.From, u.key.T}], -1)
		src.LessEq(u.key, e, 0)
	}
}

// zCand is a possible shuffle reservation and its bandwidth b_{l,l'}.
type zCand struct {
	k  zKey
	bw float64
}

// shuffleCandidates lists every reservation a schedule over T intervals may
// need: each shuffle pair on each pair of distinct machines that can run its
// reduce and its map, in each interval.
func shuffleCandidates(in *jlassiscenario.Instance, T int) []zCand {
	var cands []zCand
	for _, sh := range in.Shuffles {
		for jr := range in.Machines {
			if in.Tasks[sh.Reduce].P[jr] == nil {
				continue
			}
			for jm := range in.Machines {
				if jm == jr || in.Tasks[sh.Map].P[jm] == nil {
					continue
				}
				for t := 0; t < T; t++ {
					cands = append(cands, zCand{zKey{sh.Reduce, sh.Map, jr, jm, t}, sh.Bandwidth})
				}
			}
		}
	}
	return cands
}

// network emits the shuffle reservations (15) and the bandwidth rows (14).
// Strong shuffle, compact:
//
//	z[l,l',j,j',t] ≥ Σ_s Σ_{t1≤t} w[l',j',s,t1] + Σ_s Σ_{t2≥t} w[l,j,s,t2] − 1
//
// Published: one row per t1 ≤ t ≤ t2. In the strong form, a bandwidth row
// whose largest activity cannot exceed the capacity is dropped, and so are
// the z variables that appear in no remaining row.
func (bd *builder) network() {
	in, T, m := bd.in, bd.T, bd.m
	strong := bd.form == Strong
	cands := shuffleCandidates(in, T)
	// Largest activity of each bandwidth row.
	load := make([][]float64, len(in.Links))
	for e := range load {
		load[e] = make([]float64, T)
	}
	for _, u := range bd.uAll {
		for _, e := range in.Path(u.key.From, u.key.To) {
			load[e][u.key.T] += in.Bwd
		}
	}
	for _, c := range cands {
		for _, e := range in.Path(c.k.JR, c.k.JM) {
			load[e][c.k.T] += c.bw
		}
	}
	needed := func(e, t int) bool {
		return load[e][t] > 0 && !(strong && load[e][t] <= in.Links[e].Capacity+redundancyTol)
	}
	terms := make([][]model.Expr, len(in.Links))
	for e := range terms {
		terms[e] = make([]model.Expr, T)
	}
	for _, u := range bd.uAll {
		for _, e := range in.Path(u.key.From, u.key.To) {
			if needed(e, u.key.T) {
				terms[e][u.key.T].Add(u.v, in.Bwd)
			}
		}
	}
	shuf := model.NewRowFamily[zKey](bd.b, "shuf")
	shufT := model.NewRowFamily[[7]int](bd.b, "shuf")
	cum := func(i, j, from, to int) []model.Var { // w of task i on j in [from, to]
		var out []model.Var
		for t := max(from, 0); t <= to && t < T; t++ {
			out = append(out, bd.wIJT[[3]int{i, j, t}]...)
		}
		return out
	}
	for _, c := range cands {
		if bd.stop.Tick() {
			return
		}
		use := false
		for _, e := range in.Path(c.k.JR, c.k.JM) {
			use = use || needed(e, c.k.T)
		}
		if !use && strong {
			continue
		}
		k := c.k
		maps, reds := cum(k.M, k.JM, 0, k.T), cum(k.R, k.JR, k.T, T-1)
		if strong && (len(maps) == 0 || len(reds) == 0) {
			continue // the reservation can never be forced
		}
		z := m.z.Add(k, 0, 1, 0, model.Binary)
		for _, e := range in.Path(k.JR, k.JM) {
			if needed(e, k.T) {
				terms[e][k.T].Add(z, c.bw)
			}
		}
		if strong {
			shuf.GreaterEq(k, reservation(z, maps, reds), -1)
			continue
		}
		for t1 := 0; t1 <= k.T; t1++ {
			wm := cum(k.M, k.JM, t1, t1)
			if len(wm) == 0 {
				continue
			}
			for t2 := k.T; t2 < T; t2++ {
				wr := cum(k.R, k.JR, t2, t2)
				if len(wr) == 0 {
					continue
				}
				var e model.Expr
				e.Add(z, 1)
				for _, v := range wm {
					e.Add(v, -1)
				}
				for _, v := range wr {
					e.Add(v, -1)
				}
				shufT.GreaterEq([7]int{k.R, k.M, k.JR, k.JM, t1, k.T, t2}, e, -1)
			}
		}
	}
	bw := model.NewRowFamily[[2]int](bd.b, "bw")
	for e := range in.Links {
		for t := 0; t < T; t++ {
			if bd.stop.Tick() {
				return
			}
			if len(terms[e][t].Terms) > 0 {
				bw.LessEq([2]int{e, t}, terms[e][t], in.Links[e].Capacity)
			}
		}
	}
}

func (bd *builder) objective() {
	in, T, m := bd.in, bd.T, bd.m
	var e model.Expr
	switch m.Objective {
	case RealTime:
		for t := 0; t < T; t++ {
			v, _ := m.l.Get(t)
			e.Add(v, 1)
		}
	case TST:
		e.AddConst(float64(len(in.Tasks)))
		cb := tstBlockCost(in)
		for _, k := range m.y.Keys() {
			if cb[k.B] != 0 {
				v, _ := m.y.Get(k)
				e.Add(v, cb[k.B])
			}
		}
	case TRC:
		for _, k := range m.w.Keys() {
			v, _ := m.w.Get(k)
			e.Add(v, trcTaskCost(in, k.I, k.J, m.classes[k.J][kindIndex(in.Tasks[k.I].Kind)][k.S][0]))
		}
		kb := trcBlockCost(in)
		for _, k := range m.y.Keys() {
			if c := kb[k.B][k.J]; c != 0 {
				v, _ := m.y.Get(k)
				e.Add(v, c)
			}
		}
		for _, k := range m.u.Keys() {
			if c := kb[k.B][k.From]; c != 0 {
				v, _ := m.u.Get(k)
				e.Add(v, c)
			}
		}
	}
	bd.b.Minimize(e)
}

// tstBlockCost is eq 1's transfer-time coefficient of y[b,·,t]:
// Σ over shuffle pairs (l, l') with b ∈ B_{l'} of S_b / b_{l,l'}.
func tstBlockCost(in *jlassiscenario.Instance) []float64 {
	c := make([]float64, len(in.Blocks))
	for _, sh := range in.Shuffles {
		for _, b := range in.Tasks[sh.Map].Blocks {
			c[b] += in.Blocks[b].Size / sh.Bandwidth
		}
	}
	return c
}

// trcTaskCost is eq 2's cost of task i on slot s of machine j:
// p · (α^r_j n^r_i + α^h_j n^h_i + α^c_{s,j}).
func trcTaskCost(in *jlassiscenario.Instance, i, j, s int) float64 {
	task, mc := &in.Tasks[i], &in.Machines[j]
	return task.P[j][s] * (mc.CostRAM*task.RAM + mc.CostDisk*task.Disk + mc.Slots(task.Kind)[s].Cost)
}

// trcBlockCost[b][j] is eq 2's cost of block b on (or sent from) machine j
// for one interval: Σ_{i: b ∈ B_i} (α^r_j n^r_i + α^h_j n^h_i).
func trcBlockCost(in *jlassiscenario.Instance) [][]float64 {
	c := make([][]float64, len(in.Blocks))
	for b := range c {
		c[b] = make([]float64, len(in.Machines))
	}
	for i := range in.Tasks {
		task := &in.Tasks[i]
		for _, b := range task.Blocks {
			for j := range in.Machines {
				mc := &in.Machines[j]
				c[b][j] += mc.CostRAM*task.RAM + mc.CostDisk*task.Disk
			}
		}
	}
	return c
}
