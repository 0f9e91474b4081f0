package simbridge

import (
	"context"
	"math/rand/v2"
	"runtime"
	"testing"
	"weak"

	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/policy/fair"
	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
)

// engineSpy is a policy that notes a weak pointer to each engine it is
// given; the policy it wraps keeps the engine (as every policy does).
type engineSpy struct {
	sim.Policy
	engines *[]weak.Pointer[sim.Sim]
	// atInit, when set, runs at Init before anything else.
	atInit func()
}

func (p *engineSpy) Init(s *sim.Sim) error {
	if p.atInit != nil {
		p.atInit()
	}
	*p.engines = append(*p.engines, weak.Make(s))
	return p.Policy.Init(s)
}

// TestEarlierEnginesReleased: while a policy runs, the engines of the
// policies run before it are garbage (Compare does not keep the policies,
// which point to their engines), and after Compare none is left. Before the
// fix the four engines of a four-policy compare were all live at the last
// run: 1.4 GB of live heap on FB-2009 day 0 at 16 MB blocks.
func TestEarlierEnginesReleased(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 2))
	w := randomWorkload(rng, 12)
	var engines []weak.Pointer[sim.Sim]
	live := func() int {
		runtime.GC()
		n := 0
		for _, e := range engines {
			if e.Value() != nil {
				n++
			}
		}
		return n
	}
	var atInit []int
	check := func() { atInit = append(atInit, live()) }
	pols := []Named{
		{"fifo", &engineSpy{Policy: fifo.New(), engines: &engines, atInit: check}},
		{"fair", &engineSpy{Policy: fair.New(), engines: &engines, atInit: check}},
		{"fifo-again", &engineSpy{Policy: fifo.New(), engines: &engines, atInit: check}},
	}
	o := Options{Metric: lowerbound.MeanTurnaround, Sim: IdealOptions(), DropTraces: true, NoUpper: true}
	out, err := Compare(context.Background(), "w", w, pols, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Report.Policies) != 3 || len(engines) != 3 {
		t.Fatalf("%d rows, %d engines; want 3 and 3", len(out.Report.Policies), len(engines))
	}
	for i, n := range atInit {
		if n != 0 {
			t.Errorf("at the start of run %d, %d earlier engines are still reachable", i, n)
		}
	}
	if n := live(); n != 0 {
		t.Errorf("after Compare, %d engines are still reachable", n)
	}
}
