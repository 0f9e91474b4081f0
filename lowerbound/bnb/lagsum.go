package bnb

import (
	"math"
)

// The time-indexed Lagrangian node bound of the sums (docs/bounds.md §14e).
//
// Time is cut into cells of the data's grid u. The capacity rows "at most M
// unplaced maps (R unplaced reduces) run in cell t" are priced by λ_t ≥ 0
// (μ_t ≥ 0); what is left splits by job, and each job alone is bounded by
// its own non-preemption and parallelism: sorted starts of n identical
// tasks of length p, at most K at once, obey s_{k+K} ≥ s_k + p, so the
// tasks form K chains of non-overlapping blocks, which a dynamic program
// over the cells prices exactly. The multipliers are found once, at the
// root, by a fixed number of subgradient steps; every node then evaluates
// the bound with them (its placed tasks fix the capacity left per cell).

const (
	// lagMaxCells is the most grid cells the bound spans; beyond it (a fine
	// grid over a long stream) the search goes without it.
	lagMaxCells = 1 << 14
	// lagMaxWork caps the cell visits of the root's steps (each step
	// rebuilds every job's reduce tables, about Σ_j Σ_{r ≤ r_j} (r/R + 2)
	// visits per cell) and lagMaxTable the cells the tables hold: beyond
	// either (many reduces per reduce slot, or many jobs on a long grid)
	// the search goes without the bound rather than spend minutes or
	// gigabytes before its first node. The 20-job MRCP streams need about
	// 7·10^7 visits and 7·10^4 cells.
	lagMaxWork  = 2e9
	lagMaxTable = 1 << 23
	// lagIters is the number of subgradient steps at the root: the result
	// is a function of the data alone. On the 20-job MRCP streams 300 / 600
	// steps give 2880.7 / 2884.9 s at seed 3's root (docs/results.md, issue
	// 26, s15lag); each step costs about 1.5 ms there.
	lagIters = 400
	// lagStall is how many steps without a better value halve the step
	// factor: 8 or 40 instead of 20 ended 20–60 s lower at seed 3's root.
	lagStall = 20
	// lagMinTheta ends the steps early: after 9 halvings (at least 180
	// steps without a better value) they are too short to matter, and
	// the tiny problems of the tests stop there.
	lagMinTheta = 1.0 / 512
	// lagQuantum: multipliers are rounded to multiples of 2^-10, so that
	// every sum of them and of integer times is exact in float64 while it
	// stays below 2^43; lagSlack covers any excess.
	lagQuantum = 1024
)

// lagSlack is subtracted from a node's Lagrangian value for float error:
// with dyadic multipliers the sums are exact below 2^43, and 1e-9 of the
// magnitude of everything summed (plus 1e-6 ms) is a wide margin anyway.
func lagSlack(mag float64) float64 { return 1e-6 + 1e-9*mag }

// lagJob is one job's data in cells and its memoised values.
type lagJob struct {
	a     int64 // arrival (ms)
	aCell int
	n, r  int // maps, reduces
	p, q  int // map and reduce length (cells)
	// g[r'][L], L in [0, hx]: the least reduce-side value (C_j − a_j plus
	// the priced use of its r' reduces) when they start at or after cell L.
	g [][]float64
	// v[n'][ρ], ρ in [0, h): the least value of the job with n' maps left,
	// released at cell ρ (NaN until computed).
	v [][]float64
}

// lagSum holds the multipliers and tables of the bound.
type lagSum struct {
	base, u int64 // cell c is [base + c·u, base + (c+1)·u)
	h       int   // cells with prices: [0, h); every price beyond is 0
	hx      int   // cells the tables span: h + the longest job's span
	nM, nR  int   // pooled slots
	lam, mu []float64
	pl, pm  []float64 // prefix sums of lam and mu, constant from h on
	jobs    []lagJob
	// scratch
	f    []float64 // the chains' table, (rows) × (hx + 1)
	b    []float64 // the reduces' table
	useM []float64 // the subgradient: use per cell
	useR []float64
	capM []float64 // and capacity per cell
	capR []float64
	// root is the value at the root with the final multipliers.
	root float64
}

func (ls *lagSum) time(c int) int64 { return ls.base + int64(c)*ls.u }
func (ls *lagSum) cell(t int64) int {
	if t <= ls.base {
		return 0
	}
	return int((t - ls.base) / ls.u)
}

