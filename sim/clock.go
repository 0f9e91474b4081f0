package sim

import "time"

// The callback clock. Result.Overhead is the wall time spent inside the
// policy's callbacks, summed. A day's run makes tens of millions of
// callbacks, and two reads of the monotonic clock around each were a tenth
// of the engine's time on a virtual machine (kvm-clock through the vDSO,
// about 37 ns a read). Where the CPU has an invariant time-stamp counter
// (constant rate in every power state, the property that lets an operating
// system keep time with it) the engine reads the counter instead (about
// 12 ns), sums the ticks and converts the sum to nanoseconds once, at the
// end of the run, by the ratio of the monotonic clock's span to the
// counter's span over the same run. The figure keeps its meaning — wall
// time inside the callbacks — only its measuring stick changes. Elsewhere
// (another architecture, or no invariant counter) the ticks are monotonic
// nanoseconds and the ratio is 1.

// clockBase anchors mono: time.Since reads only the monotonic clock,
// time.Now the wall clock too.
var clockBase = time.Now()

// mono is the monotonic time since clockBase.
func mono() time.Duration { return time.Since(clockBase) }

// ticks reads the callback clock: the time-stamp counter where it is
// invariant (haveTSC), else monotonic nanoseconds.
func ticks() int64 {
	if haveTSC {
		return int64(rdtsc())
	}
	return int64(mono())
}

// callbackClock sums the ticks spent inside callbacks over one run.
type callbackClock struct {
	inside       int64 // ticks inside callbacks
	mono0, tick0 int64 // both clocks at the start of the run
}

func (c *callbackClock) begin() {
	c.mono0, c.tick0 = int64(mono()), ticks()
}

// add counts the ticks since t0 (a ticks reading before the callback). A
// negative difference (a counter read on another core, were the cores'
// counters ever apart) counts nothing.
func (c *callbackClock) add(t0 int64) {
	if d := ticks() - t0; d > 0 {
		c.inside += d
	}
}

// total is the time inside callbacks so far.
func (c *callbackClock) total() time.Duration {
	if !haveTSC {
		return time.Duration(c.inside)
	}
	dm, dt := int64(mono())-c.mono0, ticks()-c.tick0
	if dm <= 0 || dt <= 0 {
		return 0
	}
	return time.Duration(float64(c.inside) * float64(dm) / float64(dt))
}
