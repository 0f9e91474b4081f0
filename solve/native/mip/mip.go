package mip

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/native/mip/presolve"
)

// Version is reported in solve.Result.SolverVersion.
const Version = "0.1"

const (
	// feasTol is the largest absolute row, bound and integrality violation
	// accepted in a solution returned to the caller (the conformance suite's
	// tolerance; a relative one let mas76 report an incumbent 1.3e-6 below
	// the optimum).
	feasTol = 1e-6
)

// config holds internal switches for sub-MIPs (RINS, feasibility checks).
type config struct {
	sub    bool // a sub-MIP: no RINS, no log
	noCuts bool // no cutting planes (for tests)
	// noNodeRC switches off reduced-cost fixing at the nodes (for tests).
	noNodeRC bool
	// noSym and noProofs switch off symmetry handling and the node proofs
	// (for tests).
	noSym, noProofs bool
}

// Solve solves the MIP m with branch-and-cut. It returns an error only when
// the options or the model are invalid; everything the solve learned is in
// the Result.
func Solve(ctx context.Context, m *model.Model, opts solve.Options) (solve.Result, error) {
	start := time.Now()
	if err := opts.Validate(); err != nil {
		return solve.Result{}, err
	}
	if res, stopped, err := solve.ValidateModel(ctx, m, opts, start); err != nil {
		return solve.Result{}, err
	} else if stopped {
		res.Solver, res.SolverVersion = "native", Version
		return res, nil
	}
	return solveWith(ctx, m, opts, config{}), nil
}

func solveWith(ctx context.Context, m *model.Model, opts solve.Options, cfg config) solve.Result {
	start := time.Now()
	res := solve.Result{Solver: "native", SolverVersion: Version}
	res.Objective, res.Bound = solve.NoSolution(m.Sense)
	logf := func(format string, a ...any) {
		if opts.Log != nil && opts.Verbosity > 0 && !cfg.sub {
			fmt.Fprintf(opts.Log, format, a...)
		}
	}
	logf("native MIP %s: %d rows, %d columns (%d integer), %d nonzeros\n", m.Name, m.NumRows(), m.NumCols(), countInt(m), m.NumNonzeros())
	// The wall deadline and the context also stop the set-up (presolve,
	// symmetry detection), whose work budgets are deterministic but may be
	// long on large models.
	wallStatus := func() solve.Status {
		switch {
		case ctx.Err() != nil:
			return solve.Interrupted
		case opts.TimeLimit > 0 && time.Since(start) > opts.TimeLimit:
			return solve.TimeLimit
		}
		return solve.StatusUnknown
	}
	pre := presolve.RunDeadline(m, func() bool { return wallStatus() != solve.StatusUnknown })
	logf("presolve: %v\n", pre.Stats)
	if pre.Status == presolve.Stopped && wallStatus() == solve.StatusUnknown {
		// The stop function read the same clock and context: cannot happen.
		res.Status, res.Message, res.Wall = solve.Interrupted, "stopped in presolve", time.Since(start)
		return res
	}
	if st := wallStatus(); st != solve.StatusUnknown && pre.Status != presolve.Infeasible {
		res.Status = st
		res.Message = "stopped in presolve"
		res.Wall = time.Since(start)
		return res // no point and the trivial bound, both valid
	}
	if pre.Status == presolve.Infeasible {
		logf("presolve: infeasible: %s\n", pre.Reason)
		res.Status = solve.Infeasible
		res.Message = "presolve: " + pre.Reason
		res.Wall = time.Since(start)
		return res
	}
	r := pre.Model
	logf("reduced: %d rows, %d columns (%d integer), %d nonzeros\n", r.NumRows(), r.NumCols(), countInt(r), r.NumNonzeros())
	s, err := newSearch(ctx, r, opts, cfg, start)
	if err != nil {
		res.Status = solve.NumericalTrouble
		res.Message = err.Error()
		res.Wall = time.Since(start)
		return res
	}
	if opts.Start != nil && len(opts.Start) != m.NumCols() {
		logf("MIP start ignored: %d values for %d columns\n", len(opts.Start), m.NumCols())
	} else if opts.Start != nil {
		xr, why := reduceStart(ctx, m, r, pre.Post, opts.Start, s.deadline)
		switch {
		case xr == nil:
			logf("MIP start ignored: %s\n", why)
		case !s.setIncumbent(xr, "S"):
			logf("MIP start ignored: rejected on the presolved model\n")
		}
	}
	s.run()
	res.Status = s.status
	res.Nodes = s.nodes
	res.Iterations = s.iterations()
	res.Message = s.message
	sigma := s.sigma
	if s.incumbent != nil {
		x := pre.Post.Primal(s.incumbent)
		if ok, why := check(m, x); ok {
			res.HasSolution = true
			res.X = x
			res.Objective = m.Evaluate(x).Objective
		} else {
			logf("incumbent rejected by the check on the original model: %s\n", why)
			if res.Status == solve.Optimal {
				res.Status = solve.NumericalTrouble
				res.Message = "incumbent failed the feasibility check: " + why
			}
		}
	}
	bound := s.dualBound()
	if res.Status == solve.Optimal && res.HasSolution {
		// The bound is the proven one; never report it past the objective.
		b := sigma * bound
		if sigma*b > sigma*res.Objective {
			b = res.Objective
		}
		res.Bound = b
	} else if !math.IsInf(bound, -1) {
		res.Bound = sigma * bound
	}
	if res.Status == solve.Unbounded {
		res.Objective, res.Bound = sigma*math.Inf(-1), sigma*math.Inf(-1)
	}
	if res.Status == solve.Infeasible {
		// No point exists: both bounds are +Inf in minimisation terms.
		res.Objective, res.Bound = sigma*math.Inf(1), sigma*math.Inf(1)
	}
	res.Wall = time.Since(start)
	logf("%s: objective %.10g, bound %.10g, gap %.4g%%, %d nodes, %d LP iterations, %.2fs\n",
		res.Status, res.Objective, res.Bound, 100*res.Gap(), res.Nodes, res.Iterations, res.Wall.Seconds())
	return res
}

func countInt(m *model.Model) int {
	c := 0
	for _, t := range m.ColType {
		if t.IsInteger() {
			c++
		}
	}
	return c
}

// check reports whether x satisfies m within feasTol (integer columns are
// rounded first, in place, when that keeps every row within tolerance).
func check(m *model.Model, x []float64) (bool, string) {
	rounded := append([]float64(nil), x...)
	for j, t := range m.ColType {
		if t.IsInteger() {
			rounded[j] = math.Round(rounded[j])
		}
	}
	if ok, _ := within(m, rounded); ok {
		copy(x, rounded)
		return true, ""
	}
	return within(m, x)
}

func within(m *model.Model, x []float64) (bool, string) {
	ev := m.Evaluate(x)
	if ev.MaxIntegrality > feasTol {
		return false, fmt.Sprintf("column %s is %v, not integral", m.ColName(ev.WorstIntCol), x[ev.WorstIntCol])
	}
	for j, v := range x {
		lo, up := m.ColLower[j], m.ColUpper[j]
		if v < lo-feasTol || v > up+feasTol || math.IsNaN(v) {
			return false, fmt.Sprintf("column %s = %v outside [%v, %v]", m.ColName(j), v, lo, up)
		}
	}
	for i, a := range ev.RowActivity {
		lo, up := m.RowLower[i], m.RowUpper[i]
		if a < lo-feasTol || a > up+feasTol || math.IsNaN(a) {
			return false, fmt.Sprintf("row %s activity %v outside [%v, %v]", m.RowName(i), a, lo, up)
		}
	}
	return true, ""
}
