package lowerbound

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// TestChainTermsNeverExceedOptimum is the property test of the one-piece
// reduce side (docs/bounds.md §4e) on the instances it is for: jobs with more
// reduces than reduce slots, among one-reduce jobs that crowd the slots. On
// every instance the Lagrangian's certified value is at most the enumerated
// optimum, its certificate re-evaluated by independent code (startTermAt and
// chainTermAt) gives at least the reported value and at most the optimum,
// and on some instances the one-piece sides raise the certificate's value
// above its value with fluid reduce sides (else the test would not exercise
// them).
func TestChainTermsNeverExceedOptimum(t *testing.T) {
	n := 120
	if testing.Short() {
		n = 40
	}
	rng := rand.New(rand.NewPCG(13, 26))
	gain := 0
	for i := range n {
		p := wideProblem(rng)
		opt, err := Exact(p)
		if err != nil {
			t.Fatal(err)
		}
		o := lagrangeGrids[i%3] // the 1,024-step grid makes chainTermAt slow
		res, err := IntervalLagrangian(context.Background(), p, o)
		if err != nil {
			t.Fatal(err)
		}
		optT := float64(opt.TotalTurnaround)
		if res.Value > optT+roundingSlack(optT) {
			t.Errorf("instance %d (%+v): Lagrangian bound %.9g > optimum %g\n%s", i, o, res.Value, optT, dump(p))
		}
		indep := lagrangianAt(p, res.Certificate)
		if res.Value > indep+1e-6*math.Max(1, math.Abs(indep)) {
			t.Errorf("instance %d: reported %.9g above its certificate's value %.9g", i, res.Value, indep)
		}
		if indep > optT+roundingSlack(optT) {
			t.Errorf("instance %d: certificate value %.9g > optimum %g\n%s", i, indep, optT, dump(p))
		}
		if indep > lagrangianAtNoChains(p, res.Certificate)+1e-6*math.Max(1, math.Abs(indep)) {
			gain++
		}
	}
	t.Logf("one-piece reduce sides raise the certificate's value on %d of %d instances", gain, n)
	if gain == 0 {
		t.Errorf("the one-piece reduce sides never raise a value: the test does not exercise them")
	}
}

// wideProblem is a tiny instance of FB-2009's shape at small scale: one node
// of one map slot and one or two reduce slots, a job with one to three more
// equal reduces than reduce slots, and one or two jobs of one map and one
// reduce that arrive while it runs; at most 8 tasks.
func wideProblem(rng *rand.Rand) *Problem {
	S := 1 + rng.IntN(2)
	p := &Problem{Mode: Fixed, Groups: 1, Nodes: []Node{{MapSlots: 1, ReduceSlots: S}}}
	scale := int64(1)
	if rng.IntN(3) == 0 {
		scale = 997
	}
	wide := Job{Arrival: scale * rng.Int64N(4)}
	if rng.IntN(2) == 0 {
		wide.Maps = append(wide.Maps, Task{Dur: []int64{scale * (1 + rng.Int64N(3))}})
	}
	d := scale * (2 + rng.Int64N(8))
	for range S + 1 + rng.IntN(min(3, 5-S)) {
		wide.Reduces = append(wide.Reduces, Task{Dur: []int64{d}})
	}
	p.Jobs = append(p.Jobs, wide)
	for range 1 + rng.IntN(2) {
		if len(p.Jobs[0].Maps)+len(p.Jobs[0].Reduces)+2*len(p.Jobs) > 8 {
			break
		}
		p.Jobs = append(p.Jobs, Job{
			Arrival: scale * rng.Int64N(12),
			Maps:    []Task{{Dur: []int64{scale * (1 + rng.Int64N(3))}}},
			Reduces: []Task{{Dur: []int64{scale * (1 + rng.Int64N(4))}}},
		})
	}
	return p
}
