package bnb

import (
	"context"
	"math"
	"slices"
	"sort"

	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/solve"
)

// group is a run of jobs, consecutive by arrival, searched alone.
type group struct {
	jobs []int // indices into the problem's jobs, by arrival
	res  *Result
	// own: res.Value is a schedule of the search's own (res.Placements),
	// not the incumbent it was given.
	own bool
}

// splitSolve searches the total or mean turnaround of p as independent
// groups of jobs (docs/bounds.md §14, "Splitting the sums"): the stream is
// cut where the map slots fall idle in a FIFO schedule (fifoGroups), each
// group is searched alone (all slots free at its first arrival), and Σ of
// the groups' bounds is a bound on the whole. When the groups' best schedules, put together, hold no more tasks
// of a kind at once than there are slots of it, that union is a schedule
// of p whose value is Σ of theirs: optimal when every group is. A group
// whose schedule collides with the one before is merged into it and
// searched again. It returns nil when p does not split into two groups or
// more, so that the caller searches p whole. known is Options.Known as a
// total (−1 when none): a union that reaches it is optimal.
func splitSolve(ctx context.Context, p *lowerbound.Problem, m lowerbound.Metric, o Options, known int64) (*Result, error) {
	groups0 := fifoGroups(p)
	if len(groups0) < 2 {
		return nil, nil
	}
	// The node budget is shared: each search gets what is left divided by
	// the searches left, in the caller's depth-first / best-first ratio.
	dfs := o.NodeLimit
	if dfs <= 0 {
		dfs = DefaultNodeLimit
	}
	pool := satAdd(satAdd(dfs, max(o.BoundNodes, 0)), max(o.ImproveNodes, 0))
	ratio := float64(dfs) / float64(pool)
	iratio := float64(max(o.ImproveNodes, 0)) / float64(pool)
	n := 1.0
	if m == lowerbound.MeanTurnaround {
		n = float64(max(1, len(p.Jobs))) // as Solve: no job, mean 0
	}
	var nodes, dominated, shifted int64
	var groups []group
	searchGroup := func(g *group, left int) error {
		share := max(1, pool/int64(left))
		sub := *p
		sub.Jobs = make([]lowerbound.Job, len(g.jobs))
		for i, j := range g.jobs {
			sub.Jobs[i] = p.Jobs[j]
		}
		so := Options{NodeLimit: max(1, int64(float64(share)*ratio)), MemoEntries: o.MemoEntries, MaxOpen: o.MaxOpen, DiveNodesPerTask: o.DiveNodesPerTask, whole: true, noLag: o.noLag, noTwins: o.noTwins, noBeam: o.noBeam, plain: o.plain, noShift: o.noShift}
		if o.ImproveNodes > 0 {
			so.ImproveNodes = max(1, int64(float64(share)*iratio))
		}
		if o.BoundNodes > 0 {
			so.BoundNodes = max(1, share-so.NodeLimit-so.ImproveNodes)
		}
		if o.Incumbent > 0 {
			// The caller's schedule, its other groups' tasks deleted, is a
			// schedule of this group alone (Lemma 4) of total at most the
			// caller's less the other groups' bounds, once all are known.
			rest := math.Floor(o.Incumbent*n + 1e-6)
			for h := range groups {
				if &groups[h] == g {
					continue
				}
				if groups[h].res == nil {
					rest = 0
					break
				}
				rest -= groups[h].res.Bound
			}
			if rest > 0 {
				so.Incumbent = rest
			}
		}
		res, err := Solve(ctx, &sub, lowerbound.TotalTurnaround, so)
		if err != nil {
			return err
		}
		pool = max(0, pool-res.Nodes)
		nodes, dominated, shifted = nodes+res.Nodes, dominated+res.Dominated, shifted+res.shifted
		for i := range res.Placements {
			res.Placements[i].Job = g.jobs[res.Placements[i].Job]
		}
		g.res = res
		g.own = !math.IsNaN(res.Value) && !(so.Incumbent > 0 && res.Placements == nil && res.Value == so.Incumbent)
		return nil
	}
	groups = groups0
	// Smaller groups first: they are proven in few nodes, and what they
	// leave goes to the larger ones.
	bySize := make([]int, len(groups))
	for i := range bySize {
		bySize[i] = i
	}
	sort.SliceStable(bySize, func(a, b int) bool { return len(groups[bySize[a]].jobs) < len(groups[bySize[b]].jobs) })
	for q, i := range bySize {
		if err := searchGroup(&groups[i], len(groups)-q); err != nil {
			return nil, err
		}
	}
	scheduled := func() bool {
		for _, g := range groups {
			if !g.own {
				return false // a search with no schedule of its own
			}
		}
		return true
	}
	for scheduled() {
		bad := collision(p, groups)
		if bad < 0 {
			break
		}
		// Group bad collides with the union of those before it: merge it
		// into the one before and search that again.
		groups[bad-1].jobs = append(groups[bad-1].jobs, groups[bad].jobs...)
		groups = slices.Delete(groups, bad, bad+1)
		if len(groups) < 2 {
			return nil, nil
		}
		if err := searchGroup(&groups[bad-1], len(groups)-bad+1); err != nil {
			return nil, err
		}
	}
	var value, bound float64
	status := solve.Optimal
	var union []Placement
	for _, g := range groups {
		value += g.res.Value
		bound += g.res.Bound
		union = append(union, g.res.Placements...)
		if g.res.Status != solve.Optimal && status != solve.Interrupted {
			status = g.res.Status
		}
	}
	res := &Result{Metric: m, Status: status, Value: math.NaN(), Bound: bound / n, Nodes: nodes, Dominated: dominated, shifted: shifted}
	haveUnion := scheduled() && assignSlots(p, union)
	if haveUnion {
		res.Value, res.Placements = value/n, union
	}
	if o.Incumbent > 0 && (!haveUnion || math.Floor(o.Incumbent*n+1e-6) <= value) {
		// The caller's schedule is no worse than the union, or there is
		// no union.
		res.Value, res.Placements = o.Incumbent, nil
	}
	if math.IsNaN(res.Value) && status == solve.Optimal {
		status = solve.NodeLimit // cannot happen: an optimal search has a schedule
		res.Status = status
	}
	if known >= 0 && res.Value*n <= float64(known)+1e-6 {
		// The caller's proven bound meets the result's schedule.
		res.Bound = res.Value
	}
	if res.Bound >= res.Value {
		res.Status, res.Bound = solve.Optimal, res.Value
	}
	return res, nil
}

