package coshh

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/formulations"
	"github.com/mrbound/mrbound/instances/coshhscenario"
	"github.com/mrbound/mrbound/internal/plural"

	"github.com/mrbound/mrbound/internal/stopper"
	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
)

// Options configure Run.
type Options struct {
	// Solve is passed to solve.Solve for every LP.
	Solve solve.Options
}

// Report is the answer for one scenario: one allocation per classification.
type Report struct {
	Scenario *coshhscenario.Scenario
	// Allocations: the primary classification first, then the secondary when
	// there is one. A classification without classes is absent.
	Allocations []*Allocation
	// Members[k] lists the jobs of each class of Allocations[k] (nil for
	// scenarios that state classes directly).
	Members [][][]int
}

// Problems returns the capacity LPs of a scenario: stated classes directly,
// or the k-means classifications of its job stream.
func Problems(s *coshhscenario.Scenario) ([]Problem, [][][]int, error) {
	res := make([]string, len(s.Resources))
	for j, r := range s.Resources {
		res[j] = r.Name
	}
	if len(s.Classes) > 0 {
		var ps []Problem
		for k, cs := range [][]coshhscenario.Class{s.Classes, s.SecondaryClasses} {
			if len(cs) == 0 {
				continue
			}
			p := Problem{Name: []string{"primary", "secondary"}[k], Resources: res}
			for _, c := range cs {
				p.Classes = append(p.Classes, c.Name)
				p.Alpha = append(p.Alpha, c.Alpha)
				p.Mu = append(p.Mu, append([]float64(nil), c.Mu...))
			}
			ps = append(ps, p)
		}
		return ps, make([][][]int, len(ps)), nil
	}
	prim, sec, err := Classify(s)
	if err != nil {
		return nil, nil, err
	}
	var ps []Problem
	var mem [][][]int
	for _, c := range []Classes{prim, sec} {
		if len(c.Problem.Classes) > 0 {
			ps = append(ps, c.Problem)
			mem = append(mem, c.Members)
		}
	}
	return ps, mem, nil
}

// Run loads the scenario in data (path names it in errors), classifies it
// when needed, solves every capacity LP with the backend named in
// opts.Solve, decodes and checks. The error is non-nil only for bad input
// (it wraps badinput.Err and names the file and JSON path) or a failed call.
func Run(ctx context.Context, path string, data []byte, opts Options) (*Report, error) {
	s, err := coshhscenario.Parse(path, data)
	if err != nil {
		return nil, err
	}
	r, err := RunScenario(ctx, s, opts)
	if errors.Is(err, badinput.Err) {
		return nil, badinput.InFile(path, err)
	}
	return r, err
}

// RunScenario is Run on a parsed scenario.
func RunScenario(ctx context.Context, s *coshhscenario.Scenario, opts Options) (*Report, error) {
	ps, mem, err := Problems(s)
	if err != nil {
		return nil, badinput.Errorf("%w", err)
	}
	for _, p := range ps {
		if err := p.Validate(); err != nil {
			return nil, badinput.Errorf("%w", err)
		}
	}
	r := &Report{Scenario: s, Members: mem}
	// One stopper for the whole run: the time limit bounds the builds of
	// all the LPs together, and a stop seen in one stops every later build
	// at once (each LP then reports the stop's status, with no bound).
	stop := stopper.New(ctx, time.Now(), opts.Solve.TimeLimit)
	for _, p := range ps {
		a, err := solveLP(ctx, p, opts.Solve, stop)
		if err != nil {
			return nil, err
		}
		r.Allocations = append(r.Allocations, a)
	}
	return r, nil
}

// Status is optimal when every LP is, else the first other status.
func (r *Report) Status() solve.Status {
	if len(r.Allocations) == 0 {
		return solve.StatusUnknown
	}
	for _, a := range r.Allocations {
		if a.Status != solve.Optimal {
			return a.Status
		}
	}
	return solve.Optimal
}

