package jlassi

import (
	"fmt"
	"math"
	"sort"

	"github.com/mrbound/mrbound/instances/jlassiscenario"
	"github.com/mrbound/mrbound/model"
)

// countModel is the relaxation R_K behind the interval-count decomposition
// (docs/jlassi.md, "Interval-count decomposition"): schedules with exactly K
// intervals that hold tasks, every one of them non-empty, with the slot and
// precedence rows of the full model and nothing of its network, locality,
// RAM or disk. Every schedule of the full model with K task intervals —
// whatever its horizon, whatever intervals it spends on migrations alone —
// gives a solution of R_K of the same RealTime (drop the task-free
// intervals, forget the blocks and the bandwidth), so the optimum of R_K is
// a lower bound on every such schedule, and min over K of R_K bounds the
// full model.
//
// The length of an interval is modelled by levels: λ_0 < λ_1 < … are the
// distinct processing times, g[t,k] = 1 when interval t is at least λ_k
// long, and L_t = λ_0 + Σ_k (λ_k − λ_{k−1}) g[t,k] (every interval holds a
// task, so it is at least λ_0). A task placed in t with time p needs
// g[t, level(p)] = 1; a slot class of c slots holds at most c·g[t,k] tasks
// of level ≥ k. Unlike the full model's L_t ≥ p·w, these rows do not let a
// task spread thinly over intervals lower the lengths it buys.
type countModel struct {
	Model   *model.Model
	K       int
	classes [][2][][]int
	levels  []float64
	w       *model.Family[wKey]
	g       *model.Family[[2]int]
	q       *model.Family[[2]int] // (job, t): the order rows' links
	s       *model.Family[[2]int] // (job, t): the phase binaries; nil with cumulative precedence
	// cutoff is the cutoff row's index, −1 when there is none. The row
	// holds the objective without its constant K·λ_0.
	cutoff int
}

// taskP is the processing time of task i on slot class c of machine j.
func taskP(in *jlassiscenario.Instance, classes [][2][][]int, i, j, c int) float64 {
	task := &in.Tasks[i]
	return task.P[j][classes[j][kindIndex(task.Kind)][c][0]]
}

// countOptions choose R_K.
type countOptions struct {
	// K is the number of task intervals; T the full model's horizon: when
	// K = T every interval holds a task, none is left for migrations
	// before the first, so a map in interval 0 runs where its blocks are at
	// home (the full model's domain); with K < T it may not.
	K, T int
	// Cutoff, when finite, asks for RealTime ≤ Cutoff (an infeasible answer
	// then proves that no K-interval schedule is that short); Floor, when
	// positive, for RealTime ≥ Floor (a bound already proven).
	Cutoff, Floor float64
	// Network adds the shuffle reservations and their bandwidth rows.
	Network bool
	// NoOrder leaves out the interval order rows: they cut labellings, so
	// a model with some placements fixed (the neighbourhood search) must
	// not have them.
	NoOrder bool
	// CumulativePrecedence states precedence by the strong form's
	// cumulative rows instead of the phase binaries (same LP; the tests
	// compare the two).
	CumulativePrecedence bool
}

