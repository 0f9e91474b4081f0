package sim

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
	spec := s.spec(id)
	return spec.RAM, spec.Disk
}
