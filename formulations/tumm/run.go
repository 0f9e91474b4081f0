package tumm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/formulations"
	"github.com/mrbound/mrbound/instances/tummscenario"
	"github.com/mrbound/mrbound/internal/plural"
	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

// StaticCheckTol is the relative tolerance between Algorithm 1's makespan
// and its independent recomputation.
const StaticCheckTol = 1e-9

// Report is the answer for one scenario.
type Report struct {
	Scenario *tummscenario.Scenario
	// Static is Algorithm 1's answer (nil without a static part);
	// StaticSimulated the task-level simulation at its split.
	Static          *StaticResult
	StaticSimulated float64
	StaticVerified  bool
	// Het is the per-node program's answer (nil without a heterogeneous part).
	Het *HetResult
}

// Options are the choices of Run.
type Options struct {
	// Objective overrides the scenario's ("published" or "stage") when set.
	Objective string
	// Perspective adds the perspective rows to the per-node program.
	Perspective bool
	// Solve is passed to solve.Solve for the per-node program.
	Solve solve.Options
}

// Run loads the scenario in data (path names it in errors), runs Algorithm 1
// and/or solves the per-node program, and checks both. The error is non-nil
// only for bad input (it wraps badinput.Err and names the file and JSON
// path) or a failed call.
func Run(ctx context.Context, path string, data []byte, o Options) (*Report, error) {
	s, err := tummscenario.Parse(path, data)
	if err != nil {
		return nil, err
	}
	r, err := RunScenario(ctx, s, o)
	if errors.Is(err, badinput.Err) {
		return nil, badinput.InFile(path, err)
	}
	return r, err
}

// RunScenario is Run on a parsed scenario.
func RunScenario(ctx context.Context, s *tummscenario.Scenario, o Options) (*Report, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if s.Static == nil && s.Heterogeneous == nil {
		return nil, badinput.Errorf("the scenario has only a batch, which is simulated (mrbound simulate), not solved")
	}
	r := &Report{Scenario: s}
	if st := s.Static; st != nil {
		sr, err := StaticConfig(st.Jobs, st.Slots)
		if err != nil {
			return nil, badinput.Errorf("%w", err)
		}
		r.Static = &sr
		r.StaticSimulated = Simulate(st.Jobs, sr.MapSlots, sr.ReduceSlots).Makespan
		// Independent check: a fluid event simulation of the same pipeline.
		fl := fluidMakespan(st.Jobs, sr.MapSlots, sr.ReduceSlots)
		r.StaticVerified = math.Abs(fl-sr.Makespan) <= StaticCheckTol*math.Max(1, sr.Makespan) &&
			r.StaticSimulated >= sr.Makespan*(1-StaticCheckTol)
	}
	if h := s.Heterogeneous; h != nil {
		objective := o.Objective
		if objective == "" {
			objective = h.Objective
		}
		obj, err := ParseObjective(objective)
		if err != nil {
			return nil, badinput.Errorf("%w", err)
		}
		p := HetProblem{Nodes: h.Nodes, MapTasks: h.MapTasks, ReduceTasks: h.ReduceTasks, Objective: obj, Align: h.AlignOn(), Perspective: o.Perspective}
		if err := p.Validate(); err != nil {
			return nil, badinput.Errorf("%w", err)
		}
		hr, err := SolveHet(ctx, p, o.Solve)
		if err != nil {
			return nil, err
		}
		r.Het = hr
	}
	return r, nil
}

// fluidMakespan runs the FIFO pipeline as events: the map stage serves jobs'
// map work in order at rate sm; the reduce stage serves job i's reduce work
// at rate sr once its map work is done and job i−1's reduce work is done.
// It shares no code with Pipeline.
func fluidMakespan(jobs []Job, sm, sr int) float64 {
	mapClock, redClock := 0.0, 0.0
	for _, j := range jobs {
		if w := float64(j.MapTasks) * j.MapTime; w > 0 {
			mapClock += w / float64(sm)
		}
		redClock = math.Max(redClock, mapClock)
		if w := float64(j.ReduceTasks) * j.ReduceTime; w > 0 {
			if sr == 0 {
				return math.Inf(1)
			}
			redClock += w / float64(sr)
		}
	}
	return redClock
}

