package sim

import "fmt"

// PendingConsistent reports the first task whose bit in Sim.left disagrees
// with its state (TestPendingBitset), the first arrived job whose task
// records are not set up (initTasks), and a chunk of records held or
// recycled against its count of tasks whose job is not done (retire).
func PendingConsistent(s *Sim) error {
	for i := range s.nTasks {
		id := TaskID(i)
		c := id >> taskChunkShift
		if s.chunks[c] == nil {
			if s.chunkLive[c] == 0 {
				// recycled: every job with a task here is done
				if !s.jobs[s.jobOf(id)].done || !s.notPending(id) {
					return fmt.Errorf("task %d's chunk is recycled but its job is not done or its pending bit says pending", id)
				}
			} else if s.notPending(id) || s.jobs[s.jobOf(id)].arrived {
				return fmt.Errorf("task %d's chunk is not allocated but its job arrived or its bit says not pending", id)
			}
			continue
		}
		t := s.task(id)
		if t.kind == KindUnknown {
			// not set up yet (initTasks): pending, its job not arrived
			if s.notPending(id) {
				return fmt.Errorf("task %d is not set up but its pending bit says not pending", id)
			}
			continue
		}
		if got, want := s.notPending(id), t.state != TaskPending; got != want {
			return fmt.Errorf("task %d is %s but its pending bit says not-pending=%v", id, t.state, got)
		}
	}
	for j := range s.jobs {
		if r := &s.jobs[j]; r.arrived && r.nMaps+r.nReds > 0 && (!r.inited || s.rt(TaskID(r.firstMap)).kind == KindUnknown) {
			return fmt.Errorf("job %d arrived but its tasks are not set up", j)
		}
	}
	for c, ch := range s.chunks {
		if (ch == nil) != (s.chunkLive[c] == 0) && (ch != nil || s.anyArrived(c)) {
			return fmt.Errorf("chunk %d: held %v with %d tasks of jobs not done", c, ch != nil, s.chunkLive[c])
		}
	}
	return nil
}

// anyArrived: some job with a task in chunk c has arrived.
func (s *Sim) anyArrived(c int) bool {
	lo := TaskID(c << taskChunkShift)
	hi := TaskID(min(s.nTasks, (c+1)<<taskChunkShift))
	for j := s.jobOf(lo); j < len(s.jobs) && s.jobs[j].firstMap < int32(hi); j++ {
		if s.jobs[j].arrived {
			return true
		}
	}
	return false
}

// TaskChunks reports the chunks of task records allocated over the run
// (not recycled ones) and those held now (TestTaskRecordsRecycled).
func TaskChunks(s *Sim) (allocated, held int) {
	for _, ch := range s.chunks {
		if ch != nil {
			held++
		}
	}
	return s.newChunks, held
}
