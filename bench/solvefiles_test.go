package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mrbound/mrbound/formulations/jlassi"
	"github.com/mrbound/mrbound/formulations/mrcp"
	"github.com/mrbound/mrbound/instances/jlassiscenario"
	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/internal/cputime"
	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/model/mps"
	"github.com/mrbound/mrbound/solve"
	_ "github.com/mrbound/mrbound/solve/highs"
)

// TestSolveFiles solves the models listed (comma-separated) in MIP_FILES — MPS
// files, or jlassi:SCENARIO:SEED (the strong form at Table 5's horizon) and
// mrcp:JOBS:SEED (the monolithic time-indexed model of a mixed stream,
// λ = 0.02, time unit 10 s) built by the project's formulations —
// with a MIP_LIMIT time limit (default 60s) and prints, per file, the time and
// node of the first incumbent, the final status, gap, nodes and CPU time. It
// is the harness behind the scheduling-model figures in docs/results.md; it
// skips without MIP_FILES. MIP_VERBOSE=1 prints the solver log; MIP_SOLVER
// names another backend (highs) to solve the same files for comparison.
// MPS paths are relative to this directory (bench/).
func TestSolveFiles(t *testing.T) {
	files := os.Getenv("MIP_FILES")
	if files == "" {
		t.Skip("MIP_FILES not set")
	}
	limit := 60 * time.Second
	if s := os.Getenv("MIP_LIMIT"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatal(err)
		}
		limit = d
	}
	for _, path := range strings.Split(files, ",") {
		m, err := loadBenchModel(path)
		if err != nil {
			t.Fatal(err)
		}
		var log bytes.Buffer
		cpu0 := cputime.Now()
		opts := solve.Options{TimeLimit: limit, Seed: 1, Log: &log, Verbosity: verbosity()}
		opts.Solver = "native"
		if name := os.Getenv("MIP_SOLVER"); name != "" {
			opts.Solver = name
		}
		res, err := solve.Solve(context.Background(), m, opts)
		if err != nil {
			t.Fatal(err)
		}
		cpu := cputime.Now() - cpu0
		first := "-"
		// The native log's incumbent lines start with a one-letter source.
		for _, ln := range strings.Split(log.String(), "\n") {
			if opts.Solver != "native" {
				break
			}
			if f := strings.Fields(ln); len(f) > 12 && len(f[0]) == 1 && strings.Contains("LRNDFZISP", f[0]) {
				first = f[1] + " nodes " + f[len(f)-1]
				break
			}
		}
		t.Logf("%s: first incumbent at %s; %v objective %.6g bound %.6g gap %.4f, %d nodes, %d it, wall %.1fs cpu %.1fs",
			path, first, res.Status, res.Objective, res.Bound, res.Gap(), res.Nodes, res.Iterations, res.Wall.Seconds(), cpu.Seconds())
		if os.Getenv("MIP_VERBOSE") != "" {
			t.Log(log.String())
		}
	}
}

func verbosity() int {
	if os.Getenv("MIP_VERBOSE") == "2" {
		return 2
	}
	return 1
}

// loadBenchModel reads an MPS file or builds a jlassi:S:SEED or mrcp:N:SEED
// model (see TestSolveFiles).
func loadBenchModel(spec string) (*model.Model, error) {
	f := strings.Split(spec, ":")
	if len(f) != 3 {
		return mps.ReadFile(spec)
	}
	a, err1 := strconv.Atoi(f[1])
	seed, err2 := strconv.ParseInt(f[2], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return nil, fmt.Errorf("%s: %w", spec, err)
	}
	switch f[0] {
	case "jlassi":
		sc, err := jlassiscenario.Generate(a, seed)
		if err != nil {
			return nil, err
		}
		in, err := jlassiscenario.Compile(sc.Name, sc)
		if err != nil {
			return nil, err
		}
		m, err := jlassi.Build(in, jlassi.BuildOptions{T: jlassiscenario.Table5Horizon[a]})
		if err != nil {
			return nil, err
		}
		return m.Model, nil
	case "mrcp":
		in, err := mrcpscenario.Generate(mrcpscenario.GenOptions{Workload: mrcpscenario.Mixed, Jobs: a, Lambda: 0.02, Seed: uint64(seed), TimeUnit: 10})
		if err != nil {
			return nil, err
		}
		b, err := mrcp.Build(in, mrcp.Options{})
		if err != nil {
			return nil, err
		}
		return b.Model, nil
	}
	return nil, fmt.Errorf("%s: unknown model kind %q", spec, f[0])
}