// Status is the per-node program's status, or optimal for a static-only
// scenario (Algorithm 1 is exact).
func (r *Report) Status() solve.Status {
	if r.Het != nil {
		return r.Het.Status
	}
	return solve.Optimal
}

// Verified reports whether every part passed its check.
func (r *Report) Verified() bool {
	ok := true
	if r.Static != nil {
		ok = ok && r.StaticVerified
	}
	if r.Het != nil {
		ok = ok && r.Het.Status == solve.Optimal && r.Het.Check.Verified
	}
	return ok
}

// NodeSlots is one node's decoded configuration.
type NodeSlots struct {
	Node        string `json:"node"`
	MapSlots    int    `json:"map_slots"`
	ReduceSlots int    `json:"reduce_slots"`
	MapWaves    int    `json:"map_waves"`
	ReduceWaves int    `json:"reduce_waves"`
}

// StaticReport is the JSON of Algorithm 1's answer.
type StaticReport struct {
	Slots             int       `json:"slots"`
	MapSlots          int       `json:"map_slots"`
	ReduceSlots       int       `json:"reduce_slots"`
	PredictedMakespan float64   `json:"predicted_makespan"`
	SimulatedMakespan float64   `json:"simulated_makespan"`
	Finish            []float64 `json:"finish"`
	Verified          bool      `json:"verified"`
}

// HetReport is the JSON of the per-node program's answer.
type HetReport struct {
	Status            string        `json:"status"`
	Objective         string        `json:"objective"`
	Align             bool          `json:"align"`
	Slots             []NodeSlots   `json:"slots"`
	ObjectiveValue    solve.Number  `json:"objective_value"`
	MapFinish         solve.Number  `json:"map_finish"`
	ReduceFinish      solve.Number  `json:"reduce_finish"`
	PredictedMakespan solve.Number  `json:"predicted_makespan"`
	Check             *HetCheck     `json:"check,omitempty"`
	Solve             solve.Summary `json:"solve"`
}

// JSONReport is the JSON printed by `mrbound solve tumm.json --json`.
type JSONReport struct {
	Kind     string `json:"kind"`
	Name     string `json:"name,omitempty"`
	Status   string `json:"status"`
	Solver   string `json:"solver"`
	Verified bool   `json:"verified"`
	// Unit is that of every time of the report (makespans, finishes,
	// objective value): the scenario's own, the one its map_time and
	// reduce_time are written in; the file does not name it, so neither
	// can we. Slots and waves are counts.
	Unit   string        `json:"unit"`
	Static *StaticReport `json:"static,omitempty"`
	Het    *HetReport    `json:"heterogeneous,omitempty"`
}

// timeUnit names the unit of the report's times (see JSONReport.Unit).
const timeUnit = "time units of map_time and reduce_time"

// JSON assembles the machine-readable report.
func (r *Report) JSON() JSONReport {
	rep := JSONReport{Kind: tummscenario.Kind, Name: r.Scenario.Name, Status: r.Status().String(), Verified: r.Verified(), Solver: "algorithm1", Unit: timeUnit}
	if s := r.Static; s != nil {
		rep.Static = &StaticReport{Slots: r.Scenario.Static.Slots, MapSlots: s.MapSlots, ReduceSlots: s.ReduceSlots,
			PredictedMakespan: s.Makespan, SimulatedMakespan: r.StaticSimulated, Finish: s.Finish, Verified: r.StaticVerified}
	}
	if h := r.Het; h != nil {
		rep.Solver = h.Solve.Solver
		hr := &HetReport{Status: h.Status.String(), Objective: h.Problem.Objective.String(), Align: h.Problem.Align,
			Slots: []NodeSlots{}, Solve: h.Solve.Summarize(), ObjectiveValue: solve.Number(math.NaN()),
			MapFinish: solve.Number(math.NaN()), ReduceFinish: solve.Number(math.NaN()), PredictedMakespan: solve.Number(math.NaN())}
		if h.Solve.HasSolution {
			for i, n := range h.Problem.Nodes {
				hr.Slots = append(hr.Slots, NodeSlots{n.Name, h.MapSlots[i], h.ReduceSlots[i], h.MapWaves[i], h.ReduceWaves[i]})
			}
			hr.ObjectiveValue, hr.MapFinish, hr.ReduceFinish = solve.Number(h.Objective), solve.Number(h.MapFinish), solve.Number(h.ReduceFinish)
			hr.PredictedMakespan = solve.Number(h.Makespan)
			c := h.Check
			hr.Check = &c
		}
		rep.Het = hr
	}
	return rep
}

