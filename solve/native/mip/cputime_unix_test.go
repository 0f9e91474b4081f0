//go:build unix

package mip

import "syscall"

// cpuTime is the CPU time (user + system) used by the process so far, in
// nanoseconds: wall time on a shared machine says little.
func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
