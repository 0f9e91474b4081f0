package report

import (
	"bufio"
	"fmt"
	"io"

	"github.com/mrbound/mrbound/sim"
)

// TraceWriter is a sim.TraceSink that writes the trace as WriteTrace does,
// the same bytes, while the run goes: a row goes out once its record and
// every earlier one are final (rows stay in trace order, which is launch
// order), so it holds only the records that ended while an earlier one
// still ran, in a ring that grows to the widest such window.
type TraceWriter struct {
	bw   *bufio.Writer
	err  error
	line []byte
	// ring holds records next … next+pending-1 from position head; ready
	// says which are final.
	ring    []sim.Attempt
	ready   []bool
	head    int
	next    int // the next index to write
	pending int
}

// NewTraceWriter writes the header to w and returns the sink.
func NewTraceWriter(w io.Writer) *TraceWriter {
	t := &TraceWriter{bw: bufio.NewWriterSize(w, 1<<16), line: make([]byte, 0, 160),
		ring: make([]sim.Attempt, 1024), ready: make([]bool, 1024)}
	_, t.err = t.bw.WriteString(traceHeader)
	return t
}

// Begin implements sim.TraceSink.
func (t *TraceWriter) Begin(int, []int32) {}

// Launched implements sim.TraceSink.
func (t *TraceWriter) Launched(i int, _ *sim.Attempt) {
	if i != t.next+t.pending {
		t.fail(fmt.Errorf("report: trace record %d launched where %d was due", i, t.next+t.pending))
		return
	}
	if t.pending == len(t.ring) {
		t.grow()
	}
	t.ready[(t.head+t.pending)%len(t.ring)] = false
	t.pending++
}

// grow doubles the ring, its records from position 0.
func (t *TraceWriter) grow() {
	n := len(t.ring)
	ring := make([]sim.Attempt, 2*n)
	ready := make([]bool, 2*n)
	k := copy(ring, t.ring[t.head:])
	copy(ring[k:], t.ring[:t.head])
	k = copy(ready, t.ready[t.head:])
	copy(ready[k:], t.ready[:t.head])
	t.ring, t.ready, t.head = ring, ready, 0
}

// Ended implements sim.TraceSink.
func (t *TraceWriter) Ended(i int, a *sim.Attempt) {
	k := i - t.next
	if k < 0 || k >= t.pending {
		t.fail(fmt.Errorf("report: trace record %d ended, not running", i))
		return
	}
	p := (t.head + k) % len(t.ring)
	t.ring[p], t.ready[p] = *a, true
	for t.pending > 0 && t.ready[t.head] {
		t.line = appendRow(t.line[:0], &t.ring[t.head])
		if _, err := t.bw.Write(t.line); err != nil {
			t.fail(err)
		}
		t.ready[t.head] = false
		t.head = (t.head + 1) % len(t.ring)
		t.next++
		t.pending--
	}
}

func (t *TraceWriter) fail(err error) {
	if t.err == nil {
		t.err = err
	}
}

// Close flushes the rows and returns the first error (a write's, or a
// record that never ended: the run did not finish its trace).
func (t *TraceWriter) Close() error {
	if t.err == nil && t.pending > 0 {
		t.err = fmt.Errorf("report: trace record %d never ended", t.next)
	}
	if t.err != nil {
		return t.err
	}
	return t.bw.Flush()
}
