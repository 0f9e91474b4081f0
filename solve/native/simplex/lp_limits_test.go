package simplex

import (
	"context"
	"math/rand"
	"testing"
	"time"

	"github.com/mrbound/mrbound/solve"
)

func TestIterationLimit(t *testing.T) {
	m := readNetlib(t, "sc105")
	s, _ := New(m, Options{IterationLimit: 10})
	if st := s.Solve(context.Background()); st != solve.IterationLimit {
		t.Fatalf("status %v, want iteration_limit", st)
	}
	if s.LastIterations() != 10 {
		t.Fatalf("%d iterations under a limit of 10", s.LastIterations())
	}
	// Lifting the limit resumes and finishes.
	s.SetOptions(Options{})
	mustSolve(t, s, solve.Optimal)
	checkOptimality(t, m, s)
}

func TestCancelledAndDeadline(t *testing.T) {
	m := readNetlib(t, "sc205")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s, _ := New(m, Options{})
	if st := s.Solve(ctx); st != solve.Interrupted {
		t.Fatalf("cancelled context: status %v", st)
	}
	s2, _ := New(m, Options{Deadline: time.Now().Add(-time.Second)})
	if st := s2.Solve(context.Background()); st != solve.TimeLimit {
		t.Fatalf("past deadline: status %v", st)
	}
}

// A branch-and-bound-like sequence: random bound changes and cuts on a
// random feasible LP, each warm solve compared with a cold solve of the
// modified model.
func TestRandomWarmSequences(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	cases := 200
	if testing.Short() {
		cases = 50
	}
	compared := 0
	for c := 0; c < cases; c++ {
		m := randomLP(rng, []int{0, 2}[c%2], 1+c%3)
		s, _ := New(m, Options{Seed: int64(c)})
		if s.Solve(context.Background()) != solve.Optimal {
			continue
		}
		cur := m.Clone()
		for step := 0; step < 6; step++ {
			if rng.Intn(3) == 0 {
				s = s.Clone() // continue on a copy, as branch-and-bound does
			}
			if rng.Intn(3) > 0 || cur.NumCols() == 0 {
				j := rng.Intn(cur.NumCols())
				x := s.X()
				lo, up := cur.ColLower[j], cur.ColUpper[j]
				if rng.Intn(2) == 0 {
					up = x[j] - 0.5
					if up < lo {
						up = lo
					}
				} else {
					lo = x[j] + 0.5
					if lo > up {
						lo = up
					}
				}
				if err := s.SetColBounds(j, lo, up); err != nil {
					t.Fatal(err)
				}
				cur.ColLower[j], cur.ColUpper[j] = lo, up
			} else {
				cut, ok := violatedCut(s, rng)
				if !ok {
					continue
				}
				if err := s.AddRows([]Row{cut}); err != nil {
					t.Fatal(err)
				}
				cur = addRowToModel(cur, cut)
			}
			st := s.Solve(context.Background())
			cold := coldSolve(t, cur)
			if st != cold.Status() {
				t.Fatalf("case %d step %d: warm %v, cold %v", c, step, st, cold.Status())
			}
			compared++
			if st != solve.Optimal {
				break
			}
			if !sameObjective(s.Objective(), cold.Objective()) {
				t.Fatalf("case %d step %d: warm objective %.12g, cold %.12g", c, step, s.Objective(), cold.Objective())
			}
			checkOptimality(t, cur, s)
		}
	}
	if compared < cases {
		t.Fatalf("only %d warm solves compared", compared)
	}
	t.Logf("%d warm solves compared with cold solves", compared)
}
