package sim_test

import (
	"testing"
	"time"

	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
)

// sleepy is FIFO whose first few offers sleep: a known least time inside
// the callbacks.
type sleepy struct {
	*fifo.Policy
	left int
	nap  time.Duration
}

func (p *sleepy) Offer(s *sim.Sim, x int, f sim.Free) {
	if p.left > 0 {
		p.left--
		time.Sleep(p.nap)
	}
	p.Policy.Offer(s, x, f)
}

// TestOverheadIsCallbackTime: Result.Overhead is the wall time inside the
// policy's callbacks, whichever clock measures it (clock.go): at least the
// sleeps of the offers that slept, and at most the run's wall time. A
// counter summed but not converted to nanoseconds (or converted by a wrong
// ratio) breaks one side or the other: the sleeps are most of the run.
func TestOverheadIsCallbackTime(t *testing.T) {
	for _, hb := range []sim.Time{0, 3000} {
		const naps, nap = 5, 4 * time.Millisecond
		opt := sim.DefaultOptions()
		opt.Heartbeat = hb
		res, err := sim.Run(many(), &sleepy{Policy: fifo.New(), left: naps, nap: nap}, opt)
		if err != nil {
			t.Fatal(err)
		}
		if res.Offers < naps {
			t.Fatalf("heartbeat %d: %d offers, the test needs %d", hb, res.Offers, naps)
		}
		if res.Overhead < naps*nap || res.Overhead > res.Wall {
			t.Errorf("heartbeat %d: overhead %v, want between the sleeps' %v and the run's wall time %v", hb, res.Overhead, naps*nap, res.Wall)
		}
	}
}
