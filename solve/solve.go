package solve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/enum"
	"github.com/mrbound/mrbound/model"
)

// Status is what a solve established. The zero value is unknown. Values are
// only ever appended.
type Status int8

const (
	StatusUnknown Status = iota
	// Optimal: a solution was proven optimal within the gap tolerances.
	Optimal
	// Infeasible: the model has no feasible point.
	Infeasible
	// Unbounded: the model is feasible and its objective unbounded.
	Unbounded
	// InfeasibleOrUnbounded: one of the two, not known which.
	InfeasibleOrUnbounded
	// TimeLimit: the time limit stopped the solve.
	TimeLimit
	// NodeLimit: the branch-and-bound node limit stopped the solve.
	NodeLimit
	// IterationLimit: the simplex iteration limit stopped the solve.
	IterationLimit
	// Interrupted: the context was cancelled.
	Interrupted
	// NumericalTrouble: the solver could not reach a trustworthy answer.
	NumericalTrouble
)

var statusNames = enum.Names[Status]{"unknown", "optimal", "infeasible", "unbounded", "infeasible_or_unbounded",
	"time_limit", "node_limit", "iteration_limit", "interrupted", "numerical_trouble"}

func (s Status) String() string { return statusNames.String(s) }

// MarshalText encodes the status by name.
func (s Status) MarshalText() ([]byte, error) { return statusNames.Text(s) }

// UnmarshalText decodes a status name.
func (s *Status) UnmarshalText(b []byte) error {
	v, ok := statusNames.Decode(string(b))
	if ok {
		*s = v
		return nil
	}
	return fmt.Errorf("solve: unknown status %q", b)
}

// IsLimit reports whether a limit or an interruption stopped the solve.
func (s Status) IsLimit() bool {
	return s == TimeLimit || s == NodeLimit || s == IterationLimit || s == Interrupted
}

// BasisStatus is the simplex status of a column or row. Zero is unknown.
type BasisStatus int8

const (
	BasisUnknown BasisStatus = iota
	Basic
	AtLower
	AtUpper
	// Zero: a free nonbasic variable at zero.
	Zero
	// NonbasicFixed: nonbasic with equal bounds.
	NonbasicFixed
)

var basisNames = enum.Names[BasisStatus]{"unknown", "basic", "at_lower", "at_upper", "zero", "fixed"}

func (b BasisStatus) String() string { return basisNames.String(b) }

// MarshalText encodes the basis status by name.
func (b BasisStatus) MarshalText() ([]byte, error) { return basisNames.Text(b) }

// Options control a solve. The zero value means: native backend, no limits,
// default tolerances, no log.
type Options struct {
	// Solver names the backend ("native", "highs"); empty means DefaultSolver.
	Solver string
	// TimeLimit bounds the wall time; 0 means none. Negative is an error.
	TimeLimit time.Duration
	// RelGap and AbsGap stop a MIP solve once |primal − dual| ≤ AbsGap or
	// ≤ RelGap·|primal|. Zero means the backend default (RelGap 1e-4, AbsGap
	// 1e-6); negative is an error.
	RelGap, AbsGap float64
	// NodeLimit bounds branch-and-bound nodes; 0 means none.
	NodeLimit int64
	// IterationLimit bounds simplex iterations; 0 means none.
	IterationLimit int64
	// Threads is the number of threads a backend may use; 0 means its default.
	Threads int
	// Seed makes randomised choices reproducible.
	Seed int64
	// Start, when not nil, is a candidate solution with one value per column
	// (a MIP start). A backend checks it and uses it as its first incumbent
	// when it is feasible; an infeasible start is ignored, never an error.
	Start []float64
	// Log receives the solver's progress log; nil discards it.
	Log io.Writer
	// Verbosity: 0 quiet, 1 normal progress, 2 detailed.
	Verbosity int
}

// Default gap tolerances, as HiGHS and CBC use.
const (
	DefaultRelGap = 1e-4
	DefaultAbsGap = 1e-6
)

