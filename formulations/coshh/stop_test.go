package coshh

import (
	"context"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mrbound/mrbound/instances/coshhscenario"
	"github.com/mrbound/mrbound/solve"
)

// TestBuildStops: on the Facebook example (100 jobs on 6 resources, both
// classifications) a cancelled context and a 1 ns time limit stop the LP
// builds: every allocation reports the stop's status with no λ, no δ, no
// bound and no check claimed. Without a stop the same run is optimal and
// verified (so the stop, not the scenario, ended it).
func TestBuildStops(t *testing.T) {
	data, err := os.ReadFile("../../examples/coshh-facebook.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := coshhscenario.Parse("coshh-facebook.json", data)
	if err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name  string
		ctx   context.Context
		limit time.Duration
		want  solve.Status
	}{
		{"cancelled", cancelled, 0, solve.Interrupted},
		{"1ns", context.Background(), time.Nanosecond, solve.TimeLimit},
	} {
		r, err := RunScenario(c.ctx, s, Options{Solve: solve.Options{Solver: "native", TimeLimit: c.limit}})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if r.Status() != c.want || r.Verified() || len(r.Allocations) == 0 {
			t.Fatalf("%s: status %v, verified %v, %d allocations; want %v, not verified", c.name, r.Status(), r.Verified(), len(r.Allocations), c.want)
		}
		for _, a := range r.Allocations {
			if a.Status != c.want || a.Stage1.HasSolution || a.Delta != nil || !math.IsInf(a.Stage1.Bound, 1) || !strings.Contains(a.Stage1.Message, "stopped") {
				t.Errorf("%s: %s: status %v, solution %v, δ %v, bound %v, message %q; want %v and nothing proven",
					c.name, a.Problem.Name, a.Status, a.Stage1.HasSolution, a.Delta, a.Stage1.Bound, a.Stage1.Message, c.want)
			}
		}
	}
	r, err := RunScenario(context.Background(), s, Options{Solve: solve.Options{Solver: "native", TimeLimit: time.Minute}})
	if err != nil || r.Status() != solve.Optimal || !r.Verified() {
		t.Fatalf("no stop: status %v, verified %v, %v; want optimal and verified", r.Status(), r.Verified(), err)
	}
}
