package tumm

import (
	"testing"

	"github.com/mrbound/mrbound/solve"
	_ "github.com/mrbound/mrbound/solve/highs"
	_ "github.com/mrbound/mrbound/solve/native"
	"github.com/mrbound/mrbound/solve/solvertest"
)

// forEachBackend runs f once per registered backend that loads; see
// solvertest.ForEachBackend.
func forEachBackend(t *testing.T, f func(t *testing.T, opts solve.Options)) {
	t.Helper()
	solvertest.ForEachBackend(t, true, f)
}
