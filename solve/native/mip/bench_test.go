package mip

import (
	"context"
	"fmt"
	"math"
	"os"
	"testing"
	"time"

	"github.com/mrbound/mrbound/model/mps"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/solvertest"
)

// BenchmarkMIPLIB times the native solver on every non-hard test-set MIP and
// reports the nodes per solve.
func BenchmarkMIPLIB(b *testing.B) {
	dir := solvertest.TestsetDir()
	if dir == "" {
		b.Skip("no ../shared/testsets")
	}
	probs, err := solvertest.Problems(dir)
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range probs {
		if p.Kind != "milp" || p.Difficulty == "hard" {
			continue
		}
		m, err := mps.ReadFile(p.Path)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(p.Name, func(b *testing.B) {
			var nodes int64
			for i := 0; i < b.N; i++ {
				res, err := Solve(context.Background(), m, solve.Options{RelGap: 1e-9, AbsGap: 1e-9})
				if err != nil || res.Status != solve.Optimal {
					b.Fatalf("%v %v", res.Status, err)
				}
				nodes += res.Nodes
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}

// TestBenchTable (MIP_BENCH=1, optional MIP_BENCH_LIMIT=60s, MIP_BENCH_NOHARD=1
// to skip the hard ones) solves every
// test-set MIP with the native solver and HiGHS under a time limit and prints
// the markdown table recorded in docs/results.md.
func TestBenchTable(t *testing.T) {
	if os.Getenv("MIP_BENCH") == "" {
		t.Skip("set MIP_BENCH=1 to run the native-vs-HiGHS table")
	}
	hs, err := solve.Lookup("highs")
	if err != nil {
		t.Skip("no highs")
	}
	limit := 60 * time.Second
	if v, err := time.ParseDuration(os.Getenv("MIP_BENCH_LIMIT")); err == nil {
		limit = v
	}
	probs, err := solvertest.Problems(solvertest.TestsetDir())
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("| problem | difficulty | optimum | native status | native obj | native bound | native s | native nodes | HiGHS status | HiGHS obj | HiGHS bound | HiGHS s | HiGHS nodes | time ratio |\n")
	fmt.Printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	logSum, count := 0.0, 0
	for _, p := range probs {
		if p.Kind != "milp" || (os.Getenv("MIP_BENCH_NOHARD") != "" && p.Difficulty == "hard") {
			continue
		}
		m, err := mps.ReadFile(p.Path)
		if err != nil {
			t.Fatal(err)
		}
		opts := solve.Options{TimeLimit: limit, RelGap: 1e-9, AbsGap: 1e-9}
		nat, err := Solve(context.Background(), m, opts)
		if err != nil {
			t.Fatal(err)
		}
		hr, err := hs.Solve(context.Background(), m, opts)
		if err != nil {
			t.Fatal(err)
		}
		ratio := nat.Wall.Seconds() / math.Max(hr.Wall.Seconds(), 1e-3)
		logSum += math.Log(math.Max(nat.Wall.Seconds(), 1e-3) / math.Max(hr.Wall.Seconds(), 1e-3))
		count++
		fmt.Printf("| %s | %s | %.10g | %v | %.10g | %.10g | %.2f | %d | %v | %.10g | %.10g | %.2f | %d | %.2f |\n",
			p.Name, p.Difficulty, p.Optimum, nat.Status, nat.Objective, nat.Bound, nat.Wall.Seconds(), nat.Nodes,
			hr.Status, hr.Objective, hr.Bound, hr.Wall.Seconds(), hr.Nodes, ratio)
	}
	fmt.Printf("\ngeometric mean time ratio native/HiGHS over %d MIPs (timeouts counted at the limit): %.2f\n", count, math.Exp(logSum/float64(count)))
}
