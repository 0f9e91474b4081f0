package simbridge

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/policy/fair"
	"github.com/mrbound/mrbound/policy/fifo"
)

// TestDropTraces: releasing the traces once verified, and the problem's
// tasks once the bounds are computed, changes nothing in the report (rows,
// values, verdicts, the bound, the offline schedules), and the results keep
// their figures but no trace; without the option they keep the trace and
// the problem its tasks.
func TestDropTraces(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 1))
	w := randomWorkload(rng, 12)
	run := func(drop bool) *Outcome {
		t.Helper()
		o := Options{Metric: lowerbound.MeanTurnaround, Sim: IdealOptions(), DropTraces: drop}
		out, err := Compare(context.Background(), "w", w, NameAll(fifo.New(), fair.New()), o)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	kept, dropped := run(false), run(true)
	if !reflect.DeepEqual(kept.Report, dropped.Report) {
		t.Errorf("reports differ:\nkept    %+v\ndropped %+v", kept.Report, dropped.Report)
	}
	if n := dropped.Problem.NumTasks(); n != 0 {
		t.Errorf("the dropped outcome's problem keeps %d tasks", n)
	}
	if n := kept.Problem.NumTasks(); n != w.NumTasks() {
		t.Errorf("the kept outcome's problem has %d tasks, the workload %d", n, w.NumTasks())
	}
	for j, job := range dropped.Problem.Jobs {
		k := kept.Problem.Jobs[j]
		if job.Arrival != k.Arrival || job.Deadline != k.Deadline || job.HasDeadline != k.HasDeadline {
			t.Errorf("job %d: dropped %+v, kept arrival %d deadline %d %v", j, job, k.Arrival, k.Deadline, k.HasDeadline)
		}
	}
	for i, res := range dropped.Results {
		if res.Trace != nil || res.Replicas != nil {
			t.Errorf("%s: trace kept", res.Policy)
		}
		if k := kept.Results[i]; len(k.Trace) == 0 || k.Metrics != res.Metrics || k.TaskEvents != res.TaskEvents {
			t.Errorf("%s: kept run has %d attempts, metrics %+v; dropped %+v", res.Policy, len(k.Trace), k.Metrics, res.Metrics)
		}
	}
}