// Validate reports options that no backend can honour.
func (o Options) Validate() error {
	switch {
	case o.TimeLimit < 0:
		return fmt.Errorf("solve: time limit %v is negative", o.TimeLimit)
	case o.RelGap < 0 || math.IsNaN(o.RelGap):
		return fmt.Errorf("solve: relative gap %v is negative", o.RelGap)
	case o.AbsGap < 0 || math.IsNaN(o.AbsGap):
		return fmt.Errorf("solve: absolute gap %v is negative", o.AbsGap)
	case o.NodeLimit < 0:
		return fmt.Errorf("solve: node limit %d is negative", o.NodeLimit)
	case o.IterationLimit < 0:
		return fmt.Errorf("solve: iteration limit %d is negative", o.IterationLimit)
	case o.Threads < 0:
		return fmt.Errorf("solve: thread count %d is negative", o.Threads)
	}
	for j, v := range o.Start {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("solve: start value %v of column %d is not finite", v, j)
		}
	}
	return nil
}

// Gaps returns the effective relative and absolute gap tolerances.
func (o Options) Gaps() (rel, abs float64) {
	rel, abs = o.RelGap, o.AbsGap
	if rel == 0 {
		rel = DefaultRelGap
	}
	if abs == 0 {
		abs = DefaultAbsGap
	}
	return rel, abs
}

// Result is what a solve learned. Objective and Bound are in the model's own
// sense and include its offset: for a minimisation Bound ≤ Objective.
type Result struct {
	// Solver is the backend's name and SolverVersion its version.
	Solver        string `json:"solver"`
	SolverVersion string `json:"solver_version"`
	Status        Status `json:"status"`
	// HasSolution reports whether X holds a feasible point (the incumbent).
	HasSolution bool `json:"has_solution"`
	// Objective is the primal bound: the objective of X, or +Inf (−Inf when
	// maximising) without a solution.
	Objective float64 `json:"objective"`
	// Bound is the dual bound: no feasible point is better. −Inf (+Inf when
	// maximising) when nothing is known.
	Bound float64 `json:"bound"`
	// Nodes is the number of branch-and-bound nodes; Iterations the number of
	// simplex iterations.
	Nodes      int64         `json:"nodes"`
	Iterations int64         `json:"iterations"`
	Wall       time.Duration `json:"-"`
	// X holds one value per column when HasSolution.
	X []float64 `json:"-"`
	// For LPs solved to optimality: one dual value per row, one reduced cost
	// per column, and the final basis. Nil otherwise.
	RowDuals     []float64     `json:"-"`
	ReducedCosts []float64     `json:"-"`
	ColBasis     []BasisStatus `json:"-"`
	RowBasis     []BasisStatus `json:"-"`
	// Ray, when the backend found one, is a primal ray (Unbounded) or a dual
	// ray over the rows (Infeasible).
	Ray []float64 `json:"-"`
	// Message is a short human explanation, e.g. why NumericalTrouble.
	Message string `json:"message,omitempty"`
}

// Gap is the relative gap |Objective − Bound| / max(|Objective|, tiny), 0 when
// both are equal, +Inf when either is infinite.
func (r Result) Gap() float64 { return RelativeGap(r.Objective, r.Bound) }

// RelativeGap is |primal − dual| / max(|primal|, 1e-10) with the conventions of
// Result.Gap.
func RelativeGap(primal, dual float64) float64 {
	if primal == dual {
		return 0
	}
	if math.IsInf(primal, 0) || math.IsInf(dual, 0) || math.IsNaN(primal) || math.IsNaN(dual) {
		return math.Inf(1)
	}
	return math.Abs(primal-dual) / math.Max(math.Abs(primal), 1e-10)
}

// Seconds is the wall time in seconds.
func (r Result) Seconds() float64 { return r.Wall.Seconds() }

// NoSolution fills the bounds of a result without a solution for sense.
func NoSolution(sense model.Sense) (objective, bound float64) {
	if sense == model.Maximize {
		return math.Inf(-1), math.Inf(1)
	}
	return math.Inf(1), math.Inf(-1)
}

