package simtest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/sim"
)

// recorder is a T that records failures instead of failing, so that the
// suite can be run against wrong policies.
type recorder struct {
	name    string
	errs    []string
	skipped bool
	subs    []*recorder
}

type stopSub struct{}

func (r *recorder) Helper()                   {}
func (r *recorder) Errorf(f string, a ...any) { r.errs = append(r.errs, fmt.Sprintf(f, a...)) }
func (r *recorder) Fatalf(f string, a ...any) { r.Errorf(f, a...); panic(stopSub{}) }
func (r *recorder) Skip(...any)               { r.skipped = true; panic(stopSub{}) }
func (r *recorder) Logf(string, ...any)       {}
func (r *recorder) Run(name string, f func(T)) bool {
	sub := &recorder{name: name}
	r.subs = append(r.subs, sub)
	func() {
		defer func() {
			if v := recover(); v != nil {
				if _, ok := v.(stopSub); !ok {
					panic(v)
				}
			}
		}()
		f(sub)
	}()
	return len(sub.errs) == 0
}

func (r *recorder) failures() []string {
	var out []string
	for _, s := range r.subs {
		for _, e := range s.errs {
			out = append(out, s.name+": "+e)
		}
	}
	return out
}

// TestSuiteCatchesStarver: a policy that never runs some reduces fails the
// completion requirement.
func TestSuiteCatchesStarver(t *testing.T) {
	r := &recorder{}
	RunT(r, func() sim.Policy { return &Starver{} }, Caps{})
	f := r.failures()
	if len(f) == 0 {
		t.Fatal("the suite passed a policy that starves jobs")
	}
	if !strings.Contains(strings.Join(f, "\n"), "jobs completed") {
		t.Errorf("expected a completion failure, got:\n%s", strings.Join(f, "\n"))
	}
}

// TestSuiteCatchesRogue: a policy that tries invalid launches fails.
func TestSuiteCatchesRogue(t *testing.T) {
	r := &recorder{}
	RunT(r, func() sim.Policy { return &Rogue{} }, Caps{})
	if !strings.Contains(strings.Join(r.failures(), "\n"), "invalid actions") {
		t.Fatalf("the suite did not report the rogue policy's invalid actions: %v", r.failures())
	}
}

// flaky is Starver's opposite: it runs every task, but each new instance
// starts its queue from a different job, so two runs on one seed differ.
type flaky struct {
	queue []int
	shift int
}

var flakyRuns int

func (p *flaky) Name() string                           { return "flaky" }
func (p *flaky) Init(*sim.Sim) error                    { p.queue, p.shift = nil, flakyRuns; flakyRuns++; return nil }
func (p *flaky) JobArrival(_ *sim.Sim, j int)           { p.queue = append(p.queue, j) }
func (p *flaky) TaskEnd(*sim.Sim, sim.TaskID, sim.Time) {}
func (p *flaky) Timer(*sim.Sim, int64)                  {}
func (p *flaky) Offer(s *sim.Sim, x int, _ sim.Free) {
	for k := range p.queue {
		j := p.queue[(k+p.shift)%len(p.queue)]
		for {
			t, _, ok := s.PickMap(j, x)
			if !ok || !s.Fits(t, x) || s.Launch(t, x) != nil {
				break
			}
		}
		for {
			t, ok := s.PickReduce(j)
			if !ok || !s.Fits(t, x) || s.Launch(t, x) != nil {
				break
			}
		}
	}
}

// TestSuiteCatchesNondeterminism: a policy whose second run on a seed
// differs from its first fails (the second run is the streamed one).
func TestSuiteCatchesNondeterminism(t *testing.T) {
	r := &recorder{}
	RunT(r, func() sim.Policy { return &flaky{} }, Caps{MayIdle: "launches what fits"})
	if !strings.Contains(strings.Join(r.failures(), "\n"), "not deterministic") {
		t.Fatalf("the suite did not report the nondeterministic policy: %v", r.failures())
	}
}
