//go:build !unix

package sweep

import (
	"context"
	"os"
)

// lockItem does nothing where there is no flock: two processes running one
// sweep at once may run an item twice there (docs/reliability.md).
func lockItem(ctx context.Context, f *os.File, wait bool) (bool, error) { return false, nil }
