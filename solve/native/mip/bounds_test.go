package mip

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/solvertest"
)

// TestBoundsAtInterruption interrupts the search after 1 to 3 000 context
// checks on cases of the bound matrix, minimisations and maximisations,
// with the default gap and a loose one (which prunes within the tolerance
// before the stop), and checks bound ≤ optimum ≤ objective at every stop.
func TestBoundsAtInterruption(t *testing.T) {
	cs, err := solvertest.BoundCases()
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"random_0", "random_2", "random_9", "p0033", "egout", "egout_max", "rgn_max"}
	ran := 0
	for _, c := range cs {
		if !slices.Contains(names, c.Name) {
			continue
		}
		ran++
		for _, gap := range []float64{0, 1e-1} {
			for _, n := range []int64{1, 5, 30, 300, 3000} {
				opts := solve.Options{RelGap: gap}
				res, err := Solve(solvertest.Countdown(n), c.Model, opts)
				if err != nil {
					t.Fatal(err)
				}
				rec := &failRecorder{T: t, prefix: c.Name}
				solvertest.CheckBounds(rec, c.Model, res, c.Optimum, opts)
				if rec.failed {
					t.Logf("%s, gap %g, interrupted at check %d: %v, objective %v, bound %v, %d nodes",
						c.Name, gap, n, res.Status, res.Objective, res.Bound, res.Nodes)
				}
			}
		}
	}
	// The three random cases are always there; the test-set ones only with
	// ../shared/testsets beside the repository.
	if want := 3 + 4*btoi(solvertest.TestsetDir() != ""); ran < want {
		t.Errorf("only %d of the cases %v found", ran, names)
	}
}

// TestBoundsLargerTestsets runs the gap and node-limit stops of the bound
// matrix on test-set MIPs that the all-backend matrix leaves out for time
// (lseu reported bound 1194 above its optimum 1120 at gap 0.1 before issue
// #14; stein27 has an integral objective and a tree of thousands of nodes).
func TestBoundsLargerTestsets(t *testing.T) {
	dir := solvertest.TestsetDir()
	if dir == "" {
		t.Skip("no ../shared/testsets")
	}
	for _, name := range []string{"lseu", "stein27", "rgn"} {
		p, m, err := solvertest.LoadProblem(dir, name)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range solvertest.Stops() {
			if !strings.HasPrefix(st.Name, "gap_") && !strings.HasPrefix(st.Name, "nodes_") {
				continue
			}
			t.Run(p.Name+"/"+st.Name, func(t *testing.T) {
				res, err := solvertest.SolveStopped(mipSolver{}, m, st)
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%v: objective %.12g, bound %.12g, gap %.3g, %d nodes", res.Status, res.Objective, res.Bound, res.Gap(), res.Nodes)
				solvertest.CheckBounds(solvertest.Adapt(t), m, res, p.Optimum, st.Options)
			})
		}
	}
}

// mipSolver is this package's Solve as a solve.Solver (package native,
// which wraps it, imports this one).
type mipSolver struct{}

func (mipSolver) Name() string { return "native" }
func (mipSolver) Solve(ctx context.Context, m *model.Model, o solve.Options) (solve.Result, error) {
	return Solve(ctx, m, o)
}

// failRecorder adapts a *testing.T to solvertest.T, prefixing messages.
type failRecorder struct {
	*testing.T
	prefix string
	failed bool
}

func (r *failRecorder) Errorf(f string, a ...any) {
	r.failed = true
	r.T.Helper()
	r.T.Errorf(r.prefix+": "+f, a...)
}
func (r *failRecorder) Fatalf(f string, a ...any) { r.Errorf(f, a...); r.T.FailNow() }
func (r *failRecorder) Skip(a ...any)             { r.T.Skip(a...) }
func (r *failRecorder) Run(string, func(solvertest.T)) bool {
	panic("not used")
}
func (r *failRecorder) Short() bool { return testing.Short() }

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
