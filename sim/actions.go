package sim

import "math"

// Launch starts pending task t on node x. It fails (and changes nothing) when
// t is not pending, its job has not arrived, x has no free slot of t's kind,
// a reduce's slow-start condition does not hold, or x's RAM/disk would be
// exceeded.
func (s *Sim) Launch(id TaskID, x int) error {
	if id < 0 || int(id) >= s.nTasks {
		return s.reject("launch: no task %d", id)
	}
	if x < 0 || x >= len(s.nodes) {
		return s.reject("launch: no node %d", x)
	}
	t := s.rt(id)
	r := &s.jobs[t.job]
	n := &s.nodes[x]
	switch {
	case !r.arrived:
		return s.reject("launch: task %d: job %d has not arrived", id, t.job)
	case t.state != TaskPending:
		return s.reject("launch: task %d is %s", id, t.state)
	case t.kind == Reduce && r.mapsDone < r.needMaps:
		return s.reject("launch: reduce %d: %d of %d maps done, slow-start needs %d", id, r.mapsDone, r.nMaps, r.needMaps)
	}
	if err := s.takeSlot(id, x, "launch"); err != nil {
		return err
	}
	d := s.base(id, x)
	zeroMap, zeroRed := int32(0), int32(0)
	if n.zeroAt == s.now {
		zeroMap, zeroRed = n.zeroMap, n.zeroRed
	}
	if t.kind == Map {
		d *= 1 + s.opt.MapContention*float64(n.runMap-zeroMap-1)
	} else {
		d *= 1 + s.opt.ReduceContention*float64(n.runRed-zeroRed-1)
	}
	if s.opt.Noise > 0 {
		d *= 1 + s.opt.Noise*(2*s.rngNoise.Float64()-1)
	}
	dur := Time(math.Round(d))
	local := false
	if t.kind == Map {
		local = s.isLocal(id, x)
		if !local {
			dur += s.w.Cluster.NonLocalPenalty
		}
		r.mapsPending--
	} else {
		r.redsPending--
	}
	t.set(flagLocal, local)
	t.rem = dur
	// a zero-length reduce launched before its job's map phase ends still
	// holds its slot until then: it counts like any other
	zero := dur == 0 && (t.kind == Map || r.mapsDone == r.nMaps)
	t.set(flagZero, zero)
	if zero {
		if n.zeroAt != s.now {
			n.zeroAt, n.zeroMap, n.zeroRed = s.now, 0, 0
		}
		if t.kind == Map {
			n.zeroMap++
		} else {
			n.zeroRed++
		}
	}
	s.work[t.kind]--
	s.setPending(id, false)
	s.startSegment(id, x, false, dur)
	return nil
}

// takeSlot checks and takes a slot of t's kind and its RAM/disk on node x.
func (s *Sim) takeSlot(id TaskID, x int, what string) error {
	t := s.task(id)
	n := &s.nodes[x]
	nd := &s.w.Cluster.Nodes[x]
	fung := s.w.Cluster.Fungible
	if fung && n.freeAny == 0 || !fung && t.kind == Map && n.freeMap == 0 || !fung && t.kind == Reduce && n.freeRed == 0 {
		return s.reject("%s: task %d: node %d has no free %s slot", what, id, x, t.kind)
	}
	// A node's RAM and disk sums are read only where it has a limit, so a
	// node without one skips them, and the spec (a cache miss on a day of
	// millions of tasks) is not read.
	if nd.RAM > 0 || nd.Disk > 0 {
		spec := s.spec(id)
		switch {
		case nd.RAM > 0 && n.ram+spec.RAM() > nd.RAM+capacityTol:
			return s.reject("%s: task %d: node %d RAM %g + %g exceeds %g", what, id, x, n.ram, spec.RAM(), nd.RAM)
		case nd.Disk > 0 && n.disk+spec.Disk() > nd.Disk+capacityTol:
			return s.reject("%s: task %d: node %d disk %g + %g exceeds %g", what, id, x, n.disk, spec.Disk(), nd.Disk)
		}
		n.ram += spec.RAM()
		n.disk += spec.Disk()
	}
	if t.kind == Map {
		n.runMap++
		s.jobs[t.job].runMaps++
	} else {
		n.runRed++
		s.jobs[t.job].runReds++
	}
	switch {
	case fung:
		n.freeAny--
	case t.kind == Map:
		n.freeMap--
	default:
		n.freeRed--
	}
	return nil
}

// capacityTol absorbs float rounding in RAM/disk sums (units of the workload).
const capacityTol = 1e-9

func (s *Sim) isLocal(id TaskID, x int) bool {
	for _, r := range s.replicas[int(id)*s.rep : int(id+1)*s.rep] {
		if int(r) == x {
			return true
		}
	}
	return false
}

// startSegment records a new trace segment of t on x (slot already taken),
// of an attempt of true duration dur, and schedules its end when known.
func (s *Sim) startSegment(id TaskID, x int, resumed bool, dur Time) {
	t := s.task(id)
	r := &s.jobs[t.job]
	s.taskEvents++
	s.lastActive = s.now
	s.changed()
	t.state = TaskRunning
	t.node = int32(x)
	t.launch = s.now
	t.set(flagEndKnown, false)
	t.runIdx = int32(len(s.running))
	s.running = append(s.running, id)
	if resumed {
		s.dropRecord(t.attempt) // the suspended attempt's (dur came from it)
	}
	t.attempt = s.newRecord(Attempt{
		Task: id, Job: t.job, Kind: t.kind, Index: s.index(id), Node: int32(x),
		Launch: s.now, Start: s.now, End: -1, Duration: dur, Local: t.has(flagLocal), Resumed: resumed,
	})
	if t.kind == Map || r.mapsDone == r.nMaps {
		s.setEnd(id, s.now+t.rem)
	}
}