// Verified reports whether every allocation passed the checker.
func (r *Report) Verified() bool {
	for _, a := range r.Allocations {
		if a.Status != solve.Optimal || !a.Check.Verified {
			return false
		}
	}
	return len(r.Allocations) > 0
}

// ClassReport is the JSON form of one allocation.
type ClassReport struct {
	Name      string      `json:"name"`
	Status    string      `json:"status"`
	Classes   []string    `json:"classes"`
	Resources []string    `json:"resources"`
	Alpha     []float64   `json:"alpha"`
	Mu        [][]float64 `json:"mu"`
	Members   [][]string  `json:"members,omitempty"`
	Lambda    *float64    `json:"lambda"`
	Delta     [][]float64 `json:"delta"`
	// Suggested[j] names the classes suggested for resource j (SC_j).
	Suggested [][]string    `json:"suggested"`
	Check     *Check        `json:"check,omitempty"`
	Stage1    solve.Summary `json:"stage1"`
	Stage2    solve.Summary `json:"stage2"`
}

// JSONReport is the JSON printed by `mrbound solve coshh.json --json`. Lambda,
// Delta and Suggested repeat the first classification's: the primary one, or
// the secondary when no user has a min share.
type JSONReport struct {
	Kind     string `json:"kind"`
	Name     string `json:"name,omitempty"`
	Status   string `json:"status"`
	Solver   string `json:"solver"`
	Verified bool   `json:"verified"`
	// Units names what each quantity is in: the report mixes rates, a
	// dimensionless factor and resource fractions, so one "unit" would lie.
	Units     Units         `json:"units"`
	Lambda    *float64      `json:"lambda"`
	Delta     [][]float64   `json:"delta"`
	Suggested [][]string    `json:"suggested"`
	Resources []string      `json:"resources"`
	LPs       []ClassReport `json:"classifications"`
}

// Units is the unit of each quantity of the JSON report.
type Units struct {
	Alpha  string `json:"alpha"`
	Mu     string `json:"mu"`
	Lambda string `json:"lambda"`
	Delta  string `json:"delta"`
}

// reportUnits is the same for every report: α and μ are rates in the time
// unit of the scenario's classes, or per second when the classes are derived
// from jobs (α = jobs / span in s, μ = 1 / mean estimated time in s; see
// docs/coshh.md); λ multiplies every α; δ[i][j] is a share of resource j.
var reportUnits = Units{
	Alpha:  "jobs per time unit (per second when classes are derived from jobs)",
	Mu:     "jobs per time unit on the resource (per second when classes are derived from jobs)",
	Lambda: "dimensionless: the factor by which every alpha can grow and still be served",
	Delta:  "fraction of the resource's capacity (0 to 1)",
}

// JSON assembles the machine-readable report.
func (r *Report) JSON() JSONReport {
	rep := JSONReport{Kind: coshhscenario.Kind, Name: r.Scenario.Name, Status: r.Status().String(), Verified: r.Verified(), Units: reportUnits}
	for _, res := range r.Scenario.Resources {
		rep.Resources = append(rep.Resources, res.Name)
	}
	for k, a := range r.Allocations {
		cr := ClassReport{
			Name: a.Problem.Name, Status: a.Status.String(), Classes: a.Problem.Classes,
			Resources: a.Problem.Resources, Alpha: a.Problem.Alpha, Mu: a.Problem.Mu,
			Delta: a.Delta, Stage1: a.Stage1.Summarize(), Stage2: a.Stage2.Summarize(),
		}
		if k < len(r.Members) && r.Members[k] != nil {
			for _, g := range r.Members[k] {
				ids := make([]string, len(g))
				for n, j := range g {
					ids[n] = r.Scenario.Jobs[j].ID
				}
				cr.Members = append(cr.Members, ids)
			}
		}
		if a.Status == solve.Optimal {
			l := a.Lambda
			cr.Lambda = &l
			chk := a.Check
			cr.Check = &chk
			for _, sc := range a.Suggested {
				names := []string{}
				for _, i := range sc {
					names = append(names, a.Problem.Classes[i])
				}
				cr.Suggested = append(cr.Suggested, names)
			}
		}
		if rep.Solver == "" {
			rep.Solver = a.Stage1.Solver
		}
		rep.LPs = append(rep.LPs, cr)
	}
	if len(rep.LPs) > 0 {
		rep.Lambda, rep.Delta, rep.Suggested = rep.LPs[0].Lambda, rep.LPs[0].Delta, rep.LPs[0].Suggested
	}
	return rep
}

