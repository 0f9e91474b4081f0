package lowerbound

import "math"

// The reduce side of a job with more reduces than reduce slots, in one piece
// (docs/bounds.md §4e).
//
// §4c prices such a job's reduces as fluid work at the cap: its usage may
// skip any crowded interval at no cost. Its reduces in fact run in one piece
// each, at most S of them at once (S: the slots that can run a reduce), so
// the windows [s_i, s_i + d_i) can be coloured with S colours (interval
// graphs are perfect): S chains, each a sequence of disjoint windows. With
// the job's n reduces of length ≥ q and price ≥ h·P(s_i), their priced usage
// is at least the cheapest placement of n windows on S chains, which — the
// chains being alike and unbounded in how many share a start — is at least
//
//	max over μ of  S·g_μ + μ·n,   g_μ = min over one chain of Σ (h·P(s_i) − μ),
//
// for every real μ (the count n dualised). g_μ is a shortest path on the
// grid's cells: a chain that starts a window in cell t starts its next one
// at least q later.

// chainMuFactors are the multiples of the job's reference multiplier μ_ref
// tried at each call, with μ = 0; each μ gives a valid bound, so the set
// only trades strength for time. μ_ref moves to the multiple that gave the
// minimum, so that the set follows the prices.
var chainMuFactors = [...]float64{0.25, 0.5, 0.71, 1, 1.41, 2, 4}

// chainScratch is reusable scratch space of redChains.
type chainScratch struct {
	mus   []float64
	f, hv []float64
	pend  [][]float64
	hi    []int
	next  []int
}

// chainMus is the set of multipliers tried for a reference μ_ref (μ = 0
// alone when μ_ref is 0). The certificate's evaluation uses it too.
func chainMus(ref float64, buf []float64) []float64 {
	buf = append(buf[:0], 0)
	if ref > 0 {
		for _, f := range chainMuFactors {
			buf = append(buf, f*ref)
		}
	}
	return buf
}

// cellOf is the interval u with bp[u] ≤ x < bp[u+1], or len(bp)−1 past the
// grid.
func cellOf(bp []float64, x float64) int {
	u := searchBreak(bp, x)
	if bp[u] > x {
		u--
	}
	return max(u, 0)
}

// redChains is a lower bound on min over C of C − a + the priced usage of
// job s's reduces, when the maps end at e = bp[from]: the reduces start at
// or after e, end by C ≥ e + R, run in one piece each (length ≥ q, price ≥
// h·P(s) for a start s, P(s) = Λ(s + q) − Λ(s)) and at most S at once. For
// C in [τ_u + q, τ_{u+1} + q) every start lies in a cell ≤ u and C ≥ τ_u +
// q, so the bound is the least over u of
//
//	max(τ_u + q, e + R) − a + max over μ of [S·g_μ(cells from..u) + μ·n],
//
// with each window of a chain priced at the least P over its cell (closed),
// and a chain's next start taken in the cell of τ_t + k·q after k windows in
// cell t (its first start is ≥ τ_t); at most ⌈ℓ_t/q⌉ of one chain's windows
// fit in cell t. Past the grid no price applies: max(τ_N + q, e + R) − a
// (μ = 0 only). The scan stops once max(τ_u + q, e + R) − a alone reaches
// the best (μ = 0 gives g = 0, every price being ≥ 0). It also returns the
// μ of the minimum, and the magnitude of its terms (for the rounding slack:
// S·g_μ and μ·n cancel).
func (lm *lagModel) redChains(s *startSub, from int, lam, cum []float64, cs *chainScratch) (best, bestMu, mag float64) {
	bp := lm.bp
	nInt := len(bp) - 1
	q, n := s.q, float64(s.n)
	h, S := s.nh/n, float64(s.chains)
	floor := bp[from] + s.r
	best = math.Max(bp[nInt]+q, floor) - s.a
	cs.mus = chainMus(s.mu, cs.mus)
	m := len(cs.mus)
	cs.f = append(cs.f[:0], make([]float64, m)...)
	cs.hv = append(cs.hv[:0], make([]float64, m)...)
	cs.hi = append(cs.hi[:0], make([]int, m)...)
	for len(cs.pend) < m {
		cs.pend = append(cs.pend, nil)
	}
	for i := range m {
		cs.hi[i] = -1
		if len(cs.pend[i]) < nInt-from {
			cs.pend[i] = make([]float64, nInt-from)
		}
	}
	p1, p2 := from, cellOf(bp, bp[from]+q)
	price := func(x float64) float64 {
		lo := priceAt(bp, lam, cum, x, &p1)
		hi := priceAt(bp, lam, cum, x+q, &p2)
		return math.Max(0, hi-lo)
	}
	kv := searchBreak(bp, bp[from]+q) // the next breakpoint τ_v with τ_v − q a kink
	for t := from; t < nInt; t++ {
		base := math.Max(bp[t]+q, floor) - s.a
		if base >= best {
			break
		}
		// The least P over the closed cell: at its ends or where s + q
		// is a breakpoint.
		mp := price(bp[t])
		for ; kv <= nInt && bp[kv]-q < bp[t+1]; kv++ {
			if x := bp[kv] - q; x > bp[t] {
				mp = math.Min(mp, price(x))
			}
		}
		mp = math.Min(mp, price(bp[t+1]))
		cost0 := h * mp
		kmax := 1
		if l := bp[t+1] - bp[t]; l > q {
			kmax = int(math.Ceil(l / q))
		}
		cs.next = cs.next[:0]
		vals, arg := 0.0, 0
		for i, mu := range cs.mus {
			f := cs.f[i]
			if t-from <= cs.hi[i] {
				f = math.Min(f, cs.pend[i][t-from])
			}
			cs.f[i] = f
			if cost := cost0 - mu; cost < 0 {
				if len(cs.next) == 0 {
					for k := 1; k <= kmax; k++ {
						v := t + 1
						if x := bp[t] + float64(k)*q; x >= bp[t+1] {
							v = cellOf(bp, x)
							if x >= bp[nInt] {
								v = nInt
							}
						}
						cs.next = append(cs.next, v)
					}
				}
				for k, v := range cs.next {
					l := f + float64(k+1)*cost
					cs.hv[i] = math.Min(cs.hv[i], l)
					if v >= nInt {
						continue // past the grid: no later cell of the scan
					}
					for cs.hi[i] < v-from {
						cs.hi[i]++
						cs.pend[i][cs.hi[i]] = math.Inf(1)
					}
					cs.pend[i][v-from] = math.Min(cs.pend[i][v-from], l)
				}
			}
			if val := S*cs.hv[i] + mu*n; val > vals {
				vals, arg = val, i
			}
		}
		if base+vals < best {
			best, bestMu = base+vals, cs.mus[arg]
		}
	}
	// Every value compared is a sum of terms of at most this size.
	for i, mu := range cs.mus {
		mag = math.Max(mag, S*math.Abs(cs.hv[i])+mu*n)
	}
	return best, bestMu, mag + math.Abs(best)
}