// stop ends t's running segment at now with outcome o; it returns the work
// done in the segment.
func (s *Sim) stop(id TaskID, o Outcome) Time {
	t := s.task(id)
	x := int(t.node)
	worked := Time(0)
	if t.has(flagEndKnown) {
		if workStart := s.segEnd(t) - t.rem; s.now > workStart {
			worked = s.now - workStart
		}
	}
	s.leaveSlot(id, worked, o)
	t.epoch++ // its TaskEnd event is stale now
	t.set(flagEndKnown, false)
	s.taskEvents++
	s.slotFreed(x, false)
	return worked
}

// Kill stops running or suspended task t: its work is lost, it is pending
// again and its slot (if any) frees at once (§1.7).
func (s *Sim) Kill(id TaskID) error {
	if id < 0 || int(id) >= s.nTasks {
		return s.reject("kill: no task %d", id)
	}
	t := s.rt(id)
	switch t.state {
	case TaskRunning:
		s.stop(id, Killed)
		s.work[t.kind]++
		s.wake()
	case TaskSuspended:
		// a zero-length record tells the trace that the kept progress is lost
		s.taskEvents++
		s.changed()
		a := Attempt{Task: id, Job: t.job, Kind: t.kind, Index: s.index(id), Node: t.node,
			Launch: s.now, Start: s.now, End: s.now, Duration: s.attemptDur(t), Outcome: Killed, Local: t.has(flagLocal), Resumed: true}
		if s.sink == nil {
			s.trace = append(s.trace, a)
		} else {
			s.dropRecord(t.attempt)
			k := s.newRecord(a)
			s.recordEnded(k, false)
		}
		s.work[KindUnknown]--
		s.work[t.kind]++
		defer s.wake() // it may now run on any node
	default:
		return s.reject("kill: task %d is %s", id, t.state)
	}
	t.state = TaskPending
	s.setPending(id, true)
	t.node = -1
	r := &s.jobs[t.job]
	if t.kind == Map {
		r.mapsPending++
		r.mapCursor = min(r.mapCursor, s.index(id))
		for _, x := range s.replicas[int(id)*s.rep : int(id+1)*s.rep] {
			if x < 0 {
				continue
			}
			if lr := s.findRange(int(t.job), int(x)); lr != nil {
				for p := lr.start; p < lr.end; p++ {
					if s.locs[p] == id {
						lr.cur = min(lr.cur, p)
						break
					}
				}
			}
		}
	} else {
		r.redsPending++
		r.redCursor = min(r.redCursor, s.index(id))
	}
	return nil
}

// Suspend stops running task t keeping its progress; its slot frees at once
// and it may resume only on the same node (§1.7). Work of a reduce counts
// only once its end is known (after the job's map phase).
func (s *Sim) Suspend(id TaskID) error {
	if id < 0 || int(id) >= s.nTasks || s.stateOf(id) != TaskRunning {
		return s.reject("suspend: task %d is not running", id)
	}
	t := s.task(id)
	worked := s.stop(id, Suspended)
	t.rem -= worked
	t.state = TaskSuspended
	s.work[KindUnknown]++
	s.wake()
	return nil
}

// Resume restarts suspended task t on its node; it needs a free slot there.
func (s *Sim) Resume(id TaskID) error {
	if id < 0 || int(id) >= s.nTasks || s.stateOf(id) != TaskSuspended {
		return s.reject("resume: task %d is not suspended", id)
	}
	t := s.task(id)
	x := int(t.node)
	if err := s.takeSlot(id, x, "resume"); err != nil {
		return err
	}
	s.work[KindUnknown]--
	s.startSegment(id, x, true, s.attemptDur(t))
	return nil
}

// SetTimer makes the engine call Policy.Timer(tag) at time at (≥ now).
func (s *Sim) SetTimer(at Time, tag int64) error {
	if at < s.now {
		return s.reject("timer at %d ms is before now (%d ms)", at, s.now)
	}
	s.push(event{at: at, ord: evOrd(evTimer), tag: tag})
	return nil
}

// zeroEnded forgets a zero-length task that leaves its slot at the instant
// it was launched (see nodeRT.zeroMap).
func (s *Sim) zeroEnded(n *nodeRT, t *taskRT) {
	if !t.has(flagZero) || n.zeroAt != s.now {
		t.set(flagZero, false)
		return
	}
	t.set(flagZero, false)
	if t.kind == Map {
		n.zeroMap--
	} else {
		n.zeroRed--
	}
}

// leaveSlot closes t's trace attempt as [now−worked, now] with outcome o and
// gives its slot, RAM and disk back to its node (a task end, kill or suspend).
func (s *Sim) leaveSlot(id TaskID, worked Time, o Outcome) {
	t := s.task(id)
	n := &s.nodes[t.node]
	r := &s.jobs[t.job]
	a := s.rec(t)
	a.End, a.Start, a.Outcome = s.now, s.now-worked, o
	if s.sink != nil {
		s.recordEnded(t.attempt, o == Suspended)
	}
	s.changed()
	s.unrun(id)
	s.zeroEnded(n, t)
	if nd := &s.w.Cluster.Nodes[t.node]; nd.RAM > 0 || nd.Disk > 0 { // see takeSlot
		spec := s.spec(id)
		n.ram -= spec.RAM()
		n.disk -= spec.Disk()
	}
	if t.kind == Map {
		n.runMap--
		r.runMaps--
	} else {
		n.runRed--
		r.runReds--
	}
	switch {
	case s.w.Cluster.Fungible:
		n.freeAny++
	case t.kind == Map:
		n.freeMap++
	default:
		n.freeRed++
	}
}
