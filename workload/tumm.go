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
		return nil, &badinput.PathError{File: file, Path: "batch", Problem: "missing: a TuMM scenario without a batch has no jobs to simulate (mrbound generate tumm writes one)"}
	}
	w := sc.Batch.Workload(sc.Name, true)
	return w, validate(file, w)
}
