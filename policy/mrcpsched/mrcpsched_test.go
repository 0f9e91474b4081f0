package mrcpsched

import (
	"testing"

	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/simtest"
	_ "github.com/mrbound/mrbound/solve/native"
)

func TestConformance(t *testing.T) {
	simtest.Run(t, func() sim.Policy { return New(Options{}) }, simtest.Caps{
		NoFungible:     "MRCP's model has fixed map and reduce slots",
		NeedsEstimates: "MRCP plans with the user's duration estimates",
	})
}
