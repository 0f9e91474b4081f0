package lowerbound

import (
	"context"
	"math/rand/v2"
	"testing"

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
		p := randomProblem(rng, 7)
		opt, err := Exact(p)
		if err != nil {
			t.Fatal(err)
		}
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
