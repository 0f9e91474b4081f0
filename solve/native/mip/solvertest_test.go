package mip_test

import (
	"testing"

	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/native"
	"github.com/mrbound/mrbound/solve/solvertest"
)

// TestSolvertest runs the whole conformance suite, MIP cases and test-set
// MIPs included, on the native backend with this package linked in. No
// opt-outs.
func TestSolvertest(t *testing.T) {
	solvertest.Run(t, func() solve.Solver { return native.Solver{} }, solvertest.Caps{})
}
