//go:build !amd64

package sim

// haveTSC is false off amd64: the callback clock reads the monotonic clock.
const haveTSC = false

func rdtsc() uint64 { return 0 }
