package cuts

import (
	"math"
	"sort"

	"github.com/mrbound/mrbound/model"
)

const (
	// MinViolation is the smallest violation (in the cut's own scale after
	// normalising to a unit largest coefficient) for a cut to be returned.
	MinViolation = 1e-4
	// intTol is the distance from an integer below which a value counts as
	// integral.
	intTol = 1e-6
	// minFrac is the smallest fractionality of a tableau row's right-hand side
	// used for a Gomory cut; closer to an integer the cut is numerically
	// unsafe.
	minFrac = 0.01
	// maxDynamism is the largest ratio between the largest and the smallest
	// non-zero coefficient kept in a cut; smaller coefficients are relaxed away.
	maxDynamism = 1e6
	// zeroTol drops tableau entries below it.
	zeroTol = 1e-11
)

// Cut is the inequality Σ_k Coef[k]·x[Ind[k]] ≤ Rhs. Ind is strictly
// increasing.
type Cut struct {
	Ind  []int
	Coef []float64
	Rhs  float64
}

// Activity is Σ Coef[k]·x[Ind[k]].
func (c Cut) Activity(x []float64) float64 {
	s := 0.0
	for k, j := range c.Ind {
		s += c.Coef[k] * x[j]
	}
	return s
}

// Violation is Activity(x) − Rhs.
func (c Cut) Violation(x []float64) float64 { return c.Activity(x) - c.Rhs }

// Norm is the Euclidean norm of the coefficients.
func (c Cut) Norm() float64 {
	s := 0.0
	for _, v := range c.Coef {
		s += v * v
	}
	return math.Sqrt(s)
}

// Efficacy is the Euclidean distance by which x violates the cut.
func (c Cut) Efficacy(x []float64) float64 {
	n := c.Norm()
	if n == 0 {
		return 0
	}
	return c.Violation(x) / n
}

// Problem is what separators know of the model: the rows, the column bounds
// and which columns are integer. Bounds are the ones the cuts must be valid
// for (global bounds for cuts added to the pool).
type Problem struct {
	NumCols            int
	Lower, Upper       []float64
	IsInt              []bool
	Rows               model.CSR
	RowLower, RowUpper []float64
}

// NewProblem takes rows, bounds and integrality from m.
func NewProblem(m *model.Model) *Problem {
	p := &Problem{
		NumCols: m.NumCols(), Lower: m.ColLower, Upper: m.ColUpper,
		IsInt: make([]bool, m.NumCols()), Rows: m.RowMatrix(),
		RowLower: m.RowLower, RowUpper: m.RowUpper,
	}
	for j, t := range m.ColType {
		p.IsInt[j] = t.IsInteger()
	}
	return p
}

// IsBinary reports whether column j is an integer column with bounds [0, 1].
func (p *Problem) IsBinary(j int) bool {
	return p.IsInt[j] && p.Lower[j] == 0 && p.Upper[j] == 1
}

// row returns the entries of row i.
func (p *Problem) row(i int) ([]int, []float64) {
	a, b := p.Rows.RowStart[i], p.Rows.RowStart[i+1]
	return p.Rows.ColIndex[a:b], p.Rows.Value[a:b]
}

// NumRows is the number of rows.
func (p *Problem) NumRows() int { return len(p.RowLower) }

// leForms calls f with each ≤ form of row i: the row itself when it has a
// finite upper bound, and its negation when it has a finite lower bound.
func (p *Problem) leForms(i int, f func(ind []int, coef []float64, rhs float64)) {
	ind, val := p.row(i)
	if !math.IsInf(p.RowUpper[i], 1) {
		f(ind, val, p.RowUpper[i])
	}
	if !math.IsInf(p.RowLower[i], -1) {
		neg := make([]float64, len(val))
		for k, v := range val {
			neg[k] = -v
		}
		f(ind, neg, -p.RowLower[i])
	}
}

// normalize sorts and merges a cut's entries, drops zeros and relaxes tiny
// coefficients against the column bounds so that the dynamism stays within
// maxDynamism. It reports false when the cut became unusable (a tiny
// coefficient on a column with an infinite bound, or no entries).
func normalize(c *Cut, p *Problem) bool {
	type ent struct {
		j int
		v float64
	}
	es := make([]ent, 0, len(c.Ind))
	for k, j := range c.Ind {
		es = append(es, ent{j, c.Coef[k]})
	}
	sort.Slice(es, func(a, b int) bool { return es[a].j < es[b].j })
	maxAbs := 0.0
	merged := es[:0]
	for _, e := range es {
		if n := len(merged); n > 0 && merged[n-1].j == e.j {
			merged[n-1].v += e.v
			continue
		}
		merged = append(merged, e)
	}
	for _, e := range merged {
		maxAbs = math.Max(maxAbs, math.Abs(e.v))
	}
	if maxAbs == 0 || math.IsNaN(maxAbs) || math.IsInf(maxAbs, 0) {
		return false
	}
	c.Ind, c.Coef = c.Ind[:0], c.Coef[:0]
	for _, e := range merged {
		if math.Abs(e.v) < maxAbs/maxDynamism {
			// Relax: move e.v·x_j to its worst bound.
			if e.v > 0 {
				if math.IsInf(p.Lower[e.j], -1) {
					return false
				}
				c.Rhs -= e.v * p.Lower[e.j]
			} else {
				if math.IsInf(p.Upper[e.j], 1) {
					return false
				}
				c.Rhs -= e.v * p.Upper[e.j]
			}
			continue
		}
		c.Ind = append(c.Ind, e.j)
		c.Coef = append(c.Coef, e.v)
	}
	if math.IsNaN(c.Rhs) || math.IsInf(c.Rhs, 0) {
		return false
	}
	return len(c.Ind) > 0
}

