package gcpace

import (
	"os"
	"runtime/debug"
)

// LargeTasks is the size, in tasks, from which a run is large: below it the
// heap is a few hundred MB at most and the default pacing is kept.
const LargeTasks = 1 << 20

// LargePercent is the growth target (GOGC) of a large run: the heap may grow
// by a quarter of the live data before a collection.
const LargePercent = 25

// ForTasks sets the collector's growth target for a run of the given number
// of tasks: LargePercent from LargeTasks on, unless the environment sets
// GOGC. It returns the previous target, for restoring it, and whether it
// changed it.
func ForTasks(tasks int) (prev int, changed bool) {
	if tasks < LargeTasks {
		return 0, false
	}
	if _, set := os.LookupEnv("GOGC"); set {
		return 0, false
	}
	return debug.SetGCPercent(LargePercent), true
}
