package cuts

import (
	"math"
	"sort"
)

const (
	// DefaultMinEfficacy is the smallest efficacy of a cut worth adding.
	DefaultMinEfficacy = 1e-4
	// DefaultMaxParallel is the largest |cos| between two selected cuts.
	DefaultMaxParallel = 0.999
	// DefaultMaxAge is the number of LP rounds a cut may stay slack before it
	// is removed from the LP.
	DefaultMaxAge = 3
)

// Pool holds every distinct cut found and selects cuts to add to an LP.
type Pool struct {
	Cuts []Cut
	// Age[k] counts consecutive rounds in which cut k was slack in the LP.
	Age         []int
	seen        map[uint64]bool
	MinEfficacy float64
	MaxParallel float64
	MaxAge      int
}

// NewPool returns an empty pool with the default filters.
func NewPool() *Pool {
	return &Pool{seen: map[uint64]bool{}, MinEfficacy: DefaultMinEfficacy, MaxParallel: DefaultMaxParallel, MaxAge: DefaultMaxAge}
}

// hash is a hash of the cut scaled to a unit largest coefficient.
func hash(c Cut) uint64 {
	m := 0.0
	for _, v := range c.Coef {
		m = math.Max(m, math.Abs(v))
	}
	h := uint64(14695981039346656037)
	mix := func(v uint64) {
		h ^= v
		h *= 1099511628211
	}
	for k, j := range c.Ind {
		mix(uint64(j))
		mix(math.Float64bits(math.Round(c.Coef[k]/m*1e8) / 1e8))
	}
	mix(math.Float64bits(math.Round(c.Rhs/m*1e8) / 1e8))
	return h
}

// Add stores c unless an equal cut (up to scaling) is already stored. It
// returns the cut's index, or −1 for a duplicate.
func (p *Pool) Add(c Cut) int {
	h := hash(c)
	if p.seen[h] {
		return -1
	}
	p.seen[h] = true
	p.Cuts = append(p.Cuts, c)
	p.Age = append(p.Age, 0)
	return len(p.Cuts) - 1
}

// Select returns, among the candidate pool indices, those to add to the LP at
// point x: efficacy at least MinEfficacy, in decreasing efficacy, skipping
// any cut whose |cos| with a cut already selected or with one of active (pool
// indices already in the LP) exceeds MaxParallel; at most max cuts.
func (p *Pool) Select(cand []int, active []int, x []float64, max int) []int {
	type sc struct {
		k   int
		eff float64
	}
	var scored []sc
	for _, k := range cand {
		if e := p.Cuts[k].Efficacy(x); e >= p.MinEfficacy {
			scored = append(scored, sc{k, e})
		}
	}
	sort.SliceStable(scored, func(a, b int) bool {
		if scored[a].eff != scored[b].eff {
			return scored[a].eff > scored[b].eff
		}
		return scored[a].k < scored[b].k
	})
	var chosen []int
	var against []int
	for _, k := range active {
		if p.Cuts[k].Violation(x) > -1e-6 {
			against = append(against, k)
		}
	}
	for _, s := range scored {
		if len(chosen) >= max {
			break
		}
		ok := true
		for _, q := range against {
			if math.Abs(Cosine(p.Cuts[s.k], p.Cuts[q])) > p.MaxParallel {
				ok = false
				break
			}
		}
		if ok {
			chosen = append(chosen, s.k)
			against = append(against, s.k)
		}
	}
	return chosen
}

// Cosine is the cosine of the angle between two cuts' coefficient vectors.
func Cosine(a, b Cut) float64 {
	i, j := 0, 0
	dot := 0.0
	for i < len(a.Ind) && j < len(b.Ind) {
		switch {
		case a.Ind[i] == b.Ind[j]:
			dot += a.Coef[i] * b.Coef[j]
			i++
			j++
		case a.Ind[i] < b.Ind[j]:
			i++
		default:
			j++
		}
	}
	na, nb := a.Norm(), b.Norm()
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / (na * nb)
}

// Violated returns the pool indices, not in skip, whose cut x violates by at
// least MinViolation relative to the cut's largest coefficient.
func (p *Pool) Violated(x []float64, skip map[int]bool) []int {
	var out []int
	for k, c := range p.Cuts {
		if skip[k] {
			continue
		}
		if c.Efficacy(x) >= p.MinEfficacy {
			out = append(out, k)
		}
	}
	return out
}
