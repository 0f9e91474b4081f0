package simtest

import "github.com/mrbound/mrbound/sim"

// Starver is a deliberately wrong policy: a FIFO that never launches the
// reduces of even-numbered jobs, so they never complete. The suite must fail
// it.
type Starver struct{ queue []int }

// Name is "starver".
func (p *Starver) Name() string { return "starver" }

// Init resets the queue.
func (p *Starver) Init(*sim.Sim) error { p.queue = nil; return nil }

// JobArrival queues j.
func (p *Starver) JobArrival(_ *sim.Sim, j int) { p.queue = append(p.queue, j) }

// TaskEnd does nothing.
func (p *Starver) TaskEnd(*sim.Sim, sim.TaskID, sim.Time) {}

// Timer does nothing.
func (p *Starver) Timer(*sim.Sim, int64) {}

// Offer fills the slots in arrival order, skipping even jobs' reduces.
func (p *Starver) Offer(s *sim.Sim, x int, free sim.Free) {
	for _, j := range p.queue {
		for free.Map > 0 {
			t, _, ok := s.PickMap(j, x)
			if !ok || !s.Fits(t, x) || s.Launch(t, x) != nil {
				break
			}
			free.Map--
			if free.Fungible {
				free.Reduce--
			}
		}
		for free.Reduce > 0 && j%2 == 1 {
			t, ok := s.PickReduce(j)
			if !ok || !s.Fits(t, x) || s.Launch(t, x) != nil {
				break
			}
			free.Reduce--
			if free.Fungible {
				free.Map--
			}
		}
	}
}

// Rogue is a deliberately wrong policy that ignores the rules: at every
// offer it tries to launch every pending task of every job on the node,
// reduces before slow-start included. The engine refuses the invalid
// launches and counts them; the suite must fail it.
type Rogue struct{ jobs []int }

// Name is "rogue".
func (p *Rogue) Name() string { return "rogue" }

// Init resets the job list.
func (p *Rogue) Init(*sim.Sim) error { p.jobs = nil; return nil }

// JobArrival records j.
func (p *Rogue) JobArrival(_ *sim.Sim, j int) { p.jobs = append(p.jobs, j) }

// TaskEnd does nothing.
func (p *Rogue) TaskEnd(*sim.Sim, sim.TaskID, sim.Time) {}

// Timer does nothing.
func (p *Rogue) Timer(*sim.Sim, int64) {}

// Offer launches everything it can think of.
func (p *Rogue) Offer(s *sim.Sim, x int, _ sim.Free) {
	for _, j := range p.jobs {
		v := s.Job(j)
		for t := v.FirstMap; t < v.FirstRed+sim.TaskID(v.NumReduces); t++ {
			if s.Task(t).State == sim.TaskPending {
				_ = s.Launch(t, x)
			}
		}
	}
}
