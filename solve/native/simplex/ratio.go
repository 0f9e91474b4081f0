package simplex

import (
	"cmp"
	"math"
	"slices"
)

// bfrtSortPasses is the number of bound-flipping passes of the dual ratio
// test after which the remaining candidates are sorted by ratio: every
// later pass then costs only its own group instead of a scan of all.
const bfrtSortPasses = 4

// rcand is one candidate of the dual ratio test in compact form.
type rcand struct {
	k          int
	absA       float64 // |α_rk|
	ratio      float64 // d_k/α (0 for a free variable)
	exact      float64 // d_k/α
	th         float64 // Harris bound: the ratio with the tolerance added
	rangeWidth float64 // up − lo
}

// dualRatioTest is the bound-flipping Harris ratio test of the dual
// simplex over the candidates cands of the pivot row (direction s, slope
// the primal infeasibility of the leaving variable). Pass after pass it
// takes the Harris bound thMax of the remaining candidates and the group
// with ratio ≤ thMax; while flipping the whole group keeps the slope
// positive and candidates remain, the group is flipped (appended to flips)
// and the next pass continues. It returns the entering variable q (the
// largest |α| of the last group), its ratio t and the flips.
func (e *engine) dualRatioTest(cands []int, s, slope, dtol float64, flips []int) (int, float64, []int) {
	rc := e.rc[:0]
	for _, k := range cands {
		a := -s * e.prow[k]
		th := math.Inf(1)
		if a > 0 && e.stat[k] != stUpper {
			th = (e.d[k] + dtol) / a
		} else if a < 0 && e.stat[k] != stLower {
			th = (e.d[k] - dtol) / a
		} else if e.stat[k] == stFree {
			th = dtol / math.Abs(a)
		}
		exact := e.d[k] / a
		ratio := exact
		if e.stat[k] == stFree {
			ratio = 0
		}
		rc = append(rc, rcand{k: k, absA: math.Abs(a), ratio: ratio, exact: exact, th: th, rangeWidth: e.up[k] - e.lo[k]})
	}
	e.rc = rc
	start, sorted := 0, false
	var sufMin []float64
	for pass := 0; ; pass++ {
		if !sorted && pass >= bfrtSortPasses && len(rc)-start > 1 {
			slices.SortFunc(rc[start:], func(x, y rcand) int { return cmp.Compare(x.ratio, y.ratio) })
			sufMin = resizeFloat(e.rcMin, len(rc))
			e.rcMin = sufMin
			mn := math.Inf(1)
			for i := len(rc) - 1; i >= start; i-- {
				mn = math.Min(mn, rc[i].th)
				sufMin[i] = mn
			}
			sorted = true
		}
		var thMax float64
		if sorted {
			thMax = sufMin[start]
		} else {
			thMax = math.Inf(1)
			for i := start; i < len(rc); i++ {
				thMax = math.Min(thMax, rc[i].th)
			}
		}
		// Gather the group rc[start:end] (ratio ≤ thMax).
		end := start
		if sorted {
			for end < len(rc) && rc[end].ratio <= thMax {
				end++
			}
		} else {
			for i := start; i < len(rc); i++ {
				if rc[i].ratio <= thMax {
					rc[i], rc[end] = rc[end], rc[i]
					end++
				}
			}
		}
		q, t, bestA, grpSlope := -1, 0.0, 0.0, 0.0
		for i := start; i < end; i++ {
			c := &rc[i]
			if c.absA > bestA || (c.absA == bestA && q >= 0 && c.k < q) {
				bestA, q, t = c.absA, c.k, c.ratio
			}
			grpSlope += c.absA * c.rangeWidth
		}
		if q < 0 {
			// thMax can fall below every exact ratio only through
			// rounding; take the smallest ratio.
			for i := start; i < len(rc); i++ {
				c := &rc[i]
				if q < 0 || c.exact < t || (c.exact == t && c.k < q) {
					q, t = c.k, c.exact
				}
			}
			return q, t, flips
		}
		if end < len(rc) && slope-grpSlope > 0 && !math.IsInf(grpSlope, 1) {
			// Flip the whole group and continue.
			slope -= grpSlope
			for i := start; i < end; i++ {
				flips = append(flips, rc[i].k)
			}
			start = end
			continue
		}
		return q, t, flips
	}
}