// buildCount emits R_K over the strong form's slot classes.
func buildCount(in *jlassiscenario.Instance, o countOptions) (*countModel, error) {
	K, T := o.K, o.T
	if K <= 0 {
		return nil, fmt.Errorf("jlassi: interval count must be positive, got %d", K)
	}
	classes := slotClasses(in, true)
	levels := countLevels(in, classes)
	if err := checkCountSize(in, classes, len(levels), o); err != nil {
		return nil, err
	}
	level := func(p float64) int { return sort.SearchFloat64s(levels, p) }

	b := model.NewBuilder(fmt.Sprintf("jlassi_count_K%d", K))
	cm := &countModel{K: K, classes: classes, levels: levels,
		w: model.NewFamily[wKey](b, "w"), g: model.NewFamily[[2]int](b, "g"), q: model.NewFamily[[2]int](b, "q"), cutoff: -1}
	hasMaps := func(i int) bool { return len(in.Jobs[in.Tasks[i].Job].Maps) > 0 }
	hasReduces := func(i int) bool { return len(in.Jobs[in.Tasks[i].Job].Reduces) > 0 }

	for t := 0; t < K; t++ {
		for k := 1; k < len(levels); k++ {
			cm.g.Add([2]int{t, k}, 0, 1, levels[k]-levels[k-1], model.Binary)
		}
	}
	type classKey struct{ J, X, C, T int }
	byClass := map[classKey][]wEntry{}
	byTaskT := map[[2]int][]model.Var{}
	byTaskJT := map[[3]int][]model.Var{}
	byT := make([]model.Expr, K)
	for i := range in.Tasks {
		task := &in.Tasks[i]
		x := kindIndex(task.Kind)
		for t := 0; t < K; t++ {
			if task.Kind == jlassiscenario.Reduce && t == 0 && hasMaps(i) {
				continue
			}
			if task.Kind == jlassiscenario.Map && t == K-1 && hasReduces(i) {
				continue
			}
			var here []wEntry // task i's placements in interval t
			for j := range in.Machines {
				if task.P[j] == nil {
					continue
				}
				if K == T && t == 0 && !homeOfAll(in, task.Blocks, j) {
					continue
				}
				for c := range classes[j][x] {
					v := cm.w.Add(wKey{i, j, c, t}, 0, 1, 0, model.Binary)
					p := taskP(in, classes, i, j, c)
					ck := classKey{j, x, c, t}
					byClass[ck] = append(byClass[ck], wEntry{v, i, p})
					byTaskT[[2]int{i, t}] = append(byTaskT[[2]int{i, t}], v)
					byTaskJT[[3]int{i, j, t}] = append(byTaskJT[[3]int{i, j, t}], v)
					byT[t].Add(v, 1)
					here = append(here, wEntry{v, i, p})
				}
			}
			buyRows(b, cm, i, t, here, level)
		}
	}
	for i := range in.Tasks {
		var e model.Expr
		for t := 0; t < K; t++ {
			for _, v := range byTaskT[[2]int{i, t}] {
				e.Add(v, 1)
			}
		}
		b.Equal(fmt.Sprintf("assign_%d", i), e, 1)
	}
	for t := 0; t < K; t++ {
		b.GreaterEq(fmt.Sprintf("nonempty_%d", t), byT[t], 1)
		for k := 2; k < len(levels); k++ {
			hi, _ := cm.g.Get([2]int{t, k})
			lo, _ := cm.g.Get([2]int{t, k - 1})
			var e model.Expr
			e.Add(hi, 1).Add(lo, -1)
			b.LessEq(fmt.Sprintf("mono_%d_%d", t, k), e, 0)
		}
	}
	// RAM and disk (3, 6) of the tasks alone, where they can bind: a
	// migrated block only adds to the disk.
	for j := range in.Machines {
		for t := 0; t < K; t++ {
			var er, eh model.Expr
			var sumR, sumH float64
			for x := range classes[j] {
				for c := range classes[j][x] {
					for _, e := range byClass[classKey{j, x, c, t}] {
						task := &in.Tasks[e.task]
						er.Add(e.v, task.RAM)
						eh.Add(e.v, task.Disk)
						sumR += task.RAM
						sumH += task.Disk
					}
				}
			}
			if sumR > in.Machines[j].RAM+redundancyTol {
				b.LessEq(fmt.Sprintf("ram_%d_%d", j, t), er, in.Machines[j].RAM)
			}
			if sumH > in.Machines[j].Disk+redundancyTol {
				b.LessEq(fmt.Sprintf("disk_%d_%d", j, t), eh, in.Machines[j].Disk)
			}
		}
	}
	// Slot capacity per level: a class of c slots holds at most c tasks,
	// and at most c·g[t,k] of level ≥ k.
	keys := make([]classKey, 0, len(byClass))
	for ck := range byClass {
		keys = append(keys, ck)
	}
	sort.Slice(keys, func(a, z int) bool {
		x, y := keys[a], keys[z]
		return x.J < y.J || x.J == y.J && (x.X < y.X || x.X == y.X && (x.C < y.C || x.C == y.C && x.T < y.T))
	})
	for _, ck := range keys {
		ws := byClass[ck]
		size := len(classes[ck.J][ck.X][ck.C])
		if len(ws) > size {
			var e model.Expr
			for _, x := range ws {
				e.Add(x.v, 1)
			}
			b.LessEq(fmt.Sprintf("slot_%d_%d_%d_%d", ck.J, ck.X, ck.C, ck.T), e, float64(size))
		}
		for k := 1; k < len(levels); k++ {
			var e model.Expr
			for _, x := range ws {
				if level(x.p) >= k {
					e.Add(x.v, 1)
				}
			}
			if len(e.Terms) <= size {
				break // fewer tasks than slots from here up: the buy rows suffice
			}
			gv, _ := cm.g.Get([2]int{ck.T, k})
			e.Add(gv, -float64(size))
			b.LessEq(fmt.Sprintf("lvslot_%d_%d_%d_%d_%d", ck.J, ck.X, ck.C, ck.T, k), e, 0)
		}
	}
	// Level covers: the intervals of length ≥ λ_k a kind needs
	// (levelNeeds), among the intervals its tasks may use.
	needs, spans := levelNeeds(in, classes, levels, K)
	for x := range needs {
		for k := 1; k < len(levels); k++ {
			if needs[x][k] < 2 {
				continue // one interval: implied by the buy rows
			}
			var e model.Expr
			for t := spans[x][0]; t < spans[x][1]; t++ {
				gv, _ := cm.g.Get([2]int{t, k})
				e.Add(gv, 1)
			}
			b.GreaterEq(fmt.Sprintf("cover_%d_%d", x, k), e, float64(needs[x][k]))
		}
	}
	// Precedence: through the phase binaries, or cumulative (as the
	// strong form) when asked.
	W := func(i, t int) []model.Var { return byTaskT[[2]int{i, t}] }
	if o.CumulativePrecedence {
		for _, jb := range in.Jobs {
			for _, k := range jb.Reduces {
				for _, l := range jb.Maps {
					for t := 1; t+1 < K; t++ {
						b.LessEq(fmt.Sprintf("prec_%d_%d_%d", k, l, t), cumulativePrecedence(W, k, l, t), 0)
					}
				}
			}
		}
	} else {
		cm.s = phasePrecedence(in, b, K, W)
	}
	if o.Network {
		countShuffle(in, b, K, byTaskJT)
	} else if !o.NoOrder {
		orderIntervals(in, b, cm, o, byTaskT)
	}
	var obj model.Expr
	obj.AddConst(float64(K) * levels[0])
	for t := 0; t < K; t++ {
		for k := 1; k < len(levels); k++ {
			gv, _ := cm.g.Get([2]int{t, k})
			obj.Add(gv, levels[k]-levels[k-1])
		}
	}
	b.Minimize(obj)
	if !math.IsInf(o.Cutoff, 1) || o.Floor > 0 {
		e := obj
		e.Terms = append([]model.Term(nil), obj.Terms...)
		lo := math.Inf(-1)
		if o.Floor > 0 {
			lo = o.Floor
		}
		cm.cutoff = b.AddConstr("cutoff", e, lo, o.Cutoff).Index()
	}
	mod, err := b.Build()
	if err != nil {
		return nil, fmt.Errorf("jlassi: %w", err)
	}
	cm.Model = mod
	return cm, nil
}

