package lowerbound

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/mrbound/mrbound/internal/sizelimit"
	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

// LPOptions configures the bucketed LP relaxation for total turnaround.
type LPOptions struct {
	// Solve is passed to solve.Solve (backend, time limit).
	Solve solve.Options
	// Buckets is the number of equal time buckets of the grid; 0 means
	// defaultBuckets.
	Buckets int
	// Window is how many buckets from its release a job's work may be placed
	// in before it goes to the job's uncapacitated tail; 0 means
	// defaultWindow.
	Window int
}

const (
	defaultBuckets = 200
	defaultWindow  = 24
)

// LPResult is the outcome of the bucketed LP.
type LPResult struct {
	// Status of the LP solve.
	Status solve.Status `json:"status"`
	// Value is the certified lower bound on Σ_j (C_j − a_j) from the row
	// duals (safeDualBound): valid whatever the solver's accuracy; 0 when the
	// solve gave no duals.
	Value      float64 `json:"value"`
	Cols, Rows int     `json:"-"`
}

// BucketLP bounds total turnaround by a time-bucketed LP relaxation
// (docs/bounds.md §4a): per job and kind, the weighted work done in each
// bucket, under bucket capacities, releases and per-job rate caps, with C_j
// bounded below through the mean busy time of the job's work. The bound is
// recomputed from the LP's row duals with outward rounding, so it is valid
// even if the solver's answer is not exactly optimal.
func BucketLP(ctx context.Context, p *Problem, opts LPOptions) (LPResult, error) {
	if err := p.Validate(); err != nil {
		return LPResult{}, err
	}
	pr := newPrep(p)
	if len(pr.jobs) == 0 {
		return LPResult{Status: solve.Optimal}, nil
	}
	return pr.bucketLP(ctx, opts)
}

// bucketLP builds and solves the LP of a non-empty problem.
func (pr *prep) bucketLP(ctx context.Context, opts LPOptions) (LPResult, error) {
	m, err := pr.bucketModel(opts)
	if err != nil {
		return LPResult{}, err
	}
	return solveLP(ctx, m, opts.Solve)
}

// solveLP solves a relaxation whose every column is bounded and certifies
// its value from the row duals (safeDualBound), whatever the solver's
// accuracy or stop; 0 without duals.
func solveLP(ctx context.Context, m *model.Model, so solve.Options) (LPResult, error) {
	res, err := solve.Solve(ctx, m, so)
	if err != nil {
		return LPResult{}, err
	}
	out := LPResult{Status: res.Status, Cols: m.NumCols(), Rows: m.NumRows()}
	if res.RowDuals != nil {
		out.Value = math.Max(0, safeDualBound(m, res.RowDuals))
	}
	return out, nil
}

// bucketRowBytes is a capacity row's expression header before its terms.
const bucketRowBytes = 48

// bucketModel builds the LP. v is the last speed weighting (the estimated
// speeds when groups differ).
func (pr *prep) bucketModel(opts LPOptions) (*model.Model, error) {
	nb, window := opts.Buckets, opts.Window
	if nb <= 0 {
		nb = defaultBuckets
	}
	if window <= 0 {
		window = defaultWindow
	}
	// Refuse a grid that cannot be meant before anything is allocated: per
	// job and kind at most min(window, nb) bucket columns plus a tail, each
	// in a total, a busy-time and a capacity row; nb capacity rows per kind.
	cols := 2 * float64(len(pr.jobs)) * (float64(min(window, nb)) + 2)
	nnz := 3*cols + 2*float64(nb)
	if err := sizelimit.CheckBytes(fmt.Sprintf("LPOptions.Buckets = %d, Window = %d", nb, window),
		cols*sizelimit.ModelColumn+nnz*sizelimit.ModelNonzero+2*float64(nb)*bucketRowBytes,
		fmt.Sprintf("a bucket LP of about %.3g columns and %.3g nonzeros", cols, nnz)); err != nil {
		return nil, err
	}
	v := len(pr.weights) - 1
	// Grid [t0, t0 + nb·L): up to the makespan bound plus a quarter.
	t0 := float64(pr.minArrival)
	end := 0.0
	for _, c := range pr.maxCompletion() {
		end = math.Max(end, c.Value)
	}
	span := math.Max(1, (end-t0)*1.25)
	L := span / float64(nb)
	tau := func(b int) float64 { return t0 + float64(b)*L }
	// C_j's upper bound, so that every column is bounded (safeDualBound
	// needs it).
	horizon := pr.semiActiveHorizon()
	b := model.NewBuilder("lowerbound-bucket-lp")
	nk := 2
	capRow := make([][]model.Expr, nk) // capRow[k][bucket]
	for k := range nk {
		capRow[k] = make([]model.Expr, nb)
	}
	var obj model.Expr
	sumA := 0.0
	for j := range pr.jobs {
		ji := &pr.jobs[j]
		sumA += ji.a
		c := b.Continuous("", ji.a+ji.cp, math.Max(ji.a+ji.cp, horizon))
		obj.Add(c, 1)
		for k := range nk {
			w := ji.work[v][k]
			if w <= 0 {
				continue
			}
			release := ji.a
			if k == kRed {
				release = ji.a + ji.head
			}
			rateCap := pr.jobRateCap(j, k, v)
			first := int(math.Floor((release - t0) / L))
			first = max(0, first)
			total := model.NewExpr(window + 1)
			busy := model.NewExpr(window + 1) // Σ τ_b·y_b, the mean busy time times w
			last := min(nb, first+window)
			for bk := first; bk < last; bk++ {
				// Work of j in bucket bk: after its release, at rate ≤ rateCap.
				length := tau(bk+1) - math.Max(tau(bk), release)
				if length <= 0 {
					continue
				}
				y := b.Continuous("", 0, math.Min(w, rateCap*length))
				total.Add(y, 1)
				busy.Add(y, math.Max(tau(bk), release))
				capRow[k][bk].Add(y, 1)
			}
			// The rest: after the window, no capacity row, at its start time.
			tail := b.Continuous("", 0, w)
			total.Add(tail, 1)
			busy.Add(tail, math.Max(tau(last), release))
			b.Equal("", total, w)
			// Maps: lastMapEnd_j ≥ mean busy time + w/(2·cap), C_j ≥ that + R_j.
			// Reduces: C_j ≥ mean busy time + w/(2·cap).
			row := model.NewExpr(len(busy.Terms) + 1)
			row.Add(c, 1)
			row.AddExpr(busy, -1/w)
			rhs := w / (2 * rateCap)
			if k == kMap {
				rhs += ji.tail
			}
			b.GreaterEq("", row, rhs)
		}
	}
	for bk := range nb {
		length := L
		if pr.fungible {
			e := capRow[kMap][bk]
			e.AddExpr(capRow[kRed][bk], 1)
			if len(e.Terms) > 0 {
				b.LessEq("", e, pr.rate[v][kMap]*length)
			}
			continue
		}
		for k := range nk {
			if len(capRow[k][bk].Terms) > 0 {
				b.LessEq("", capRow[k][bk], pr.rate[v][k]*length)
			}
		}
	}
	obj.AddConst(-sumA)
	b.Minimize(obj)
	m, err := b.Build()
	if err != nil {
		return nil, fmt.Errorf("lowerbound: bucket LP: %w", err)
	}
	return m, nil
}

