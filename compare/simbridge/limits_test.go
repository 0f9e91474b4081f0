package simbridge

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/sizelimit"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
)

// TestCompareInterrupted: with its context cancelled, Compare stops the
// first policy's simulation at once and returns an error that wraps the
// cancellation: no value of an unfinished run is set beside a bound.
func TestCompareInterrupted(t *testing.T) {
	w := &sim.Workload{Name: "w", Cluster: sim.Cluster{Nodes: []sim.Node{{Name: "n0", MapSlots: 1, ReduceSlots: 1}}}}
	for j := 0; j < 50; j++ {
		w.Jobs = append(w.Jobs, sim.Job{Name: "j", Parent: -1, Arrival: sim.Time(j) * 1000, Deadline: sim.NoDeadline,
			Maps: []sim.TaskSpec{{Work: 3000}}, Reduces: []sim.TaskSpec{{Work: 1000}}})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out, err := Compare(ctx, "w", w, NameAll(fifo.New()), Options{Metric: lowerbound.TotalTurnaround, Sim: IdealOptions()})
	if err == nil || !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted at 0.000 s with 50 unfinished jobs") {
		t.Fatalf("outcome %v, error %v; want the interruption", out, err)
	}
}

// TestSweepSizeRefused: 2·10^9 seeds or 10^12 jobs per instance are
// refused before the first instance is generated.
func TestSweepSizeRefused(t *testing.T) {
	defer sizelimit.SetBudget(8 << 30)()
	base := SweepOptions{Family: "mrcp-mixed", Jobs: 20, Lambdas: []float64{0.01, 0.02}, Seeds: 2, Policies: []string{"fifo"},
		Compare: Options{Metric: lowerbound.MeanTurnaround, Sim: IdealOptions()}}
	if err := CheckSweepSize(base); err != nil {
		t.Fatalf("a 4-item sweep of 20 jobs: %v", err)
	}
	seeds, jobs := base, base
	seeds.Seeds = 2e9
	jobs.Jobs = 1e12
	for _, c := range []struct {
		o    SweepOptions
		want string
	}{{seeds, "--seeds, --lambdas: 4000000000 sweep items"}, {jobs, "--jobs: 21000000000000 tasks per instance"}} {
		_, err := Sweep(context.Background(), c.o)
		if err == nil || !errors.Is(err, badinput.Err) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v, want %q", err, c.want)
		}
	}
}
