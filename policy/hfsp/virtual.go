package hfsp

import (
	"math"
	"slices"

	"github.com/mrbound/mrbound/sim"
)

// virtualEps is the virtual work (slot-ms) below which a phase counts as
// served: float residue of the fluid steps, far below 1 ms of work.
const virtualEps = 1e-6

// advance runs the fluid virtual cluster of every pool up to now (A-H4).
func (p *Policy) advance(now sim.Time) {
	dt := float64(now - p.lastVirt)
	p.lastVirt = now
	if dt <= 0 {
		return
	}
	for i := range p.pools {
		p.advancePool(&p.pools[i], dt)
	}
}

// advancePool serves dt ms of the pool's virtual cluster: max-min fair
// shares capped by each phase's remaining virtual tasks, stepping at each
// virtual completion.
func (p *Policy) advancePool(q *pool, dt float64) {
	rate := p.scratchRates(len(q.virt))
	for dt > 0 && len(q.virt) > 0 && q.slots > 0 {
		// caps: remaining virtual tasks, ⌈V/σ⌉ with σ the task size
		slices.SortFunc(q.virt, func(a, b int) int {
			ca, cb := p.vcap(a), p.vcap(b)
			switch {
			case ca < cb:
				return -1
			case ca > cb:
				return 1
			}
			return a - b
		})
		left, n := float64(q.slots), len(q.virt)
		step := dt
		for r, i := range q.virt {
			c := p.vcap(i)
			share := left / float64(n-r)
			rate[r] = math.Min(c, share)
			left -= rate[r]
			step = math.Min(step, p.ph[i].v/rate[r])
		}
		for r, i := range q.virt {
			f := &p.ph[i]
			f.v -= rate[r] * step
			if f.v <= virtualEps {
				f.v, f.inVirt = 0, false
			}
		}
		q.virt = slices.DeleteFunc(q.virt, func(i int) bool { return !p.ph[i].inVirt })
		dt -= step
	}
}

func (p *Policy) vcap(i int) float64 {
	f := &p.ph[i]
	sigma := f.size / float64(f.n)
	if sigma <= 0 {
		return 1
	}
	return math.Max(1, math.Ceil(f.v/sigma-virtualEps))
}

func (p *Policy) scratchRates(n int) []float64 {
	if cap(p.rates) < n {
		p.rates = make([]float64, n)
	}
	return p.rates[:n]
}
