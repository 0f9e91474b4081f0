package simplex

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

// Default tolerances. All are applied to the scaled problem during the
// iterations and to the unscaled problem in the final check.
const (
	// DefaultPrimalTol is the largest bound or row violation accepted.
	DefaultPrimalTol = 1e-7
	// DefaultDualTol is the largest reduced-cost sign violation accepted.
	DefaultDualTol = 1e-7
)

// Options tune a Solver. The zero value is valid and means: default
// tolerances, no limits, scaling and perturbation on, no log.
type Options struct {
	// PrimalTol and DualTol are the feasibility tolerances; zero means
	// DefaultPrimalTol and DefaultDualTol.
	PrimalTol, DualTol float64
	// IterationLimit bounds the simplex iterations of one Solve call; 0
	// means none.
	IterationLimit int64
	// Deadline stops Solve with solve.TimeLimit once passed; zero means none.
	Deadline time.Time
	// NoScaling and NoPerturbation switch off scaling and the cost
	// perturbation against degeneracy (for tests and diagnosis).
	NoScaling, NoPerturbation bool
	// Seed drives the perturbation.
	Seed int64
	// Log receives a progress log when non-nil; Verbosity 1 logs a summary
	// per Solve, 2 logs every refactorisation.
	Log       io.Writer
	Verbosity int
}

// Row is a sparse row added by AddRows: Lower ≤ Σ Value[k]·x[Index[k]] ≤ Upper.
// Index holds distinct column indices; values are finite.
type Row struct {
	Index        []int
	Value        []float64
	Lower, Upper float64
}

// Basis is a simplex basis: one status per column and per row (the row's
// logical variable, whose value is the row activity). A valid basis has
// exactly NumRows basic entries.
type Basis struct {
	Cols []solve.BasisStatus
	Rows []solve.BasisStatus
}

// Clone returns a deep copy of b.
func (b Basis) Clone() Basis {
	return Basis{Cols: append([]solve.BasisStatus(nil), b.Cols...), Rows: append([]solve.BasisStatus(nil), b.Rows...)}
}

// ErrBadInput is wrapped by the errors of New, AddRows, RemoveRows, SetBasis
// and SetColBounds.
var ErrBadInput = errors.New("simplex: bad input")

// Solver holds a continuous LP relaxation of a model and a simplex basis that
// persists between Solve calls (warm start).
//
// Variables are numbered 0..NumCols()-1 for the columns and
// NumCols()+i for the logical variable of row i, whose value is the row
// activity a_i·x and whose bounds are the row bounds. All quantities the
// Solver returns are unscaled and in the model's own objective sense.
//
// A Solver is not safe for concurrent use; Clone gives an independent copy.
type Solver struct {
	lp *engine
}

// New builds a Solver for the continuous relaxation of m (integrality is
// ignored). m is not modified or retained beyond its read-only arrays.
func New(m *model.Model, opts Options) (*Solver, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if opts.PrimalTol < 0 || opts.DualTol < 0 || opts.IterationLimit < 0 {
		return nil, fmt.Errorf("%w: negative tolerance or iteration limit", ErrBadInput)
	}
	if opts.PrimalTol == 0 {
		opts.PrimalTol = DefaultPrimalTol
	}
	if opts.DualTol == 0 {
		opts.DualTol = DefaultDualTol
	}
	return &Solver{lp: newEngine(m, opts)}, nil
}

// SetOptions replaces the options (tolerances, limits, deadline, log) for the
// following Solve calls.
func (s *Solver) SetOptions(opts Options) {
	if opts.PrimalTol <= 0 {
		opts.PrimalTol = DefaultPrimalTol
	}
	if opts.DualTol <= 0 {
		opts.DualTol = DefaultDualTol
	}
	s.lp.opts = opts
}

// Solve runs the simplex method from the current basis: the dual simplex
// when the basis is dual feasible (always the case after SetColBounds or
// AddRows on an optimal basis), a primal simplex to clean up otherwise. It
// returns solve.Optimal, Infeasible, Unbounded, IterationLimit, TimeLimit,
// Interrupted (ctx cancelled) or NumericalTrouble. Optimal is reported only
// after the unscaled solution passes the feasibility and optimality check.
func (s *Solver) Solve(ctx context.Context) solve.Status { return s.lp.solve(ctx) }

// Status is the status of the last Solve (solve.StatusUnknown before any).
func (s *Solver) Status() solve.Status { return s.lp.status }

// NumCols is the number of columns; NumRows the current number of rows
// (model rows plus added rows minus removed rows).
func (s *Solver) NumCols() int { return s.lp.n }

// NumRows is the current number of rows.
func (s *Solver) NumRows() int { return s.lp.m }

