package simclock

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/sim"
)

// TestClock: times up to MaxSeconds convert to rounded milliseconds; the
// first one beyond (or NaN) is kept as bad input naming its field and
// value, and later ones do not replace it.
func TestClock(t *testing.T) {
	c := Clock{File: "s.json"}
	if got := c.At("a", 1.2345); got != 1235 {
		t.Errorf("1.2345 s = %d ms", got)
	}
	if got := c.At("a", MaxSeconds); got != sim.Time(MaxSeconds*1000) || c.Err() != nil {
		t.Errorf("MaxSeconds = %d ms, %v", got, c.Err())
	}
	c.At("jobs[0].arrival", 1e308)
	c.At("jobs[1].arrival", math.NaN())
	err := c.Err()
	if !errors.Is(err, badinput.Err) || err.Error() != "s.json: jobs[0].arrival: 1e+308 s is too large: the simulator's clock takes times up to 1e+12 s" {
		t.Errorf("Err = %v", err)
	}
	for _, v := range []float64{math.NaN(), math.Inf(1), -1e20} {
		c := Clock{}
		c.At("x", v)
		if c.Err() == nil || !strings.Contains(c.Err().Error(), "x: ") {
			t.Errorf("%v: %v", v, c.Err())
		}
	}
}
