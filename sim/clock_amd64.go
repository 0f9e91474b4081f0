package sim

// rdtsc reads the time-stamp counter (clock_amd64.s).
func rdtsc() uint64

// cpuid runs CPUID with leaf in EAX and 0 in ECX (clock_amd64.s).
func cpuid(leaf uint32) (eax, edx uint32)

// haveTSC: the CPU says its time-stamp counter is invariant (CPUID leaf
// 0x80000007, EDX bit 8), so that it ticks at one rate whatever the power
// state and its ticks measure time.
var haveTSC = func() bool {
	maxExt, _ := cpuid(0x80000000)
	if maxExt < 0x80000007 {
		return false
	}
	_, edx := cpuid(0x80000007)
	return edx&(1<<8) != 0
}()
