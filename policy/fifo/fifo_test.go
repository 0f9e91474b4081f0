package fifo_test

import (
	"testing"

	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/simtest"
)

func TestConformanceFIFO(t *testing.T) {
	simtest.Run(t, func() sim.Policy { return fifo.New() }, simtest.Caps{})
}

func TestConformanceEDF(t *testing.T) {
	simtest.Run(t, func() sim.Policy { return fifo.NewEDF() }, simtest.Caps{})
}

func TestConformanceFIFOH1Caps(t *testing.T) {
	simtest.Run(t, func() sim.Policy { p := fifo.New(); p.H1Caps = true; return p }, simtest.Caps{})
}
