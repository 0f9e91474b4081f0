package tummscenario

import (
	"github.com/mrbound/mrbound/internal/sizelimit"
)

// tummSlotBytes is one slot of a heterogeneous node in the per-node
// program (formulations/tumm/ilp.go): a binary per slot count for the
// node's map slots, its use and alignment rows, about three columns and ten
// nonzeros.
const tummSlotBytes = 3*sizelimit.ModelColumn + 10*sizelimit.ModelNonzero

// checkSize refuses a valid scenario whose task or slot counts — plain
// integers in the file, so a few bytes can name 10^18 of them — would not
// fit the memory budget: a static batch's tasks (Algorithm 1 and its
// simulation walk them) and slots, the heterogeneous task counts (the phase
// finish walks their waves) and the per-node program's slots, a batch's
// tasks (the simulator holds each). Counts are summed in float64.
func (s *Scenario) checkSize() error {
	if st := s.Static; st != nil {
		tasks := 0.0
		for _, j := range st.Jobs {
			tasks += float64(j.MapTasks) + float64(j.ReduceTasks)
		}
		if err := sizelimit.Check("$.static.jobs", tasks, sizelimit.ScenarioTask, "tasks"); err != nil {
			return err
		}
		if err := sizelimit.Check("$.static.slots", float64(st.Slots), sizelimit.ScenarioSlot, "slots"); err != nil {
			return err
		}
	}
	if h := s.Heterogeneous; h != nil {
		tasks := float64(h.MapTasks) + float64(h.ReduceTasks)
		if err := sizelimit.Check("$.heterogeneous.map_tasks, reduce_tasks", tasks, sizelimit.ScenarioTask, "tasks"); err != nil {
			return err
		}
		slots := 0.0
		for _, n := range h.Nodes {
			slots += float64(n.Slots) + 2
		}
		if err := sizelimit.Check("$.heterogeneous.nodes", slots, tummSlotBytes, "slots in the per-node program"); err != nil {
			return err
		}
	}
	if b := s.Batch; b != nil {
		tasks := 0.0
		for _, j := range b.Jobs {
			tasks += float64(j.Maps) + float64(j.Reduces)
		}
		if err := sizelimit.Check("$.batch.jobs", tasks, sizelimit.SimTask, "tasks"); err != nil {
			return err
		}
	}
	return nil
}