// newLagSum builds the bound for s's problem and finds its multipliers by
// lagIters subgradient steps towards target (an upper estimate of the
// total, ms); nil when the grid is too fine or there are no slots.
func newLagSum(s *searcher, target float64) *lagSum {
	ls := &lagSum{base: s.minA, u: s.unit, nM: len(s.slots[0]), nR: len(s.slots[1])}
	var span int64
	maxp, maxq := 1, 1
	for _, jb := range s.jobs {
		span = max(span, int64(jb.nMaps)*jb.pMap+int64(jb.nReds)*jb.pRed)
		if (jb.nMaps > 0 && ls.nM == 0) || (jb.nReds > 0 && ls.nR == 0) {
			return nil
		}
	}
	// Prices live up to a FIFO list schedule's makespan (any horizon is
	// valid: beyond it prices are 0); the tables reach one job span on.
	hT, _ := fifoList(s)
	h := (hT-ls.base)/ls.u + 1
	hx := h + span/ls.u + 2
	if hx > lagMaxCells {
		return nil
	}
	var work, table float64
	for _, jb := range s.jobs {
		r := float64(jb.nReds)
		work += (r*(r+1)/(2*float64(max(ls.nR, 1))) + 2*(r+1)) * float64(hx)
		table += float64(jb.nReds+jb.nMaps+2) * float64(hx)
	}
	if work*lagIters > lagMaxWork || table > lagMaxTable {
		return nil
	}
	ls.h, ls.hx = int(h), int(hx)
	for _, jb := range s.jobs {
		lj := lagJob{a: jb.arrival, aCell: ls.cell(jb.arrival), n: jb.nMaps, r: jb.nReds,
			p: int(jb.pMap / ls.u), q: int(jb.pRed / ls.u)}
		maxp, maxq = max(maxp, lj.p), max(maxq, lj.q)
		lj.g = make([][]float64, lj.r+1)
		for r := range lj.g {
			lj.g[r] = make([]float64, ls.hx+1)
		}
		lj.v = make([][]float64, lj.n+1)
		ls.jobs = append(ls.jobs, lj)
	}
	ls.lam, ls.mu = make([]float64, ls.h), make([]float64, ls.h)
	ls.pl, ls.pm = make([]float64, ls.hx+maxp+1), make([]float64, ls.hx+maxq+1)
	ls.useM, ls.useR = make([]float64, ls.h), make([]float64, ls.h)
	ls.capM, ls.capR = make([]float64, ls.h), make([]float64, ls.h)
	ls.root = ls.optimise(s, s.minA, target, lagIters)
	return ls
}

// jobsByArrival returns s's job indices by arrival, ties by index (insertion
// sort: a few dozen jobs).
func jobsByArrival(s *searcher) []int {
	order := make([]int, len(s.jobs))
	for j := range order {
		order[j] = j
	}
	for i := 1; i < len(order); i++ {
		for k := i; k > 0 && s.jobs[order[k]].arrival < s.jobs[order[k-1]].arrival; k-- {
			order[k], order[k-1] = order[k-1], order[k]
		}
	}
	return order
}

// fifoList is the makespan and the total turnaround of a FIFO list
// schedule of s's jobs (each task on the earliest-free pooled slot): a
// horizon for the prices and a target for the steps.
func fifoList(s *searcher) (makespan, total int64) {
	free := [2][]int64{make([]int64, len(s.slots[0])), make([]int64, len(s.slots[1]))}
	order := jobsByArrival(s)
	end := s.minA
	for _, j := range order {
		jb := &s.jobs[j]
		l := jb.arrival
		for range jb.nMaps {
			i := argMin(free[0])
			free[0][i] = max(free[0][i], jb.arrival) + jb.pMap
			l = max(l, free[0][i])
		}
		c := l
		for range jb.nReds {
			i := argMin(free[1])
			free[1][i] = max(free[1][i], l) + jb.pRed
			c = max(c, free[1][i])
		}
		end = max(end, c)
		total += c - jb.arrival
	}
	return end, total
}

func argMin(x []int64) int {
	b := 0
	for i := range x {
		if x[i] < x[b] {
			b = i
		}
	}
	return b
}

// prefix recomputes the prefix sums and clears the memo (new multipliers).
func (ls *lagSum) prefix() {
	for k, src := range [2][]float64{ls.lam, ls.mu} {
		dst := ls.pl
		if k == 1 {
			dst = ls.pm
		}
		dst[0] = 0
		for c := 1; c < len(dst); c++ {
			dst[c] = dst[c-1]
			if c-1 < ls.h {
				dst[c] += src[c-1]
			}
		}
	}
	for j := range ls.jobs {
		lj := &ls.jobs[j]
		for r := range lj.g {
			ls.reduceSide(lj, r, lj.g[r])
		}
		for n := range lj.v {
			lj.v[n] = nil
		}
	}
}