// placements reads the task placements (task, machine, class, interval) of
// a solution of R_K.
func (cm *countModel) placements(x []float64) []wKey {
	var out []wKey
	for _, k := range cm.w.Keys() {
		v, _ := cm.w.Get(k)
		if x[v.Index()] > 1-integralTol {
			out = append(out, k)
		}
	}
	return out
}

// homeOfAll reports whether machine j is a home of every block.
func homeOfAll(in *jlassiscenario.Instance, blocks []int, j int) bool {
	for _, b := range blocks {
		if !in.Blocks[b].IsHome(j) {
			return false
		}
	}
	return true
}

// countShuffle emits the shuffle reservations (15) and their bandwidth rows
// (14) over R_K's intervals, where a link can be overbooked: a reduce on jr
// and a map of its job on jm ≠ jr book b_{l,l'} on every link of their path
// in every interval from the map's to the reduce's. The full model's
// reservations in its task intervals are these (a migration-only interval
// between them only adds bookings), so the rows keep R_K a relaxation.
// Migrations are left out: they may use intervals R_K does not have.
func countShuffle(in *jlassiscenario.Instance, b *model.Builder, K int, w map[[3]int][]model.Var) {
	cands := shuffleCandidates(in, K)
	load := make([][]float64, len(in.Links))
	for e := range load {
		load[e] = make([]float64, K)
	}
	for _, c := range cands {
		for _, e := range in.Path(c.k.JR, c.k.JM) {
			load[e][c.k.T] += c.bw
		}
	}
	needed := func(e, t int) bool { return load[e][t] > in.Links[e].Capacity+redundancyTol }
	terms := make([][]model.Expr, len(in.Links))
	for e := range terms {
		terms[e] = make([]model.Expr, K)
	}
	for n, c := range cands {
		use := false
		for _, e := range in.Path(c.k.JR, c.k.JM) {
			use = use || needed(e, c.k.T)
		}
		if !use {
			continue
		}
		var maps, reds []model.Var
		for t := 0; t <= c.k.T; t++ {
			maps = append(maps, w[[3]int{c.k.M, c.k.JM, t}]...)
		}
		for t := c.k.T; t < K; t++ {
			reds = append(reds, w[[3]int{c.k.R, c.k.JR, t}]...)
		}
		if len(maps) == 0 || len(reds) == 0 {
			continue
		}
		z := b.Binary(fmt.Sprintf("z_%d", n))
		b.GreaterEq(fmt.Sprintf("shuf_%d", n), reservation(z, maps, reds), -1)
		for _, l := range in.Path(c.k.JR, c.k.JM) {
			if needed(l, c.k.T) {
				terms[l][c.k.T].Add(z, c.bw)
			}
		}
	}
	for e := range terms {
		for t := 0; t < K; t++ {
			if len(terms[e][t].Terms) > 0 {
				b.LessEq(fmt.Sprintf("bw_%d_%d", e, t), terms[e][t], in.Links[e].Capacity)
			}
		}
	}
}

