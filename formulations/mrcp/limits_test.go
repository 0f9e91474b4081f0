package mrcp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/internal/sizelimit"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/solvertest"
)

func mixedStream(t *testing.T, jobs int, seed uint64) *mrcpscenario.Instance {
	t.Helper()
	in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: mrcpscenario.Mixed, Jobs: jobs, Lambda: 0.02, Seed: seed, TimeUnit: 1})
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// TestSizeEstimateCovers: the time-indexed and disjunctive estimates are
// never below the model they guard (columns and nonzeros), on mixed
// streams, pooled and per resource, whole and as subproblems; Build with
// MaxStartColumns at the time-indexed estimate builds, one below refuses.
func TestSizeEstimateCovers(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		in := mixedStream(t, 6, seed)
		for _, o := range []Options{{}, {PerResource: true}, {Disaggregated: true}, {Formulation: Disjunctive}} {
			bt, err := Build(in, o)
			if err != nil {
				t.Fatal(err)
			}
			var cols, nnz float64
			if o.Formulation == Disjunctive {
				cols, nnz = disjunctiveSize(bt)
			} else {
				cols, nnz = bt.timeIndexedSize() // from the groups and windows the build kept
			}
			name := fmt.Sprintf("seed %d %v per-resource %v disaggregated %v", seed, o.Formulation, o.PerResource, o.Disaggregated)
			// The model adds a few job columns (C, N, Z) and their rows.
			jobCols := float64(3*len(in.Jobs) + 1)
			if got := float64(bt.Model.NumCols()); got > cols+jobCols {
				t.Errorf("%s: %v columns, estimated %v", name, got, cols)
			}
			if got := float64(bt.Model.NumNonzeros()); got > nnz+4*jobCols {
				t.Errorf("%s: %v nonzeros, estimated %v", name, got, nnz)
			}
			t.Logf("%s: columns %d (estimate %v), nonzeros %d (estimate %v)", name, bt.Model.NumCols(), cols, bt.Model.NumNonzeros(), nnz)
			if o.Formulation == Disjunctive {
				continue
			}
			// The column estimate is exact for the start columns, and
			// MaxStartColumns refuses exactly above it.
			starts := 0
			for j := range bt.Model.NumCols() {
				if n := bt.Model.ColName(j); strings.HasPrefix(n, "x(") || strings.HasPrefix(n, "F(") {
					starts++
				}
			}
			if float64(starts) != cols {
				t.Errorf("%s: %d start columns, estimated %v", name, starts, cols)
			}
			o.MaxStartColumns = int(cols)
			if _, err := Build(in, o); err != nil {
				t.Errorf("%s: MaxStartColumns %d, the estimate: %v", name, o.MaxStartColumns, err)
			}
			o.MaxStartColumns--
			if _, err := Build(in, o); !errors.Is(err, ErrTooManyColumns) {
				t.Errorf("%s: MaxStartColumns %d: %v, want ErrTooManyColumns", name, o.MaxStartColumns, err)
			}
		}
	}
}

// disjunctiveSize repeats checkDisjunctiveSize's estimate for the test.
func disjunctiveSize(bt *Built) (cols, nnz float64) {
	defer sizelimit.SetBudget(1)() // every estimate is refused: read it off the message
	err := bt.checkDisjunctiveSize()
	var c, n float64
	if _, serr := fmt.Sscanf(err.Error()[strings.Index(err.Error(), "about ")+len("about "):], "%g columns and %g nonzeros", &c, &n); serr != nil {
		panic(serr)
	}
	return c, n
}

