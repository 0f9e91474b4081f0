package policy

import (
	"github.com/mrbound/mrbound/policy/mrcpsched"
	"github.com/mrbound/mrbound/sim"
)

// MRCP's CP-Scheduler (policy/mrcpsched): it re-solves the MRCP model at
// every arrival with the backend of Params.Solver.
func init() {
	Register("mrcp", func(p Params) sim.Policy {
		o := mrcpsched.Options{Solver: p.Solver, SolveLimit: p.SolveLimit}
		_ = mrcpsched.ParseOptions(p.MRCPOptions, &o) // validated by the caller
		return mrcpsched.New(o)
	})
}
