package mip

import (
	"context"
	"math"
	"os"
	"testing"
	"time"

	"github.com/mrbound/mrbound/model/mps"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/solvertest"
)

// TestMIPLIB solves every MIPLIB test-set MIP that is not "hard" (and not
// "medium" under -short) and compares with the known optimum at 1e-6
// relative. The conformance suite (TestSolvertest) already checks the same
// problems, so this diagnostic variant runs only when MIPLIB=1 or
// MIPLIB_ONLY=name is set; MIP_LOG=1 prints the solver log and
// MIP_TIMELIMIT=20s changes the time limit.
func TestMIPLIB(t *testing.T) {
	if os.Getenv("MIPLIB") == "" && os.Getenv("MIPLIB_ONLY") == "" {
		t.Skip("diagnostic run: set MIPLIB=1 (TestSolvertest covers these problems)")
	}
	dir := solvertest.TestsetDir()
	if dir == "" {
		t.Skip("no ../shared/testsets")
	}
	probs, err := solvertest.Problems(dir)
	if err != nil {
		t.Fatal(err)
	}
	only := os.Getenv("MIPLIB_ONLY")
	for _, p := range probs {
		if p.Kind != "milp" || p.Difficulty == "hard" {
			continue
		}
		if only != "" && only != p.Name {
			continue
		}
		t.Run(p.Name, func(t *testing.T) {
			if testing.Short() && p.Difficulty != "easy" {
				t.Skip("medium problem under -short")
			}
			m, err := mps.ReadFile(p.Path)
			if err != nil {
				t.Fatal(err)
			}
			var log *os.File
			if os.Getenv("MIP_LOG") != "" {
				log = os.Stderr
			}
			limit := 120 * time.Second
			if v, err := time.ParseDuration(os.Getenv("MIP_TIMELIMIT")); err == nil {
				limit = v
			}
			opts := solve.Options{TimeLimit: limit, RelGap: 1e-9, AbsGap: 1e-9}
			if log != nil {
				opts.Log = log
				opts.Verbosity = 2
			}
			res, err := Solve(context.Background(), m, opts)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %v obj %.10g bound %.10g nodes %d iters %d %.2fs", p.Name, res.Status, res.Objective, res.Bound, res.Nodes, res.Iterations, res.Wall.Seconds())
			if res.Status != solve.Optimal {
				t.Fatalf("status %v (%s)", res.Status, res.Message)
			}
			if d := math.Abs(res.Objective - p.Optimum); d > 1e-6*math.Max(1, math.Abs(p.Optimum)) {
				t.Fatalf("objective %.10g, want %.10g", res.Objective, p.Optimum)
			}
			if ev := m.Evaluate(res.X); !ev.Feasible(1e-6, true) {
				t.Fatalf("returned point infeasible: %+v", ev.MaxViolation())
			}
		})
	}
}
