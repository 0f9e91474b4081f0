package lowerbound

import "math"

// Completion weights (docs/bounds.md §4b). A job's α/β term is
//
//	K + φ_m(α) + φ_r(β),  φ_k(θ) = f_k(θ) − θ·K,
//
// with f_k(θ) = θ·h_k + the θ-knapsack of kind k: a minimum over fills of
// functions linear in θ, so concave, with supergradient μ_k + h_k at θ (μ_k
// the minimiser's mean busy time), and f_k(0) = 0 (the tail is free). The
// weights maximise it over α, β ≥ 0, α + β ≤ 1 — to a tolerance: every
// feasible pair gives a valid value, so an inexact search stays valid.

const (
	// weightTol: a search stops once its upper bound (the tangents'
	// envelope) is within weightTol·CP_j of the best value found: at most
	// 10⁻⁴ of a job's critical path left (1e-3 and 1e-2 ran more steps in
	// the same work on FB-2009 day 0 at 20 nodes, and reached no more).
	weightTol = 1e-4
	// weightEvals caps the probes of one search (a probe on α + β = 1
	// solves two knapsacks).
	weightEvals = 8
)

// concavePoint is a point of a concave function of one variable: its value,
// and a supergradient when slopeOK.
type concavePoint struct {
	x, val, slope float64
	slopeOK       bool
	// parts: the value's two kinds (f_m, f_r), for the caller's sum.
	parts [2]float64
}

// maximiseConcave maximises a concave function on [lo.x, hi.x], whose values
// at both ends are known, by probes of eval: the next probe is where the
// tangents at the ends meet (exact for a piecewise-linear function with one
// kink between them), or the middle while an end has no slope. It stops
// when the tangents bound the maximum within tol of the best point, at a
// zero slope, or after maxEval probes, and returns the best point seen.
func maximiseConcave(lo, hi concavePoint, first float64, eval func(x float64) concavePoint, tol float64, maxEval int) concavePoint {
	best := lo
	if hi.val > best.val {
		best = hi
	}
	for n := 0; n < maxEval && hi.x-lo.x > 1e-9; n++ {
		ub := math.Inf(1)
		x := (lo.x + hi.x) / 2
		switch {
		case lo.slopeOK && hi.slopeOK:
			if lo.slope <= 0 || hi.slope >= 0 {
				return best // the maximum is at an end
			}
			x = (hi.val - lo.val + lo.slope*lo.x - hi.slope*hi.x) / (lo.slope - hi.slope)
			ub = lo.val + lo.slope*(x-lo.x)
			if !(x > lo.x && x < hi.x) {
				x = (lo.x + hi.x) / 2
			}
		case lo.slopeOK:
			ub = lo.val + max(0, lo.slope)*(hi.x-lo.x)
		case hi.slopeOK:
			ub = hi.val + max(0, -hi.slope)*(hi.x-lo.x)
		}
		if ub-best.val <= tol {
			break
		}
		if n == 0 && first > lo.x && first < hi.x {
			x = first
		}
		p := eval(x)
		if p.val > best.val {
			best = p
		}
		switch {
		case p.slope > 0:
			lo = p
		case p.slope < 0:
			hi = p
		default:
			return p
		}
	}
	return best
}

// bestWeights returns job j's weights α, β and its α/β term at them
// (C_j's part, the a_j not subtracted): side(k, θ) gives f_k(θ) and μ_k +
// h_k, and flat says whether f_k is linear on (0, 1] (no priced interval
// in the fill at θ = 1); has[k] says whether the job has work of kind k.
func bestWeights(has [2]bool, k, cp float64, prev [2]float64, side func(kind int, theta float64) (f, slope float64, flat bool)) (alpha, beta, val float64) {
	tol := weightTol * cp
	var top [2]concavePoint     // each kind's maximum alone
	var at1 [2]concavePoint     // each kind at θ = 1
	var rising, settled [2]bool // rising: φ_k does not fall at 1, so nowhere on [0, 1]
	for kind := range 2 {
		if !has[kind] {
			settled[kind] = true
			continue
		}
		f, s, flat := side(kind, 1)
		p := concavePoint{x: 1, val: f - k, slope: s - k, slopeOK: true}
		p.parts[kind] = f
		at1[kind] = p
		rising[kind] = p.slope >= 0
		if rising[kind] || flat {
			// Nondecreasing, or linear: the maximum is at an end.
			settled[kind] = true
			if p.val > 0 {
				top[kind] = p
			}
		}
	}
	for kind := range 2 {
		if settled[kind] {
			continue
		}
		if rising[1-kind] {
			// The other kind gains up to weight 1, so the maximum has
			// α + β = 1: found on that line below.
			top[kind] = concavePoint{x: 1}
			continue
		}
		p := at1[kind]
		eval := func(x float64) concavePoint {
			f, s, _ := side(kind, x)
			q := concavePoint{x: x, val: f - x*k, slope: s - k, slopeOK: true}
			q.parts[kind] = f
			return q
		}
		top[kind] = maximiseConcave(concavePoint{}, p, warm(prev[kind], 0.5), eval, tol, weightEvals)
	}
	a, b := top[0], top[1]
	if a.x+b.x <= 1 {
		return a.x, b.x, a.parts[0] + b.parts[1] + (1-a.x-b.x)*k
	}
	// α + β ≤ 1 binds: the maximum lies on α + β = 1 (between 1 − β* and
	// α* when both are exact), where g(α) = φ_m(α) + φ_r(1 − α) has
	// supergradient s_m − s_r; the first probe is the last step's α when
	// the line bound then too.
	eval := func(x float64) concavePoint {
		fm, sm, _ := side(0, x)
		fr, sr, _ := side(1, 1-x)
		return concavePoint{x: x, val: fm + fr - k, slope: sm - sr, slopeOK: true, parts: [2]float64{fm, fr}}
	}
	lo := concavePoint{x: 0, val: at1[1].val, parts: [2]float64{0, at1[1].parts[1]}}
	hi := concavePoint{x: 1, val: at1[0].val, parts: [2]float64{at1[0].parts[0], 0}}
	first := (1 - b.x + a.x) / 2
	if prev[0]+prev[1] >= 1-1e-9 {
		first = warm(prev[0], first)
	}
	line := maximiseConcave(lo, hi, first, eval, tol, weightEvals)
	alpha, beta = line.x, 1-line.x
	val = line.parts[0] + line.parts[1]
	// Either kind alone is feasible too (a search stopped early may miss
	// what it holds).
	for kind, p := range top {
		if p.val > 0 && p.parts[kind]+(1-p.x)*k > val {
			alpha, beta, val = 0, 0, p.parts[kind]+(1-p.x)*k
			if kind == 0 {
				alpha = p.x
			} else {
				beta = p.x
			}
		}
	}
	return alpha, beta, val
}

// warm is the first probe: the last step's weight when inside (0, 1).
func warm(prev, def float64) float64 {
	if prev > 0 && prev < 1 {
		return prev
	}
	return def
}
