package coshh

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/mrbound/mrbound/formulations"
	"github.com/mrbound/mrbound/internal/stopper"
	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

// Tolerances.
const (
	// SuggestTol: class i is suggested for resource j when δ[i,j] exceeds it
	// (the paper's δ ≠ 0, robust to solver round-off).
	SuggestTol = 1e-6
	// LambdaRelSlack: stage 2 keeps λ ≥ λ*·(1 − LambdaRelSlack), so that the
	// round-off of stage 1 cannot make stage 2 infeasible.
	LambdaRelSlack = 1e-12
	// CapacityRepairTol: a resource whose decoded load exceeds 1 by at most
	// this much is scaled back to 1 (solver round-off); larger excesses are
	// left for the checker to reject.
	CapacityRepairTol = 1e-4
	// CheckTol: the checker accepts loads ≤ 1 + CheckTol and a recomputed λ
	// within CheckTol·max(1, λ) of the solver's.
	CheckTol = 1e-6
)

// Problem is one capacity LP: F classes, M resources.
type Problem struct {
	// Name labels the classification ("primary", "secondary").
	Name string
	// Classes and Resources name the rows and columns of Mu.
	Classes   []string
	Resources []string
	// Alpha holds the arrival rate of each class: len F, finite, ≥ 0, not all 0.
	Alpha []float64
	// Mu holds μ[i][j]: F rows of M finite rates ≥ 0.
	Mu [][]float64
}

// ErrUnbounded is returned when every class has zero arrival rate: λ is then
// unbounded.
var ErrUnbounded = errors.New("coshh: every class has zero arrival rate, λ is unbounded")

// Validate checks the shapes and signs of p, naming the offending entry.
func (p Problem) Validate() error {
	F, M := len(p.Alpha), len(p.Resources)
	if len(p.Classes) != F || len(p.Mu) != F {
		return fmt.Errorf("coshh: %s: %d class names, %d arrival rates, %d rate rows", p.Name, len(p.Classes), F, len(p.Mu))
	}
	if F == 0 {
		return fmt.Errorf("coshh: %s: no classes", p.Name)
	}
	pos := false
	for i, a := range p.Alpha {
		if a < 0 || math.IsNaN(a) || math.IsInf(a, 0) {
			return fmt.Errorf("coshh: %s: class %s: arrival rate %v is not a non-negative number", p.Name, p.Classes[i], a)
		}
		pos = pos || a > 0
		if len(p.Mu[i]) != M {
			return fmt.Errorf("coshh: %s: class %s: %d rates for %d resources", p.Name, p.Classes[i], len(p.Mu[i]), M)
		}
		for j, x := range p.Mu[i] {
			if x < 0 || math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("coshh: %s: class %s on %s: execution rate %v is not a non-negative number", p.Name, p.Classes[i], p.Resources[j], x)
			}
		}
	}
	if !pos {
		return fmt.Errorf("%w (%s)", ErrUnbounded, p.Name)
	}
	return nil
}

// Vars locates the columns of a built model.
type Vars struct {
	// Lambda is the column of Λ = λ / LambdaScale.
	Lambda      int
	LambdaScale float64
	Delta       [][]int // Delta[i][j] is the column of δ[i,j]
}

// LambdaUpper is min over classes with α_i > 0 of Σ_j μ[i,j] / α_i, the λ a
// class would reach with every resource to itself: an upper bound on λ. It is
// 0 when such a class has zero rate everywhere.
func LambdaUpper(p Problem) float64 {
	ub := math.Inf(1)
	for i, a := range p.Alpha {
		if a > 0 {
			s := 0.0
			for _, mu := range p.Mu[i] {
				s += mu
			}
			ub = math.Min(ub, s/a)
		}
	}
	return ub
}

type ij struct{ I, J int }

// Build emits the stage-1 LP (max λ) when lambdaMin is NaN, and otherwise the
// stage-2 LP: λ ≥ lambdaMin, minimise Σ c[i,j]·δ[i,j] (see the package doc).
//
// The model is scaled, the same LP in better units: its λ column holds
// Λ = λ / LambdaUpper(p) (1 when that bound is 0), so Λ ∈ [0, 1], and row i of
// (1) is divided by its largest coefficient. Rates in the traces span ten
// orders of magnitude; unscaled, the native simplex failed on them.
// Columns are λ then δ(i,j) in row-major order; rows are serve(i) then cap(j).
func Build(p Problem, lambdaMin float64) (*model.Model, Vars, error) {
	return build(p, lambdaMin, nil)
}

