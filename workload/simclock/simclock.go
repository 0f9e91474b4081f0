package simclock

import (
	"fmt"
	"math"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/sim"
)

// MaxSeconds is the largest time, in seconds, a scenario may give the
// simulator: 10¹² s (about 31,700 years) is 10¹⁵ ms, far inside int64
// milliseconds, so sums of a few thousand such times cannot overflow. The
// SWIM reader uses the same bound.
const MaxSeconds = 1e12

// Clock converts a scenario's times in seconds to the simulator's
// milliseconds and keeps the first that does not fit, with its field:
// converting 1e308 s straight to int64 would wrap to a negative time and
// be reported against the wrong field, as a negative arrival.
type Clock struct {
	// File names the scenario in errors.
	File string
	err  error
}

// At converts s seconds; path names the field (jobs[3].arrival).
func (c *Clock) At(path string, s float64) sim.Time {
	if math.IsNaN(s) || math.Abs(s) > MaxSeconds {
		if c.err == nil {
			c.err = &badinput.PathError{File: c.File, Path: path,
				Problem: fmt.Sprintf("%v s is too large: the simulator's clock takes times up to %v s", s, MaxSeconds)}
		}
		return 0
	}
	return sim.FromSeconds(s)
}

// Err is the first time that did not fit, as bad input naming its field,
// or nil.
func (c *Clock) Err() error { return c.err }
