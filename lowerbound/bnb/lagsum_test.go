package bnb

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/solve"
)

// bruteJob is the least value of job j of ls's problem alone — C_j − a_j
// plus its tasks' priced use of the cells — over every schedule of the job
// alone whose starts are cells in [a_j, ls.hx]: maps at most ls.nM at once,
// reduces at most ls.nR at once and after the last map end. It enumerates
// the start multisets directly, as an independent check of the chains'
// dynamic program (§14e), which must never exceed it.
func bruteJob(ls *lagSum, j int) float64 {
	lj := &ls.jobs[j]
	price := func(pre []float64, s, d int) float64 { return pre[s+d] - pre[s] }
	// fits reports whether no cell holds more than k of the blocks of
	// length d starting at starts.
	fits := func(starts []int, d, k int) bool {
		for _, x := range starts {
			n := 0
			for _, y := range starts {
				if y <= x && x < y+d {
					n++
				}
			}
			if n > k {
				return false
			}
		}
		return true
	}
	// each calls visit with the last end and the priced use of every
	// multiset of n starts in [from, last] of blocks of length d that fits
	// k slots.
	each := func(n, d, k int, pre []float64, from, last int, visit func(end int, v float64)) {
		var rec func(from int, starts []int)
		rec = func(from int, starts []int) {
			if len(starts) == n {
				if !fits(starts, d, k) {
					return
				}
				end, v := 0, 0.0
				for _, s := range starts {
					end = max(end, s+d)
					v += price(pre, s, d)
				}
				visit(end, v)
				return
			}
			for s := from; s <= last; s++ {
				rec(s, append(starts, s))
			}
		}
		rec(from, nil)
	}
	// red[L]: the least reduce-side value with every reduce at or after L.
	red := make([]float64, ls.hx+1)
	for L := range red {
		red[L] = math.Inf(1)
		if lj.r == 0 {
			red[L] = float64(ls.time(L) - lj.a)
			continue
		}
		each(lj.r, lj.q, ls.nR, ls.pm, L, ls.hx, func(c int, v float64) {
			red[L] = math.Min(red[L], v+float64(ls.time(c)-lj.a))
		})
	}
	if lj.n == 0 {
		return red[lj.aCell]
	}
	best := math.Inf(1)
	each(lj.n, lj.p, ls.nM, ls.pl, lj.aCell, ls.hx-lj.p, func(l int, v float64) {
		best = math.Min(best, v+red[l])
	})
	return best
}

// TestLagRootBelowExact: on 300 seeded tiny problems the root value of the
// time-indexed Lagrangian (§14e), with the multipliers its subgradient
// steps found, is at or below lowerbound.Exact's optimal total turnaround;
// each job's term is at or below the least value of the job alone found by
// enumerating its start sets (bruteJob), and equal to it when the job's
// maps fit its slots at once and it has at most one reduce (its chains are
// then single blocks and its reduce side exact); the bound re-evaluated with the enumerated terms is
// at or below the optimum too (weak duality, checked independently).
func TestLagRootBelowExact(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 15))
	var raised, exactJobs int
	for it := range 300 {
		p, opt := tinyWithOptimum(t, r)
		want := opt.Value(lowerbound.TotalTurnaround, len(p.Jobs))
		s := newSearcher(p)
		s.metric, s.inc, s.lastStart = lowerbound.TotalTurnaround, math.MaxInt64, math.MinInt64
		_, target := fifoList(s)
		ls := newLagSum(s, float64(target))
		if ls == nil {
			t.Fatalf("problem %d: no Lagrangian\n%+v", it, p)
		}
		if ls.root > want+1e-6 {
			t.Fatalf("problem %d: root Lagrangian %v above the optimum %v\n%+v", it, ls.root, want, p)
		}
		fluid := s.bound()
		s.lag = ls
		if node := s.bound(); node > want+1e-6 {
			t.Fatalf("problem %d: root bound %v above the optimum %v", it, node, want)
		} else if node > fluid+1e-6 {
			raised++
		}
		brute := -float64(ls.nM)*ls.pl[ls.h] - float64(ls.nR)*ls.pm[ls.h]
		for j := range ls.jobs {
			lj := &ls.jobs[j]
			var dp float64
			if lj.n > 0 {
				dp = ls.mapVal(lj, lj.n, lj.aCell, nil, nil)
			} else {
				dp = ls.gAt(lj, lj.r, lj.aCell)
			}
			bj := bruteJob(ls, j)
			if dp > bj+1e-9 {
				t.Fatalf("problem %d job %d: chains' value %v above the job's least value %v\n%+v", it, j, dp, bj, p)
			}
			if lj.n <= ls.nM && lj.r <= 1 {
				exactJobs++
				if math.Abs(dp-bj) > 1e-9 {
					t.Fatalf("problem %d job %d: chains' value %v, the job's least value %v: want equal (every task fits at once)\n%+v", it, j, dp, bj, p)
				}
			}
			brute += bj
		}
		if brute > want+1e-6 {
			t.Fatalf("problem %d: the Lagrangian with enumerated job terms %v above the optimum %v", it, brute, want)
		}
	}
	if raised < 20 || exactJobs < 100 {
		t.Fatalf("the Lagrangian raised the root bound on %d of 300 problems, %d jobs checked for equality: too few to test it", raised, exactJobs)
	}
	t.Logf("raised the root bound on %d of 300 problems; %d jobs equal to the enumeration", raised, exactJobs)
}

