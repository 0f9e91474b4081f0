//go:build !unix

package mip

// cpuTime is not measured off unix.
func cpuTime() int64 { return 0 }