// Objective is the objective value of the current point (model sense,
// including the model's offset).
func (s *Solver) Objective() float64 { return s.lp.objective() }

// X returns a fresh copy of the column values of the current point.
func (s *Solver) X() []float64 { return s.lp.colValues() }

// RowActivity returns a fresh copy of the row activities a_i·x.
func (s *Solver) RowActivity() []float64 { return s.lp.rowValues() }

// Duals returns one dual value per row, in the model's sense: the reduced
// costs are d = c − Aᵀy.
func (s *Solver) Duals() []float64 { return s.lp.duals() }

// ReducedCosts returns d = c − Aᵀy, one per column, in the model's sense.
func (s *Solver) ReducedCosts() []float64 { return s.lp.reducedCosts() }

// Iterations is the total number of simplex iterations over all Solve
// calls; LastIterations those of the last call.
func (s *Solver) Iterations() int64 { return s.lp.totalIters }

// LastIterations is the number of iterations of the last Solve call.
func (s *Solver) LastIterations() int64 { return s.lp.lastIters }

// Ray returns, after Unbounded, a primal ray over the columns (a direction
// d with A·d within the row recession cone, bounds respected, c·d improving);
// after Infeasible, a dual ray over the rows (a Farkas certificate y: the
// row bounds and column bounds cannot hold with yᵀA x). Nil otherwise.
func (s *Solver) Ray() []float64 { return s.lp.rayCopy() }

// Basis returns the current basis statuses.
func (s *Solver) Basis() Basis { return s.lp.basis() }

// SetBasis installs a basis (for example a B&B parent's). Nonbasic
// variables are put at the bound their status names. A basis with the wrong
// number of basic variables is an error; a singular one is repaired at the
// next Solve by replacing columns with row logicals.
func (s *Solver) SetBasis(b Basis) error { return s.lp.setBasis(b) }

// ColBounds returns the current bounds of column j.
func (s *Solver) ColBounds(j int) (lo, up float64) { return s.lp.colBounds(j) }

// SetColBounds changes the bounds of column j (lo ≤ up, lo < +Inf,
// up > −Inf). The basis is kept; the next Solve resumes with the dual
// simplex.
func (s *Solver) SetColBounds(j int, lo, up float64) error { return s.lp.setColBounds(j, lo, up) }

// AddRows appends rows (cuts). Their logical variables enter the basis, so
// an optimal basis stays dual feasible and the next Solve resumes with the
// dual simplex. The new rows get indices NumRows()..NumRows()+len(rows)-1.
func (s *Solver) AddRows(rows []Row) error { return s.lp.addRows(rows) }

// RemoveRows deletes the rows with the given indices (any order, no
// duplicates); the remaining rows keep their relative order. A removed row
// whose logical is nonbasic is first pivoted into the basis.
func (s *Solver) RemoveRows(indices []int) error { return s.lp.removeRows(indices) }

// BasicVar returns the variable basic at basis position pos (0 ≤ pos <
// NumRows()): a column index j < NumCols(), or NumCols()+i for the logical
// of row i.
func (s *Solver) BasicVar(pos int) int { return s.lp.head[pos] }

// BasisPos returns the basis position of variable k, or -1 when nonbasic.
func (s *Solver) BasisPos(k int) int { return s.lp.posOf(k) }

// VarValue is the unscaled value of variable k (column or row logical).
func (s *Solver) VarValue(k int) float64 { return s.lp.varValue(k) }

// VarStatus is the basis status of variable k (column or row logical).
func (s *Solver) VarStatus(k int) solve.BasisStatus { return s.lp.varStatus(k) }

// VarBounds returns the current bounds of variable k (column bounds, or row
// bounds for a logical).
func (s *Solver) VarBounds(k int) (lo, up float64) { return s.lp.varBounds(k) }

// TableauRow fills row (len NumCols()+NumRows(), allocated when nil or too
// short, and returned) with the unscaled simplex tableau row of basis
// position pos:
//
//	x_B(pos) + Σ_{k nonbasic} row[k]·x_k = 0
//
// where x_k for k ≥ NumCols() is the activity of row k−NumCols(). Entries of
// basic variables are zero except row[BasicVar(pos)] = 1. Values below 1e-12
// in magnitude are set to zero.
func (s *Solver) TableauRow(pos int, row []float64) []float64 { return s.lp.tableauRow(pos, row) }

// Clone returns an independent copy with the same model, bounds, rows,
// basis and factorisation.
func (s *Solver) Clone() *Solver { return &Solver{lp: s.lp.clone()} }

// inf is +Inf, for readability.
var inf = math.Inf(1)
