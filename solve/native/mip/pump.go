package mip

import (
	"math"
	"math/rand"
	"sort"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/native/simplex"
)

const (
	// pumpRounds bounds the rounds of the feasibility pump.
	pumpRounds = 30
	// pumpMaxNonzeros: the pump (which solves each distance LP from scratch)
	// runs only on models up to this size.
	pumpMaxNonzeros = 200_000
	// pumpIterFactor bounds the pump's total simplex iterations by this
	// multiple of the root LP's, plus pumpIterBase.
	pumpIterFactor = 2
	pumpIterBase   = 2000
)

// pump runs a feasibility pump (Fischetti, Glover and Lodi 2005) from the LP
// point x: round the integer columns, solve the LP that minimises the L1
// distance to the rounding over the integer columns at a bound, round again;
// on a cycle flip the columns farthest from their rounding. A rounding that
// satisfies the rows, or an integral distance-LP point, is offered as
// incumbent (after fixing the integer columns and re-solving for the
// continuous ones when there are any).
func (s *search) pump(x []float64, rootIters int64) {
	m := s.m
	if m.NumNonzeros() > pumpMaxNonzeros || len(s.intCols) == 0 {
		return
	}
	rng := rand.New(rand.NewSource(s.opts.Seed + 1))
	budget := pumpIterFactor*rootIters + pumpIterBase
	var used int64
	round := func(v []float64) []float64 {
		r := make([]float64, len(s.intCols))
		for k, j := range s.intCols {
			r[k] = math.Max(s.glo[j], math.Min(s.gup[j], math.Round(v[j])))
		}
		return r
	}
	xt := round(x)
	var prev []float64
	seen := map[string]bool{}
	for it := 0; it < pumpRounds && used < budget; it++ {
		if s.limitStatus() != solve.StatusUnknown || !math.IsInf(s.incObj, 1) {
			return
		}
		if s.tryRounding(x, xt) {
			return
		}
		// Distance LP.
		d := m.Clone()
		d.Sense, d.ObjOffset = model.Minimize, 0
		copy(d.ColLower, s.glo)
		copy(d.ColUpper, s.gup)
		for j := range d.Obj {
			d.Obj[j] = 0
		}
		for k, j := range s.intCols {
			switch {
			case xt[k] <= s.glo[j]:
				d.Obj[j] = 1
			case xt[k] >= s.gup[j]:
				d.Obj[j] = -1
			}
		}
		lp, err := simplex.New(d, simplex.Options{Seed: s.opts.Seed, Deadline: s.deadline, IterationLimit: budget - used})
		if err != nil {
			return
		}
		st := lp.Solve(s.ctx)
		used += lp.Iterations()
		s.extraIters += lp.Iterations()
		if st != solve.Optimal {
			return
		}
		x = lp.X()
		if s.opts.Verbosity > 1 {
			s.logf("  pump round %d: distance %.4g, %d fractional\n", it, lp.Objective()+distOffset(s, xt), len(s.fractional(x)))
		}
		if len(s.fractional(x)) == 0 {
			s.setIncumbent(x, "F")
			return
		}
		nt := round(x)
		if prev != nil && equal(nt, xt) {
			// Cycle: flip the T columns farthest from their rounding.
			type fd struct {
				k int
				d float64
			}
			var fs []fd
			for k, j := range s.intCols {
				fs = append(fs, fd{k, math.Abs(x[j] - nt[k])})
			}
			sort.SliceStable(fs, func(a, b int) bool { return fs[a].d > fs[b].d })
			T := 10 + rng.Intn(20)
			for q := 0; q < T && q < len(fs); q++ {
				k := fs[q].k
				j := s.intCols[k]
				if fs[q].d == 0 && q > 0 {
					break
				}
				if nt[k] > s.glo[j] && (x[j] < nt[k] || nt[k] >= s.gup[j]) {
					nt[k]--
				} else if nt[k] < s.gup[j] {
					nt[k]++
				}
			}
		}
		// A longer cycle: perturb at random (restart step of the pump).
		key := fmtKey(nt)
		if seen[key] {
			for k, j := range s.intCols {
				r := rng.Float64() - 0.3
				if math.Abs(x[j]-nt[k])+math.Max(r, 0) > 0.5 {
					if nt[k] > s.glo[j] && (x[j] < nt[k] || nt[k] >= s.gup[j]) {
						nt[k]--
					} else if nt[k] < s.gup[j] {
						nt[k]++
					}
				}
			}
		}
		seen[key] = true
		prev, xt = xt, nt
	}
}

func equal(a, b []float64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// tryRounding offers the point with integer columns at xt: directly when the
// model has no continuous column, else after an LP over the continuous
// columns with the integer ones fixed.
func (s *search) tryRounding(x, xt []float64) bool {
	y := append([]float64(nil), x...)
	for k, j := range s.intCols {
		y[j] = xt[k]
	}
	if len(s.intCols) == s.n {
		return s.setIncumbent(y, "F")
	}
	if ok, _ := within(s.m, y); ok {
		return s.setIncumbent(y, "F")
	}
	f := s.m.Clone()
	copy(f.ColLower, s.glo)
	copy(f.ColUpper, s.gup)
	for k, j := range s.intCols {
		f.ColLower[j], f.ColUpper[j] = xt[k], xt[k]
	}
	lp, err := simplex.New(f, simplex.Options{Seed: s.opts.Seed, Deadline: s.deadline, IterationLimit: pumpIterBase})
	if err != nil {
		return false
	}
	st := lp.Solve(s.ctx)
	s.extraIters += lp.Iterations()
	if st != solve.Optimal {
		return false
	}
	return s.setIncumbent(lp.X(), "F")
}

// distOffset is the constant part of the L1 distance objective.
func distOffset(s *search, xt []float64) float64 {
	c := 0.0
	for k, j := range s.intCols {
		if xt[k] >= s.gup[j] && xt[k] > s.glo[j] {
			c += s.gup[j]
		} else if xt[k] <= s.glo[j] {
			c -= s.glo[j]
		}
	}
	return c
}

// fmtKey is a map key for a rounding.
func fmtKey(v []float64) string {
	b := make([]byte, 0, 8*len(v))
	for _, f := range v {
		u := math.Float64bits(f)
		for q := 0; q < 8; q++ {
			b = append(b, byte(u>>(8*q)))
		}
	}
	return string(b)
}
