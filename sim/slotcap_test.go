package sim_test

import (
	"strings"
	"testing"

	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
)

// TestValidateSlotCap: a node of more slots than the engine's 32-bit free
// counts hold is refused, naming the node (such a node stalled the run,
// s18audit); a node of MaxNodeSlots runs to completion and passes the check.
func TestValidateSlotCap(t *testing.T) {
	mk := func(maps, fungible int) *sim.Workload {
		return &sim.Workload{
			Cluster: sim.Cluster{Fungible: fungible > 0, Nodes: []sim.Node{{MapSlots: 1, ReduceSlots: 1, TotalSlots: 2}, {MapSlots: maps, ReduceSlots: 1, TotalSlots: fungible}}},
			Jobs:    []sim.Job{{Parent: -1, Deadline: sim.NoDeadline, Maps: []sim.TaskSpec{{Work: 1000}, {Work: 1000}}, Reduces: []sim.TaskSpec{{Work: 1000}}}},
		}
	}
	for _, w := range []*sim.Workload{mk(sim.MaxNodeSlots+1, 0), mk(1, sim.MaxNodeSlots+1)} {
		err := w.Validate()
		if err == nil || !strings.Contains(err.Error(), "cluster.nodes[1]: 2147483648 slots: at most 2147483647 per node") {
			t.Errorf("%v, want the node named and the cap", err)
		}
	}
	w := mk(sim.MaxNodeSlots, 0)
	res, err := sim.Run(w, fifo.New(), sim.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if err := check.Verify(w, res); err != nil {
		t.Fatal(err)
	}
}
