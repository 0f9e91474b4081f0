package highs_test

import (
	"os"
	"testing"

	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/highs"
	"github.com/mrbound/mrbound/solve/solvertest"
)

// requireHiGHS skips the test when the WebAssembly build is not installed,
// and fails it under CI, where `make test` installs it.
func requireHiGHS(t testing.TB) {
	t.Helper()
	if _, err := highs.Locate(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
}

// HiGHS claims every capability of the suite.
var caps = solvertest.Caps{}

func TestConformance(t *testing.T) {
	requireHiGHS(t)
	solvertest.Run(t, func() solve.Solver { return highs.New("") }, caps)
}
