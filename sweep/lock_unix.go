//go:build unix

package sweep

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// lockPoll is how often a waiting attempt tries the lock again: an item
// takes seconds to hours, so a tenth of a second costs nothing.
const lockPoll = 100 * time.Millisecond

// lockItem takes an exclusive flock on f (an item's log file), released
// when f is closed or the process dies. When another process holds it,
// lockItem returns errBusy, or with wait polls until it is free or ctx is
// done. On NFS, Linux carries flock as a POSIX lock through the lock
// manager, so it holds between the nodes of a cluster.
// It says whether it had to wait.
func lockItem(ctx context.Context, f *os.File, wait bool) (waited bool, err error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return waited, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return waited, fmt.Errorf("sweep: cannot lock %s: %v", f.Name(), err)
		}
		if !wait {
			return false, errBusy
		}
		waited = true
		select {
		case <-ctx.Done():
			return waited, ctx.Err()
		case <-time.After(lockPoll):
		}
	}
}
