package sim

import (
	"slices"
)

// InstantEnder is implemented by a policy that batches its callbacks (an
// external process speaking the protocol of docs/protocol.md): EndInstant
// runs once all events and offers of an instant are done, before time moves
// on, so that the events it has queued reach the policy at their own
// instant. Its actions apply at that instant; in ideal mode the offer round
// runs again if they woke nodes.
type InstantEnder interface {
	EndInstant(s *Sim)
}

// Closer is implemented by a policy that holds resources (an external
// process). Run calls Close once the run ends, whatever its outcome (also
// after a failing Init); a Close error fails the run.
type Closer interface {
	Close(s *Sim) error
}

// Abort stops the run after the current callback: Run returns err and no
// result. A policy calls it when it cannot go on (its external process
// crashed or broke the protocol); an invalid action alone never stops a run.
func (s *Sim) Abort(err error) {
	if s.abortErr == nil {
		s.abortErr = err
	}
}

// NeedMaps is the number of job j's maps that must be done before its
// reduces may launch (the slow-start condition of JobView.ReducesEligible).
func (s *Sim) NeedMaps(j int) int { return int(s.jobs[j].needMaps) }

// Demand is task t's RAM and disk demand, what Fits compares with a node's
// limits (a policy outside the process checks Fits itself).
func (s *Sim) Demand(id TaskID) (ram, disk float64) {
	s.rt(id) // spec reads the task's record
	spec := s.spec(id)
	return spec.RAM(), spec.Disk()
}

// NodeOffer is one node of a batched offer and its free slots when the
// batch was made.
type NodeOffer struct {
	Node int
	Free Free
}

// BatchOfferer is implemented by a policy that takes the offers of one pass
// of an ideal-mode offer round at once (an external process: one message per
// batch instead of one per node). OfferBatch gets, in node-id order, nodes
// the pass would offer, with their free slots before any of the batch's
// actions; the policy serves them in that order, so that its actions are the
// ones sequential Offer calls would have made. A node that a sequential pass
// would have skipped because the launches before it used up all launchable
// work can be in the batch: the policy must skip it too (offer only a node
// whose free slots some launchable or suspended task could use). Kills and
// suspends that free slots lead to another pass, as for Offer. Heartbeat
// offers (hadoop1 mode) still come one by one through Offer.
type BatchOfferer interface {
	OfferBatch(s *Sim, offers []NodeOffer)
}

// offerBatches is offerRound for a BatchOfferer. A wake's pass goes over
// the nodes in id order in chunks, each just big enough that its free slots
// could take all the work that can launch now, and stops once nothing can
// (a sequential pass stops there too: the nodes after it would be skipped);
// the nodes freed by task ends come in one batch.
func (s *Sim) offerBatches(b BatchOfferer) {
	for s.abortErr == nil {
		switch {
		case s.wakeAll:
			s.wakeAll = false
			for _, x := range s.dirty {
				s.nodes[x].dirty = false
			}
			s.dirty = s.dirty[:0]
			for x := 0; x < len(s.nodes) && !s.noWork() && s.abortErr == nil; {
				batch := s.batchScr[:0]
				need, have := s.work[Map]+s.work[Reduce]+s.work[KindUnknown], 0
				for ; x < len(s.nodes) && have < need; x++ {
					if s.offerable(x) {
						f := s.free(x)
						batch = append(batch, NodeOffer{x, f})
						have += s.usableSlots(f)
					}
				}
				s.sendBatch(b, batch)
			}
		case len(s.dirty) > 0:
			slices.Sort(s.dirty)
			batch := s.batchScr[:0]
			for _, x := range s.dirty {
				s.nodes[x].dirty = false
				if s.offerable(int(x)) {
					batch = append(batch, NodeOffer{int(x), s.free(int(x))})
				}
			}
			// nodes that the batch's actions free again come in the next pass
			s.dirty = s.dirty[:0]
			s.sendBatch(b, batch)
		default:
			return
		}
	}
}

// usableSlots counts the free slots in f that the launchable work could use
// (a chunk's size only: the policy decides what runs).
func (s *Sim) usableSlots(f Free) int {
	if f.Fungible {
		return f.Map
	}
	n := 0
	if s.work[Map] > 0 || s.work[KindUnknown] > 0 {
		n += f.Map
	}
	if s.work[Reduce] > 0 || s.work[KindUnknown] > 0 {
		n += f.Reduce
	}
	return n
}

func (s *Sim) sendBatch(b BatchOfferer, batch []NodeOffer) {
	s.batchScr = batch
	if len(batch) == 0 {
		return
	}
	s.offers += int64(len(batch))
	t0 := ticks()
	b.OfferBatch(s, batch)
	s.clock.add(t0)
}

// offerable: offer would call the policy for node x.
func (s *Sim) offerable(x int) bool {
	return s.hasFree(x) && (s.opt.LiteralHeartbeats || s.usable(x))
}
