package mip

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/native/mip/presolve"
)

// TestStartIsIncumbent: with the optimum of hardish as the start and a node
// limit of 1 the solve returns a point at least as good as the start; with
// the optimum as start the full solve still proves it optimal.
func TestStartIsIncumbent(t *testing.T) {
	m := hardish()
	full := mustSolve(t, m, solve.Options{Seed: 3, RelGap: 1e-9})
	if full.Status != solve.Optimal {
		t.Fatalf("status %v", full.Status)
	}
	var log bytes.Buffer
	lim := mustSolve(t, m, solve.Options{Seed: 3, NodeLimit: 1, Start: full.X, Log: &log, Verbosity: 1})
	if !lim.HasSolution || lim.Objective > full.Objective+1e-9 {
		t.Fatalf("node limit 1 with the optimum as start: solution %v objective %v, want ≤ %v", lim.HasSolution, lim.Objective, full.Objective)
	}
	if !strings.Contains(log.String(), "\nS ") {
		t.Fatalf("log lacks the start line (tag S):\n%s", log.String())
	}
	again := mustSolve(t, m, solve.Options{Seed: 3, RelGap: 1e-9, Start: full.X})
	if again.Status != solve.Optimal || math.Abs(again.Objective-full.Objective) > 1e-9 {
		t.Fatalf("with start: status %v objective %v, want optimal %v", again.Status, again.Objective, full.Objective)
	}
	if again.Nodes > full.Nodes {
		t.Errorf("the optimal start made the tree larger: %d nodes, %d without", again.Nodes, full.Nodes)
	}
}

// TestInfeasibleStartIgnored: a start that breaks a row (every job assigned
// to agent 0 overloads its capacity) or is fractional changes nothing: the
// same status, objective, nodes and iterations as without a start.
func TestInfeasibleStartIgnored(t *testing.T) {
	m := hardish()
	base := mustSolve(t, m, solve.Options{Seed: 3, NodeLimit: 20})
	over := make([]float64, m.NumCols())
	for j := 0; j < 30; j++ {
		over[j] = 1 // x[0][j]: agent 0 takes every job
	}
	frac := make([]float64, m.NumCols())
	for j := range frac {
		frac[j] = 0.2 // each job split over 5 agents: rows hold, integrality fails
	}
	for name, st := range map[string][]float64{"overload": over, "fractional": frac} {
		var log bytes.Buffer
		res := mustSolve(t, m, solve.Options{Seed: 3, NodeLimit: 20, Start: st, Log: &log, Verbosity: 1})
		if res.Status != base.Status || res.Objective != base.Objective || res.Nodes != base.Nodes || res.Iterations != base.Iterations {
			t.Errorf("%s start: %v %v %d nodes %d it, without start %v %v %d nodes %d it", name,
				res.Status, res.Objective, res.Nodes, res.Iterations, base.Status, base.Objective, base.Nodes, base.Iterations)
		}
		if !strings.Contains(log.String(), "MIP start ignored") {
			t.Errorf("%s start: log does not say the start was ignored", name)
		}
	}
}

// TestStartRepair: when the reduced model excludes the start's continuous
// values (here r tightens y ≤ 1, as a reduction could), the integers are
// kept and the LP over the continuous columns repairs the point; when no
// continuous completion exists the start is refused.
func TestStartRepair(t *testing.T) {
	b := model.NewBuilder("repair")
	x := b.Integer("x", 0, 10)
	y := b.Continuous("y", 0, 10)
	obj := model.NewExpr(2)
	obj.Add(x, 1)
	obj.Add(y, 2)
	b.Minimize(obj)
	row := model.NewExpr(2)
	row.Add(x, 1)
	row.Add(y, 1)
	b.GreaterEq("cover", row, 3)
	m := mustBuild(b)
	pre := presolve.Run(m)
	if pre.Status != presolve.Reduced || pre.Model.NumCols() != 2 {
		t.Fatalf("presolve %v with %d columns, want both kept", pre.Status, pre.Model.NumCols())
	}
	r := pre.Model.Clone()
	r.ColUpper[1] = 1
	xr, why := reduceStart(context.Background(), m, r, pre.Post, []float64{2, 3}, time.Time{})
	if xr == nil || xr[0] != 2 || math.Abs(xr[1]-1) > 1e-9 {
		t.Fatalf("repair of (2, 3): %v (%s), want (2, 1)", xr, why)
	}
	if xr, _ := reduceStart(context.Background(), m, r, pre.Post, []float64{0, 3}, time.Time{}); xr != nil {
		t.Fatalf("repair of (0, 3) gave %v; y ≤ 1 leaves no completion", xr)
	}
	if xr, _ := reduceStart(context.Background(), m, r, pre.Post, []float64{0, 1}, time.Time{}); xr != nil {
		t.Fatalf("start (0, 1) violates the cover row but was accepted: %v", xr)
	}
}