// Cover separates lifted cover inequalities from every row of p that
// violate x by at least MinViolation.
func Cover(p *Problem, x []float64) []Cut {
	var out []Cut
	for i := 0; i < p.NumRows(); i++ {
		p.leForms(i, func(ind []int, coef []float64, rhs float64) {
			if c, ok := coverRow(p, ind, coef, rhs, x); ok {
				out = append(out, c)
			}
		})
	}
	return out
}

type knapItem struct {
	j     int
	a     float64 // positive weight after complementing
	compl bool
	xv    float64 // LP value of the (possibly complemented) binary
}

// coverRow separates an extended cover inequality from Σ coef·x ≤ rhs.
func coverRow(p *Problem, ind []int, coef []float64, rhs float64, x []float64) (Cut, bool) {
	b := rhs
	items := make([]knapItem, 0, len(ind))
	for k, j := range ind {
		a := coef[k]
		if p.IsBinary(j) {
			if a > 0 {
				items = append(items, knapItem{j, a, false, x[j]})
			} else {
				items = append(items, knapItem{j, -a, true, 1 - x[j]})
				b -= a
			}
			continue
		}
		// Other columns go to the bound that minimises their contribution.
		if a > 0 {
			if math.IsInf(p.Lower[j], -1) {
				return Cut{}, false
			}
			b -= a * p.Lower[j]
		} else {
			if math.IsInf(p.Upper[j], 1) {
				return Cut{}, false
			}
			b -= a * p.Upper[j]
		}
	}
	if len(items) < 2 || b < 0 {
		return Cut{}, false
	}
	total := 0.0
	fracSeen := false
	for _, it := range items {
		total += it.a
		if it.xv > intTol && it.xv < 1-intTol {
			fracSeen = true
		}
	}
	if total <= b*(1+1e-9)+1e-9 || !fracSeen {
		return Cut{}, false
	}
	// Greedy cover: items with large LP value first.
	order := make([]int, len(items))
	for k := range order {
		order[k] = k
	}
	sort.SliceStable(order, func(a, c int) bool {
		ia, ic := items[order[a]], items[order[c]]
		if ia.xv != ic.xv {
			return ia.xv > ic.xv
		}
		return ia.a > ic.a
	})
	inCover := make([]bool, len(items))
	sum := 0.0
	for _, k := range order {
		if items[k].xv <= 0 && sum > b {
			break
		}
		inCover[k] = true
		sum += items[k].a
		if sum > b*(1+1e-9)+1e-9 {
			break
		}
	}
	if sum <= b*(1+1e-9)+1e-9 {
		return Cut{}, false
	}
	// Minimalise: drop the cover items of smallest LP value while still a cover.
	for idx := len(order) - 1; idx >= 0; idx-- {
		k := order[idx]
		if inCover[k] && sum-items[k].a > b*(1+1e-9)+1e-9 {
			inCover[k] = false
			sum -= items[k].a
		}
	}
	size, maxA := 0, 0.0
	for k, in := range inCover {
		if in {
			size++
			maxA = math.Max(maxA, items[k].a)
		}
	}
	if size < 2 {
		return Cut{}, false
	}
	// Extended cover: every item at least as heavy as the heaviest cover item.
	c := Cut{Rhs: float64(size - 1)}
	lhs := 0.0
	for k, it := range items {
		if !inCover[k] && it.a < maxA {
			continue
		}
		lhs += it.xv
		if it.compl {
			// 1·(1 − x_j) → −x_j, Rhs −= 1.
			c.Ind = append(c.Ind, it.j)
			c.Coef = append(c.Coef, -1)
			c.Rhs--
		} else {
			c.Ind = append(c.Ind, it.j)
			c.Coef = append(c.Coef, 1)
		}
	}
	if lhs-float64(size-1) < MinViolation {
		return Cut{}, false
	}
	if !normalize(&c, p) {
		return Cut{}, false
	}
	return c, true
}
