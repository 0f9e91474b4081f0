package bnb

import (
	"math"
	"slices"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/native/simplex"
)

// lpMaxNonzeros caps the weighted-load LP's matrix (one entry per map start
// and unit of time it covers, plus one per start): a larger LP is not
// built and the rule is skipped, which only weakens the test. The 20-job
// MRCP streams need about 1.5·10^5 for the maximum turnaround and 2.5·10^5
// for the makespan, in units of 1 s.
const lpMaxNonzeros = 1 << 21

// lpScale is the denominator to which the LP's weights are rounded for the
// exact check: the integer weights round(lpScale·y_t) stay below 2^20, so
// the check's sums fit an int64: the offer is at most slots·2^14·2^20 (the
// LP's horizon is below 2^14 units) and the need at most Σ_j n_j·min(p_j,
// 2^14)·2^20, beyond reach for fewer than 2^29 slots or 2^29 maps.
const lpScale = 1 << 20

// lpMinGain is the LP objective (in units of slot time times a weight in
// [0, 1]) below which the weights are not worth the exact check: a vertex
// of this LP has a gain of at least 1/(its denominators), and the MRCP
// streams' refuting weights gain 1 or 2.
const lpMinGain = 1e-6

// lpIterations is the simplex's iteration cap per unknown (row or column),
// so that the LP's cost, not a clock, decides (the 20-job MRCP streams take
// about 0.2 iterations per unknown); a capped LP refutes nothing.
const lpIterations = 4

// lpNodeEvery, lpNodeDepth and lpNodeCalls choose the nodes below the
// root where a probe solves the weighted-load LP, once the root's LP has
// refuted a level of this Solve (on a stream where it never bites at the
// root, such as the MRCP streams' makespans, the node LPs refuted next to
// nothing and cost up to 10 s): every lpNodeEvery-th depth up to
// lpNodeDepth placed tasks, at most lpNodeCalls LPs per Solve (each costs
// about as much as 10^4 nodes, and the count, not a clock, bounds them).
// Their refuting weights join the pool that every node checks: on the
// 20-job MRCP streams' maximum turnarounds 2–5 of them, found at depths
// 32–72 within 23–33 LPs, let the probe at the optimum's level reach a
// schedule in 5,000–20,000 nodes where the search without them finds none
// in 3·10^6 (docs/results.md, s15max).
const (
	lpNodeEvery = 8
	lpNodeDepth = 80
	lpNodeCalls = 48
)

// lpPoolSize caps the refuting weight vectors kept: each costs every node
// a pass over the jobs' start windows.
const lpPoolSize = 16

// lpCert is a refuting weight vector kept for other nodes: pre[c] is the
// rounded weight (in 1/lpScale) of the units [t0, t0 + c); units outside
// weigh nothing.
type lpCert struct {
	t0  int64
	pre []int64
}

// weightedLoadMiss is cannotBeat's fifth rule: weights y_t ∈ [0, 1] on the
// units of time t with
//
//	Σ_j n_j · min_{ρ_j ≤ s ≤ d_j − p_j} Σ_{t=s}^{s+p_j−1} y_t  >  Σ_t c_t · y_t,
//
// c_t the map slots free at t, prove that no schedule meets the deadlines
// (docs/bounds.md §14d, weighted load): in any that does, the weight of the
// slot time its maps hold is at least the left side and at most the right.
// Any weights will do, so the node first checks the pool of weights that
// refuted other nodes (at every node, in integers). New weights come from
// an LP that maximises the difference, at the root and, in the probes'
// searches, at a few shallow nodes (lpNodeEvery); the LP's weights,
// rounded to multiples of 1/lpScale, are checked in integer arithmetic, so
// the simplex's float error can lose a refutation but never make one. The
// root's data depend on the incumbent alone, and a larger incumbent only
// loosens the deadlines, so the root's LP is not solved again at an
// incumbent where it refuted (the verdict stands) or at or above one where
// it did not (it would not refute there either; skipping is sound anyway).
func (s *searcher) weightedLoadMiss() bool {
	sc := &s.dec
	for i := range sc.pool {
		if certRefutes(sc.js, sc.avail, &sc.pool[i]) {
			return true
		}
	}
	if sc.lpOff {
		return false
	}
	if s.placed != 0 {
		if !sc.lpNodes || sc.lpMissInc == 0 || s.placed > lpNodeDepth || s.placed%lpNodeEvery != 0 || sc.lpCalls >= lpNodeCalls {
			return false
		}
		sc.lpCalls++
		return s.weightedLoad()
	}
	if s.inc == sc.lpMissInc {
		return true
	}
	if sc.lpHoldInc != 0 && s.inc >= sc.lpHoldInc {
		return false
	}
	if s.weightedLoad() {
		sc.lpMissInc = s.inc
		return true
	}
	sc.lpHoldInc = s.inc
	return false
}

