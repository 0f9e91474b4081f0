package jlassi

import (
	"context"
	"math"
	"time"

	"github.com/mrbound/mrbound/instances/jlassiscenario"
	"github.com/mrbound/mrbound/solve"
)

// Interval neighbourhood search (docs/jlassi.md, "Neighbourhood search"):
// R_K with every task outside a neighbourhood fixed where the placement has
// it is a small MIP that re-packs the neighbourhood's tasks exactly. The
// annealer's moves (one task, or a swap of two) cannot reach re-packings
// that move several tasks at once; on scenario 4 the annealer's placements
// are not local optima for them (seed 10: 655, re-packed to 642 in 4 s).
const (
	// neighbourhoodNodes limits each sub-MIP's branch and bound, so that
	// the search is deterministic unless the run's time limit stops it.
	neighbourhoodNodes = 200
	// neighbourhoodShare is the largest share of the run's time limit the
	// search may use; the interval counts need the rest.
	neighbourhoodShare = 0.25
)

// A neighbourhood frees the tasks of some positions (they may move among
// those positions) or of some jobs (they may move anywhere); every other
// task stays where it is.
type neighbourhoodKind struct {
	byJobs bool
	size   int
}

// neighbourhoodKinds are tried in this order; after an improvement the
// search starts again from the first. Three positions take ~0.05 s per
// sub-MIP on scenario 4 and two jobs ~0.07 s. Three jobs (~0.5 s) and four
// positions (~0.2 s) after them added nothing on scenario 4 seeds 6, 8 and
// 10 but 15–30 s; seed 6's 653 gives way only to five positions or four
// jobs at a time (647 after 140 s).
var neighbourhoodKinds = []neighbourhoodKind{{false, 3}, {true, 2}}

// neighbourhoodStats counts the neighbourhood search's work.
type neighbourhoodStats struct {
	Solves, Improvements int
	Nodes                int64
}

// neighbourhood improves place, a placement over K positions of RealTime
// value, and returns the improved placement and its RealTime (place and
// value when nothing better was found). Each improvement is a sub-MIP's
// solution under the cutoff "better than value" that also keeps the shuffle
// bandwidth (placementFits; the sub-MIPs leave the network rows out, which
// made them 5–10× slower). It stops when no neighbourhood kind improves the
// placement, at the time share, or when stop says so. The result still
// needs completePlacement.
func neighbourhood(ctx context.Context, in *jlassiscenario.Instance, T int, place []wKey, K int, value float64, so solve.Options, stop func() bool) ([]wKey, float64, neighbourhoodStats) {
	var st neighbourhoodStats
	if K < 2 {
		return place, value, st
	}
	cm, err := buildCount(in, countOptions{K: K, T: T, Cutoff: value, NoOrder: true})
	if err != nil {
		return place, value, st
	}
	cutoffRow := cm.cutoff
	if cutoffRow < 0 {
		return place, value, st
	}
	// A new cutoff moves the row's bound by its distance from the first.
	base, value0 := cm.Model.RowUpper[cutoffRow], value
	integral := integralDurations(in)
	t0 := time.Now()
	var until time.Duration
	if so.TimeLimit > 0 {
		until = time.Duration(neighbourhoodShare * float64(so.TimeLimit))
	}
	opts := so
	opts.Start = nil
	opts.NodeLimit = neighbourhoodNodes
	opts.RelGap, opts.AbsGap = 1e-9, boundTol
	over := func() bool { return stop() || until > 0 && time.Since(t0) >= until }
	at := make([]wKey, len(in.Tasks)) // task → its placement in place
	for _, k := range place {
		at[k.I] = k
	}
	for kind := 0; kind < len(neighbourhoodKinds); kind++ {
		nk := neighbourhoodKinds[kind]
		n := K
		if nk.byJobs {
			n = len(in.Jobs)
		}
		if nk.size >= n {
			continue // the whole of R_K: the count search solves that
		}
		improved := false
		for _, sub := range combinations(n, nk.size) {
			if over() {
				return place, value, st
			}
			chosen := make([]bool, n)
			for _, v := range sub {
				chosen[v] = true
			}
			free := func(k wKey) bool { // may task k.I be placed at k?
				if nk.byJobs {
					return chosen[in.Tasks[k.I].Job]
				}
				return chosen[at[k.I].T] && chosen[k.T]
			}
			part := cm.Model.Clone()
			for _, k := range cm.w.Keys() {
				v, _ := cm.w.Get(k)
				switch {
				case free(k):
				case k == at[k.I]:
					part.ColLower[v.Index()] = 1
				default:
					part.ColUpper[v.Index()] = 0
				}
			}
			cut := value - 1
			if !integral {
				cut = value - 10*boundTol*math.Max(1, value)
			}
			part.RowUpper[cutoffRow] = base - (value0 - cut)
			if so.TimeLimit > 0 {
				left := until - time.Since(t0)
				if left <= 0 {
					return place, value, st
				}
				opts.TimeLimit = left
			}
			res, err := solve.Solve(ctx, part, opts)
			st.Solves++
			st.Nodes += res.Nodes
			if err != nil || !res.HasSolution || res.Objective > cut+boundTol {
				continue
			}
			next := cm.placements(res.X)
			if len(next) != len(in.Tasks) || !placementFits(in, next, K) {
				continue
			}
			place, value = next, res.Objective
			for _, k := range place {
				at[k.I] = k
			}
			if integral {
				value = math.Round(value)
			}
			st.Improvements++
			improved = true
		}
		if improved {
			kind = -1 // from the first kind again
		}
	}
	return place, value, st
}

// placementFits reports whether the shuffle pairs of place (over K
// positions) keep every link within its capacity, as the annealer counts
// them (R_K's network rows, which the sub-MIPs leave out).
func placementFits(in *jlassiscenario.Instance, place []wKey, K int) bool {
	if len(in.Shuffles) == 0 {
		return true
	}
	a := newAnnealer(in, K)
	for _, k := range place {
		o := a.optionIndex(k.I, k.J, k.S)
		if o < 0 || k.T < 0 || k.T >= K {
			return false
		}
		a.insert(k.I, o, k.T)
	}
	for n := range in.Shuffles {
		if !a.pairFits(n) {
			return false
		}
	}
	return true
}

// combinations lists the q-subsets of 0..n−1 in lexicographic order.
func combinations(n, q int) [][]int {
	var out [][]int
	cur := make([]int, 0, q)
	var rec func(from int)
	rec = func(from int) {
		if len(cur) == q {
			out = append(out, append([]int(nil), cur...))
			return
		}
		for i := from; i <= n-(q-len(cur)); i++ {
			cur = append(cur, i)
			rec(i + 1)
			cur = cur[:len(cur)-1]
		}
	}
	rec(0)
	return out
}