// levelNeeds returns, for each kind x and level k ≥ 1, a number of the
// intervals its tasks may use (spans[x], a range of R_K's positions) that
// every schedule with K task intervals makes at least λ_k long. With n
// such long intervals among the m the kind may use, the long ones hold at
// most S·n of its tasks (S its slots) and the m − n short ones at most a
// maximum matching of the tasks into slot classes where they are shorter
// than λ_k, |class|·(m − n) per class; the need is the least n for which
// the two hold every task (m + 1 when none does: no schedule). The maps of
// jobs with reduces cannot use the last interval, the reduces of jobs with
// maps the first.
func levelNeeds(in *jlassiscenario.Instance, classes [][2][][]int, levels []float64, K int) (needs [2][]int, spans [2][2]int) {
	for x, kind := range []jlassiscenario.TaskKind{jlassiscenario.Map, jlassiscenario.Reduce} {
		needs[x] = make([]int, len(levels))
		var tasks []int
		excluded := true // every task of the kind is barred from its end interval
		for i := range in.Tasks {
			if in.Tasks[i].Kind != kind {
				continue
			}
			tasks = append(tasks, i)
			jb := &in.Jobs[in.Tasks[i].Job]
			if (x == 0 && len(jb.Reduces) == 0) || (x == 1 && len(jb.Maps) == 0) {
				excluded = false
			}
		}
		spans[x] = [2]int{0, K}
		if excluded && K > 1 && x == 0 {
			spans[x][1] = K - 1
		}
		if excluded && K > 1 && x == 1 {
			spans[x][0] = 1
		}
		slots := in.TotalSlots(kind)
		m := spans[x][1] - spans[x][0]
		if len(tasks) == 0 || slots == 0 {
			continue
		}
		type cls struct{ j, c, size int }
		var cs []cls
		for j := range in.Machines {
			for c, sl := range classes[j][x] {
				cs = append(cs, cls{j, c, len(sl)})
			}
		}
		for k := 1; k < len(levels); k++ {
			short := make([][]int, len(tasks)) // task → classes where it is shorter than λ_k
			for n, i := range tasks {
				for q, cl := range cs {
					if in.Tasks[i].P[cl.j] != nil && taskP(in, classes, i, cl.j, cl.c) < levels[k] {
						short[n] = append(short[n], q)
					}
				}
			}
			needs[x][k] = m + 1
			for n := 0; n <= m; n++ {
				caps := make([]int, len(cs))
				for q, cl := range cs {
					caps[q] = cl.size * (m - n)
				}
				if slots*n+matching(short, caps) >= len(tasks) {
					needs[x][k] = n
					break
				}
			}
		}
	}
	return needs, spans
}

