package policy

import (
	"github.com/mrbound/mrbound/policy/hfsp"
	"github.com/mrbound/mrbound/sim"
)

// HFSP with its three preemption strategies (policy/hfsp, docs/hfsp.md), each
// also with reduce phases entering only after the map phase (the seed's
// reading, name suffix "-aftermaps"; the default follows policies.md's
// slow-start eligibility).
func init() {
	for _, after := range []bool{false, true} {
		for _, pr := range []hfsp.Preemption{hfsp.Wait, hfsp.Kill, hfsp.Suspend} {
			o := hfsp.Options{Preemption: pr, ReducesAfterMaps: after}
			Register(hfsp.New(o).Name(), func(Params) sim.Policy { return hfsp.New(o) })
		}
	}
}
