//go:build !unix

package model

// cpuTime is unavailable here; benchmarks then report 0 CPU time.
func cpuTime() int64 { return 0 }
