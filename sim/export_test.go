package sim

import "fmt"

// PendingConsistent reports the first task whose bit in Sim.left disagrees
// with its state (TestPendingBitset).
func PendingConsistent(s *Sim) error {
	for id := range s.tasks {
		if got, want := s.notPending(TaskID(id)), s.tasks[id].state != TaskPending; got != want {
			return fmt.Errorf("task %d is %s but its pending bit says not-pending=%v", id, s.tasks[id].state, got)
		}
	}
	return nil
}