// fifoGroups cuts p's jobs, by arrival (index at a tie), before each job by
// whose arrival every map of the jobs before it has ended in a FIFO list
// schedule (each task on the earliest-free slot of its kind, a job's maps
// in order, then its reduces): a cheap guess at where an optimum leaves the
// map slots idle. Reduces may run on (they are few and short, and the
// reduce slots little used); a collision merges the groups. Any cut gives
// a valid bound (§14); a good one a tight one.
func fifoGroups(p *lowerbound.Problem) []group {
	order := make([]int, len(p.Jobs))
	for j := range order {
		order[j] = j
	}
	sort.SliceStable(order, func(a, b int) bool { return p.Jobs[order[a]].Arrival < p.Jobs[order[b]].Arrival })
	nm, nr := pooledSlots(p, 0), pooledSlots(p, 1)
	mapFree, redFree := make([]int64, nm), make([]int64, nr)
	earliest := func(free []int64) int {
		b := 0
		for i := range free {
			if free[i] < free[b] {
				b = i
			}
		}
		return b
	}
	var groups []group
	var end int64 // the last end of the current group's tasks
	for _, j := range order {
		jb := &p.Jobs[j]
		if len(groups) == 0 || jb.Arrival >= end {
			groups = append(groups, group{})
		}
		g := &groups[len(groups)-1]
		g.jobs = append(g.jobs, j)
		lme := jb.Arrival
		for _, t := range jb.Maps {
			if nm == 0 {
				break
			}
			i := earliest(mapFree)
			mapFree[i] = max(mapFree[i], jb.Arrival) + t.Dur[0]
			lme = max(lme, mapFree[i])
		}
		end = max(end, lme)
		for _, t := range jb.Reduces {
			if nr == 0 {
				break
			}
			i := earliest(redFree)
			redFree[i] = max(redFree[i], lme) + t.Dur[0]

		}
	}
	return groups
}

