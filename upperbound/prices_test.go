package upperbound_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/upperbound"
)

// TestHoldCostsReducePrice: one node, two map slots, one reduce slot. A
// arrives at 0 s with a 1-s map and a 4-s reduce, B at 1 s with a 1-s map
// and a 1-s reduce, C and D at 5 s with the same. At 1 s A's reduce is
// ready and B's will be at 2 s: the hold saves B 3 s, less A's 1 s, against
// a fit of 1 s · 1 waiting job, so srpt-hold holds (B [2, 3], A [3, 7], C
// [7, 8], D [8, 9]: mean turnaround 4 s) — and the slot it idled delays C
// and D, which the fit does not see. Priced at 3 per slot-ms (reduce time
// scarce all along), the hold costs 3 s and is not taken (A [1, 5], B, C,
// D after it: mean 3.75 s, the enumerated optimum). The test asserts the
// three values and each trace's verdict.
func TestHoldCostsReducePrice(t *testing.T) {
	w, p, opt := holdCase(t, "priced hold", 1, []holdJob{{0, 1000, 1, 4000}, {1000, 1000, 1, 1000}, {5000, 1000, 1, 1000}, {5000, 1000, 1, 1000}})
	fit := runRule(t, w, p, upperbound.SRPTHold)
	pol, err := upperbound.NewHoldPriced(w, &upperbound.SlotPrices{Breakpoints: []float64{0, 10000}, Reduce: []float64{3}})
	if err != nil {
		t.Fatal(err)
	}
	priced := runPolicy(t, w, p, pol)
	if fit != 4000 || priced != 3750 || opt != 3750 {
		t.Errorf("mean turnaround: srpt-hold %g, priced %g, optimum %g; want 4000, 3750, 3750", fit, priced, opt)
	}
}

// TestBestRefusesBadPrices: prices of the wrong length, a breakpoint out
// of order, a negative or infinite price are refused with one error.
func TestBestRefusesBadPrices(t *testing.T) {
	w, p, _ := holdCase(t, "bad prices", 1, []holdJob{{0, 1000, 1, 1000}})
	for _, c := range []struct {
		sp   upperbound.SlotPrices
		want string
	}{
		{upperbound.SlotPrices{Breakpoints: []float64{0, 1}, Reduce: []float64{1, 1}}, "breakpoints for"},
		{upperbound.SlotPrices{Breakpoints: []float64{0, 2, 1}, Reduce: []float64{1, 1}}, "not after"},
		{upperbound.SlotPrices{Breakpoints: []float64{0, math.NaN()}, Reduce: []float64{1}}, "not a finite"},
		{upperbound.SlotPrices{Breakpoints: []float64{0, 1}, Reduce: []float64{-1}}, "≥ 0"},
		{upperbound.SlotPrices{Breakpoints: []float64{0, 1}, Reduce: []float64{math.Inf(1)}}, "≥ 0"},
	} {
		_, err := upperbound.Best(context.Background(), w, p, upperbound.Options{Metric: lowerbound.MeanTurnaround, Prices: &c.sp})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("prices %+v: error %v, want one saying %q", c.sp, err, c.want)
		}
	}
}
