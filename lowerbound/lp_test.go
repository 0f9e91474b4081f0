package lowerbound

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/internal/sizelimit"
	"github.com/mrbound/mrbound/solve"
	_ "github.com/mrbound/mrbound/solve/native"
)

// TestBucketLPNeverExceedsOptimum: the bucketed LP's certified value never
// exceeds the enumerated optimal total turnaround, with coarse and fine
// grids and short windows (which send work to the uncapacitated tails).
func TestBucketLPNeverExceedsOptimum(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 100
	}
	rng := rand.New(rand.NewPCG(4, 19))
	stronger := 0
	for i := range n {
		p, opt := randomWithOptimum(t, rng)
		b, err := Compute(p)
		if err != nil {
			t.Fatal(err)
		}
		grid := []LPOptions{{Buckets: 4, Window: 2}, {Buckets: 40, Window: 8}, {Buckets: 200, Window: 24}}[i%3]
		res, err := BucketLP(context.Background(), p, grid)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != solve.Optimal {
			t.Fatalf("instance %d: LP status %v", i, res.Status)
		}
		if res.Value > float64(opt.TotalTurnaround)+roundingSlack(res.Value) {
			t.Errorf("instance %d (grid %+v): LP bound %.9g > optimum %d\n%s", i, grid, res.Value, opt.TotalTurnaround, dump(p))
		}
		if res.Value > b.Get(TotalTurnaround).Value+1e-6 {
			stronger++
		}
	}
	t.Logf("LP stronger than the combinatorial bounds on %d of %d instances", stronger, n)
}

// TestComputeWithLP: the LP component appears in the total and mean
// turnaround bounds, and on a loaded stream of one- and two-map jobs it
// raises the bound above every combinatorial component.
func TestComputeWithLP(t *testing.T) {
	p := loadedStream()
	plain, err := Compute(p)
	if err != nil {
		t.Fatal(err)
	}
	with, err := ComputeWith(context.Background(), p, Options{LP: &LPOptions{}})
	if err != nil {
		t.Fatal(err)
	}
	tb := with.Get(TotalTurnaround)
	if tb.By != "bucketed-lp" || tb.Value <= plain.Get(TotalTurnaround).Value {
		t.Errorf("LP bound %+v does not beat the combinatorial %g", tb, plain.Get(TotalTurnaround).Value)
	}
	if got, want := with.Get(MeanTurnaround).Value, tb.Value/60; got != want {
		t.Errorf("mean %g, want %g", got, want)
	}
	t.Logf("total turnaround: LP %.6g, combinatorial %.6g (%s)", tb.Value, plain.Get(TotalTurnaround).Value, plain.Get(TotalTurnaround).By)
}

// TestGridSizeGuards: a bucket LP of 10^10 buckets and a Lagrangian grid of
// 10^10 intervals (library options; the CLI uses the defaults) are refused
// before anything is allocated, naming the option and the budget, while the
// defaults on the same problem still give their bounds.
func TestGridSizeGuards(t *testing.T) {
	p := randomProblem(rand.New(rand.NewPCG(5, 7)), 6)
	defer sizelimit.SetBudget(8 << 30)()
	_, err := BucketLP(context.Background(), p, LPOptions{Buckets: 1e10, Window: 1e10})
	if err == nil || !errors.Is(err, sizelimit.ErrTooLarge) || !strings.HasPrefix(err.Error(), "LPOptions.Buckets = 10000000000, Window = 10000000000: ") ||
		!strings.Contains(err.Error(), "memory budget of 8 GiB") {
		t.Errorf("10^10 buckets: %v, want a refusal naming the option", err)
	}
	_, err = IntervalLagrangian(context.Background(), p, LagrangeOptions{Intervals: 1e10, Iterations: 1})
	if err == nil || !errors.Is(err, sizelimit.ErrTooLarge) || !strings.HasPrefix(err.Error(), "LagrangeOptions.Intervals: 10000000000 grid intervals need about") {
		t.Errorf("10^10 intervals: %v, want a refusal naming the option", err)
	}
	if r, err := BucketLP(context.Background(), p, LPOptions{Solve: solve.Options{Solver: "native"}}); err != nil || r.Status != solve.Optimal {
		t.Errorf("default buckets: %v, %v", r.Status, err)
	}
	if _, err := IntervalLagrangian(context.Background(), p, LagrangeOptions{Intervals: 4096, Iterations: 5}); err != nil {
		t.Errorf("4096 intervals: %v", err)
	}
}
