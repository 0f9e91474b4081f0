package bnb

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mrbound/mrbound/lowerbound"
)

// TestLagColGenBelowExact: on the 300 seeded tiny problems of
// TestLagRootBelowExact the column generation's certified root value
// (§14g), started from the subgradient's multipliers, is at least the
// subgradient's and at or below lowerbound.Exact's optimal total
// turnaround; started cold (every price 0, the FIFO schedule's columns
// only) it is at or below the optimum too and, where the generation
// converged (its master within cgGap of its value), at least the
// subgradient's less cgGap — the LP reaches the Lagrangian dual's optimum,
// which no multipliers exceed. The master's value is at or above every
// certified value (weak duality of the restricted master: a column's cost
// understated makes it fail).
func TestLagColGenBelowExact(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 15))
	ctx := context.Background()
	var raised, converged, above int
	for it := range 300 {
		p, opt := tinyWithOptimum(t, r)
		want := opt.Value(lowerbound.TotalTurnaround, len(p.Jobs))
		lr, err := RootLagrangian(ctx, p, 200)
		if err != nil || lr == nil {
			t.Fatalf("problem %d: %v %v", it, lr, err)
		}
		if lr.ColGen > want+1e-6 || lr.ColGen < lr.Subgradient {
			t.Fatalf("problem %d: column generation %v, subgradient %v, optimum %v\n%+v", it, lr.ColGen, lr.Subgradient, want, p)
		}
		if lr.Master < lr.ColGen-1e-6 {
			t.Fatalf("problem %d: master %v below the certified %v", it, lr.Master, lr.ColGen)
		}
		if lr.ColGen > lr.Subgradient+1e-6 {
			raised++
		}

		s := newSearcher(p)
		s.ctx, s.metric, s.inc, s.lastStart = ctx, lowerbound.TotalTurnaround, math.MaxInt64, math.MinInt64
		_, target := fifoList(s)
		ls := newLagSum(s, float64(target))
		sub := ls.root
		clear(ls.lam)
		clear(ls.mu)
		cold, master, _ := ls.colGen(s, s.minA, ls.fifoColumns(s), 200, cgBox*float64(ls.u))
		if cold > want+1e-6 {
			t.Fatalf("problem %d: cold column generation %v above the optimum %v\n%+v", it, cold, want, p)
		}
		if master < cold-1e-6 {
			t.Fatalf("problem %d: cold master %v below the certified %v", it, master, cold)
		}
		if master-cold <= cgGap*float64(ls.u) {
			converged++
			if cold < sub-cgGap*float64(ls.u) {
				t.Fatalf("problem %d: converged cold column generation %v (master %v) below the subgradient's %v", it, cold, master, sub)
			}
			if cold > sub+1e-6 {
				above++
			}
		}
	}
	if converged < 200 {
		t.Fatalf("the cold generation converged on %d of 300 problems: too few to test it", converged)
	}
	t.Logf("warm: raised the subgradient's value on %d of 300; cold: converged on %d, above the subgradient's on %d", raised, converged, above)
}

// TestLagColGenBudgets: the column generation keeps TestLagBudgets'
// budgets. On the 2 000-task stream whose steps would take minutes the
// bound is not built (RootLagrangian returns nil), and on seed 3's MRCP
// stream with the context already cancelled no LP is solved: the value is
// the (stopped) subgradient's, every multiplier 0.
func TestLagColGenBudgets(t *testing.T) {
	p := wideReduceStream()
	if lr, err := RootLagrangian(context.Background(), p, 0); err != nil || lr != nil {
		t.Errorf("the 2 000-task stream: %+v %v, want no Lagrangian", lr, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	q := mrcpStream(mrcpSeed3)
	lr, err := RootLagrangian(ctx, q, 0)
	if err != nil || lr == nil {
		t.Fatalf("seed 3: %+v %v", lr, err)
	}
	s := newSearcher(q)
	s.ctx, s.metric = ctx, lowerbound.TotalTurnaround
	zero, _ := newLagSum(s, 0).value(s, s.minA)
	if lr.Solves != 0 || lr.ColGen != lr.Subgradient || lr.ColGen > zero {
		t.Errorf("cancelled: %+v, want no solve and the zero multipliers' value %v", lr, zero)
	}
}