// build is Build ticking stop once per class and resource: a scenario file
// can list thousands of classes on thousands of resources. Once stop reports
// a stop it returns stopper.ErrStopped and no model.
func build(p Problem, lambdaMin float64, stop *stopper.Stopper) (*model.Model, Vars, error) {
	if err := p.Validate(); err != nil {
		return nil, Vars{}, err
	}
	// Read the context and the clock once per LP too: a small LP has fewer
	// than stopper.PollEvery ticks, and a run of many small LPs must stop.
	if stop.Poll() {
		return nil, Vars{}, stopper.ErrStopped
	}
	F, M := len(p.Alpha), len(p.Resources)
	b := model.NewBuilder("coshh-" + p.Name)
	ls := LambdaUpper(p)
	if ls == 0 || math.IsInf(ls, 0) || math.IsNaN(ls) { // λ = 0, or rates near overflow
		ls = 1
	}
	lam := b.Continuous("Lambda", 0, math.Inf(1))
	delta := model.NewFamily[ij](b, "delta")
	v := Vars{Lambda: lam.Index(), LambdaScale: ls, Delta: make([][]int, F)}
	cost := model.NewExpr(F * M)
	for i := 0; i < F; i++ {
		v.Delta[i] = make([]int, M)
		for j := 0; j < M; j++ {
			if stop.Tick() {
				return nil, Vars{}, stopper.ErrStopped
			}
			d := delta.Add(ij{i + 1, j + 1}, 0, 1, 0, model.Continuous)
			v.Delta[i][j] = d.Index()
			cost.Add(d, 1+float64(i*M+j)/float64(F*M))
		}
	}
	serve := model.NewRowFamily[int](b, "serve")
	for i := 0; i < F; i++ {
		// Row i is divided by its largest coefficient: the same LP, but rates
		// that span orders of magnitude (the traces' do) stay within the
		// solvers' tolerances.
		scale := p.Alpha[i] * ls
		for _, mu := range p.Mu[i] {
			scale = math.Max(scale, mu)
		}
		e := model.NewExpr(M + 1)
		for j := 0; j < M; j++ {
			if stop.Tick() {
				return nil, Vars{}, stopper.ErrStopped
			}
			if mu := p.Mu[i][j]; mu != 0 {
				d, _ := delta.Get(ij{i + 1, j + 1})
				e.Add(d, mu/scale)
			}
		}
		if p.Alpha[i] != 0 {
			e.Add(lam, -p.Alpha[i]*ls/scale)
		}
		serve.GreaterEq(i+1, e, 0)
	}
	capRow := model.NewRowFamily[int](b, "cap")
	for j := 0; j < M; j++ {
		e := model.NewExpr(F)
		for i := 0; i < F; i++ {
			if stop.Tick() {
				return nil, Vars{}, stopper.ErrStopped
			}
			d, _ := delta.Get(ij{i + 1, j + 1})
			e.Add(d, 1)
		}
		capRow.LessEq(j+1, e, 1)
	}
	if math.IsNaN(lambdaMin) {
		b.Maximize(model.Sum(lam))
	} else {
		b.SetBounds(lam, lambdaMin/ls, math.Inf(1))
		b.Minimize(cost)
	}
	m, err := b.Build()
	return m, v, err
}

// Allocation is the decoded answer of one capacity LP.
type Allocation struct {
	Problem Problem
	// Status is stage 1's status; Lambda, Delta and Suggested are set only
	// when it is Optimal (and stage 2 succeeded).
	Status solve.Status
	Lambda float64
	// Delta[i][j] is the fraction of resource j given to class i.
	Delta [][]float64
	// Suggested[j] lists the classes (indices into Problem.Classes, ascending)
	// with δ[i,j] > SuggestTol.
	Suggested [][]int
	// Stage1 and Stage2 are the solver results of the two LPs.
	Stage1, Stage2 solve.Result
	Check          Check
}

// Solve solves p lexicographically (see the package doc) with the backend
// named in opts, decodes δ and the suggested sets and checks them. It returns
// an error only when a call failed; an LP status other than optimal is
// reported in Allocation.Status.
func Solve(ctx context.Context, p Problem, opts solve.Options) (*Allocation, error) {
	return solveLP(ctx, p, opts, stopper.New(ctx, time.Now(), opts.TimeLimit))
}

// stoppedResult is the result of an LP whose build stop stopped: its status,
// no solution and no bound.
func stoppedResult(stop *stopper.Stopper, sense model.Sense, opts solve.Options, what string) solve.Result {
	obj, bound := solve.NoSolution(sense)
	solver := opts.Solver
	if solver == "" {
		solver = solve.DefaultSolver
	}
	return solve.Result{Status: stop.Status(), Objective: obj, Bound: bound, Solver: solver,
		Message: fmt.Sprintf("the %s build was stopped (%v)", what, stop.Status())}
}

