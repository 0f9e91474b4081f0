package hfsp_test

import (
	"testing"

	"github.com/mrbound/mrbound/policy/hfsp"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/simtest"
)

func TestConformance(t *testing.T) {
	for _, o := range []hfsp.Options{
		{},
		{Preemption: hfsp.Kill},
		{Preemption: hfsp.Suspend},
		{Sizes: hfsp.Estimated},
		{Preemption: hfsp.Kill, Sizes: hfsp.Estimated},
		{Preemption: hfsp.Suspend, Sizes: hfsp.Estimated},
		{TrainingShare: -1},
		{ReducesAfterMaps: true},
	} {
		name := hfsp.New(o).Name()
		if o.TrainingShare < 0 {
			name += "-notrainingslots"
		}
		t.Run(name, func(t *testing.T) {
			simtest.Run(t, func() sim.Policy { return hfsp.New(o) }, simtest.Caps{})
		})
	}
}