// matching is the size of a maximum b-matching of the left vertices (each
// matched at most once, to one of adj[v]) into the right vertices (r
// matched at most caps[r] times), by augmenting paths.
func matching(adj [][]int, caps []int) int {
	owner := make([][]int, len(caps)) // right vertex → left vertices matched to it
	size := 0
	for v := range adj {
		seen := make([]bool, len(caps))
		if augment(v, adj, caps, owner, seen) {
			size++
		}
	}
	return size
}

func augment(v int, adj [][]int, caps []int, owner [][]int, seen []bool) bool {
	for _, r := range adj[v] {
		if seen[r] || caps[r] == 0 {
			continue
		}
		seen[r] = true
		if len(owner[r]) < caps[r] {
			owner[r] = append(owner[r], v)
			return true
		}
		for n, u := range owner[r] {
			if augment(u, adj, caps, owner, seen) {
				owner[r][n] = v
				return true
			}
		}
	}
	return false
}

// levelBound is a lower bound on the RealTime of a schedule with K task
// intervals from levelNeeds: every interval is at least λ_0 long, and at
// least max over kinds of the need at λ_k are at least λ_k long.
func levelBound(in *jlassiscenario.Instance, K int) float64 {
	classes := slotClasses(in, true)
	levels := countLevels(in, classes)
	if len(levels) == 0 {
		return 0
	}
	needs, _ := levelNeeds(in, classes, levels, K)
	total := float64(K) * levels[0]
	for k := 1; k < len(levels); k++ {
		total += (levels[k] - levels[k-1]) * float64(max(needs[0][k], needs[1][k]))
	}
	return total
}

// countLevels returns the distinct processing times, ascending.
func countLevels(in *jlassiscenario.Instance, classes [][2][][]int) []float64 {
	seen := map[float64]bool{}
	for i := range in.Tasks {
		for j := range in.Machines {
			if in.Tasks[i].P[j] == nil {
				continue
			}
			for c := range classes[j][kindIndex(in.Tasks[i].Kind)] {
				seen[taskP(in, classes, i, j, c)] = true
			}
		}
	}
	levels := make([]float64, 0, len(seen))
	for p := range seen {
		levels = append(levels, p)
	}
	sort.Float64s(levels)
	return levels
}

// orderIntervals breaks the symmetry among R_K's intervals: two adjacent
// intervals t, t+1 can trade their contents unless a job has a map in t
// and a reduce in t+1 (the only way the trade breaks precedence; the RAM,
// disk and slot rows move with the contents), so among the optimal
// solutions the one whose lengths (L_0, L_1, …) are lexicographically
// largest has L_t ≥ L_{t+1} wherever no job links them. Rows, per t and
// level k: g[t+1,k] ≤ g[t,k] + Σ_J q[J,t], with q[J,t] ≤ Σ maps of J in t
// and q[J,t] ≤ Σ reduces of J in t+1 (q may be 1 only where J links t and
// t+1). The trade moves interval 0's maps to interval 1 and back, so when
// K = T (maps in interval 0 only at home) t = 0 is left out; with the
// network the trade changes which intervals a shuffle books, so the rows
// are only in R_K without it. They remove solutions but never all optimal
// ones: R_K keeps its optimum (TestCountSameOptimum).
func orderIntervals(in *jlassiscenario.Instance, b *model.Builder, cm *countModel, o countOptions, w map[[2]int][]model.Var) {
	K := o.K
	if len(cm.levels) < 2 {
		return
	}
	from := 0
	if K == o.T {
		from = 1
	}
	for t := from; t+1 < K; t++ {
		var link model.Expr
		for J, jb := range in.Jobs {
			var maps, reds model.Expr
			for _, l := range jb.Maps {
				for _, v := range w[[2]int{l, t}] {
					maps.Add(v, 1)
				}
			}
			for _, k := range jb.Reduces {
				for _, v := range w[[2]int{k, t + 1}] {
					reds.Add(v, 1)
				}
			}
			if len(maps.Terms) == 0 || len(reds.Terms) == 0 {
				continue
			}
			q := cm.q.Add([2]int{J, t}, 0, 1, 0, model.Continuous)
			maps.Add(q, -1)
			reds.Add(q, -1)
			b.GreaterEq(fmt.Sprintf("qmap_%d_%d", J, t), maps, 0)
			b.GreaterEq(fmt.Sprintf("qred_%d_%d", J, t), reds, 0)
			link.Add(q, 1)
		}
		for k := 1; k < len(cm.levels); k++ {
			hi, _ := cm.g.Get([2]int{t + 1, k})
			lo, _ := cm.g.Get([2]int{t, k})
			e := model.Expr{Terms: append([]model.Term(nil), link.Terms...)}
			e.Add(hi, -1).Add(lo, 1)
			b.GreaterEq(fmt.Sprintf("order_%d_%d", t, k), e, 0)
		}
	}
}

