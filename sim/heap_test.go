package sim

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestEventHeapOrder pushes and pops seeded random events (few distinct
// times and kinds, so most comparisons are ties) and asserts that every pop
// is the least remaining event by (time, kind, push order), the order the
// engine documents for simultaneous events, against a sorted reference.
func TestEventHeapOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 30))
	var h eventHeap
	var ref []event
	seq := uint64(0)
	for step := range 20000 {
		if len(ref) == 0 || rng.IntN(3) > 0 {
			seq++
			e := event{at: Time(rng.IntN(20)), ord: evOrd(evKind(rng.IntN(4))) | seq, a: int32(step)}
			h.push(e)
			ref = append(ref, e)
			continue
		}
		got := h.pop()
		i := 0
		for k := range ref {
			r, b := ref[k], ref[i]
			if r.at < b.at || r.at == b.at && (r.kind() < b.kind() || r.kind() == b.kind() && r.ord&(1<<ordShift-1) < b.ord&(1<<ordShift-1)) {
				i = k
			}
		}
		if got != ref[i] {
			t.Fatalf("step %d: popped %+v, want %+v", step, got, ref[i])
		}
		ref = slices.Delete(ref, i, i+1)
		if len(h) != len(ref) {
			t.Fatalf("step %d: heap holds %d events, want %d", step, len(h), len(ref))
		}
	}
}

// BenchmarkEventHeapHold is the engine's steady state on a 600-node day:
// about 3,000 pending events, each pop followed by a push a random
// duration later (the hold model).
func BenchmarkEventHeapHold(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	var h eventHeap
	seq := uint64(0)
	for range 3000 {
		seq++
		h.push(event{at: Time(rng.IntN(60000)), ord: evOrd(evTaskEnd) | seq})
	}
	dts := make([]Time, 1<<16)
	for i := range dts {
		dts[i] = Time(rng.IntN(60000))
	}
	b.ResetTimer()
	for i := range b.N {
		e := h.pop()
		seq++
		e.at += dts[i&(1<<16-1)]
		e.ord = evOrd(evTaskEnd) | seq
		h.push(e)
	}
}

// TestEventQueueOrder is TestEventHeapOrder for the engine's queue, whose
// runs hold consecutive task ends of one instant in one heap entry: seeded
// random pushes never before the last pop (the engine never schedules into
// the past), many of them task ends at the time of the previous push (runs,
// also pushed while a run is being popped), each pop checked against
// the least remaining event of a sorted reference, event for event. It
// also asserts that runs form (fewer heap entries than events), so that it
// fails if the queue stopped joining them as well as if it joined wrongly.
func TestEventQueueOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 31))
	q := newEventQueue(0)
	var ref []event
	seq := uint64(0)
	prevAt, now := Time(0), Time(0)
	joined := 0
	for step := range 50000 {
		if len(ref) == 0 || rng.IntN(5) > 1 {
			seq++
			at, k := now+Time(rng.IntN(20)), evKind(rng.IntN(4))
			if rng.IntN(2) == 0 && prevAt >= now {
				at, k = prevAt, evTaskEnd // likely to join a run
			}
			prevAt = at
			e := event{at: at, ord: evOrd(k) | seq, a: int32(step), epoch: uint32(rng.IntN(3))}
			if k != evTaskEnd {
				e.tag = int64(rng.IntN(3)) // timers' and heartbeats' tags pass through
			}
			q.push(e)
			ref = append(ref, e)
			if len(q.h) < len(ref) {
				joined++
			}
			continue
		}
		if q.empty() {
			t.Fatalf("step %d: queue empty with %d events left", step, len(ref))
		}
		at, kind := q.min()
		got := q.pop()
		i := 0
		for k := range ref {
			if ref[k].less(&ref[i]) {
				i = k
			}
		}
		if got != ref[i] || at != got.at || kind != got.kind() {
			t.Fatalf("step %d: min (%d, %d), popped %+v, want %+v", step, at, kind, got, ref[i])
		}
		ref = slices.Delete(ref, i, i+1)
		now = got.at
	}
	for len(ref) > 0 {
		got := q.pop()
		i := 0
		for k := range ref {
			if ref[k].less(&ref[i]) {
				i = k
			}
		}
		if got != ref[i] {
			t.Fatalf("drain: popped %+v, want %+v", got, ref[i])
		}
		ref = slices.Delete(ref, i, i+1)
	}
	if !q.empty() {
		t.Fatal("queue not empty after the last event")
	}
	if joined < 1000 {
		t.Fatalf("only %d pushes found the queue holding fewer entries than events: runs are not formed", joined)
	}
}
