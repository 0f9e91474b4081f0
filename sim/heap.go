package sim

// evKind is an event type. Its value is also the processing order at equal
// timestamps (§1.5): task ends, then arrivals, then timers, then heartbeats.
type evKind uint8

const (
	evTaskEnd evKind = iota
	evArrival
	evTimer
	evHeartbeat
)

// ordShift places an event's kind above its sequence number in event.ord,
// so that one comparison orders equal timestamps by kind, then by push
// order. 2^56 pushes are beyond any run.
const ordShift = 56

// event is value-typed and 32 bytes; the heap never allocates once grown.
type event struct {
	at    Time
	ord   uint64 // kind << ordShift | push sequence number (Sim.push)
	a     int32  // task, job or node
	epoch uint32
	tag   int64
}

func (e *event) kind() evKind { return evKind(e.ord >> ordShift) }

func (e *event) less(f *event) bool {
	return e.at < f.at || e.at == f.at && e.ord < f.ord
}

// eventHeap is a 4-ary min-heap: half the depth of a binary heap, and the
// four children of a node share a cache line or two, which matters when a
// day's run pops tens of millions of events. The order of the pops is the
// total order of less (ord is unique), whatever the heap's shape.
type eventHeap []event

// push adds e and returns its index in the heap after the sift.
func (h *eventHeap) push(e event) int {
	*h = append(*h, e)
	q := *h
	i := len(q) - 1
	for i > 0 {
		p := (i - 1) / 4
		if !e.less(&q[p]) {
			break
		}
		q[i] = q[p]
		i = p
	}
	q[i] = e
	return i
}

func (h *eventHeap) pop() event {
	q := *h
	top := q[0]
	n := len(q) - 1
	last := q[n]
	q = q[:n]
	*h = q
	if n == 0 {
		return top
	}
	i := 0
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		for k := c + 1; k < c+4 && k < n; k++ {
			if q[k].less(&q[m]) {
				m = k
			}
		}
		if !q[m].less(&last) {
			break
		}
		q[i] = q[m]
		i = m
	}
	q[i] = last
	return top
}

// evOrd is the ord of a new event of kind k; Sim.push adds the sequence
// number.
func evOrd(k evKind) uint64 { return uint64(k) << ordShift }

// eventQueue is the engine's event queue: the heap, with the task ends of
// one instant pushed one after another kept in one heap entry (a run). Each
// launch pushes its task's end; the launches of one offer on a node, and in
// ideal mode of a whole offer round, mostly end at the same instant (equal
// durations: a SWIM day's full blocks), and their ends are consecutive in
// the total order — the same time and kind, consecutive push numbers, so no
// other event can fall between them. Keeping them in one entry pops them
// in that order with one heap operation: on FB-2009 day 0 at 4-MB blocks it
// saves a third of the heap's pushes and pops with 3-s heartbeats, nearly
// all of them in ideal mode (docs/results.md, issue 30, s12engine).
type eventQueue struct {
	h eventHeap
	// last is the heap index of the most recent push while no heap
	// operation followed it (a later task end may join its run), else -1.
	last int
	// runs[k] holds the task ends after the first of the run whose heap
	// entry has tag k+1 (the first is the entry itself: a and epoch).
	runs     [][]endItem
	freeRuns []int32
	// held is the rest of the run being popped: runs[held][pos:], at time
	// heldAt, push numbers from heldSeq on; held < 0 when none.
	held    int32
	pos     int
	heldAt  Time
	heldSeq uint64
}

// endItem is a task end inside a run.
type endItem struct {
	task  int32
	epoch uint32
}

func newEventQueue(capacity int) eventQueue {
	return eventQueue{h: make(eventHeap, 0, capacity), last: -1, held: -1}
}

// empty reports whether no event is queued.
func (q *eventQueue) empty() bool { return q.held < 0 && len(q.h) == 0 }

// min is the least queued event's time and kind; the queue must not be
// empty.
func (q *eventQueue) min() (Time, evKind) {
	if q.held >= 0 {
		return q.heldAt, evTaskEnd
	}
	return q.h[0].at, q.h[0].kind()
}

// push adds e, whose ord carries its push number (one more than the
// previous push's) and whose time is not before the last event popped (the
// engine schedules nothing in the past: so a run being popped stays the
// least of the queue, ahead of any event pushed meanwhile). A task end at the time of the task end pushed just
// before it, with no pop since, joins that one's run.
func (q *eventQueue) push(e event) {
	if e.kind() == evTaskEnd && q.last >= 0 {
		p := &q.h[q.last]
		if p.kind() == evTaskEnd && p.at == e.at {
			var k int32
			if p.tag == 0 {
				if n := len(q.freeRuns); n > 0 {
					k = q.freeRuns[n-1]
					q.freeRuns = q.freeRuns[:n-1]
				} else {
					k = int32(len(q.runs))
					q.runs = append(q.runs, nil)
				}
				p.tag = int64(k) + 1
			} else {
				k = int32(p.tag - 1)
			}
			// the run's push numbers are consecutive: p's, then one per
			// item (the caller numbers every push)
			q.runs[k] = append(q.runs[k], endItem{e.a, e.epoch})
			return
		}
	}
	q.last = q.h.push(e)
}

// pop removes and returns the least event; the queue must not be empty.
func (q *eventQueue) pop() event {
	q.last = -1
	if q.held >= 0 {
		r := q.runs[q.held]
		it := r[q.pos]
		e := event{at: q.heldAt, ord: evOrd(evTaskEnd) | (q.heldSeq + uint64(q.pos)), a: it.task, epoch: it.epoch}
		q.pos++
		if q.pos == len(r) {
			q.runs[q.held] = r[:0]
			q.freeRuns = append(q.freeRuns, q.held)
			q.held = -1
		}
		return e
	}
	e := q.h.pop()
	if e.kind() == evTaskEnd && e.tag != 0 {
		q.held, q.pos = int32(e.tag-1), 0
		q.heldAt, q.heldSeq = e.at, e.ord&(1<<ordShift-1)+1
		e.tag = 0
	}
	return e
}
