package solvertest

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/model/mps"
	"github.com/mrbound/mrbound/solve"
)

// Problem is one test-set problem with its known optimum (optima.tsv).
type Problem struct {
	// Name is the file's base name without .mps, e.g. "afiro".
	Name string
	// Kind is "lp" or "milp".
	Kind string
	// Optimum is the published optimal objective (all are minimisations).
	Optimum float64
	// Difficulty is "easy", "medium" or "hard".
	Difficulty string
	// Path is the MPS file.
	Path string
}

// TestsetDir returns ../shared/testsets relative to the module root (the
// nearest directory above the working directory holding go.mod), or "" when
// there is none.
func TestsetDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			d := filepath.Join(dir, "..", "shared", "testsets")
			if _, err := os.Stat(filepath.Join(d, "optima.tsv")); err == nil {
				return d
			}
			return ""
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// Problems reads dir/optima.tsv and locates each problem's MPS file under
// dir/netlib (lp) or dir/miplib (milp).
func Problems(dir string) ([]Problem, error) {
	f, err := os.Open(filepath.Join(dir, "optima.tsv"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var ps []Problem
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		if line == 1 || strings.TrimSpace(sc.Text()) == "" {
			continue // header
		}
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) < 4 {
			return nil, fmt.Errorf("optima.tsv:%d: %d fields, want at least 4", line, len(fs))
		}
		opt, err := strconv.ParseFloat(fs[2], 64)
		if err != nil {
			return nil, fmt.Errorf("optima.tsv:%d: optimum %q: %v", line, fs[2], err)
		}
		sub := "netlib"
		if fs[1] == "milp" {
			sub = "miplib"
		}
		ps = append(ps, Problem{Name: fs[0], Kind: fs[1], Optimum: opt, Difficulty: fs[3],
			Path: filepath.Join(dir, sub, fs[0]+".mps")})
	}
	return ps, sc.Err()
}

// LoadProblem reads the problem called name from the test set in dir
// (optima.tsv and its MPS file).
func LoadProblem(dir, name string) (Problem, *model.Model, error) {
	ps, err := Problems(dir)
	if err != nil {
		return Problem{}, nil, err
	}
	for _, p := range ps {
		if p.Name == name {
			m, err := mps.ReadFile(p.Path)
			return p, m, err
		}
	}
	return Problem{}, nil, fmt.Errorf("solvertest: %s is not in %s", name, filepath.Join(dir, "optima.tsv"))
}

func runTestsets(t T, newSolver func() solve.Solver, caps Caps) {
	t.Run("testsets", func(t T) {
		if caps.NoTestsets != "" {
			t.Skip(caps.NoTestsets)
		}
		dir := TestsetDir()
		if dir == "" {
			t.Skip("no ../shared/testsets next to the module root")
		}
		ps, err := Problems(dir)
		if err != nil {
			t.Fatalf("%v", err)
		}
		limit := caps.TestsetTimeLimit
		if limit == 0 {
			limit = 120 * time.Second
		}
		for _, p := range ps {
			t.Run(p.Name, func(t T) {
				switch {
				case caps.SkipProblems[p.Name] != "":
					t.Skip(caps.SkipProblems[p.Name])
				case p.Kind == "milp" && caps.NoMIP != "":
					t.Skip(caps.NoMIP)
				case p.Difficulty == "hard":
					t.Skip("hard: for benchmarks, not tests")
				case p.Difficulty == "medium" && t.Short():
					t.Skip("medium: skipped under -short")
				}
				CheckProblem(t, newSolver(), p, limit)
			})
		}
	})
}

// testsetGap is the relative gap requested on test-set MIPs, so that the
// incumbent must match the published optimum to ObjTol.
const testsetGap = 1e-9

// CheckProblem solves one test-set problem within limit and checks status,
// point and objective against its known optimum.
func CheckProblem(t T, s solve.Solver, p Problem, limit time.Duration) {
	t.Helper()
	m, err := mps.ReadFile(p.Path)
	if err != nil {
		t.Fatalf("%v", err)
	}
	res, err := s.Solve(context.Background(), m, solve.Options{TimeLimit: limit, RelGap: testsetGap, AbsGap: testsetGap})
	if err != nil {
		t.Fatalf("Solve: %v", err)
	}
	if res.Status != solve.Optimal {
		t.Fatalf("status %v after %v, want optimal (message %q)", res.Status, res.Wall, res.Message)
	}
	CheckResult(t, m, res)
	checkObjective(t, "objective", res.Objective, p.Optimum)
	checkBoundAgainstOptimum(t, m, res, p.Optimum)
}