// chains splits n identical tasks on at most K = min(slots, n) at once into
// K chains: rem of them with lo+1 blocks, K − rem with lo.
func chains(n, slots int) (k, lo, rem int) {
	k = min(slots, n)
	return k, n / k, n % k
}

// reduceSide fills g[L] for L in [0, hx] with the least value of r reduces
// of lj that all start at or after cell L: with the first at T (chain 0,
// ⌈r/K⌉ blocks, the first at T) and the other chains' blocks at or after T,
// C_j ≥ T + ⌈r/K⌉·q, so the value at T is time(T) + ⌈r/K⌉·q − a_j plus the
// chains' least priced use; g is its suffix minimum. With r = 0, C_j = L.
func (ls *lagSum) reduceSide(lj *lagJob, r int, g []float64) {
	if r == 0 {
		for L := range g {
			g[L] = float64(ls.time(L) - lj.a)
		}
		return
	}
	m0, sizes, counts, bt, w := ls.reduceChains(lj, r)
	row := func(m, s int) float64 {
		if s >= ls.h {
			return 0
		}
		return bt[m*w+s]
	}
	for T := ls.hx; T >= 0; T-- {
		v := float64(ls.time(T)+int64(m0*lj.q)*ls.u-lj.a) + ls.pm[T+lj.q] - ls.pm[T] + row(m0-1, T+lj.q)
		v += counts[0]*row(sizes[0], T) + counts[1]*row(sizes[1], T)
		if T < ls.hx {
			v = math.Min(v, g[T+1])
		}
		g[T] = v
	}
}

// reduceChains splits r reduces of lj into chains (chains): the chain of
// the first reduce has m0 blocks, and counts[i] other chains have sizes[i]
// blocks each; bt is the blocks table up to m0 blocks and w its row width.
func (ls *lagSum) reduceChains(lj *lagJob, r int) (m0 int, sizes [2]int, counts [2]float64, bt []float64, w int) {
	k, lo, rem := chains(r, ls.nR)
	m0, sizes, counts = lo, [2]int{lo, lo}, [2]float64{float64(k - 1), 0}
	if rem > 0 {
		m0, sizes, counts = lo+1, [2]int{lo + 1, lo}, [2]float64{float64(rem - 1), float64(k - rem)}
	}
	return m0, sizes, counts, ls.blocks(lj.q, m0, ls.pm), ls.hx + lj.q + 1
}

// blocks is the backward table b[m][s] (m ≤ mmax, s in [0, hx+p]) of the
// least priced use (prefix sums pre) of m non-overlapping blocks of p cells
// all starting at or after s: b[m][s] = min(b[m][s+1], c(s) + b[m−1][s+p]),
// and 0 from h on (blocks there cost nothing).
func (ls *lagSum) blocks(p, mmax int, pre []float64) []float64 {
	w := ls.hx + p + 1
	need := (mmax + 1) * w
	if cap(ls.b) < need {
		ls.b = make([]float64, need)
	}
	bt := ls.b[:need]
	for m := 0; m <= mmax; m++ {
		r := bt[m*w : (m+1)*w]
		for s := w - 1; s >= 0; s-- {
			if m == 0 || s >= ls.h {
				r[s] = 0
				continue
			}
			v := r[s+1]
			if s+p < w {
				v = math.Min(v, pre[s+p]-pre[s]+bt[(m-1)*w+s+p])
			}
			r[s] = v
		}
	}
	return bt
}

// gAt is g[r'][L], by formula beyond the table (no prices there).
func (ls *lagSum) gAt(lj *lagJob, r, L int) float64 {
	if L <= ls.hx {
		return lj.g[r][L]
	}
	if r == 0 {
		return float64(ls.time(L) - lj.a)
	}
	_, lo, rem := chains(r, ls.nR)
	if rem > 0 {
		lo++
	}
	return float64(ls.time(L) + int64(lo*lj.q)*ls.u - lj.a)
}

