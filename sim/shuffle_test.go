package sim_test

import (
	"testing"

	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
)

// preemptReduce launches job 0's map and reduce at once (slow-start 0),
// then at 1.2 s suspends or kills the reduce while it works after the
// shuffle, and at 1.3 s resumes it or lets it launch again.
type preemptReduce struct {
	kill bool
	hold bool // no launch between the preemption and 1.3 s
}

func (p *preemptReduce) Name() string                           { return "preempt-reduce" }
func (p *preemptReduce) Init(*sim.Sim) error                    { return nil }
func (p *preemptReduce) TaskEnd(*sim.Sim, sim.TaskID, sim.Time) {}
func (p *preemptReduce) JobArrival(s *sim.Sim, _ int) {
	_ = s.SetTimer(1200, 1)
	_ = s.SetTimer(1300, 2)
}

func (p *preemptReduce) Timer(s *sim.Sim, tag int64) {
	red := s.Job(0).FirstRed
	switch {
	case tag == 1 && p.kill:
		p.hold = true
		_ = s.Kill(red)
	case tag == 1:
		_ = s.Suspend(red)
	case p.kill:
		p.hold = false
		s.Wake()
	default:
		_ = s.Resume(red)
	}
}

func (p *preemptReduce) Offer(s *sim.Sim, x int, free sim.Free) {
	if p.hold {
		return
	}
	v := s.Job(0)
	if free.Map > 0 && v.MapsPending > 0 {
		_ = s.Launch(v.FirstMap, x)
	}
	if free.Reduce > 0 && v.RedsPending > 0 && v.ReducesEligible {
		_ = s.Launch(v.FirstRed, x)
	}
}

// TestPreemptedShuffleReduce: a 1 s map on [0, 1] s and a 1 s reduce
// launched beside it with overlap ω = 0.5. The map phase ends at 1 s, so
// the reduce is due at max(0 + 1, 1 + ⌈0.5 · 1⌉) = 1.5 s and works from
// 0.5 s. Suspended at 1.2 s it has worked 0.7 s; resumed at 1.3 s it ends
// at 1.6 s. Killed at 1.2 s instead, its 0.7 s are lost and its relaunch at
// 1.3 s, after the map phase, works 1 s to 2.3 s. The engine derives a
// waiting reduce's work start from its job's last map end (it stores no
// segment end), so the worked time at a preemption is what this pins; the
// independent checker accepts both traces.
func TestPreemptedShuffleReduce(t *testing.T) {
	w := &sim.Workload{
		Cluster: sim.Cluster{Nodes: []sim.Node{{MapSlots: 1, ReduceSlots: 1}}},
		Jobs: []sim.Job{{Name: "a", Deadline: sim.NoDeadline, Parent: -1,
			Maps: []sim.TaskSpec{{Work: 1000}}, Reduces: []sim.TaskSpec{{Work: 1000}}}},
	}
	type seg struct {
		launch, start, end sim.Time
		o                  sim.Outcome
		resumed            bool
	}
	for _, tc := range []struct {
		kill bool
		want []seg // the reduce's segments
		done sim.Time
	}{
		{false, []seg{{0, 500, 1200, sim.Suspended, false}, {1300, 1300, 1600, sim.Completed, true}}, 1600},
		{true, []seg{{0, 500, 1200, sim.Killed, false}, {1300, 1300, 2300, sim.Completed, false}}, 2300},
	} {
		opt := sim.DefaultOptions()
		opt.Heartbeat, opt.SlowStart, opt.Overlap = 0, 0, 0.5
		res, err := sim.Run(w, &preemptReduce{kill: tc.kill}, opt)
		if err != nil {
			t.Fatal(err)
		}
		var got []seg
		for _, a := range res.Trace {
			if a.Kind == sim.Reduce {
				got = append(got, seg{a.Launch, a.Start, a.End, a.Outcome, a.Resumed})
				if a.Duration != 1000 {
					t.Errorf("kill=%v: reduce attempt of duration %d ms, want 1000", tc.kill, a.Duration)
				}
			}
		}
		if len(got) != len(tc.want) {
			t.Fatalf("kill=%v: reduce segments %+v, want %+v", tc.kill, got, tc.want)
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("kill=%v: reduce segment %d is %+v, want %+v", tc.kill, i, got[i], tc.want[i])
			}
		}
		if c := res.Jobs[0].Completion; !res.Jobs[0].Done || c != tc.done {
			t.Errorf("kill=%v: job done=%v at %d ms, want at %d ms", tc.kill, res.Jobs[0].Done, c, tc.done)
		}
		if err := check.Verify(w, res); err != nil {
			t.Errorf("kill=%v: the checker rejects the run: %v", tc.kill, err)
		}
	}
}
