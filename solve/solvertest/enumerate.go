package solvertest

import (
	"math"

	"github.com/mrbound/mrbound/model"
)

// Enumerate returns the optimum of a pure-integer model with finite bounds
// by visiting every integer point within them (feasible to 1e-9), and whether
// any point is feasible. It is the oracle for small models only: the points
// number Π (upper − lower + 1).
func Enumerate(m *model.Model) (best float64, feasible bool) {
	best = math.Inf(1)
	x := append([]float64(nil), m.ColLower...)
	for {
		if ev := m.Evaluate(x); ev.Feasible(1e-9, true) {
			v := ev.Objective
			if m.Sense == model.Maximize {
				v = -v
			}
			best, feasible = math.Min(best, v), true
		}
		j := 0
		for ; j < len(x); j++ {
			if x[j] < m.ColUpper[j] {
				x[j]++
				break
			}
			x[j] = m.ColLower[j]
		}
		if j == len(x) {
			break
		}
	}
	if m.Sense == model.Maximize {
		best = -best
	}
	return best, feasible
}
