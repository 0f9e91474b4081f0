package native_test

import (
	"testing"

	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/native"
	"github.com/mrbound/mrbound/solve/solvertest"
)

// Opt-outs of the native backend in the LP conformance run:
//   - NoMIP: this run covers the LP engine; the MIP part is run by the
//     branch-and-cut's own tests once it is linked in.
func TestSolvertestLP(t *testing.T) {
	solvertest.Run(t, func() solve.Solver { return native.Solver{} }, solvertest.Caps{
		NoMIP: "LP run of the native backend (the MIP part is tested with solve/native/mip)",
	})
}
