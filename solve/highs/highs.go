package highs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tetratelabs/wazero/api"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

// Name is the backend's registered name.
const Name = "highs"

func init() { solve.Register(New("")) }

// Solver runs HiGHS through WebAssembly. It is safe for concurrent use: each
// Solve gets its own module instance.
type Solver struct {
	dir string // "" means Locate on each first use
}

// New returns a solver that loads highs.wasm and highs.js from dir, or from
// wherever Locate finds them when dir is "".
func New(dir string) *Solver { return &Solver{dir: dir} }

// Name returns "highs".
func (s *Solver) Name() string { return Name }

func (s *Solver) engine() (*engine, error) {
	dir := s.dir
	if dir == "" {
		d, err := Locate()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	return getEngine(dir)
}

// Version loads the module (compiling it if needed) and returns the HiGHS
// version it reports, e.g. "1.11.0".
func (s *Solver) Version(ctx context.Context) (string, error) {
	e, err := s.engine()
	if err != nil {
		return "", err
	}
	in, err := e.newInstance(context.WithValue(ctx, stateKey{}, &callState{log: io.Discard}))
	if err != nil {
		return "", err
	}
	defer in.close()
	return in.version()
}

// Warm compiles the module now rather than on the first solve.
func (s *Solver) Warm() error {
	_, err := s.engine()
	return err
}

// HiGHS C API constants (highs_c_api.h).
const (
	highsStatusError = -1

	objSenseMinimize = 1
	objSenseMaximize = -1
	matrixColwise    = 1

	varContinuous = 0
	varInteger    = 1

	solutionFeasible = 2

	basisLower    = 0
	basisBasic    = 1
	basisUpper    = 2
	basisZero     = 3
	basisNonbasic = 4
)

// HiGHS model statuses.
const (
	msNotset = iota
	msLoadError
	msModelError
	msPresolveError
	msSolveError
	msPostsolveError
	msModelEmpty
	msOptimal
	msInfeasible
	msUnboundedOrInfeasible
	msUnbounded
	msObjectiveBound
	msObjectiveTarget
	msTimeLimit
	msIterationLimit
	msUnknown
	msSolutionLimit
	msInterrupt
	msMemoryLimit
)

var modelStatusNames = [...]string{"not set", "load error", "model error", "presolve error", "solve error",
	"postsolve error", "model empty", "optimal", "infeasible", "unbounded or infeasible", "unbounded",
	"objective bound", "objective target", "time limit", "iteration limit", "unknown", "solution limit",
	"interrupt", "memory limit"}

func modelStatusName(s int32) string {
	if s >= 0 && int(s) < len(modelStatusNames) {
		return modelStatusNames[s]
	}
	return fmt.Sprintf("model status %d", s)
}

// hardStopGrace is how long after Options.TimeLimit the context stops the
// module when HiGHS has not stopped by itself: HiGHS checks its clock only
// between steps, and a late stop loses the incumbent, so it gets some slack.
func hardStopGrace(limit time.Duration) time.Duration { return time.Second + limit/10 }

// logTailLines is how many lines of HiGHS's output are kept to explain a
// failure when no log writer was given.
const logTailLines = 20

// Solve solves m with HiGHS. See the package documentation for how options
// map to HiGHS's.
func (s *Solver) Solve(ctx context.Context, m *model.Model, opts solve.Options) (solve.Result, error) {
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
	e, err := s.engine()
	if err != nil {
		return solve.Result{}, err
	}
	if ctx.Err() != nil {
		return stopped(m, opts, start, false), nil
	}
	runCtx, cancel := ctx, context.CancelFunc(func() {})
	if opts.TimeLimit > 0 {
		runCtx, cancel = context.WithTimeout(ctx, opts.TimeLimit+hardStopGrace(opts.TimeLimit))
	}
	defer cancel()
	tail := &tailWriter{max: logTailLines}
	var log io.Writer = tail
	if opts.Log != nil && opts.Verbosity > 0 {
		log = io.MultiWriter(tail, opts.Log)
	}
	runCtx = context.WithValue(runCtx, stateKey{}, &callState{log: log, done: runCtx.Done()})

	in, err := e.newInstance(runCtx)
	if err == nil {
		defer in.close()
		var res solve.Result
		res, err = in.solve(m, opts, tail, false)
		if err == nil && res.Status == solve.InfeasibleOrUnbounded && runCtx.Err() == nil {
			res, err = in.disambiguate(m, opts, tail, res, start)
		}
		if err == nil {
			if res.Status == solve.TimeLimit && ctx.Err() != nil {
				// HiGHS stopped on the clock jump that the caller's
				// cancellation caused (see callState): its incumbent and
				// bound stand, the status says why it stopped.
				res.Status = solve.Interrupted
				res.Message = "stopped by context cancellation"
			}
			res.Wall = time.Since(start)
			return res, nil
		}
	}
	if errors.Is(err, errStopped) {
		// The hard stop: ours (the time limit) unless the caller's context ended.
		return stopped(m, opts, start, ctx.Err() == nil), nil
	}
	if t := tail.String(); t != "" {
		err = fmt.Errorf("%w; HiGHS log ends: %s", err, t)
	}
	return solve.Result{}, err
}

// disambiguate settles an infeasible-or-unbounded answer with one more solve
// in the same instance, within what is left of the time limit:
//
//   - an LP is solved again without presolve, whose reductions are what
//     leave HiGHS unable to tell the two apart;
//   - a MIP whose relaxation HiGHS found unbounded is solved again with a
//     zero objective: with rational data a feasible MIP with an unbounded
//     relaxation is itself unbounded (Meyer 1974), so a feasible point means
//     Unbounded and none means Infeasible.
//
// When the second solve settles nothing, first stands.
func (in *instance) disambiguate(m *model.Model, opts solve.Options, tail *tailWriter, first solve.Result, start time.Time) (solve.Result, error) {
	if opts.TimeLimit > 0 {
		left := opts.TimeLimit - time.Since(start)
		if left <= 0 {
			return first, nil
		}
		opts.TimeLimit = left
	}
	probe, presolveOff := m, true
	if m.IsMIP() {
		probe = m.Clone()
		clear(probe.Obj)
		probe.ObjOffset = 0
		presolveOff = false
	}
	second, err := in.solve(probe, opts, tail, presolveOff)
	if err != nil {
		return first, err
	}
	res := first
	res.Nodes += second.Nodes
	res.Iterations += second.Iterations
	unbounded := func() {
		res.Status = solve.Unbounded
		inf := math.Inf(-1)
		if m.Sense == model.Maximize {
			inf = math.Inf(1)
		}
		res.Objective, res.Bound = inf, inf
	}
	switch {
	case second.Status == solve.Infeasible:
		res.Status = solve.Infeasible
		res.Ray = second.Ray
		res.Objective, res.Bound = solve.NoSolution(m.Sense)
		res.Bound = -res.Bound
	case !m.IsMIP() && second.Status == solve.Unbounded:
		unbounded()
		res.Ray = second.Ray
	case m.IsMIP() && second.HasSolution:
		unbounded()
		res.Message = "the LP relaxation is unbounded and an integer-feasible point exists"
	}
	return res, nil
}

// stopped is the result of a solve the context stopped: no solution, nothing
// proved.
func stopped(m *model.Model, opts solve.Options, start time.Time, timeLimit bool) solve.Result {
	r := solve.Result{Solver: Name, Status: solve.Interrupted, Wall: time.Since(start)}
	r.Objective, r.Bound = solve.NoSolution(m.Sense)
	r.Message = "stopped by context cancellation; HiGHS did not stop by itself and was cut off"
	if timeLimit {
		r.Status = solve.TimeLimit
		r.Message = fmt.Sprintf("HiGHS overran the %v time limit and was cut off", opts.TimeLimit)
	}
	return r
}

// ErrRejected is wrapped by the error Solve returns when HiGHS refuses the
// model (the message goes on with HiGHS's own words): bad input (it wraps
// badinput.Err).
var ErrRejected = badinput.Errorf("highs: HiGHS rejected the model")

// version reads Highs_version().
func (in *instance) version() (string, error) {
	p, err := in.call("_Highs_version")
	if err != nil {
		return "", err
	}
	return cString(in.mem, uint32(p), 64), nil
}

// session is one HiGHS object inside one instance.
type session struct {
	*instance
	log     *tailWriter
	h       uint64 // the Highs* handle
	scratch uint32 // 8 bytes for out-parameters
}

func (s *session) setOption(kind, name string, v any) error {
	np, err := s.cstr(name)
	if err != nil {
		return err
	}
	var st int32
	switch kind {
	case "bool":
		b := uint64(0)
		if v.(bool) {
			b = 1
		}
		st, err = s.callInt("_Highs_setBoolOptionValue", s.h, uint64(np), b)
	case "int":
		st, err = s.callInt("_Highs_setIntOptionValue", s.h, uint64(np), api.EncodeI32(v.(int32)))
	case "double":
		st, err = s.callInt("_Highs_setDoubleOptionValue", s.h, uint64(np), api.EncodeF64(v.(float64)))
	case "string":
		var vp uint32
		if vp, err = s.cstr(v.(string)); err == nil {
			st, err = s.callInt("_Highs_setStringOptionValue", s.h, uint64(np), uint64(vp))
		}
	}
	if err != nil {
		return err
	}
	if st == highsStatusError {
		return fmt.Errorf("highs: HiGHS refused option %s = %v", name, v)
	}
	return nil
}

// HiGHS info types (kHighsInfoType*).
const (
	infoTypeInt64  = -1
	infoTypeInt    = 1
	infoTypeDouble = 2
)

// info reads the info value name whatever its type; ok is false when this
// HiGHS does not know the name.
func (s *session) info(name string) (v float64, ok bool, err error) {
	np, err := s.cstr(name)
	if err != nil {
		return 0, false, err
	}
	st, err := s.callInt("_Highs_getInfoType", s.h, uint64(np), uint64(s.scratch))
	if err != nil || st == highsStatusError {
		return 0, false, err
	}
	typ, _ := s.mem.ReadUint32Le(s.scratch)
	var fn string
	switch int32(typ) {
	case infoTypeInt64:
		fn = "_Highs_getInt64InfoValue"
	case infoTypeInt:
		fn = "_Highs_getIntInfoValue"
	case infoTypeDouble:
		fn = "_Highs_getDoubleInfoValue"
	default:
		return 0, false, nil
	}
	st, err = s.callInt(fn, s.h, uint64(np), uint64(s.scratch))
	if err != nil || st == highsStatusError {
		return 0, false, err
	}
	raw, _ := s.mem.ReadUint64Le(s.scratch)
	switch int32(typ) {
	case infoTypeInt64:
		return float64(int64(raw)), true, nil
	case infoTypeInt:
		return float64(int32(uint32(raw))), true, nil
	}
	return math.Float64frombits(raw), true, nil
}

// solve passes m, runs HiGHS and reads back what it learned.
func (in *instance) solve(m *model.Model, opts solve.Options, tail *tailWriter, presolveOff bool) (solve.Result, error) {
	res := solve.Result{Solver: Name}
	res.Objective, res.Bound = solve.NoSolution(m.Sense)
	ver, err := in.version()
	if err != nil {
		return res, err
	}
	res.SolverVersion = ver
	h, err := in.call("_Highs_create")
	if err != nil {
		return res, err
	}
	if uint32(h) == 0 {
		return res, fmt.Errorf("highs: Highs_create failed")
	}
	s := &session{instance: in, h: h, log: tail}
	if s.scratch, err = in.malloc(8); err != nil {
		return res, err
	}
	if sz, err := s.callInt("_Highs_getSizeofHighsInt", h); err != nil {
		return res, err
	} else if sz != 4 {
		return res, fmt.Errorf("highs: this build has %d-byte HighsInt; only 4 is supported", sz)
	}
	if err := s.configure(opts); err != nil {
		return res, err
	}
	if presolveOff {
		if err := s.setOption("string", "presolve", "off"); err != nil {
			return res, err
		}
	}
	if err := s.pass(m); err != nil {
		return res, err
	}
	if err := s.setStart(m, opts.Start); err != nil {
		return res, err
	}
	runStatus, err := s.callInt("_Highs_run", h)
	if err != nil {
		return res, err
	}
	ms, err := s.callInt("_Highs_getModelStatus", h)
	if err != nil {
		return res, err
	}
	if err := s.read(m, ms, runStatus, &res); err != nil {
		return res, err
	}
	return res, nil
}

// configure sets HiGHS's options from opts.
func (s *session) configure(opts solve.Options) error {
	rel, abs := opts.Gaps()
	type opt struct {
		kind, name string
		v          any
	}
	set := []opt{
		// HiGHS always logs, into a short tail buffer when nobody listens, so
		// that a failure can say what HiGHS said.
		{"bool", "output_flag", true},
		{"bool", "log_to_console", true},
		{"double", "mip_rel_gap", rel},
		{"double", "mip_abs_gap", abs},
		{"int", "random_seed", int32(uint64(opts.Seed) % math.MaxInt32)},
	}
	limit := noTimeLimit
	if opts.TimeLimit > 0 {
		limit = opts.TimeLimit.Seconds()
	}
	set = append(set, opt{"double", "time_limit", limit})
	if opts.NodeLimit > 0 {
		set = append(set, opt{"int", "mip_max_nodes", clampInt32(opts.NodeLimit)})
	}
	if opts.IterationLimit > 0 {
		set = append(set, opt{"int", "simplex_iteration_limit", clampInt32(opts.IterationLimit)})
	}
	if opts.Verbosity >= 2 {
		set = append(set, opt{"int", "log_dev_level", int32(1)})
	}
	for _, o := range set {
		if err := s.setOption(o.kind, o.name, o.v); err != nil {
			return err
		}
	}
	return nil
}

func clampInt32(v int64) int32 {
	if v > math.MaxInt32 {
		return math.MaxInt32
	}
	return int32(v)
}

// pass hands m to HiGHS: Highs_passLp for an LP, Highs_passMip for a MIP.
func (s *session) pass(m *model.Model) error {
	n, r, nz := m.NumCols(), m.NumRows(), m.NumNonzeros()
	if n > math.MaxInt32 || r > math.MaxInt32 || nz > math.MaxInt32 {
		return fmt.Errorf("highs: model too large for 32-bit HighsInt (%d columns, %d rows, %d nonzeros)", n, r, nz)
	}
	var ptrs [10]uint32
	var err error
	f64s := [][]float64{m.Obj, m.ColLower, m.ColUpper, m.RowLower, m.RowUpper, m.Value}
	for i, xs := range f64s {
		if ptrs[i], err = s.putF64s(xs); err != nil {
			return err
		}
	}
	start := make([]int32, n+1)
	for j, v := range m.ColStart {
		start[j] = int32(v)
	}
	index := make([]int32, nz)
	for k, v := range m.RowIndex {
		index[k] = int32(v)
	}
	if ptrs[6], err = s.putI32s(start); err != nil {
		return err
	}
	if ptrs[7], err = s.putI32s(index); err != nil {
		return err
	}
	sense := int32(objSenseMinimize)
	if m.Sense == model.Maximize {
		sense = objSenseMaximize
	}
	args := []uint64{s.h, uint64(n), uint64(r), uint64(nz), matrixColwise, api.EncodeI32(sense), api.EncodeF64(m.ObjOffset),
		uint64(ptrs[0]), uint64(ptrs[1]), uint64(ptrs[2]), uint64(ptrs[3]), uint64(ptrs[4]),
		uint64(ptrs[6]), uint64(ptrs[7]), uint64(ptrs[5])}
	fn := "_Highs_passLp"
	if m.IsMIP() {
		integ := make([]int32, n)
		for j, t := range m.ColType {
			if t.IsInteger() {
				integ[j] = varInteger
			} else {
				integ[j] = varContinuous
			}
		}
		if ptrs[8], err = s.putI32s(integ); err != nil {
			return err
		}
		args = append(args, uint64(ptrs[8]))
		fn = "_Highs_passMip"
	}
	st, err := s.callInt(fn, args...)
	if err != nil {
		return err
	}
	if st == highsStatusError {
		return fmt.Errorf("%w", ErrRejected)
	}
	return nil
}

// startTol is the feasibility tolerance a MIP start must meet to be passed
// to HiGHS (HiGHS's own primal feasibility tolerance is 1e-7; its check of
// the start is the one that counts, this only skips hopeless starts).
const startTol = 1e-6

// setStart passes a MIP start with Highs_setSolution (column values and
// their row activities, no duals). A start of the wrong length, or one that
// violates a bound, a row or integrality, is ignored, as solve.Options.Start
// says. LPs ignore it.
func (s *session) setStart(m *model.Model, x []float64) error {
	if x == nil || !m.IsMIP() || len(x) != m.NumCols() {
		return nil
	}
	ev := m.Evaluate(x)
	if !ev.Feasible(startTol, true) {
		return nil
	}
	xs := make([]float64, len(x))
	for j, v := range x {
		if m.ColType[j].IsInteger() {
			v = math.Round(v)
		}
		xs[j] = v
	}
	cp, err := s.putF64s(xs)
	if err != nil {
		return err
	}
	rp, err := s.putF64s(ev.RowActivity)
	if err != nil {
		return err
	}
	// A refusal (kError) is ignored like an infeasible start: the solve goes
	// on without it.
	_, err = s.callInt("_Highs_setSolution", s.h, uint64(cp), uint64(rp), 0, 0)
	return err
}

// read fills res from HiGHS's model status, info and solution.
func (s *session) read(m *model.Model, ms, runStatus int32, res *solve.Result) error {
	isMIP := m.IsMIP()
	n, r := m.NumCols(), m.NumRows()
	switch ms {
	case msOptimal:
		res.Status = solve.Optimal
	case msModelEmpty:
		// Nothing to solve: HiGHS says so for a model without columns.
		res.Status = solve.Optimal
	case msInfeasible:
		res.Status = solve.Infeasible
	case msUnbounded:
		res.Status = solve.Unbounded
	case msUnboundedOrInfeasible:
		res.Status = solve.InfeasibleOrUnbounded
	case msTimeLimit:
		res.Status = solve.TimeLimit
	case msIterationLimit:
		res.Status = solve.IterationLimit
	case msSolutionLimit:
		// HiGHS reports mip_max_nodes (the only such limit we set) as a
		// solution limit.
		res.Status = solve.NodeLimit
	case msInterrupt:
		res.Status = solve.Interrupted
	case msLoadError, msModelError:
		return fmt.Errorf("%w (%s)", ErrRejected, modelStatusName(ms))
	default:
		res.Status = solve.NumericalTrouble
		res.Message = "HiGHS model status: " + modelStatusName(ms)
	}
	if res.Status == solve.NumericalTrouble && runStatus == highsStatusError {
		res.Message += " (Highs_run returned an error)"
	}

	if v, ok, err := s.info("mip_node_count"); err != nil {
		return err
	} else if ok && isMIP {
		res.Nodes = int64(v)
	}
	if isMIP {
		// HiGHS has no info value for a MIP's LP iterations; its solving
		// report prints them.
		res.Iterations = s.log.lpIterations()
	} else if v, ok, err := s.info("simplex_iteration_count"); err != nil {
		return err
	} else if ok && v > 0 {
		res.Iterations = int64(v)
	}

	// Unbounded: the objective is unbounded, whatever point HiGHS holds.
	if res.Status == solve.Unbounded {
		inf := math.Inf(-1)
		if m.Sense == model.Maximize {
			inf = math.Inf(1)
		}
		res.Objective, res.Bound = inf, inf
		if !isMIP {
			ray, err := s.primalRay(n)
			if err != nil {
				return err
			}
			res.Ray = ray
		}
		return nil
	}
	if res.Status == solve.Infeasible {
		// No point exists: the dual bound is the best possible.
		res.Bound = -res.Bound
		if !isMIP {
			ray, err := s.dualRay(r)
			if err != nil {
				return err
			}
			res.Ray = ray
		}
		return nil
	}
	if ms == msModelEmpty && n == 0 {
		res.HasSolution = true
		res.X = []float64{}
		res.Objective, res.Bound = m.ObjOffset, m.ObjOffset
		return nil
	}
	pstat, _, err := s.info("primal_solution_status")
	if err != nil {
		return err
	}
	if pstat == solutionFeasible || res.Status == solve.Optimal {
		x, rowDual, colDual, err := s.solution(n, r)
		if err != nil {
			return err
		}
		res.HasSolution = true
		res.X = x
		obj, err := s.call("_Highs_getObjectiveValue", s.h)
		if err != nil {
			return err
		}
		res.Objective = api.DecodeF64(obj)
		if !isMIP && res.Status == solve.Optimal {
			res.RowDuals, res.ReducedCosts = rowDual, colDual
			if err := s.basis(m, res); err != nil {
				return err
			}
		}
	}
	switch {
	case isMIP:
		if b, ok, err := s.info("mip_dual_bound"); err != nil {
			return err
		} else if ok && !math.IsNaN(b) {
			res.Bound = b
		}
		if res.Status == solve.Optimal && res.HasSolution {
			// HiGHS stops within the gap tolerances; its bound can only be
			// weaker than the incumbent, never cross it.
			if m.Sense == model.Minimize {
				res.Bound = math.Min(res.Bound, res.Objective)
			} else {
				res.Bound = math.Max(res.Bound, res.Objective)
			}
		}
	case res.Status == solve.Optimal:
		res.Bound = res.Objective
	}
	return nil
}

// primalRay reads Highs_getPrimalRay: a direction of unboundedness, or nil
// when HiGHS has none.
func (s *session) primalRay(n int) ([]float64, error) {
	rp, err := s.malloc(8 * n)
	if err != nil {
		return nil, err
	}
	st, err := s.callInt("_Highs_getPrimalRay", s.h, uint64(s.scratch), uint64(rp))
	if err != nil || st == highsStatusError {
		return nil, err
	}
	if has, _ := s.mem.ReadUint32Le(s.scratch); has == 0 {
		return nil, nil
	}
	return s.getF64s(rp, n)
}

// dualRay reads Highs_getDualRay: a Farkas certificate over the rows, or nil
// when HiGHS has none.
func (s *session) dualRay(r int) ([]float64, error) {
	rp, err := s.malloc(8 * r)
	if err != nil {
		return nil, err
	}
	st, err := s.callInt("_Highs_getDualRay", s.h, uint64(s.scratch), uint64(rp))
	if err != nil || st == highsStatusError {
		return nil, err
	}
	if has, _ := s.mem.ReadUint32Le(s.scratch); has == 0 {
		return nil, nil
	}
	return s.getF64s(rp, r)
}

// solution reads Highs_getSolution: column values, row duals, column duals.
func (s *session) solution(n, r int) (x, rowDual, colDual []float64, err error) {
	var p [4]uint32
	for i, k := range []int{n, n, r, r} {
		if p[i], err = s.malloc(8 * k); err != nil {
			return
		}
	}
	st, err := s.callInt("_Highs_getSolution", s.h, uint64(p[0]), uint64(p[1]), uint64(p[2]), uint64(p[3]))
	if err != nil {
		return
	}
	if st == highsStatusError {
		return nil, nil, nil, fmt.Errorf("highs: Highs_getSolution failed")
	}
	if x, err = s.getF64s(p[0], n); err != nil {
		return
	}
	if colDual, err = s.getF64s(p[1], n); err != nil {
		return
	}
	rowDual, err = s.getF64s(p[3], r)
	return
}

// basis reads Highs_getBasis into res when HiGHS holds a valid basis.
func (s *session) basis(m *model.Model, res *solve.Result) error {
	if v, ok, err := s.info("basis_validity"); err != nil || !ok || v != 1 {
		return err
	}
	n, r := m.NumCols(), m.NumRows()
	cp, err := s.malloc(4 * n)
	if err != nil {
		return err
	}
	rp, err := s.malloc(4 * r)
	if err != nil {
		return err
	}
	st, err := s.callInt("_Highs_getBasis", s.h, uint64(cp), uint64(rp))
	if err != nil || st == highsStatusError {
		return err
	}
	cb, err := s.getI32s(cp, n)
	if err != nil {
		return err
	}
	rb, err := s.getI32s(rp, r)
	if err != nil {
		return err
	}
	res.ColBasis = make([]solve.BasisStatus, n)
	for j, b := range cb {
		res.ColBasis[j] = basisStatus(b, m.ColLower[j], m.ColUpper[j])
	}
	res.RowBasis = make([]solve.BasisStatus, r)
	for i, b := range rb {
		res.RowBasis[i] = basisStatus(b, m.RowLower[i], m.RowUpper[i])
	}
	return nil
}

func basisStatus(b int32, lo, up float64) solve.BasisStatus {
	switch b {
	case basisBasic:
		return solve.Basic
	case basisLower, basisUpper:
		if lo == up {
			return solve.NonbasicFixed
		}
		if b == basisLower {
			return solve.AtLower
		}
		return solve.AtUpper
	case basisZero:
		return solve.Zero
	}
	return solve.BasisUnknown
}

// tailWriter keeps the last max lines written to it, and the LP iteration
// count of HiGHS's MIP solving report.
type tailWriter struct {
	mu      sync.Mutex
	max     int
	lines   []string
	part    bytes.Buffer
	lpIters int64
}

// lpIterations is the count from the last "LP iterations N" line, 0 if none.
func (t *tailWriter) lpIterations() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lpIters
}

func (t *tailWriter) scan(line string) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), "LP iterations")
	if !ok {
		return
	}
	if f := strings.Fields(rest); len(f) > 0 {
		if v, err := strconv.ParseInt(f[0], 10, 64); err == nil {
			t.lpIters = v
		}
	}
}

func (t *tailWriter) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, c := range b {
		if c == '\n' {
			t.scan(t.part.String())
			t.lines = append(t.lines, t.part.String())
			t.part.Reset()
			if len(t.lines) > t.max {
				t.lines = t.lines[len(t.lines)-t.max:]
			}
			continue
		}
		t.part.WriteByte(c)
	}
	return len(b), nil
}

// String returns the last non-empty line that looks like an error, else the
// last non-empty line.
func (t *tailWriter) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := append(append([]string(nil), t.lines...), t.part.String())
	last := ""
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l == "" {
			continue
		}
		if strings.Contains(strings.ToLower(l), "error") {
			return l
		}
		if last == "" {
			last = l
		}
	}
	return last
}