// mapVal is the least value of job lj with n' ≥ 1 maps left, released at
// cell rho: min over L of Σ_chains F_m(L) + g[r][L], F_m(L) the least priced
// use of m blocks in [rho, L] (§14e). use, when not nil, gets the argmin's
// map use per cell and useR its reduces'.
func (ls *lagSum) mapVal(lj *lagJob, nLeft, rho int, use, useR []float64) float64 {
	k, lo, rem := chains(nLeft, ls.nM)
	hi := lo
	if rem > 0 {
		hi = lo + 1
	}
	p := lj.p
	if rho >= ls.h {
		// No prices from rho on: the chains end at rho + hi·p.
		return ls.gAt(lj, lj.r, rho+hi*p)
	}
	w := ls.hx + 1
	need := (hi + 1) * w
	if cap(ls.f) < need {
		ls.f = make([]float64, need)
	}
	f := ls.f[:need]
	inf := math.Inf(1)
	for m := 0; m <= hi; m++ {
		row := f[m*w : (m+1)*w]
		first := rho + m*p
		for L := rho; L < w; L++ {
			switch {
			case m == 0:
				row[L] = 0
			case L < first:
				row[L] = inf
			default:
				v := f[(m-1)*w+L-p] + ls.pl[L] - ls.pl[L-p]
				if L > first {
					v = min(v, row[L-1]) // math.Min's value: no NaN here
				}
				row[L] = v
			}
		}
	}
	best, bestL := inf, -1
	g := lj.g[lj.r]
	for L := rho + hi*p; L < w; L++ {
		v := float64(k-rem)*f[lo*w+L] + g[L]
		if rem > 0 {
			v += float64(rem) * f[hi*w+L]
		}
		if v < best {
			best, bestL = v, L
		}
	}
	if use != nil && bestL >= 0 {
		// The argmin: each kind of chain's blocks (multiplicity the number
		// of such chains), then the reduces from bestL.
		trace := func(m int, mult float64) {
			L := bestL
			for m > 0 {
				if L > rho+m*p && f[m*w+L] == f[m*w+L-1] {
					L--
					continue
				}
				for c := L - p; c < L; c++ {
					if c < ls.h {
						use[c] += mult
					}
				}
				L -= p
				m--
			}
		}
		trace(lo, float64(k-rem))
		if rem > 0 {
			trace(hi, float64(rem))
		}
		ls.reduceUse(lj, lj.r, bestL, useR)
	}
	return best
}

// reduceUse adds the reduce use of the argmin of g[r][L] to use.
func (ls *lagSum) reduceUse(lj *lagJob, r, L int, use []float64) {
	if r == 0 || L >= ls.h {
		return
	}
	g := lj.g[r]
	T := L
	for T < ls.hx && g[T] == g[T+1] {
		T++
	}
	m0, sizes, counts, bt, w := ls.reduceChains(lj, r)
	q := lj.q
	add := func(s int, mult float64) {
		for c := s; c < s+q && c < ls.h; c++ {
			use[c] += mult
		}
	}
	trace := func(m, s int, mult float64) {
		for m > 0 && s < ls.h {
			if bt[m*w+s] == bt[m*w+s+1] {
				s++
				continue
			}
			add(s, mult)
			s += q
			m--
		}
	}
	add(T, 1)
	trace(m0-1, T+q, 1)
	for i := range sizes {
		if counts[i] > 0 {
			trace(sizes[i], T, counts[i])
		}
	}
}

// jobVal is job j's value with n' maps left released at cell rho (memoised).
func (ls *lagSum) jobVal(j, nLeft, rho int) float64 {
	lj := &ls.jobs[j]
	if rho >= ls.h {
		return ls.mapVal(lj, nLeft, rho, nil, nil)
	}
	v := lj.v[nLeft]
	if v == nil {
		v = make([]float64, ls.h)
		for i := range v {
			v[i] = math.NaN()
		}
		lj.v[nLeft] = v
	}
	if math.IsNaN(v[rho]) {
		v[rho] = ls.mapVal(lj, nLeft, rho, nil, nil)
	}
	return v[rho]
}