// weightedLoad builds and solves the weighted-load LP on cannotBeat's jobs
// and slots (sc.js, sc.avail, in units) and checks its weights exactly.
func (s *searcher) weightedLoad() bool {
	sc := &s.dec
	t0 := slices.Min(sc.avail)
	var end int64
	rows, nz := 0, 0
	for _, j := range sc.js {
		t0 = min(t0, j.rho)
		end = max(end, j.d)
		k := int(j.d - j.p - j.rho + 1)
		if k <= 0 {
			return true // no start of the job's maps meets its deadline
		}
		rows += k
		nz += k * int(j.p+1)
	}
	h := end - t0
	if h <= 0 || h >= maxBits || nz > lpMaxNonzeros {
		return false
	}
	// Columns: y_t for t = t0 … end−1 (weight in [0, 1], cost c_t), then
	// z_j per job (free, gain n_j). Rows: z_j − Σ_{t=s}^{s+p_j−1} y_t ≤ 0
	// for every start s of job j's maps, job by job, s ascending.
	nT := int(h)
	cols := nT + len(sc.js)
	m := &model.Model{
		Sense:    model.Maximize,
		Obj:      make([]float64, cols),
		ColLower: make([]float64, cols),
		ColUpper: make([]float64, cols),
		ColType:  make([]model.VarType, cols),
		RowLower: make([]float64, rows),
		RowUpper: make([]float64, rows),
		ColStart: make([]int, 0, cols+1),
		RowIndex: make([]int, 0, nz),
		Value:    make([]float64, 0, nz),
	}
	for i := range m.ColType {
		m.ColType[i] = model.Continuous
	}
	for r := range m.RowLower {
		m.RowLower[r] = math.Inf(-1)
	}
	first := make([]int, len(sc.js)) // each job's first row
	for x, r := 0, 0; x < len(sc.js); x++ {
		first[x] = r
		r += int(sc.js[x].d - sc.js[x].p - sc.js[x].rho + 1)
	}
	free := 0 // slots free at t: avail is sorted
	for c := range nT {
		t := t0 + int64(c)
		for free < len(sc.avail) && sc.avail[free] <= t {
			free++
		}
		m.Obj[c] = -float64(free)
		m.ColUpper[c] = 1
		m.ColStart = append(m.ColStart, len(m.RowIndex))
		for x, j := range sc.js {
			// The starts s with s ≤ t < s + p.
			for st := max(j.rho, t-j.p+1); st <= min(j.d-j.p, t); st++ {
				m.RowIndex = append(m.RowIndex, first[x]+int(st-j.rho))
				m.Value = append(m.Value, -1)
			}
		}
	}
	for x, j := range sc.js {
		c := nT + x
		m.Obj[c] = float64(j.n)
		m.ColLower[c] = math.Inf(-1)
		m.ColUpper[c] = float64(j.p) // z_j ≤ Σ of p_j weights ≤ p_j
		m.ColStart = append(m.ColStart, len(m.RowIndex))
		for r := first[x]; r < first[x]+int(j.d-j.p-j.rho+1); r++ {
			m.RowIndex = append(m.RowIndex, r)
			m.Value = append(m.Value, 1)
		}
	}
	m.ColStart = append(m.ColStart, len(m.RowIndex))
	lp, err := simplex.New(m, simplex.Options{IterationLimit: int64(lpIterations * (rows + cols))})
	if err != nil {
		return false // a malformed LP refutes nothing (never expected)
	}
	if lp.Solve(s.ctx) != solve.Optimal || lp.Objective() <= lpMinGain {
		return false
	}
	c := lpCert{t0: t0, pre: make([]int64, nT+1)}
	for i, v := range lp.X()[:nT] {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false // a negative weight would break the proof: trust no such answer
		}
		c.pre[i+1] = c.pre[i] + int64(math.Round(math.Min(1, math.Max(0, v))*lpScale))
	}
	if !certRefutes(sc.js, sc.avail, &c) {
		return false
	}
	if len(sc.pool) < lpPoolSize {
		sc.pool = append(sc.pool, c)
	}
	return true
}

// certRefutes checks the weighted-load inequality exactly, in integers,
// for the weights of c on the jobs js and the map slots free from avail
// (sorted), all in units: it reports whether the weight that the jobs'
// maps must cover exceeds the weight the slots offer.
func certRefutes(js []dlJob, avail []int64, c *lpCert) bool {
	// at is the weight of the units before t.
	last := c.t0 + int64(len(c.pre)) - 1
	at := func(t int64) int64 {
		return c.pre[min(max(t, c.t0), last)-c.t0]
	}
	// Σ_t c_t y_t: slot i offers the weight of the units from A_i on.
	var offer int64
	for _, a := range avail {
		offer += at(last+1) - at(a)
	}
	var need int64
	for _, j := range js {
		lo, hi := j.rho, j.d-j.p
		if lo > hi {
			return true // no start meets the deadline
		}
		// A start whose window lies wholly before t0 or at or after last
		// covers no weight (the weights are ≥ 0): then the least is 0, and
		// otherwise every start lies in the vector's range, so the scan is
		// at most its length whatever the job's window (a pooled vector is
		// checked at later nodes with wider windows).
		if lo+j.p <= c.t0 || hi >= last {
			continue
		}
		least := int64(math.MaxInt64)
		for st := lo; st <= hi; st++ {
			least = min(least, at(st+j.p)-at(st))
		}
		need += int64(j.n) * least
		if need > offer {
			return true
		}
	}
	return false
}
