package sim_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/mrbound/mrbound/policy/fair"
	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/simtest"
)

// batched serves OfferBatch by calling the wrapped policy's Offer for each
// node in order, with the node's free slots at that moment: what a client
// of the external protocol does.
type batched struct {
	sim.Policy
	batches, offers int
}

func (b *batched) OfferBatch(s *sim.Sim, offers []sim.NodeOffer) {
	b.batches++
	for _, o := range offers {
		b.offers++
		b.Offer(s, o.Node, s.Free(o.Node))
	}
}

// TestBatchOffererSameTrace: batched offer passes give every conformance
// case the trace of sequential offers, for FIFO and Fair (which sets timers
// and waits for locality), and in ideal mode they take fewer calls.
func TestBatchOffererSameTrace(t *testing.T) {
	for _, newPolicy := range []func() sim.Policy{
		func() sim.Policy { return fifo.New() },
		func() sim.Policy { return fair.New() },
	} {
		batches, sequential := 0, int64(0)
		for _, c := range simtest.Cases() {
			want, err := sim.Run(c.Workload, newPolicy(), c.Options)
			if err != nil {
				t.Fatal(err)
			}
			b := &batched{Policy: newPolicy()}
			got, err := sim.Run(c.Workload, b, c.Options)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Trace, want.Trace) {
				t.Errorf("%s %s: batched offers change the trace", want.Policy, c.Name)
			}
			if c.Options.Heartbeat == 0 {
				batches, sequential = batches+b.batches, sequential+want.Offers
			}
		}
		if batches == 0 || int64(batches) >= sequential {
			t.Errorf("%d batches for %d sequential offers in ideal mode", batches, sequential)
		}
		t.Logf("ideal mode: %d batches for %d sequential offers", batches, sequential)
	}
}

// aborter stops the run at its third offer and counts its Close calls.
type aborter struct {
	sim.Policy
	offers, closes int
	initErr        error
}

var errStop = errors.New("stop here")

func (a *aborter) Init(s *sim.Sim) error {
	if a.initErr != nil {
		return a.initErr
	}
	return a.Policy.Init(s)
}

func (a *aborter) Offer(s *sim.Sim, x int, f sim.Free) {
	if a.offers++; a.offers == 3 {
		s.Abort(errStop)
		return
	}
	a.Policy.Offer(s, x, f)
}

func (a *aborter) Close(*sim.Sim) error { a.closes++; return nil }

// TestAbortAndClose: Abort ends the run with its error and no result; Close
// runs once after a run, an aborted run and a failing Init.
func TestAbortAndClose(t *testing.T) {
	c := simtest.Cases()[2] // random/ideal: many offers
	a := &aborter{Policy: fifo.New()}
	res, err := sim.Run(c.Workload, a, c.Options)
	if !errors.Is(err, errStop) || res != nil {
		t.Errorf("aborted run: %v, %v; want errStop and no result", res, err)
	}
	if a.offers != 3 || a.closes != 1 {
		t.Errorf("aborted run: %d offers (want 3: none after the abort), %d closes (want 1)", a.offers, a.closes)
	}
	a = &aborter{Policy: fifo.New(), initErr: errors.New("no")}
	if _, err := sim.Run(c.Workload, a, c.Options); err == nil || a.closes != 1 {
		t.Errorf("failing Init: %v, %d closes; want an error and 1 close", err, a.closes)
	}
	a = &aborter{Policy: fifo.New()}
	a.offers = 3 // never aborts
	if _, err := sim.Run(c.Workload, a, c.Options); err != nil || a.closes != 1 {
		t.Errorf("whole run: %v, %d closes; want 1 close", err, a.closes)
	}
}
