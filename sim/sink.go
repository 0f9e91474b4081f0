package sim

import (
	"math"
	"slices"
)

// TraceSink receives a run's trace while the run makes it (Options.Sink), so
// that a day of tens of millions of attempts is checked or written without
// the whole trace in memory (issue 30). Calls come in simulated-time order:
// Launched at a record's launch (its End is -1, its Start and Outcome not
// final yet), Ended once it is final — when its segment ends, is killed or
// is suspended, and at the end of the run, in trace order, for those still
// running (End -1). i is the record's index in the trace the run would
// have kept (launch order). The record is the engine's: a sink copies what
// it keeps. A sink must not call the engine.
type TraceSink interface {
	// Begin is called once before the first event with the run's block
	// replica table (rep entries per task, -1 = none, as Result.Replicas):
	// the engine fills a job's entries when it arrives, before any of its
	// maps can launch, and does not change them after.
	Begin(rep int, replicas []int32)
	Launched(i int, a *Attempt)
	Ended(i int, a *Attempt)
}

// openRecord is a record not final yet in stream mode (Options.Sink), or a
// suspended attempt's, whose Duration a resume or a kill still reads.
type openRecord struct {
	a Attempt
	i int // trace index
}

// streamMetrics holds, in stream mode, what ComputeMetrics reads from a
// kept trace: the counts, and the per-record values of its float sums, which
// are added in trace order at the end so that the figures are bit-identical
// to a kept trace's.
type streamMetrics struct {
	mapLaunches, localLaunches, killed, suspended int
	// busy is each record's slot time (End − Launch) << 1 | isMap, by
	// trace index; busyNone for a record without an end, busyWide for one
	// longer than fits (in wide).
	busy []uint32
	wide map[int]Time // packed as in busy
	// lost is the work of each killed record, with its index.
	lost []lostWork
}

type lostWork struct {
	i    int
	work Time
}

const (
	busyNone = math.MaxUint32
	busyWide = math.MaxUint32 - 1
)

// rec is task t's current (or suspended) record.
func (s *Sim) rec(t *taskRT) *Attempt {
	if s.sink == nil {
		return &s.trace[t.attempt]
	}
	return &s.open[t.attempt].a
}

// newRecord stores a new record and returns where t.attempt should point:
// the trace, or in stream mode a slot of s.open, after telling the sink.
func (s *Sim) newRecord(a Attempt) int32 {
	if s.sink == nil {
		s.trace = append(s.trace, a)
		return int32(len(s.trace) - 1)
	}
	var k int32
	if n := len(s.openFree); n > 0 {
		k = s.openFree[n-1]
		s.openFree = s.openFree[:n-1]
	} else {
		k = int32(len(s.open))
		s.open = append(s.open, openRecord{})
	}
	s.open[k] = openRecord{a: a, i: s.nrec}
	s.nrec++
	s.sm.busy = append(s.sm.busy, busyNone)
	s.sink.Launched(s.open[k].i, &s.open[k].a)
	return k
}

// recordEnded tells the sink that slot k's record is final and counts it;
// keep holds the slot (a suspended attempt's Duration is read again).
func (s *Sim) recordEnded(k int32, keep bool) {
	r := &s.open[k]
	a := &r.a
	m := &s.sm
	if a.Kind == Map && !a.Resumed {
		m.mapLaunches++
		if a.Local {
			m.localLaunches++
		}
	}
	switch a.Outcome {
	case Killed:
		m.killed++
		m.lost = append(m.lost, lostWork{r.i, a.End - a.Start})
	case Suspended:
		m.suspended++
	}
	if a.End >= 0 {
		d := a.End - a.Launch
		isMap := uint32(0)
		if a.Kind == Map {
			isMap = 1
		}
		v := uint32(busyWide)
		if d >= 0 && d < busyWide>>1 {
			v = uint32(d)<<1 | isMap
		} else {
			if m.wide == nil {
				m.wide = map[int]Time{}
			}
			m.wide[r.i] = d<<1 | Time(isMap)
		}
		m.busy[r.i] = v
	}
	s.sink.Ended(r.i, a)
	if !keep {
		s.openFree = append(s.openFree, k)
	}
}

// dropRecord frees slot k (a suspended attempt resumed or killed).
func (s *Sim) dropRecord(k int32) {
	if s.sink != nil {
		s.openFree = append(s.openFree, k)
	}
}

// endStream hands the records still running to the sink, in trace order.
func (s *Sim) endStream() {
	if s.sink == nil {
		return
	}
	ks := make([]int32, 0, len(s.running))
	for _, id := range s.running {
		ks = append(ks, s.task(id).attempt)
	}
	slices.SortFunc(ks, func(a, b int32) int { return s.open[a].i - s.open[b].i })
	for _, k := range ks {
		s.recordEnded(k, true)
	}
}

// streamedMetrics is ComputeMetrics for a run whose trace went to a sink:
// the same figures, the float sums taken in trace order.
func (s *Sim) streamedMetrics(jobs []JobOutcome) Metrics {
	sm := &s.sm
	m := Metrics{MapLaunches: sm.mapLaunches, LocalLaunches: sm.localLaunches, Killed: sm.killed, Suspended: sm.suspended}
	slices.SortFunc(sm.lost, func(a, b lostWork) int { return a.i - b.i })
	for _, l := range sm.lost {
		m.WorkLost += l.work.Seconds()
	}
	var busy, busyMap float64
	for i, v := range sm.busy {
		var packed Time // slot time << 1 | isMap
		switch v {
		case busyNone:
			continue
		case busyWide:
			packed = sm.wide[i]
		default:
			packed = Time(v)
		}
		d := packed >> 1
		busy += d.Seconds()
		if packed&1 != 0 {
			busyMap += d.Seconds()
		}
	}
	return finishMetrics(s.w, jobs, m, busy, busyMap)
}

// Tee is a TraceSink that hands every call to each of sinks in turn (the
// checker and the trace writer of one run, say).
func Tee(sinks ...TraceSink) TraceSink { return tee(sinks) }

type tee []TraceSink

func (t tee) Begin(rep int, replicas []int32) {
	for _, s := range t {
		s.Begin(rep, replicas)
	}
}

func (t tee) Launched(i int, a *Attempt) {
	for _, s := range t {
		s.Launched(i, a)
	}
}

func (t tee) Ended(i int, a *Attempt) {
	for _, s := range t {
		s.Ended(i, a)
	}
}