// Outcome sums the report up as every formulation does. With a
// heterogeneous part it is the per-node program's objective (minimised) and
// bound; a static-only scenario reports Algorithm 1's makespan, exact, as
// objective and bound. The verdict covers every part.
func (r *Report) Outcome() formulations.Outcome {
	o := formulations.Outcome{Status: r.Status(), Sense: model.Minimize, Measure: "makespan",
		Objective: solve.Number(math.NaN()), Bound: solve.Number(math.NaN()), Verdict: formulations.Verified()}
	if s := r.Static; s != nil {
		o.Objective, o.Bound = solve.Number(s.Makespan), solve.Number(s.Makespan)
		if !r.StaticVerified {
			o.Verdict = formulations.Rejected(fmt.Sprintf("Algorithm 1's makespan %.6g disagrees with the simulations", s.Makespan))
		}
	}
	if h := r.Het; h != nil {
		o.Measure = h.Problem.Objective.String()
		o.Objective, o.Bound = solve.Number(math.NaN()), solve.Number(h.Solve.Bound)
		switch {
		case !h.Solve.HasSolution:
			o.Verdict = formulations.Rejected(fmt.Sprintf("per-node program: no solution (status %v)", h.Status))
		case !h.Check.Verified:
			o.Verdict = formulations.Rejected("per-node program: " + h.Check.Problem)
		case o.Verdict.Verified:
			o.Objective = solve.Number(h.Objective)
		}
	}
	if !o.Verdict.Verified {
		o.Objective = solve.Number(math.NaN())
	}
	return o
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r.JSON())
}

// WriteText writes a human report.
func (r *Report) WriteText(w io.Writer) error {
	var sb strings.Builder
	name := r.Scenario.Name
	if name == "" {
		name = "(unnamed)"
	}
	fmt.Fprintf(&sb, "TuMM slot configuration: %s\n", name)
	verdict := func(ok bool) string {
		if ok {
			return "verified"
		}
		return "NOT verified"
	}
	if s := r.Static; s != nil {
		st := r.Scenario.Static
		fmt.Fprintf(&sb, "\nAlgorithm 1 (static, FIFO, %s, S = %d): s_m = %d, s_r = %d\n", plural.Count(len(st.Jobs), "job"), st.Slots, s.MapSlots, s.ReduceSlots)
		fmt.Fprintf(&sb, "  predicted makespan %.6g (task-level simulation %.6g): %s\n", s.Makespan, r.StaticSimulated, verdict(r.StaticVerified))
	}
	if h := r.Het; h != nil {
		p := h.Problem
		fmt.Fprintf(&sb, "\nPer-node program (eqs 8-17, %s, n'_m = %d, n'_r = %d, objective %s, align %v): solver %s, status %s\n",
			plural.Count(len(p.Nodes), "node"), p.MapTasks, p.ReduceTasks, p.Objective, p.Align, h.Solve.Solver, h.Status)
		if h.Solve.HasSolution {
			fmt.Fprintf(&sb, "  %-10s %6s %6s %6s %6s\n", "node", "s_m", "s_r", "v_m", "v_r")
			for i, n := range p.Nodes {
				fmt.Fprintf(&sb, "  %-10s %6d %6d %6d %6d\n", n.Name, h.MapSlots[i], h.ReduceSlots[i], h.MapWaves[i], h.ReduceWaves[i])
			}
			fmt.Fprintf(&sb, "  objective %.6g; map finish %.6g, reduce finish %.6g, predicted makespan %.6g: %s\n",
				h.Objective, h.MapFinish, h.ReduceFinish, h.Makespan, verdict(h.Check.Verified))
			if !h.Check.Verified {
				fmt.Fprintf(&sb, "  check: %s\n", h.Check.Problem)
			}
		}
	}
	_, err := io.WriteString(w, sb.String())
	return err
}
