package tumm

import (
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mrbound/mrbound/instances/tummscenario"
	"github.com/mrbound/mrbound/internal/stopper"
	"github.com/mrbound/mrbound/solve"
)

// TestBuildStops: the heterogeneous example's cluster, repeated to 60 nodes
// (a rack), has its per-node program's build stopped by a
// cancelled context and by a 1 ns time limit: the status says which, and
// there is no solution, no bound and no check claimed. Without a stop the
// same build completes (so the stop, not the instance, ended it).
func TestBuildStops(t *testing.T) {
	data, err := os.ReadFile("../../examples/tumm-heterogeneous.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := tummscenario.Parse("tumm-heterogeneous.json", data)
	if err != nil {
		t.Fatal(err)
	}
	h := s.Heterogeneous
	base := h.Nodes
	for len(h.Nodes) < 60 {
		n := base[len(h.Nodes)%len(base)]
		n.Name = fmt.Sprintf("%s-%d", n.Name, len(h.Nodes))
		h.Nodes = append(h.Nodes, n)
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
		het := r.Het
		if r.Status() != c.want || het.Solve.HasSolution || het.MapSlots != nil || !math.IsInf(het.Solve.Bound, -1) || r.Verified() ||
			!strings.Contains(het.Solve.Message, "stopped") {
			t.Errorf("%s: status %v, solution %v, bound %v, verified %v, message %q; want %v, none, -Inf, not verified",
				c.name, r.Status(), het.Solve.HasSolution, het.Solve.Bound, r.Verified(), het.Solve.Message, c.want)
		}
	}
	// Without a stop the build of the same cluster completes.
	p := HetProblem{Nodes: h.Nodes, MapTasks: h.MapTasks, ReduceTasks: h.ReduceTasks, Objective: Published, Align: h.AlignOn()}
	if m, _, err := buildHet(p, stopper.New(context.Background(), time.Now(), time.Hour)); err != nil || m.NumCols() == 0 {
		t.Fatalf("no stop: %v", err)
	}
}