// TestModelSizeRefused: an MRCP stream whose horizon implies per-unit
// tables of tens of GB (one job of 10^9-unit tasks; a release at 2^60), or
// whose time-indexed model would take hundreds of GB (200 unit maps beside
// one of 2·10^6 units, each with a window of 2·10^6 starts), is refused by
// Build at once, naming the horizon or the formulation, with the budget, as
// bad input; before, the build ran until the kernel killed it.
func TestModelSizeRefused(t *testing.T) {
	defer sizelimit.SetBudget(8 << 30)()
	long := &mrcpscenario.Instance{Kind: mrcpscenario.Kind, SchemaVersion: 1,
		Resources: []mrcpscenario.Resource{{Name: "r", MapSlots: 2, ReduceSlots: 1}},
		Jobs: []mrcpscenario.Job{{Name: "j", Release: 0, Deadline: 1,
			Maps:    []mrcpscenario.Task{{Duration: 1e9, Demand: 1}, {Duration: 3, Demand: 1}},
			Reduces: []mrcpscenario.Task{{Duration: 1e9, Demand: 1}}}}}
	late := mixedStream(t, 3, 1)
	late.Jobs[2].Release = 1 << 60 // overflows HorizonBound's int sum
	// One long map and 200 unit maps: the greedy heuristic is quick, but
	// disaggregated, each unit map gets a window of 2·10^6 starts.
	wide := &mrcpscenario.Instance{Kind: mrcpscenario.Kind, SchemaVersion: 1,
		Resources: []mrcpscenario.Resource{{Name: "r", MapSlots: 2, ReduceSlots: 1}},
		Jobs: []mrcpscenario.Job{{Name: "j", Release: 0, Deadline: 1,
			Maps: []mrcpscenario.Task{{Duration: 2e6, Demand: 1}}, Reduces: []mrcpscenario.Task{{Duration: 1, Demand: 1}}}}}
	for range 200 {
		wide.Jobs[0].Maps = append(wide.Jobs[0].Maps, mrcpscenario.Task{Duration: 1, Demand: 1})
	}
	for _, c := range []struct {
		name string
		in   *mrcpscenario.Instance
		o    Options
		want string
	}{
		{"long tasks", long, Options{Method: Plain}, "horizon 2000000003 (latest release + total duration, in time units): "},
		{"late release", late, Options{}, "horizon 1152921504606847744 "},
		{"long windows", wide, Options{Method: Plain, Disaggregated: true}, "time-indexed model at horizon 2000201: "},
	} {
		ts := time.Now()
		bt, err := Build(c.in, c.o)
		if err == nil {
			t.Errorf("%s: built (%d columns)", c.name, bt.Model.NumCols())
			continue
		}
		msg := err.Error()
		if !errors.Is(err, badinput.Err) || !errors.Is(err, sizelimit.ErrTooLarge) || !strings.HasPrefix(msg, c.want) ||
			!strings.Contains(msg, "more than the memory budget of 8 GiB") {
			t.Errorf("%s: %v, want a bad-input refusal starting %q", c.name, err, c.want)
		}
		t.Logf("%s: %v (%v)", c.name, err, time.Since(ts))
		// Through the front door the refusal names the file.
		if _, err := RunInstance(context.Background(), "big.json", c.in, c.o); err == nil || !errors.Is(err, sizelimit.ErrTooLarge) {
			t.Errorf("%s: RunInstance: %v, want the refusal", c.name, err)
		}
	}
}

// stoppableStream is the 8-job mixed stream the stop tests cut short, the
// native solver's options and its optimum, proven and verified unstopped
// (the decomposition's search proves it in about a second; the monolithic
// MILP would take minutes).
func stoppableStream(t *testing.T) (*mrcpscenario.Instance, solve.Options, float64) {
	t.Helper()
	in := mixedStream(t, 8, 3)
	so := solve.Options{Solver: "native"}
	ref := runWatched(t, context.Background(), in, Options{Solve: so})
	if ref.Result.Status != solve.Optimal || !ref.Verified {
		t.Fatalf("reference: %v, verified %v", ref.Result.Status, ref.Verified)
	}
	return in, so, ref.Result.Objective
}

// TestBuildStops: a cancelled context or an expired time limit stops the
// monolithic run inside the model build (a countdown of 3 context checks
// falls in its loops, 30 and 300 in the MILP after it): the report is the
// checked heuristic schedule with status Interrupted or TimeLimit, no model
// when the build was cut, and a bound that is not above the optimum the
// unstopped run proves.
func TestBuildStops(t *testing.T) {
	usable(t, "native")
	in, so, opt := stoppableStream(t)
	for _, c := range []struct {
		name string
		ctx  context.Context
		so   solve.Options
		want solve.Status
	}{
		{"cancelled", solvertest.Cancelled(), so, solve.Interrupted},
		{"time_1ns", context.Background(), solve.Options{Solver: "native", TimeLimit: time.Nanosecond}, solve.TimeLimit},
		{"countdown_1", solvertest.Countdown(1), so, solve.Interrupted},
		{"countdown_3", solvertest.Countdown(3), so, solve.Interrupted},
		{"countdown_30", solvertest.Countdown(30), so, solve.StatusUnknown},
		{"countdown_300", solvertest.Countdown(300), so, solve.StatusUnknown},
	} {
		out := runWatched(t, c.ctx, in, Options{Method: Monolithic, Solve: c.so})
		r := out.Result
		t.Logf("%s: %v, objective %v, bound %v, model skipped %v", c.name, r.Status, r.Objective, r.Bound, out.Built.ModelSkipped)
		if c.want != solve.StatusUnknown && (r.Status != c.want || !out.Built.ModelSkipped) {
			t.Errorf("%s: %v (model skipped %v), want %v inside the build", c.name, r.Status, out.Built.ModelSkipped, c.want)
		}
		if !out.Verified || r.Objective < opt || r.Bound > opt || !(r.Bound <= r.Objective) {
			t.Errorf("%s: objective %v, bound %v, verified %v; the optimum is %v", c.name, r.Objective, r.Bound, out.Verified, opt)
		}
		if out.Built.ModelSkipped && (out.Built.Model.NumCols() != 0 || !out.JSON().ModelSkipped) {
			t.Errorf("%s: a skipped model reports %d columns", c.name, out.Built.Model.NumCols())
		}
	}
}
