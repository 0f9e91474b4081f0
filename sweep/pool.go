package sweep

import (
	"context"
	"errors"
	"os"
	"runtime"
	"slices"
	"sync"
)

// PoolOptions configure RunLocal.
type PoolOptions struct {
	// Jobs is the number of items run at once; 0 means one per core.
	Jobs int
	// Progress, when set, is called with (items settled, items) as items
	// finish, from one goroutine at a time.
	Progress func(done, total int)
}

// PoolSummary counts what RunLocal did.
type PoolSummary struct {
	// Items in the sweep; Skipped had results already; Ran finished now;
	// Failed failed now (listed in Failures with their messages).
	Items, Skipped, Ran, Failed int
	Failures                    []Failure
}

// RunLocal runs every item of m that has no result on this machine, Jobs at
// a time, each in its own goroutine (the items of a sweep are independent).
// When ctx is cancelled, the running items stop and stay missing, finished
// ones are kept, and ctx's error is returned; run it again to finish.
func RunLocal(ctx context.Context, m *Manifest, opts PoolOptions) (PoolSummary, error) {
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	sum := PoolSummary{Items: len(m.Items)}
	todo := Todo(m)
	failed := map[int]os.FileInfo{} // the failure records as they were
	for _, i := range todo {
		failed[i] = failureNow(m, i)
	}
	sum.Skipped = len(m.Items) - len(todo)
	var (
		mu       sync.Mutex
		firstErr error
		settled  = sum.Skipped
	)
	report := func() {
		if opts.Progress != nil {
			opts.Progress(settled, len(m.Items))
		}
	}
	report()
	// Two passes: the items first, skipping those another process is
	// running (their log is locked), then those, waiting for their lock;
	// by then the other process has usually written their result, and
	// they are skipped.
	var busy []int
	pass := func(items []int, wait bool) {
		next := make(chan int)
		var wg sync.WaitGroup
		for w := 0; w < min(jobs, len(items)); w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range next {
					out, msg, err := runItem(ctx, m, i, wait, failed[i])
					mu.Lock()
					switch {
					case errors.Is(err, errBusy):
						busy = append(busy, i)
					case err != nil:
						if firstErr == nil {
							firstErr = err
						}
					case out == Done:
						sum.Ran++
						settled++
					case out == Skipped: // another process finished it meanwhile
						sum.Skipped++
						settled++
					case out == Failed:
						sum.Failed++
						settled++
						sum.Failures = append(sum.Failures, Failure{Index: i, ID: m.Items[i].ID, Error: msg, Log: m.LogPath(i)})
					}
					report()
					mu.Unlock()
				}
			}()
		}
		for _, i := range items {
			mu.Lock()
			stop := firstErr != nil
			mu.Unlock()
			if stop || ctx.Err() != nil {
				break
			}
			select {
			case next <- i:
			case <-ctx.Done():
			}
		}
		close(next)
		wg.Wait()
	}
	pass(todo, false)
	slices.Sort(busy)
	pass(busy, true)
	sortFailures(sum.Failures)
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	return sum, firstErr
}