// buyRows makes task i buy interval t's length level: for each distinct
// time v among its placements in t, Σ of the placements at least v long
// ≤ g[t, level(v)]. A task sits in one place, so the rows hold for every
// integer solution; summed over the places, they are tighter than one row
// per place when the LP splits a task between a fast and a slow machine
// (split half and half between 62 s and 105 s, the task still buys the
// 62 s level whole).
func buyRows(b *model.Builder, cm *countModel, i, t int, here []wEntry, level func(float64) int) {
	seen := map[float64]bool{}
	for _, h := range here {
		if seen[h.p] {
			continue
		}
		seen[h.p] = true
		lv := level(h.p)
		if lv == 0 {
			continue // every interval is at least λ_0 long
		}
		var e model.Expr
		for _, o := range here {
			if o.p >= h.p {
				e.Add(o.v, 1)
			}
		}
		gv, _ := cm.g.Get([2]int{t, lv})
		e.Add(gv, -1)
		b.LessEq(fmt.Sprintf("buy_%d_%d_%d", i, t, lv), e, 0)
	}
}

// phasePrecedence states precedence through phase binaries s[J,t], 1 when
// every map of job J runs before interval t (t = 1 … K−1): a reduce of J in
// an interval ≤ t needs s[J,t], s[J,t] needs every map of J before t, and
// s[J,t] ≤ s[J,t+1]. Every schedule sets s by that definition, so the rows
// keep the same integer solutions; their LP is the cumulative rows' (s can
// take the least map sum). What they add is a branching handle: a branch
// on s[J,t] splits the schedules by where job J turns from its maps to its
// reduces, which the bound needs more than single placements (scenario 4
// seed 6, R_8 with cutoff 646: 612 → 621 after 40 s).
func phasePrecedence(in *jlassiscenario.Instance, b *model.Builder, K int, W func(i, t int) []model.Var) *model.Family[[2]int] {
	ph := model.NewFamily[[2]int](b, "s")
	sum := func(e *model.Expr, i, upto int, sign float64) {
		for t := 0; t < upto; t++ {
			for _, v := range W(i, t) {
				e.Add(v, sign)
			}
		}
	}
	for J, jb := range in.Jobs {
		if len(jb.Maps) == 0 || len(jb.Reduces) == 0 {
			continue
		}
		for t := 1; t < K; t++ {
			ph.Add([2]int{J, t}, 0, 1, 0, model.Binary)
		}
		for t := 1; t < K; t++ {
			st, _ := ph.Get([2]int{J, t})
			if t+1 < K {
				next, _ := ph.Get([2]int{J, t + 1})
				var e model.Expr
				e.Add(st, 1).Add(next, -1)
				b.LessEq(fmt.Sprintf("phase_mono_%d_%d", J, t), e, 0)
			}
			for _, k := range jb.Reduces {
				var e model.Expr
				sum(&e, k, t+1, 1)
				e.Add(st, -1)
				b.LessEq(fmt.Sprintf("phase_reduce_%d_%d", k, t), e, 0)
			}
			for _, l := range jb.Maps {
				var e model.Expr
				e.Add(st, 1)
				sum(&e, l, t, -1)
				b.LessEq(fmt.Sprintf("phase_map_%d_%d", l, t), e, 0)
			}
		}
	}
	return ph
}
