package mip

import "math"

// activity is the range of a row's activity over the column bounds: the
// finite parts of its minimum and maximum and how many infinite bounds each
// misses.
type activity struct {
	minF, maxF     float64
	minInf, maxInf int
	// span is the largest |a_j|·(u_j − l_j) over the row's columns (+Inf
	// when some column is unbounded).
	span float64
}

// rowActivity computes the activity range of the row with entries cols, vals
// under bounds lo, up.
func rowActivity(cols []int, vals, lo, up []float64) activity {
	var a activity
	for k, j := range cols {
		v := vals[k]
		l, u := lo[j], up[j]
		if v < 0 {
			l, u = u, l
		}
		if math.IsInf(l, 0) {
			a.minInf++
		} else {
			a.minF += v * l
		}
		if math.IsInf(u, 0) {
			a.maxInf++
		} else {
			a.maxF += v * u
		}
		if w := math.Abs(v) * (up[j] - lo[j]); w > a.span {
			a.span = w
		}
	}
	return a
}

// canTighten reports whether rl ≤ row ≤ ru can shrink some column's bounds:
// false when both sides are infinite or leave more slack than any column's
// whole range covers (span), the common case in a dense knapsack row.
func (a activity) canTighten(rl, ru float64) bool {
	upOK := math.IsInf(ru, 1) || a.minInf > 1 || (a.minInf == 0 && ru-a.minF > a.span*(1+propTol)+propTol)
	loOK := math.IsInf(rl, -1) || a.maxInf > 1 || (a.maxInf == 0 && a.maxF-rl > a.span*(1+propTol)+propTol)
	return !(upOK && loOK)
}

// infeasible reports whether the activity range misses [rl, ru] by more than
// propTol (relative).
func (a activity) infeasible(rl, ru float64) bool {
	return a.minInf == 0 && !math.IsInf(ru, 1) && a.minF > ru+propTol*math.Max(1, math.Abs(ru)) ||
		a.maxInf == 0 && !math.IsInf(rl, -1) && a.maxF < rl-propTol*math.Max(1, math.Abs(rl))
}

// intBounds returns the bounds rl ≤ row ≤ ru implies for an integer column
// with coefficient v and current bounds [l, u], given the row's activity
// range a (which includes the column): the residual activity without the
// column bounds v·x, and the result is rounded inward.
func (a activity) intBounds(v, l, u, rl, ru float64) (nl, nu float64) {
	cl, cu := l, u // the column's contribution to min and max
	if v < 0 {
		cl, cu = u, l
	}
	rMin, rMinOK := a.minF, a.minInf == 0
	if math.IsInf(cl, 0) {
		rMinOK = a.minInf == 1
	} else if rMinOK {
		rMin -= v * cl
	}
	rMax, rMaxOK := a.maxF, a.maxInf == 0
	if math.IsInf(cu, 0) {
		rMaxOK = a.maxInf == 1
	} else if rMaxOK {
		rMax -= v * cu
	}
	nl, nu = l, u
	if rMinOK && !math.IsInf(ru, 1) {
		if t := (ru - rMin) / v; v > 0 {
			nu = math.Min(nu, math.Floor(t+intTol))
		} else {
			nl = math.Max(nl, math.Ceil(t-intTol))
		}
	}
	if rMaxOK && !math.IsInf(rl, -1) {
		if t := (rl - rMax) / v; v > 0 {
			nl = math.Max(nl, math.Ceil(t-intTol))
		} else {
			nu = math.Min(nu, math.Floor(t+intTol))
		}
	}
	return nl, nu
}