// collision returns the first group (from the second) whose schedule, put
// together with those of the groups before it, holds more tasks of a kind
// at once than there are slots of it, or −1 when none does. The count of a
// kind only rises at a start, so it is taken at every start of the union —
// the earlier groups' starts too: an earlier group's reduce may start while
// a later group's task runs.
func collision(p *lowerbound.Problem, groups []group) int {
	slots := [2]int{pooledSlots(p, 0), pooledSlots(p, 1)}
	var busy []Placement
	for gi, g := range groups {
		busy = append(busy, g.res.Placements...)
		if gi > 0 && overflows(busy, slots) {
			return gi
		}
	}
	return -1
}

// overflows reports whether pl holds more tasks of a kind at some instant
// than slots allows.
func overflows(pl []Placement, slots [2]int) bool {
	for _, x := range pl {
		k := 0
		if x.Reduce {
			k = 1
		}
		running := 0
		for _, y := range pl {
			if y.Reduce == x.Reduce && y.Start <= x.Start && x.Start < y.End {
				running++
			}
		}
		if running > slots[k] {
			return true
		}
	}
	return false
}

// assignSlots gives the tasks of pl (no more of a kind at once than p has
// slots of it) their nodes afresh: in order of start, each takes the
// lowest free slot of its kind (greedy colouring of intervals uses no more
// colours than tasks overlap).
func assignSlots(p *lowerbound.Problem, pl []Placement) bool {
	sort.SliceStable(pl, func(a, b int) bool {
		if pl[a].Start != pl[b].Start {
			return pl[a].Start < pl[b].Start
		}
		return !pl[a].Reduce && pl[b].Reduce
	})
	// At most len(pl) slots of a kind are ever taken (each task takes the
	// lowest free one): a node's slots beyond that are never listed, so a
	// count of 2^40 slots costs nothing.
	var node [2][]int
	for x, nd := range p.Nodes {
		for i := 0; i < nd.MapSlots && len(node[0]) < len(pl); i++ {
			node[0] = append(node[0], x)
		}
		for i := 0; i < nd.ReduceSlots && len(node[1]) < len(pl); i++ {
			node[1] = append(node[1], x)
		}
	}
	free := [2][]int64{make([]int64, len(node[0])), make([]int64, len(node[1]))}
	for i := range free {
		for s := range free[i] {
			free[i][s] = math.MinInt64
		}
	}
	for i := range pl {
		k := 0
		if pl[i].Reduce {
			k = 1
		}
		placed := false
		for s, f := range free[k] {
			if f <= pl[i].Start {
				free[k][s] = pl[i].End
				pl[i].Node = node[k][s]
				placed = true
				break
			}
		}
		if !placed {
			return false // more tasks at once than slots: not a schedule
		}
	}
	return true
}

// pooledSlots is the number of slots of kind k (0 maps, 1 reduces) in p,
// capped at the number of p's tasks of that kind: no more are ever busy at
// once, so the cap changes no schedule, and it keeps fifoGroups' slot
// table (and the sum, over nodes of up to 2^63 slots each) small. Without
// it a node of 2^40 map slots asked for 8 TB (s18audit).
func pooledSlots(p *lowerbound.Problem, k int) int {
	n := 0
	for _, j := range p.Jobs {
		n += [2]int{len(j.Maps), len(j.Reduces)}[k]
	}
	total := 0
	for _, nd := range p.Nodes {
		total = min(n, total+min(n, [2]int{nd.MapSlots, nd.ReduceSlots}[k]))
	}
	return total
}

// satAdd is a + b for non-negative node counts, at most math.MaxInt64 (a
// budget of "no limit" must not wrap around to a tiny share).
func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
