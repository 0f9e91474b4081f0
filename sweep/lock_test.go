package sweep

import (
	"sync"
	"testing"
)

// TestConcurrentRunsRunEachItemOnce runs three pools over one sweep at once
// (as two or three `sweep submit --jobs N` would) and checks that every
// item ran exactly once — one attempt in its log, one call of the kind —
// that each pool accounts for every item (ran or found done), and that the
// failing item is reported failed by every pool without running again.
func TestConcurrentRunsRunEachItemOnce(t *testing.T) {
	const n = 12
	m := squareSweep(t, n, func(i int) squareSpec { return squareSpec{X: i, SleepMS: 20, Fail: i == 5} })
	before := squareRuns.Load()
	var wg sync.WaitGroup
	sums := make([]PoolSummary, 3)
	for p, jobs := range []int{1, 1, 3} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			if sums[p], err = RunLocal(t.Context(), m, PoolOptions{Jobs: jobs}); err != nil {
				t.Errorf("pool %d: %v", p, err)
			}
		}()
	}
	wg.Wait()
	if runs := squareRuns.Load() - before; runs != n {
		t.Errorf("%d runs of %d items", runs, n)
	}
	for i := range n {
		if a := Attempts(m, i); a != 1 {
			t.Errorf("item %d: %d attempts", i, a)
		}
	}
	ran := 0
	for p, s := range sums {
		ran += s.Ran
		if s.Ran+s.Skipped+s.Failed != n || s.Failed != 1 {
			t.Errorf("pool %d: %+v does not account for %d items with one failure", p, s, n)
		}
	}
	if ran != n-1 {
		t.Errorf("the pools ran %d items between them, want %d", ran, n-1)
	}
}
