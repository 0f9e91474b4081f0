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

func (h *eventHeap) push(e event) {
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
