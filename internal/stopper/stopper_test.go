package stopper

import (
	"context"
	"testing"
	"time"

	"github.com/mrbound/mrbound/solve"
)

func TestStopperReasons(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s := New(ctx, time.Now(), 0)
	for i := 0; i < 3*PollEvery; i++ {
		if s.Tick() {
			t.Fatalf("stopped at tick %d with a live context and no limit", i)
		}
	}
	cancel()
	n := 0
	for !s.Tick() {
		n++
	}
	if n >= PollEvery || s.Status() != solve.Interrupted {
		t.Errorf("cancelled: stop after %d ticks with status %v, want < %d and interrupted", n, s.Status(), PollEvery)
	}
	if !s.Tick() || !s.Stopped() {
		t.Error("a stop seen once must be kept")
	}

	s = New(context.Background(), time.Now(), time.Nanosecond)
	time.Sleep(time.Millisecond)
	if !s.Poll() || s.Status() != solve.TimeLimit {
		t.Errorf("past a 1 ns limit: status %v, want time_limit", s.Status())
	}

	var none *Stopper
	if none.Tick() || none.Poll() || none.Stopped() || none.Status() != solve.StatusUnknown {
		t.Error("a nil Stopper must never stop")
	}
}