// Solver is a backend.
type Solver interface {
	// Name is the backend's registered name.
	Name() string
	// Solve solves m. It returns an error only when the call failed; m is not
	// modified.
	Solve(ctx context.Context, m *model.Model, opts Options) (Result, error)
}

// DefaultSolver is the backend used when Options.Solver is empty.
const DefaultSolver = "native"

var (
	registryMu sync.RWMutex
	registry   = map[string]Solver{}
)

// Register makes a backend available by name. It panics on a duplicate name
// (a programming error).
func Register(s Solver) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[s.Name()]; dup {
		panic("solve: backend registered twice: " + s.Name())
	}
	registry[s.Name()] = s
}

// Backends lists the registered backend names, sorted.
func Backends() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ErrUnknownSolver is returned for a backend name nobody registered; it is
// bad input (it wraps badinput.Err).
var ErrUnknownSolver = badinput.Errorf("solve: unknown solver")

// ValidateModel is m.Validate for a solve with opts that began at start:
// it gives up once ctx is done or opts.TimeLimit has passed (a model of
// 10^5 named columns takes about a tenth of a second to validate, and
// Solve and a backend each validate it) and then returns, with no error and
// stopped true, the result of a solve stopped before it began: status
// Interrupted or TimeLimit, no point, the trivial bound.
//
// A model that Solve has validated for this call (the context it hands the
// backend says so) is not validated again: the backends, and native's MIP
// under it, each call ValidateModel for callers that reach them directly.
func ValidateModel(ctx context.Context, m *model.Model, opts Options, start time.Time) (res Result, stopped bool, err error) {
	if v, _ := ctx.Value(validatedKey{}).(*model.Model); v == m {
		return Result{}, false, nil
	}
	var st Status
	err = m.ValidateStop(func() bool {
		switch {
		case ctx.Err() != nil:
			st = Interrupted
		case opts.TimeLimit > 0 && time.Since(start) > opts.TimeLimit:
			st = TimeLimit
		}
		return st != StatusUnknown
	})
	if !errors.Is(err, model.ErrStopped) {
		return Result{}, false, err
	}
	res = Result{Status: st, Message: "stopped while validating the model", Wall: time.Since(start)}
	res.Objective, res.Bound = NoSolution(m.Sense)
	return res, true, nil
}

// validatedKey marks, in the context a solve passes down, the model it has
// validated.
type validatedKey struct{}

// Validated returns ctx marked as carrying m already validated, so that
// ValidateModel skips m (and only m) under it. Call it only right after
// ValidateModel accepted m, with nothing changing m for as long as the
// returned context is used.
func Validated(ctx context.Context, m *model.Model) context.Context {
	return context.WithValue(ctx, validatedKey{}, m)
}

// Lookup returns the backend registered under name.
func Lookup(name string) (Solver, error) {
	if name == "" {
		name = DefaultSolver
	}
	registryMu.RLock()
	s, ok := registry[name]
	registryMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("%w %q (available: %s)", ErrUnknownSolver, name, strings.Join(Backends(), ", "))
	}
	return s, nil
}

// Solve validates the options and the model and runs the backend named by
// opts.Solver.
func Solve(ctx context.Context, m *model.Model, opts Options) (Result, error) {
	start := time.Now()
	if err := opts.Validate(); err != nil {
		return Result{}, err
	}
	if res, stopped, err := ValidateModel(ctx, m, opts, start); err != nil {
		return Result{}, err
	} else if stopped {
		if res.Solver = opts.Solver; res.Solver == "" {
			res.Solver = DefaultSolver
		}
		return res, nil
	}
	if opts.Start != nil && len(opts.Start) != m.NumCols() {
		return Result{}, fmt.Errorf("solve: start has %d values for %d columns", len(opts.Start), m.NumCols())
	}
	s, err := Lookup(opts.Solver)
	if err != nil {
		return Result{}, err
	}
	return s.Solve(Validated(ctx, m), m, opts)
}
