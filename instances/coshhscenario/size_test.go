package coshhscenario

import (
	"errors"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/sizelimit"
)

// TestGenerateSizeRefusals: --jobs 10^12 and --resources 10^12 are refused
// before a job is drawn, naming the flag and the budget; 10^4 jobs are
// drawn.
func TestGenerateSizeRefusals(t *testing.T) {
	defer sizelimit.SetBudget(8 << 30)()
	for _, c := range []struct {
		o    GenOptions
		want string
	}{
		{GenOptions{Trace: "facebook", Jobs: 1e12, Seed: 1}, "--jobs: 1000000000000 jobs on 0 resources"},
		{GenOptions{Trace: "facebook", Jobs: 10, Resources: 1e12, Seed: 1}, "--resources: 1000000000000 resources"},
	} {
		_, err := Generate(c.o)
		if err == nil || !errors.Is(err, badinput.Err) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v, want a refusal starting %q", err, c.want)
		}
	}
	sc, err := Generate(GenOptions{Trace: "facebook", Jobs: 10000, Seed: 1})
	if err != nil || len(sc.Jobs) != 10000 {
		t.Fatalf("10^4 jobs: %v", err)
	}
}
