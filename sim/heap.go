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

// event is value-typed; the heap never allocates once grown.
type event struct {
	at    Time
	seq   uint64
	kind  evKind
	a     int32 // task, job or node
	epoch uint32
	tag   int64
}

func (e *event) less(f *event) bool {
	if e.at != f.at {
		return e.at < f.at
	}
	if e.kind != f.kind {
		return e.kind < f.kind
	}
	return e.seq < f.seq
}

type eventHeap []event

func (h *eventHeap) push(e event) {
	*h = append(*h, e)
	q := *h
	i := len(q) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !q[i].less(&q[p]) {
			break
		}
		q[i], q[p] = q[p], q[i]
		i = p
	}
}

func (h *eventHeap) pop() event {
	q := *h
	top := q[0]
	n := len(q) - 1
	q[0] = q[n]
	q = q[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && q[r].less(&q[l]) {
			m = r
		}
		if !q[m].less(&q[i]) {
			break
		}
		q[i], q[m] = q[m], q[i]
		i = m
	}
	*h = q
	return top
}
