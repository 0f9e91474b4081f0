// Package cputime measures the CPU time of the process, for benchmarks and
// measurement harnesses: the machines they run on are shared, so wall time
// alone says little about a solver.
package cputime

import (
	"testing"
	"time"
)

// ReportMS reports the CPU time per operation since start (a value of Now)
// as the benchmark metric cpu-ms/op.
func ReportMS(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(Now()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}
