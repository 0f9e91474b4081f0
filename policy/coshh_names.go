package policy

import (
	"github.com/mrbound/mrbound/policy/coshh"
	"github.com/mrbound/mrbound/sim"
)

// COSHH (policy/coshh, docs/coshh.md): the paper's routing, and the
// work-conserving fallback of A-C9. Both solve their LPs with the backend of
// Params.Solver (default native) under Params.SolveLimit.
func init() {
	Register("coshh", func(p Params) sim.Policy { return coshhWith(p, false) })
	Register("coshh-fallback", func(p Params) sim.Policy { return coshhWith(p, true) })
}

func coshhWith(p Params, fallback bool) sim.Policy {
	q := coshh.New()
	q.Fallback = fallback
	q.Solve.Solver, q.Solve.TimeLimit = p.Solver, p.SolveLimit
	return q
}