// solveLP is Solve with the builds ticking stop. A stop in stage 1's build
// leaves the allocation with the stop's status and nothing else; in stage
// 2's, stage 1's optimal δ stands (as when stage 2 fails).
func solveLP(ctx context.Context, p Problem, opts solve.Options, stop *stopper.Stopper) (*Allocation, error) {
	a := &Allocation{Problem: p}
	m1, v, err := build(p, math.NaN(), stop)
	if errors.Is(err, stopper.ErrStopped) {
		a.Stage1 = stoppedResult(stop, model.Maximize, opts, "stage-1 LP")
		a.Status = a.Stage1.Status
		return a, nil
	}
	if err != nil {
		return nil, err
	}
	a.Stage1, err = solve.Solve(ctx, m1, opts)
	if err != nil {
		return nil, err
	}
	a.Status = a.Stage1.Status
	if a.Status != solve.Optimal || !a.Stage1.HasSolution {
		return a, nil
	}
	lamStar := math.Max(0, a.Stage1.X[v.Lambda]) * v.LambdaScale
	m2, v2, err := build(p, lamStar*(1-LambdaRelSlack), stop)
	if errors.Is(err, stopper.ErrStopped) {
		a.Stage2 = stoppedResult(stop, model.Minimize, opts, "stage-2 LP")
	} else if err != nil {
		return nil, err
	} else if a.Stage2, err = solve.Solve(ctx, m2, opts); err != nil {
		return nil, err
	}
	x := a.Stage1.X
	if a.Stage2.Status == solve.Optimal && a.Stage2.HasSolution {
		x, v = a.Stage2.X, v2
	} else {
		// Stage 2 failing leaves stage 1's vertex: still optimal, only the
		// tie-break is lost. Say so.
		a.Stage2.Message = "stage 2 " + a.Stage2.Status.String() + "; δ from stage 1"
	}
	a.Lambda = lamStar
	a.Delta = make([][]float64, len(p.Alpha))
	for i := range a.Delta {
		a.Delta[i] = make([]float64, len(p.Resources))
		for j := range a.Delta[i] {
			d := math.Max(0, x[v.Delta[i][j]]) // round-off below the bound 0
			a.Delta[i][j] = d
		}
	}
	// A resource loaded above 1 by solver round-off has its column scaled
	// back to load 1 (at most CapacityRepairTol is repaired; beyond that the
	// checker reports the violation).
	for j := range p.Resources {
		load := 0.0
		for i := range a.Delta {
			load += a.Delta[i][j]
		}
		if load > 1 && load <= 1+CapacityRepairTol {
			for i := range a.Delta {
				a.Delta[i][j] /= load
			}
		}
	}
	a.Suggested = Suggest(a.Delta)
	a.Check = CheckAllocation(p, a.Lambda, a.Delta)
	return a, nil
}

// Suggest returns SC_j = {i : δ[i][j] > SuggestTol} for every resource j.
func Suggest(delta [][]float64) [][]int {
	if len(delta) == 0 {
		return nil
	}
	out := make([][]int, len(delta[0]))
	for j := range out {
		out[j] = []int{}
		for i := range delta {
			if delta[i][j] > SuggestTol {
				out[j] = append(out[j], i)
			}
		}
	}
	return out
}

// Check is the independent check of an allocation: what it recomputed and
// its verdict.
type Check struct {
	// Served[i] = Σ_j μ[i,j]·δ[i,j], recomputed.
	Served []float64 `json:"served"`
	// Load[j] = Σ_i δ[i,j], recomputed.
	Load []float64 `json:"load"`
	// Lambda is the largest λ the served rates sustain: min over classes with
	// α_i > 0 of Served[i]/α_i.
	Lambda float64 `json:"lambda"`
	// MinDelta is the smallest δ entry (≥ −CheckTol when valid).
	MinDelta float64 `json:"min_delta"`
	// Verdict: Verified when loads ≤ 1 + CheckTol, δ ≥ −CheckTol, and Lambda
	// within CheckTol·max(1, λ) of the solver's λ (so λ·α is servable by δ).
	formulations.Verdict
}

// CheckAllocation recomputes served rates, loads and the sustained λ from the
// instance and δ alone.
func CheckAllocation(p Problem, lambda float64, delta [][]float64) Check {
	F, M := len(p.Alpha), len(p.Resources)
	c := Check{Served: make([]float64, F), Load: make([]float64, M), Lambda: math.Inf(1), Verdict: formulations.Verified()}
	if len(delta) != F {
		return Check{Verdict: formulations.Rejected("δ has the wrong number of rows")}
	}
	for i := 0; i < F; i++ {
		if len(delta[i]) != M {
			return Check{Verdict: formulations.Rejected("δ has the wrong number of columns")}
		}
		for j := 0; j < M; j++ {
			d := delta[i][j]
			c.Served[i] += p.Mu[i][j] * d
			c.Load[j] += d
			if i == 0 && j == 0 || d < c.MinDelta {
				c.MinDelta = d
			}
		}
		if p.Alpha[i] > 0 {
			c.Lambda = math.Min(c.Lambda, c.Served[i]/p.Alpha[i])
		}
	}
	fail := func(format string, a ...any) {
		if c.Verified {
			c.Verified, c.Problem = false, fmt.Sprintf(format, a...)
		}
	}
	if c.MinDelta < -CheckTol {
		fail("negative δ %g", c.MinDelta)
	}
	for j, l := range c.Load {
		if l > 1+CheckTol {
			fail("resource %s loaded %g > 1", p.Resources[j], l)
		}
	}
	if math.Abs(c.Lambda-lambda) > CheckTol*math.Max(1, lambda) {
		fail("δ sustains λ = %g, the solver reported %g", c.Lambda, lambda)
	}
	return c
}
