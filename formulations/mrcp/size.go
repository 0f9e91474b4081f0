package mrcp

import (
	"errors"
	"fmt"

	"github.com/mrbound/mrbound/instances/mrcpscenario"
	"github.com/mrbound/mrbound/internal/sizelimit"
	"github.com/mrbound/mrbound/model"
)

// errBuildStopped is returned by Build, with the model-less Built, when
// Options.stop reported a stop (the context is done or the time limit has
// passed) before the model was complete.
var errBuildStopped = errors.New("mrcp: the model build was stopped")

// checkModelSize refuses a model of about cols columns and nnz nonzeros
// that would not fit the memory budget (sizelimit.ModelColumn and
// ModelNonzero bytes each), naming the formulation and horizon that imply it
// and what makes it smaller.
func checkModelSize(formulation string, horizon int, cols, nnz float64) error {
	return sizelimit.CheckBytes(fmt.Sprintf("%s model at horizon %d", formulation, horizon),
		cols*sizelimit.ModelColumn+nnz*sizelimit.ModelNonzero,
		fmt.Sprintf("about %.3g columns and %.3g nonzeros (a coarser time_unit_seconds or fewer jobs make it smaller)", cols, nnz))
}

// withoutModel makes bt a report's Built when the model was not finished:
// its Model is empty (no rows or columns) and ModelSkipped says why the
// report shows none.
func (bt *Built) withoutModel() *Built {
	m, err := model.NewBuilder("mrcp-not-built").Build()
	if err != nil {
		// An empty model always builds; keep the report printable anyway.
		m = &model.Model{}
	}
	bt.Model, bt.ModelSkipped = m, true
	bt.groups, bt.xs, bt.groupOf = nil, nil, nil
	return bt
}

// checkHorizon refuses an instance whose horizon (HorizonBound: the latest
// release plus every duration, in time units) would not fit the memory
// budget: the greedy heuristic, the relaxations and the checker keep an int
// per time unit for each resource and slot kind (sizelimit.ScenarioTimeUnit
// covers the slice growth). It sums in float64, so releases and durations
// near the int range cannot wrap it.
func checkHorizon(in *mrcpscenario.Instance) error {
	release, total := 0.0, 0.0
	for _, j := range in.Jobs {
		release = max(release, float64(j.Release))
		for _, ts := range [][]mrcpscenario.Task{j.Maps, j.Reduces} {
			for _, t := range ts {
				total += float64(t.Duration)
			}
		}
	}
	h := release + total
	return sizelimit.CheckBytes(fmt.Sprintf("horizon %.0f (latest release + total duration, in time units)", h),
		h*float64(2*len(in.Resources))*sizelimit.ScenarioTimeUnit,
		fmt.Sprintf("%d resources' per-unit tables over it (a coarser time_unit_seconds makes it smaller)", len(in.Resources)))
}
