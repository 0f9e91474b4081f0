package gcpace

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestForTasks: a large run gets LargePercent (and the previous target is
// returned), a small run keeps the target, and a GOGC in the environment is
// never overridden.
func TestForTasks(t *testing.T) {
	if _, set := os.LookupEnv("GOGC"); set {
		t.Skip("GOGC is set in the environment")
	}
	orig := debug.SetGCPercent(100)
	defer debug.SetGCPercent(orig)
	if _, changed := ForTasks(LargeTasks - 1); changed {
		t.Error("a small run changed the target")
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("after a small run the target is %d, want 100", got)
	}
	prev, changed := ForTasks(LargeTasks)
	if !changed || prev != 100 {
		t.Errorf("a large run: changed %v, previous %d; want true, 100", changed, prev)
	}
	if got := debug.SetGCPercent(100); got != LargePercent {
		t.Errorf("after a large run the target is %d, want %d", got, LargePercent)
	}
	t.Setenv("GOGC", "100")
	if _, changed := ForTasks(10 * LargeTasks); changed {
		t.Error("a large run overrode GOGC from the environment")
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set the target is %d, want 100", got)
	}
}
