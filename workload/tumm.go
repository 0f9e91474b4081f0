package workload

import (
	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/instances/tummscenario"
	"github.com/mrbound/mrbound/sim"
)

// FromTuMM converts a TuMM scenario's batch: fungible nodes with S^i slots
// (their static split kept for static:nodes), jobs at t = 0 or on their
// parent's completion, task times per node group (docs/tumm.md).
func FromTuMM(file string, sc *tummscenario.Scenario) (*sim.Workload, error) {
	if sc.Batch == nil {
		return nil, &badinput.PathError{File: file, Path: "batch", Problem: "missing: this TuMM scenario states only the cluster's slot model (for solve), no jobs to simulate; " +
			"simulate a scenario with a batch (examples/tumm-mixed.json, examples/tumm-fig6.json) or write one with mrbound generate tumm --benchmark mixed -o FILE"}
	}
	w := sc.Batch.Workload(sc.Name, true)
	return w, validate(file, w)
}
