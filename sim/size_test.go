package sim

import (
	"testing"
	"unsafe"
)

// TestPerTaskSizes pins the size of the per-task records (issue 30: a day
// has tens of millions of tasks, so a field added to either costs hundreds
// of MB). Growing one is allowed, but deliberately: update the figure here
// and the memory figures in docs/results.md.
func TestPerTaskSizes(t *testing.T) {
	if got := unsafe.Sizeof(taskRT{}); got != 40 {
		t.Errorf("taskRT is %d bytes, want 40", got)
	}
	// TaskSpec: Work and the pointer to the rarely set extras
	if got := unsafe.Sizeof(TaskSpec{}); got != 16 {
		t.Errorf("TaskSpec is %d bytes, want 16", got)
	}
	if got := unsafe.Sizeof(Attempt{}); got != 56 {
		t.Errorf("Attempt is %d bytes, want 56", got)
	}
}
