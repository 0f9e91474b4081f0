package coshh

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/instances/coshhscenario"
	"github.com/mrbound/mrbound/solve"
)

func randomProblem(rng *rand.Rand, F, M int) Problem {
	p := Problem{Name: "random"}
	for j := 0; j < M; j++ {
		p.Resources = append(p.Resources, fmt.Sprintf("R%d", j+1))
	}
	for i := 0; i < F; i++ {
		p.Classes = append(p.Classes, fmt.Sprintf("C%d", i+1))
		p.Alpha = append(p.Alpha, 0.1+5*rng.Float64())
		row := make([]float64, M)
		for j := range row {
			if rng.IntN(4) > 0 { // a quarter of the rates are zero
				row[j] = 0.5 + 10*rng.Float64()
			}
		}
		p.Mu = append(p.Mu, row)
	}
	return p
}

// servedLambda recomputes, independently of Check, the λ that δ sustains.
func servedLambda(p Problem, delta [][]float64) (lambda, maxLoad float64) {
	lambda = math.Inf(1)
	for i := range p.Alpha {
		s := 0.0
		for j := range p.Resources {
			s += p.Mu[i][j] * delta[i][j]
		}
		lambda = math.Min(lambda, s/p.Alpha[i])
	}
	for j := range p.Resources {
		l := 0.0
		for i := range p.Alpha {
			l += delta[i][j]
		}
		maxLoad = math.Max(maxLoad, l)
	}
	return lambda, maxLoad
}

// TestPropertyServable: on seeded random instances, λ·α is servable by the
// δ found, and λ does not decrease when a resource is added.
func TestPropertyServable(t *testing.T) {
	forEachBackend(t, func(t *testing.T, opts solve.Options) {
		rng := rand.New(rand.NewPCG(8, 1))
		for trial := 0; trial < 40; trial++ {
			F, M := 1+rng.IntN(5), 1+rng.IntN(5)
			p := randomProblem(rng, F, M)
			a, err := Solve(context.Background(), p, opts)
			if err != nil {
				t.Fatal(err)
			}
			if a.Status != solve.Optimal {
				t.Fatalf("trial %d: status %v", trial, a.Status)
			}
			lam, load := servedLambda(p, a.Delta)
			if lam < a.Lambda*(1-1e-6)-1e-9 || load > 1+1e-6 {
				t.Errorf("trial %d: δ sustains λ %g (solver %g), max load %g", trial, lam, a.Lambda, load)
			}
			if !a.Check.Verified {
				t.Errorf("trial %d: check: %s", trial, a.Check.Problem)
			}
			// Add a resource: the old δ (padded with 0) stays feasible, so λ
			// cannot drop.
			q := p
			q.Resources = append(append([]string(nil), p.Resources...), "Rnew")
			q.Mu = nil
			for i := range p.Mu {
				q.Mu = append(q.Mu, append(append([]float64(nil), p.Mu[i]...), 10*rng.Float64()))
			}
			b, err := Solve(context.Background(), q, opts)
			if err != nil {
				t.Fatal(err)
			}
			if b.Lambda < a.Lambda*(1-1e-7)-1e-9 {
				t.Errorf("trial %d: λ fell from %g to %g when a resource was added", trial, a.Lambda, b.Lambda)
			}
		}
	})
}

// TestZeroRateClass: a class with zero rate everywhere cannot be served, so
// λ = 0 (no division by zero, no panic).
func TestZeroRateClass(t *testing.T) {
	p := Problem{Name: "zero", Classes: []string{"C1", "C2"}, Resources: []string{"R1", "R2"},
		Alpha: []float64{1, 2}, Mu: [][]float64{{3, 4}, {0, 0}}}
	forEachBackend(t, func(t *testing.T, opts solve.Options) {
		a, err := Solve(context.Background(), p, opts)
		if err != nil {
			t.Fatal(err)
		}
		if a.Status != solve.Optimal || a.Lambda != 0 || !a.Check.Verified {
			t.Fatalf("status %v λ %g check %+v", a.Status, a.Lambda, a.Check)
		}
	})
}

