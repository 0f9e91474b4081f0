package mip

import "math"

const (
	// ziPasses bounds the sweeps of ZI rounding over the fractional columns.
	ziPasses = 3
	// ziFreq: ZI rounding runs at the root and every ziFreq nodes.
	ziFreq = 10
)

// ziRound is ZI rounding (Wallace 2010): shift each fractional integer column
// to the integer below or above when the slacks of all its rows (and its
// bounds) allow the whole move, preferring the direction the objective
// favours; offer the point when every integer column became integral.
func (s *search) ziRound(x []float64) {
	m := s.m
	y := append([]float64(nil), x...)
	act := make([]float64, m.NumRows())
	for j, v := range y {
		for k := m.ColStart[j]; k < m.ColStart[j+1]; k++ {
			act[m.RowIndex[k]] += m.Value[k] * v
		}
	}
	for pass := 0; pass < ziPasses; pass++ {
		fracLeft, moved := 0, false
		for _, j := range s.intCols {
			v := y[j]
			f := v - math.Floor(v)
			if f <= intTol || f >= 1-intTol {
				continue
			}
			// Largest feasible moves up and down.
			up, down := s.curUp[j]-v, v-s.curLo[j]
			for k := m.ColStart[j]; k < m.ColStart[j+1]; k++ {
				i, a := m.RowIndex[k], m.Value[k]
				su, sl := m.RowUpper[i]-act[i], act[i]-m.RowLower[i]
				if a > 0 {
					up = math.Min(up, su/a)
					down = math.Min(down, sl/a)
				} else {
					up = math.Min(up, sl/(-a))
					down = math.Min(down, su/(-a))
				}
			}
			canDown, canUp := f <= down+1e-9, 1-f <= up+1e-9
			var d float64
			switch {
			case canDown && canUp:
				if s.sigma*m.Obj[j] > 0 {
					d = -f
				} else {
					d = 1 - f
				}
			case canDown:
				d = -f
			case canUp:
				d = 1 - f
			default:
				fracLeft++
				continue
			}
			y[j] = math.Round(v + d)
			for k := m.ColStart[j]; k < m.ColStart[j+1]; k++ {
				act[m.RowIndex[k]] += m.Value[k] * (y[j] - v)
			}
			moved = true
		}
		if fracLeft == 0 {
			s.setIncumbent(y, "Z")
			return
		}
		if !moved {
			return
		}
	}
}
