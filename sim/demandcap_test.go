package sim_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
)

// TestValidateDemandBeyondEveryNode: a task whose RAM or disk demand exceeds
// every node with a slot of its kind could never launch; such a workload
// stalled with the job unfinished (bench/hostile, a jlassi task's ram_mb set
// to 1e19) and is now refused naming the task. A demand that fits one node
// alone, or a node without limits, runs to completion and passes the check.
func TestValidateDemandBeyondEveryNode(t *testing.T) {
	mk := func(ram, disk float64, unlimited bool) *sim.Workload {
		nodes := []sim.Node{
			{MapSlots: 1, ReduceSlots: 1, RAM: 100, Disk: 10},
			{MapSlots: 1, ReduceSlots: 0, RAM: 50, Disk: 500}, // no reduce slot: no room for reduces
			{MapSlots: 0, ReduceSlots: 1, RAM: 1000, Disk: 1}, // reduces only
		}
		if unlimited {
			nodes = append(nodes, sim.Node{MapSlots: 1, ReduceSlots: 1})
		}
		w := &sim.Workload{
			Cluster: sim.Cluster{Nodes: nodes},
			Jobs:    []sim.Job{{Parent: -1, Deadline: sim.NoDeadline, Maps: []sim.TaskSpec{{Work: 1000}}, Reduces: []sim.TaskSpec{{Work: 1000}}}},
		}
		w.Jobs[0].Reduces[0].SetDemand(ram, disk)
		return w
	}
	for _, c := range []struct {
		ram, disk float64
		unlimited bool
		refused   bool
	}{
		{100, 10, false, false},   // node 0 exactly
		{1000, 1, false, false},   // node 2 exactly
		{1000, 10, false, true},   // RAM only node 2 has, disk only node 0 has
		{50, 500, false, true},    // node 1 has the room but no reduce slot
		{1e19, 0, false, true},    // the hostile case
		{1e19, 1e19, true, false}, // a node without limits takes anything
	} {
		w := mk(c.ram, c.disk, c.unlimited)
		err := w.Validate()
		if c.refused {
			if !errors.Is(err, sim.ErrBadWorkload) || !strings.Contains(err.Error(), "jobs[0].reduces[0]: demands RAM") {
				t.Errorf("%+v: %v, want the task named", c, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		res, err := sim.Run(w, fifo.New(), sim.DefaultOptions())
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		if err := check.Verify(w, res); err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		if res.Unfinished() != 0 {
			t.Errorf("%+v: %d jobs unfinished", c, res.Unfinished())
		}
	}
}