func TestBadProblems(t *testing.T) {
	cases := []struct {
		name string
		p    Problem
		want string
	}{
		{"negative alpha", Problem{Classes: []string{"C1"}, Resources: []string{"R1"}, Alpha: []float64{-1}, Mu: [][]float64{{1}}}, "arrival rate -1"},
		{"negative mu", Problem{Classes: []string{"C1"}, Resources: []string{"R1"}, Alpha: []float64{1}, Mu: [][]float64{{-2}}}, "class C1 on R1: execution rate -2"},
		{"all alpha zero", Problem{Classes: []string{"C1"}, Resources: []string{"R1"}, Alpha: []float64{0}, Mu: [][]float64{{1}}}, "unbounded"},
		{"no classes", Problem{Resources: []string{"R1"}}, "no classes"},
		{"ragged mu", Problem{Classes: []string{"C1"}, Resources: []string{"R1", "R2"}, Alpha: []float64{1}, Mu: [][]float64{{1}}}, "1 rates for 2 resources"},
	}
	for _, c := range cases {
		_, err := Solve(context.Background(), c.p, solve.Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to mention %q", c.name, err, c.want)
		}
	}
	if _, err := Solve(context.Background(), cases[2].p, solve.Options{}); !errors.Is(err, ErrUnbounded) {
		t.Errorf("all-zero α: %v, want ErrUnbounded", err)
	}
}

func TestBadScenarios(t *testing.T) {
	cases := []struct{ json, want string }{
		{`{"kind":"coshh","schema_version":1,"resources":[{"name":"R1"}],"classes":[{"name":"C1","alpha":1,"mu":[-3]}]}`, "$.classes[0].mu[0]: execution rate -3"},
		{`{"kind":"coshh","schema_version":1,"resources":[{"name":"R1"}],"classes":[{"name":"C1","alpha":-1,"mu":[3]}]}`, "$.classes[0].alpha"},
		{`{"kind":"coshh","schema_version":1,"resources":[{"name":"R1"}],"users":[{"name":"U1","min_share":1,"priority":1}],"jobs":[]}`, "empty job stream"},
		{`{"kind":"coshh","schema_version":1,"resources":[{"name":"R1"}]}`, "empty job stream"},
		{`{"kind":"coshh","schema_version":2,"resources":[{"name":"R1"}]}`, "$.schema_version"},
		{`{"kind":"coshh","schema_version":1,"resources":[{"name":"R1"}],"users":[{"name":"U1","min_share":1,"priority":1}],"jobs":[{"id":"J1","user":"U2","arrival":0,"exec_time":[1]}]}`, "$.jobs[0].user: unknown user"},
		{`{"kind":"coshh","schema_version":1,"resources":[{"name":"R1"}],"users":[{"name":"U1","min_share":1,"priority":1}],"jobs":[{"id":"J1","user":"U1","arrival":0,"exec_time":[0]}]}`, "$.jobs[0].exec_time[0]"},
		{`{"kind":"coshh","schema_version":1,"resources":[{"name":"R1"}],"classes":[{"name":"C1","alpha":"x","mu":[3]}]}`, "$.classes[0].alpha"},
		{"{\"kind\":\"coshh\",\n\"schema_version\":1,,}", "bad.json:2:20: invalid character"},
	}
	for _, c := range cases {
		_, err := Run(context.Background(), "bad.json", []byte(c.json), Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "bad.json:") {
			t.Errorf("%s\n  error %v, want it to name bad.json and mention %q", c.json, err, c.want)
		}
		if !errors.Is(err, badinput.Err) {
			t.Errorf("%s\n  error %v does not wrap badinput.Err", c.json, err)
		}
	}
}

// TestGeneratedStream: a generated Facebook stream classifies into at most
// as many classes as users, deterministically for a seed, and both LPs solve
// and verify.
func TestGeneratedStream(t *testing.T) {
	for _, trace := range []string{"facebook", "yahoo"} {
		s, err := coshhscenario.Generate(coshhscenario.GenOptions{Trace: trace, Jobs: 100, Seed: 1, MaxError: 0.2})
		if err != nil {
			t.Fatal(err)
		}
		p1, s1, err := Classify(s)
		if err != nil {
			t.Fatal(err)
		}
		p2, s2, _ := Classify(s)
		if fmt.Sprint(p1.Members, s1.Members) != fmt.Sprint(p2.Members, s2.Members) {
			t.Fatalf("%s: classification not deterministic", trace)
		}
		nMin := 0
		for _, u := range s.Users {
			if u.MinShare > 0 {
				nMin++
			}
		}
		if len(p1.Members) == 0 || len(p1.Members) > nMin || len(s1.Members) > len(s.Users) {
			t.Errorf("%s: %d primary, %d secondary classes for %d/%d users", trace, len(p1.Members), len(s1.Members), nMin, len(s.Users))
		}
		jobs := 0
		for _, g := range s1.Members {
			jobs += len(g)
		}
		if jobs != len(s.Jobs) {
			t.Errorf("%s: secondary classes hold %d of %d jobs", trace, jobs, len(s.Jobs))
		}
		forEachBackend(t, func(t *testing.T, opts solve.Options) {
			r, err := RunScenario(context.Background(), s, Options{Solve: opts})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Allocations) != 2 || !r.Verified() {
				t.Fatalf("%s: %d allocations, verified %v", trace, len(r.Allocations), r.Verified())
			}
		})
	}
}