// TestLagProvesMRCPStream: the 10-job MRCP mixed stream of seed 6 (λ 0.02),
// searched whole (it has no idle instant before its last job), is proven
// with the Lagrangian in the node bound within 20,000 depth-first and
// 20,000 best-first nodes (37,698 in all since the due-date bound, §14i;
// without the Lagrangian 51,311 prove it) — its schedule passing the
// independent check with the optimum's value — and not without it in the
// same budget, whose bound is at or below that optimum and whose schedule
// no better.
func TestLagProvesMRCPStream(t *testing.T) {
	p := mrcpGenerated(t, 10, 6)
	ctx := context.Background()
	o := Options{NodeLimit: 20_000, BoundNodes: 20_000, whole: true}
	res := provenTotal(t, p, o, "with the Lagrangian")
	o.noLag = true
	base, err := Solve(ctx, p, lowerbound.TotalTurnaround, o)
	if err != nil || base.Status == solve.Optimal || base.Bound > res.Value || base.Value < res.Value {
		t.Fatalf("without the Lagrangian: %v %+v, want a stopped search around the optimum %v", err, base, res.Value)
	}
	t.Logf("optimum %v in %d nodes; without the Lagrangian bound %v, value %v after %d", res.Value, res.Nodes, base.Bound, base.Value, base.Nodes)
}

// TestLagBudgets: the root's steps neither outlast the caller's context
// nor start where they would take minutes. (1) Ten jobs of 10 maps and
// 190 reduces on one map and one reduce slot (2 000 tasks) would cost
// about 10^11 cell visits: the bound is not built, and a search of 10
// nodes returns (before the budget it ran for minutes whatever its
// context; reviewer rev15a). (2) On seed 3's MRCP stream the bound is
// built, and with the context already cancelled the steps stop at once:
// every multiplier stays 0 and the root value is at most the full steps'.
func TestLagBudgets(t *testing.T) {
	p := wideReduceStream()
	s := newSearcher(p)
	s.ctx, s.metric = context.Background(), lowerbound.TotalTurnaround
	if _, target := fifoList(s); newLagSum(s, float64(target)) != nil {
		t.Error("the 2 000-task stream's Lagrangian was built: its steps take minutes")
	}
	if _, err := Solve(context.Background(), p, lowerbound.TotalTurnaround, Options{NodeLimit: 10}); err != nil {
		t.Fatal(err)
	}

	q := mrcpStream(mrcpSeed3)
	full, stopped := newSearcher(q), newSearcher(q)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	full.ctx, stopped.ctx = context.Background(), ctx
	full.metric, stopped.metric = lowerbound.TotalTurnaround, lowerbound.TotalTurnaround
	_, target := fifoList(full)
	lf, ls := newLagSum(full, float64(target)), newLagSum(stopped, float64(target))
	if lf == nil || ls == nil {
		t.Fatal("seed 3's Lagrangian was not built")
	}
	for c := range ls.lam {
		if ls.lam[c] != 0 || ls.mu[c] != 0 {
			t.Fatalf("cancelled steps moved the multipliers (cell %d: %g, %g)", c, ls.lam[c], ls.mu[c])
		}
	}
	if ls.root > lf.root {
		t.Errorf("root value with no steps %g above the full steps' %g", ls.root, lf.root)
	}
}

// wideReduceStream is ten jobs of 10 maps and 190 reduces of 1 s, a second
// apart, on one map and one reduce slot: 2,000 tasks whose Lagrangian steps
// would take about 10^11 cell visits (beyond lagMaxWork).
func wideReduceStream() *lowerbound.Problem {
	p := &lowerbound.Problem{Mode: lowerbound.Fixed, Groups: 1, Nodes: []lowerbound.Node{{MapSlots: 1, ReduceSlots: 1}}}
	for j := range 10 {
		jb := lowerbound.Job{Arrival: int64(j) * 1000}
		for range 10 {
			jb.Maps = append(jb.Maps, lowerbound.Task{Dur: []int64{1000}})
		}
		for range 190 {
			jb.Reduces = append(jb.Reduces, lowerbound.Task{Dur: []int64{1000}})
		}
		p.Jobs = append(p.Jobs, jb)
	}
	return p
}

// provenTotal searches p's total turnaround with o, which must prove the
// optimum with a schedule that the independent check values at it.
func provenTotal(t *testing.T, p *lowerbound.Problem, o Options, what string) *Result {
	t.Helper()
	res, err := Solve(context.Background(), p, lowerbound.TotalTurnaround, o)
	if err != nil || res == nil || res.Status != solve.Optimal {
		t.Fatalf("%s: %v %+v, want optimal", what, err, res)
	}
	if v, err := value(p, lowerbound.TotalTurnaround, res.Placements); err != nil || v != res.Value {
		t.Fatalf("%s: schedule %v, value %v against %v", what, err, v, res.Value)
	}
	return res
}
