package native

import (
	"context"
	"math"
	"time"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/native/mip"
	"github.com/mrbound/mrbound/solve/native/simplex"
)

// Name is the registered backend name.
const Name = "native"

// Version is the native LP engine's version.
const Version = "0.1"

// limitFeasTol is the violation up to which the point held when a limit
// stops an LP solve is reported as a solution.
const limitFeasTol = 1e-6

// Solver is the "native" backend.
type Solver struct{}

func init() { solve.Register(Solver{}) }

// Name returns "native".
func (Solver) Name() string { return Name }

// Solve solves m: LPs with the native simplex, MIPs with the branch-and-cut
// of package mip.
func (Solver) Solve(ctx context.Context, m *model.Model, opts solve.Options) (solve.Result, error) {
	start := time.Now()
	if err := opts.Validate(); err != nil {
		return solve.Result{}, err
	}
	if res, stopped, err := solve.ValidateModel(ctx, m, opts, start); err != nil {
		return solve.Result{}, err
	} else if stopped {
		res.Solver = Name
		return res, nil
	}
	if m.IsMIP() {
		return mip.Solve(solve.Validated(ctx, m), m, opts)
	}
	return SolveLP(ctx, m, opts)
}

// SolveLP solves the continuous relaxation of m with the native simplex.
func SolveLP(ctx context.Context, m *model.Model, opts solve.Options) (solve.Result, error) {
	start := time.Now()
	so := simplex.Options{IterationLimit: opts.IterationLimit, Seed: opts.Seed}
	if opts.TimeLimit > 0 {
		so.Deadline = start.Add(opts.TimeLimit)
	}
	if opts.Verbosity > 0 {
		so.Log, so.Verbosity = opts.Log, opts.Verbosity
	}
	lp, err := simplex.New(m, so)
	if err != nil {
		return solve.Result{}, err
	}
	st := lp.Solve(ctx)
	res := solve.Result{Solver: Name, SolverVersion: Version, Status: st, Iterations: lp.Iterations()}
	res.Objective, res.Bound = solve.NoSolution(m.Sense)
	switch st {
	case solve.Optimal:
		res.HasSolution = true
		res.X = lp.X()
		res.Objective = lp.Objective()
		res.Bound = res.Objective
		res.RowDuals = lp.Duals()
		res.ReducedCosts = lp.ReducedCosts()
		b := lp.Basis()
		res.ColBasis, res.RowBasis = b.Cols, b.Rows
	case solve.Infeasible:
		res.Bound = -res.Bound
		res.Ray = lp.Ray()
	case solve.Unbounded:
		inf := math.Inf(-1)
		if m.Sense == model.Maximize {
			inf = math.Inf(1)
		}
		res.Objective, res.Bound = inf, inf
		res.Ray = lp.Ray()
	case solve.NumericalTrouble:
		res.Message = "the simplex could not reach a solution that passes the final feasibility and optimality check"
	default:
		if x := lp.X(); m.Evaluate(x).MaxViolation() <= limitFeasTol {
			res.HasSolution = true
			res.X = x
			res.Objective = m.Evaluate(x).Objective
		}
	}
	res.Wall = time.Since(start)
	return res, nil
}