// TestClassifyWithoutMinShares: no user has a min share, so there is no
// primary classification; the secondary one still solves.
func TestClassifyWithoutMinShares(t *testing.T) {
	s := &coshhscenario.Scenario{Kind: "coshh", SchemaVersion: 1, Resources: []coshhscenario.Resource{{Name: "R1"}, {Name: "R2"}},
		Users: []coshhscenario.User{{Name: "U1", Priority: 1}, {Name: "U2", Priority: 2}},
		Jobs: []coshhscenario.Job{
			{ID: "J1", User: "U1", Arrival: 0, ExecTime: []float64{10, 20}},
			{ID: "J2", User: "U2", Arrival: 5, ExecTime: []float64{30, 5}},
			{ID: "J3", User: "U1", Arrival: 9, ExecTime: []float64{11, 19}},
		}}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	prim, sec, err := Classify(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(prim.Problem.Classes) != 0 || len(sec.Members) != 2 {
		t.Fatalf("primary %v, secondary %v", prim.Members, sec.Members)
	}
	// J1 and J3 (same user, similar times) form one class.
	if fmt.Sprint(sec.Members) != "[[0 2] [1]]" {
		t.Errorf("secondary members %v, want [[0 2] [1]]", sec.Members)
	}
	// α = jobs / span: 2/9 and 1/9; μ = jobs / Σ times.
	if math.Abs(sec.Problem.Alpha[0]-2.0/9) > 1e-12 || math.Abs(sec.Problem.Mu[0][0]-2.0/21) > 1e-12 {
		t.Errorf("α %v μ %v", sec.Problem.Alpha, sec.Problem.Mu)
	}
}

func TestKMeansDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	var pts [][]float64
	for c := 0; c < 4; c++ {
		for n := 0; n < 10; n++ {
			pts = append(pts, []float64{float64(10*c) + rng.Float64(), float64(-7*c) + rng.Float64()})
		}
	}
	a := KMeans(pts, 4, 42)
	b := KMeans(pts, 4, 42)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatal("KMeans differs between two runs with one seed")
	}
	// Four well-separated blobs: every blob is one label, labels distinct.
	for c := 0; c < 4; c++ {
		for n := 1; n < 10; n++ {
			if a[10*c+n] != a[10*c] {
				t.Fatalf("blob %d split: %v", c, a)
			}
		}
	}
	if a[0] == a[10] || a[10] == a[20] || a[20] == a[30] || a[0] == a[30] {
		t.Errorf("blobs merged: %v", a)
	}
	// Fewer distinct points than k: k is lowered.
	same := [][]float64{{1, 1}, {1, 1}, {2, 2}}
	if l := KMeans(same, 5, 1); fmt.Sprint(l) != "[0 0 1]" {
		t.Errorf("labels %v, want [0 0 1]", l)
	}
}

// TestClassesAreCategories: with exact estimates, jobs of one category have
// identical features, and there are no more categories than users, so the
// secondary classes are exactly the categories present in the stream.
func TestClassesAreCategories(t *testing.T) {
	for _, trace := range []string{"facebook", "yahoo"} {
		for seed := int64(1); seed <= 3; seed++ {
			s, err := coshhscenario.Generate(coshhscenario.GenOptions{Trace: trace, Jobs: 60, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			_, sec, err := Classify(s)
			if err != nil {
				t.Fatal(err)
			}
			cats := map[string]bool{}
			for _, j := range s.Jobs {
				cats[j.Category] = true
			}
			if len(sec.Members) != len(cats) {
				t.Fatalf("%s seed %d: %d classes for %d categories", trace, seed, len(sec.Members), len(cats))
			}
			for _, g := range sec.Members {
				for _, j := range g {
					if s.Jobs[j].Category != s.Jobs[g[0]].Category {
						t.Fatalf("%s seed %d: class mixes %q and %q", trace, seed, s.Jobs[g[0]].Category, s.Jobs[j].Category)
					}
				}
			}
		}
	}
}
