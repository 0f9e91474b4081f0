package policy

import (
	"github.com/mrbound/mrbound/policy/tumm"
	"github.com/mrbound/mrbound/sim"
)

// TuMM, H_TuMM and their static splits (policy/tumm, docs/tumm.md); they
// need a fungible cluster (a TuMM batch, kind "tumm").
func init() {
	for _, name := range tumm.Names {
		Register(name, func(Params) sim.Policy { return tumm.MustByName(name) })
	}
}