// Outcome sums the report up as every formulation does: the first
// classification's λ (maximised; the bound is NaN unless its LP is optimal),
// verified when every allocation is.
func (r *Report) Outcome() formulations.Outcome {
	o := formulations.Outcome{Status: r.Status(), Sense: model.Maximize, Measure: "lambda",
		Objective: solve.Number(math.NaN()), Bound: solve.Number(math.NaN()), Verdict: formulations.Rejected("no allocation")}
	if len(r.Allocations) == 0 {
		return o
	}
	a := r.Allocations[0]
	if a.Status == solve.Optimal {
		// Stage 1 is an LP solved to optimality (on a scaled λ): its λ is
		// the bound.
		o.Bound = solve.Number(a.Lambda)
	}
	o.Verdict = formulations.Verified()
	for _, b := range r.Allocations {
		switch {
		case b.Status != solve.Optimal:
			o.Verdict = formulations.Rejected(fmt.Sprintf("%s classification: status %v", b.Problem.Name, b.Status))
		case !b.Check.Verified:
			o.Verdict = formulations.Rejected(b.Problem.Name + " classification: " + b.Check.Problem)
		default:
			continue
		}
		break
	}
	if o.Verdict.Verified {
		o.Objective = solve.Number(a.Lambda)
	}
	return o
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r.JSON())
}

// WriteText writes a human report: per classification λ, δ and SC_j.
func (r *Report) WriteText(w io.Writer) error {
	var sb strings.Builder
	name := r.Scenario.Name
	if name == "" {
		name = "(unnamed)"
	}
	fmt.Fprintf(&sb, "COSHH capacity LPs: %s, %s", name, plural.Count(len(r.Scenario.Resources), "resource"))
	if n := len(r.Scenario.Jobs); n > 0 {
		fmt.Fprintf(&sb, ", %s, %s", plural.Count(n, "job"), plural.Count(len(r.Scenario.Users), "user"))
	}
	sb.WriteString("\n")
	for _, a := range r.Allocations {
		p := a.Problem
		fmt.Fprintf(&sb, "\n%s classification: %s, solver %s, status %s\n", p.Name, plural.Count(len(p.Classes), "class"), a.Stage1.Solver, a.Status)
		if a.Status != solve.Optimal {
			continue
		}
		fmt.Fprintf(&sb, "  lambda = %.6g\n", a.Lambda)
		fmt.Fprintf(&sb, "  %-8s %10s", "class", "alpha")
		for _, res := range p.Resources {
			fmt.Fprintf(&sb, " %10s", "δ "+res)
		}
		sb.WriteString("\n")
		for i, c := range p.Classes {
			fmt.Fprintf(&sb, "  %-8s %10.4g", c, p.Alpha[i])
			for j := range p.Resources {
				fmt.Fprintf(&sb, " %10.4g", a.Delta[i][j])
			}
			sb.WriteString("\n")
		}
		for j, res := range p.Resources {
			names := make([]string, len(a.Suggested[j]))
			for n, i := range a.Suggested[j] {
				names[n] = p.Classes[i]
			}
			fmt.Fprintf(&sb, "  SC(%s) = {%s}\n", res, strings.Join(names, ", "))
		}
		verdict := "verified"
		if !a.Check.Verified {
			verdict = "NOT verified: " + a.Check.Problem
		}
		fmt.Fprintf(&sb, "  check: recomputed lambda %.6g, max load %.6g: %s\n", a.Check.Lambda, maxOf(a.Check.Load), verdict)
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

func maxOf(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}