// pmax is the longest duration of t on a group with a slot of kind k.
func (pr *prep) pmax(t *Task, k int) float64 {
	worst := 0.0
	for g, ok := range pr.eligible[k] {
		if ok {
			worst = math.Max(worst, float64(t.dur(g)))
		}
	}
	return worst
}

// jobRateCap bounds the weighted work per ms job j can get of kind k: at most
// min(#tasks, S_k) of its tasks run at once, a task on a slot of group g
// progresses at w(τ)/d(τ,g) ≤ v_g, so the cap is the sum of the
// min(#tasks, S_k) largest slot weights.
func (pr *prep) jobRateCap(j, k, v int) float64 {
	n := len(pr.p.Jobs[j].Maps)
	if k == kRed {
		n = len(pr.p.Jobs[j].Reduces)
	}
	var ws []float64
	for _, node := range pr.p.Nodes {
		s := node.Slots
		if !pr.fungible {
			s = [2]int{node.MapSlots, node.ReduceSlots}[k]
		}
		for range min(s, n) {
			ws = append(ws, pr.weights[v][k][node.Group])
		}
	}
	slices.Sort(ws)
	capacity := 0.0
	for i := len(ws) - 1; i >= 0 && len(ws)-i <= n; i-- {
		capacity += ws[i]
	}
	return capacity
}

// safeDualBound is a lower bound on min c·x + offset over the model's box
// that holds for any row multipliers y (Neumaier and Shcherbina 2004): for
// every feasible x, c·x = y·Ax + (c − Aᵀy)·x, y·Ax ≥ Σ_i (y_i ≥ 0 ? y_i·lo_i :
// y_i·up_i), and (c − Aᵀy)·x ≥ Σ_j min over [l_j, u_j]. A multiplier whose row
// side is infinite is taken as 0. The result is lowered by a relative slack
// for the rounding of the sums.
func safeDualBound(m *model.Model, duals []float64) float64 {
	y := make([]float64, m.NumRows())
	for i, d := range duals {
		switch {
		case d > 0 && !math.IsInf(m.RowLower[i], -1):
			y[i] = d
		case d < 0 && !math.IsInf(m.RowUpper[i], 1):
			y[i] = d
		}
	}
	bound, mag := m.ObjOffset, math.Abs(m.ObjOffset)
	for i, yi := range y {
		if yi > 0 {
			bound += yi * m.RowLower[i]
			mag += math.Abs(yi * m.RowLower[i])
		} else if yi < 0 {
			bound += yi * m.RowUpper[i]
			mag += math.Abs(yi * m.RowUpper[i])
		}
	}
	for j := range m.NumCols() {
		d := m.Obj[j]
		for p := m.ColStart[j]; p < m.ColStart[j+1]; p++ {
			d -= y[m.RowIndex[p]] * m.Value[p]
		}
		var term float64
		if d >= 0 {
			term = d * m.ColLower[j]
		} else {
			term = d * m.ColUpper[j]
		}
		if math.IsInf(term, 0) || math.IsNaN(term) {
			return math.Inf(-1)
		}
		bound += term
		mag += math.Abs(term)
	}
	// Each of the ~nnz products and sums has relative error ≤ 2^-52; 1e-12 of
	// the magnitude of everything summed is a wide margin.
	return bound - 1e-12*float64(m.NumNonzeros()+m.NumCols()+m.NumRows()+1)*mag/float64(max(1, m.NumCols())) - 1e-9*mag
}

// semiActiveHorizon is max a_j + Σ_τ pmax(τ): an optimal semi-active
// schedule ends every task by then (each start is a release, a head or an
// end on its slot), so the LPs bound every C_j column by it.
func (pr *prep) semiActiveHorizon() float64 {
	horizon := 0.0
	for j := range pr.p.Jobs {
		horizon = math.Max(horizon, pr.jobs[j].a)
	}
	for j := range pr.p.Jobs {
		for k, tasks := range [2][]Task{pr.p.Jobs[j].Maps, pr.p.Jobs[j].Reduces} {
			for i := range tasks {
				horizon += pr.pmax(&tasks[i], k)
			}
		}
	}
	return horizon
}
