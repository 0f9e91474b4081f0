package sim

import "fmt"

// PendingConsistent reports the first task whose bit in Sim.left disagrees
// with its state (TestPendingBitset), and the first arrived job whose task
// records are not set up (initTasks).
func PendingConsistent(s *Sim) error {
	for id := range s.tasks {
		if s.tasks[id].kind == KindUnknown {
			// not set up yet (initTasks): pending, its job not arrived
			if s.notPending(TaskID(id)) {
				return fmt.Errorf("task %d is not set up but its pending bit says not pending", id)
			}
			continue
		}
		if got, want := s.notPending(TaskID(id)), s.tasks[id].state != TaskPending; got != want {
			return fmt.Errorf("task %d is %s but its pending bit says not-pending=%v", id, s.tasks[id].state, got)
		}
	}
	for j := range s.jobs {
		if r := &s.jobs[j]; r.arrived && (!r.inited || s.tasks[r.firstMap].kind == KindUnknown) {
			return fmt.Errorf("job %d arrived but its tasks are not set up", j)
		}
	}
	return nil
}
