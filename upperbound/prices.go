package upperbound

import (
	"fmt"
	"math"
	"slices"
)

// SlotPrices are what a relaxation says one reduce slot's time is worth
// to the metric: Reduce[t] ≥ 0 (ms of the metric per slot-ms) over
// [Breakpoints[t], Breakpoints[t+1]) (ms), 0 outside. Plain data: upperbound
// computes no bound, it only reads the prices (compare passes the interval
// Lagrangian's duals).
type SlotPrices struct {
	Breakpoints []float64
	Reduce      []float64
}

// validate says what is wrong with the prices, if anything.
func (sp *SlotPrices) validate() error {
	if len(sp.Breakpoints) != len(sp.Reduce)+1 {
		return fmt.Errorf("upperbound: %d breakpoints for %d reduce prices, want one more", len(sp.Breakpoints), len(sp.Reduce))
	}
	for t, b := range sp.Breakpoints {
		if math.IsNaN(b) || math.IsInf(b, 0) {
			return fmt.Errorf("upperbound: breakpoint %d is %v, not a finite value", t, b)
		}
		if t > 0 && b <= sp.Breakpoints[t-1] {
			return fmt.Errorf("upperbound: breakpoint %d (%g) is not after the one before (%g)", t, b, sp.Breakpoints[t-1])
		}
	}
	for t, p := range sp.Reduce {
		if !(p >= 0) || math.IsInf(p, 1) {
			return fmt.Errorf("upperbound: reduce price %d is %v, not a finite value ≥ 0", t, p)
		}
	}
	return nil
}

// priceCurve integrates piecewise-constant prices: cum[t] is the integral
// from the first breakpoint to the t-th.
type priceCurve struct {
	at, price, cum []float64
}

func newPriceCurve(sp *SlotPrices) *priceCurve {
	if sp == nil || len(sp.Reduce) == 0 {
		return nil
	}
	pc := &priceCurve{at: sp.Breakpoints, price: sp.Reduce, cum: make([]float64, len(sp.Breakpoints))}
	for t, p := range sp.Reduce {
		pc.cum[t+1] = pc.cum[t] + p*(sp.Breakpoints[t+1]-sp.Breakpoints[t])
	}
	return pc
}

// upTo is the integral of the prices from the first breakpoint to x.
func (pc *priceCurve) upTo(x float64) float64 {
	n := len(pc.at)
	if x <= pc.at[0] {
		return 0
	}
	if x >= pc.at[n-1] {
		return pc.cum[n-1]
	}
	// t: the interval [at[t], at[t+1]) holding x.
	t, found := slices.BinarySearch(pc.at, x)
	if !found {
		t--
	}
	return pc.cum[t] + pc.price[t]*(x-pc.at[t])
}

// over is the prices' integral over [a, b]: what idling one slot then is
// worth to the relaxation.
func (pc *priceCurve) over(a, b float64) float64 {
	return pc.upTo(b) - pc.upTo(a)
}
