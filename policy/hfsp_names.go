package policy

import (
	"github.com/mrbound/mrbound/policy/hfsp"
	"github.com/mrbound/mrbound/sim"
)

// HFSP with its three preemption strategies (policy/hfsp, docs/hfsp.md).
func init() {
	for _, pr := range []hfsp.Preemption{hfsp.Wait, hfsp.Kill, hfsp.Suspend} {
		q := hfsp.New(hfsp.Options{Preemption: pr})
		Register(q.Name(), func(Params) sim.Policy { return hfsp.New(hfsp.Options{Preemption: pr}) })
	}
}
