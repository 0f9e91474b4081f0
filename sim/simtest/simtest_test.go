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
