package solve_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

func TestOptionsValidate(t *testing.T) {
	bad := []solve.Options{
		{TimeLimit: -time.Nanosecond}, {RelGap: -1e-9}, {RelGap: math.NaN()}, {AbsGap: -1},
		{AbsGap: math.NaN()}, {NodeLimit: -1}, {IterationLimit: -1}, {Threads: -1},
	}
	for _, o := range bad {
		if err := o.Validate(); err == nil || !strings.HasPrefix(err.Error(), "solve: ") {
			t.Errorf("%+v: %v", o, err)
		}
	}
	good := []solve.Options{{}, {TimeLimit: time.Second, RelGap: 0.1, AbsGap: 1, NodeLimit: 5, IterationLimit: 9, Threads: 2, Seed: -3}}
	for _, o := range good {
		if err := o.Validate(); err != nil {
			t.Errorf("%+v: %v", o, err)
		}
	}
}

func TestGaps(t *testing.T) {
	if rel, abs := (solve.Options{}).Gaps(); rel != solve.DefaultRelGap || abs != solve.DefaultAbsGap {
		t.Errorf("defaults %v %v", rel, abs)
	}
	if rel, abs := (solve.Options{RelGap: 0.5, AbsGap: 2}).Gaps(); rel != 0.5 || abs != 2 {
		t.Errorf("explicit %v %v", rel, abs)
	}
	inf := math.Inf(1)
	for _, c := range []struct{ p, d, want float64 }{
		{10, 10, 0}, {10, 9, 0.1}, {-10, -11, 0.1}, {0, 1e-12, 1e-2}, {inf, 3, inf}, {3, -inf, inf},
		{inf, inf, 0}, {math.NaN(), 1, inf},
	} {
		if got := solve.RelativeGap(c.p, c.d); math.Abs(got-c.want) > 1e-12 && got != c.want {
			t.Errorf("RelativeGap(%v, %v) = %v, want %v", c.p, c.d, got, c.want)
		}
	}
}

func TestStatusText(t *testing.T) {
	for s := solve.StatusUnknown; s <= solve.NumericalTrouble; s++ {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var back solve.Status
		if err := json.Unmarshal(b, &back); err != nil || back != s {
			t.Errorf("%v → %s → %v (%v)", s, b, back, err)
		}
	}
	var s solve.Status
	if err := s.UnmarshalText([]byte("nope")); err == nil {
		t.Error("unknown status name accepted")
	}
	if !solve.TimeLimit.IsLimit() || !solve.Interrupted.IsLimit() || solve.Optimal.IsLimit() || solve.Infeasible.IsLimit() {
		t.Error("IsLimit")
	}
	if got := solve.Status(42).String(); got != "Status(42)" {
		t.Errorf("out of range: %q", got)
	}
}

func TestNoSolution(t *testing.T) {
	if o, b := solve.NoSolution(model.Minimize); !math.IsInf(o, 1) || !math.IsInf(b, -1) {
		t.Errorf("minimize: %v %v", o, b)
	}
	if o, b := solve.NoSolution(model.Maximize); !math.IsInf(o, -1) || !math.IsInf(b, 1) {
		t.Errorf("maximize: %v %v", o, b)
	}
}

// recording is a backend that records the options it was called with.
type recording struct {
	name string
	got  *solve.Options
}

func (r recording) Name() string { return r.name }
func (r recording) Solve(_ context.Context, m *model.Model, o solve.Options) (solve.Result, error) {
	*r.got = o
	return solve.Result{Solver: r.name, Status: solve.Optimal}, nil
}

func TestRegistry(t *testing.T) {
	var got solve.Options
	solve.Register(recording{"solve_test_recording", &got})
	defer func() {
		if recover() == nil {
			t.Error("registering a name twice did not panic")
		}
	}()
	b := model.NewBuilder("tiny")
	b.Continuous("x", 0, 1)
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	res, err := solve.Solve(context.Background(), m, solve.Options{Solver: "solve_test_recording", NodeLimit: 3})
	if err != nil || res.Solver != "solve_test_recording" || got.NodeLimit != 3 {
		t.Errorf("Solve: %+v %v %+v", res, err, got)
	}
	if _, err := solve.Solve(context.Background(), m, solve.Options{Solver: "no-such-solver"}); !errors.Is(err, solve.ErrUnknownSolver) {
		t.Errorf("unknown solver: %v", err)
	}
	if _, err := solve.Solve(context.Background(), m, solve.Options{Solver: "solve_test_recording", TimeLimit: -1}); err == nil {
		t.Error("negative time limit accepted")
	}
	bad := m.Clone()
	bad.ColLower[0] = math.NaN()
	if _, err := solve.Solve(context.Background(), bad, solve.Options{Solver: "solve_test_recording"}); !errors.Is(err, model.ErrInvalid) {
		t.Errorf("invalid model: %v", err)
	}
	found := false
	for _, n := range solve.Backends() {
		found = found || n == "solve_test_recording"
	}
	if !found {
		t.Errorf("Backends() = %v", solve.Backends())
	}
	solve.Register(recording{"solve_test_recording", &got})
}

// revalidating is a backend that validates the model itself, as every real
// backend does for callers that reach it directly, and records whether that
// validation ran.
type revalidating struct{ ran *bool }

func (revalidating) Name() string { return "solve_test_revalidating" }
func (r revalidating) Solve(ctx context.Context, m *model.Model, o solve.Options) (solve.Result, error) {
	// A limit long past: a validation that runs stops at once.
	_, stopped, err := solve.ValidateModel(ctx, m, solve.Options{TimeLimit: time.Nanosecond}, time.Now().Add(-time.Hour))
	*r.ran = stopped || err != nil
	return solve.Result{Solver: r.Name(), Status: solve.Optimal}, nil
}

// TestValidatedOncePerSolve: solve.Solve validates the model and tells the
// backend so, which then does not validate it again; the mark holds for
// that model only, and a direct call validates (and rejects an invalid
// model) as before.
func TestValidatedOncePerSolve(t *testing.T) {
	var ran bool
	solve.Register(revalidating{&ran})
	b := model.NewBuilder("tiny")
	b.Continuous("x", 0, 1)
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := solve.Solve(context.Background(), m, solve.Options{Solver: "solve_test_revalidating"}); err != nil || ran {
		t.Errorf("through solve.Solve: err %v, validated again %v; want once", err, ran)
	}
	if _, err := (revalidating{&ran}).Solve(context.Background(), m, solve.Options{}); err != nil || !ran {
		t.Errorf("called directly: err %v, validated %v; want validated", err, ran)
	}
	bad := m.Clone()
	bad.ColLower[0] = math.NaN()
	marked := solve.Validated(context.Background(), m)
	if _, _, err := solve.ValidateModel(marked, bad, solve.Options{}, time.Now()); !errors.Is(err, model.ErrInvalid) {
		t.Errorf("another model under m's mark: %v; want it validated and rejected", err)
	}
	if _, stopped, err := solve.ValidateModel(marked, m, solve.Options{TimeLimit: time.Nanosecond}, time.Now().Add(-time.Hour)); err != nil || stopped {
		t.Errorf("m under its own mark: stopped %v, err %v; want skipped", stopped, err)
	}
}