// value is the dual function at the current node of s (last start t0)
// with the current multipliers, computed afresh (no memo), with the
// argmin's use per cell in useM, useR and the capacity left per cell in
// capM, capR: its subgradient is use − cap.
func (ls *lagSum) value(s *searcher, t0 int64) (v, mag float64) {
	clear(ls.useM)
	clear(ls.useR)
	clear(ls.capM)
	clear(ls.capR)
	tc := ls.cell(t0)
	for j := range s.jobs {
		jb := &s.jobs[j]
		lj := &ls.jobs[j]
		var x float64
		switch {
		case s.mapsDone[j] < jb.nMaps:
			x = ls.mapVal(lj, jb.nMaps-s.mapsDone[j], max(lj.aCell, tc), ls.useM, ls.useR)
		case s.redsDone[j] < jb.nReds:
			L := max(ls.cell(s.lme[j]), tc, lj.aCell)
			x = ls.gAt(lj, jb.nReds-s.redsDone[j], L)
			ls.reduceUse(lj, jb.nReds-s.redsDone[j], L, ls.useR)
		default:
			x = float64(s.done[j] - jb.arrival)
		}
		v += x
		mag += math.Abs(x)
	}
	for k, pre := range [2][]float64{ls.pl, ls.pm} {
		cp := ls.capM
		if k == 1 {
			cp = ls.capR
		}
		for _, sl := range s.slots[k] {
			c := min(ls.cell(max(sl.free, t0)), ls.h)
			v -= pre[ls.h] - pre[c]
			mag += pre[ls.h] - pre[c]
			for t := c; t < ls.h; t++ {
				cp[t]++
			}
		}
	}
	return v, mag
}

// optimise runs iters projected subgradient steps at the current node of s
// (Polyak's length towards target, the factor halved after lagStall steps
// without a better value), keeps the best multipliers and returns their
// value, less the slack for float error.
func (ls *lagSum) optimise(s *searcher, t0 int64, target float64, iters int) float64 {
	ls.prefix()
	best := math.Inf(-1)
	bestLam, bestMu := make([]float64, ls.h), make([]float64, ls.h)
	theta, stall := 1.0, 0
	for it := 0; it < iters; it++ {
		if s.ctx != nil && s.ctx.Err() != nil {
			break // any multipliers give a valid bound: keep the best so far
		}
		v, _ := ls.value(s, t0)
		if v > best {
			best, stall = v, 0
			copy(bestLam, ls.lam)
			copy(bestMu, ls.mu)
		} else if stall++; stall >= lagStall {
			theta, stall = theta/2, 0
			if theta < lagMinTheta {
				break // the steps no longer move the value
			}
		}
		// Polyak's step along the projected subgradient: the use per cell
		// less the capacity (components held at 0 by the projection left
		// out of the norm).
		var norm float64
		for c := range ls.h {
			gm, gr := ls.useM[c]-ls.capM[c], ls.useR[c]-ls.capR[c]
			if ls.lam[c] > 0 || gm > 0 {
				norm += gm * gm
			}
			if ls.mu[c] > 0 || gr > 0 {
				norm += gr * gr
			}
		}
		gap := target - v
		if norm == 0 || gap <= 0 {
			break
		}
		step := theta * gap / norm
		for c := range ls.h {
			ls.lam[c] = quantise(math.Max(0, ls.lam[c]+step*(ls.useM[c]-ls.capM[c])))
			ls.mu[c] = quantise(math.Max(0, ls.mu[c]+step*(ls.useR[c]-ls.capR[c])))
		}
		ls.prefix()
	}
	copy(ls.lam, bestLam)
	copy(ls.mu, bestMu)
	ls.prefix()
	v, mag := ls.value(s, t0)
	return v - lagSlack(mag)
}

func quantise(x float64) float64 { return math.Round(x*lagQuantum) / lagQuantum }

// node is the bound at the current node of s (§14e): Σ_j V_j − Σ_{t ≥ t0}
// (λ_t·cap_t + μ_t·capR_t), where a slot free at f (raised to t0) adds its
// cells from f on to cap, less the slack for float error.
func (ls *lagSum) node(s *searcher, t0 int64) float64 {
	tc := ls.cell(t0)
	var sum, mag float64
	for j := range s.jobs {
		jb := &s.jobs[j]
		lj := &ls.jobs[j]
		var v float64
		switch {
		case s.mapsDone[j] < jb.nMaps:
			v = ls.jobVal(j, jb.nMaps-s.mapsDone[j], max(lj.aCell, tc))
		case s.redsDone[j] < jb.nReds:
			v = ls.gAt(lj, jb.nReds-s.redsDone[j], max(ls.cell(s.lme[j]), tc, lj.aCell))
		default:
			v = float64(s.done[j] - jb.arrival)
		}
		sum += v
		mag += math.Abs(v)
	}
	for k, pre := range [2][]float64{ls.pl, ls.pm} {
		for _, a := range s.avail[k] {
			x := pre[ls.h] - pre[min(ls.cell(a), ls.h)]
			sum -= x
			mag += x
		}
	}
	return sum - lagSlack(mag)
}
