package policy

import (
	"github.com/mrbound/mrbound/policy/coshh"
	"github.com/mrbound/mrbound/sim"
)

// COSHH (policy/coshh, docs/coshh.md): the paper's routing, and the
// work-conserving fallback of A-C9. Both solve their LPs with the default
// backend.
func init() {
	Register("coshh", func(Params) sim.Policy { return coshh.New() })
	Register("coshh-fallback", func(Params) sim.Policy { q := coshh.New(); q.Fallback = true; return q })
}
