package simtest

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
)

// Caps lists what a policy opts out of; each non-empty field is the reason.
type Caps struct {
	// NoFungible skips the fungible-slot cases.
	NoFungible string
	// NoFixed skips the fixed-slot cases (fungible-only policies).
	NoFixed string
	// NeedsEstimates skips the case without estimates.
	NeedsEstimates string
	// MayIdle: the policy may leave jobs unfinished by design (e.g. COSHH
	// without fallback); completion is then not required.
	MayIdle string
	// NoLiteralEquivalence skips the parked-versus-literal heartbeat check.
	NoLiteralEquivalence string
}

// T is the part of *testing.T the suite uses, so that its own tests can
// record failures instead of failing.
type T interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Skip(args ...any)
	Logf(format string, args ...any)
	Run(name string, f func(T)) bool
}

type testingT struct{ *testing.T }

func (t testingT) Run(name string, f func(T)) bool {
	return t.T.Run(name, func(t *testing.T) { f(testingT{t}) })
}

// Run runs the suite against the policy newPolicy returns (one per run).
func Run(t *testing.T, newPolicy func() sim.Policy, caps Caps) {
	t.Helper()
	RunT(testingT{t}, newPolicy, caps)
}

// RunT is Run on a T.
func RunT(t T, newPolicy func() sim.Policy, caps Caps) {
	for _, c := range Cases() {
		t.Run(c.Name, func(t T) {
			switch {
			case c.Workload.Cluster.Fungible && caps.NoFungible != "":
				t.Skip(caps.NoFungible)
			case !c.Workload.Cluster.Fungible && caps.NoFixed != "":
				t.Skip(caps.NoFixed)
			case c.Options.Estimates == sim.EstimateNone && caps.NeedsEstimates != "":
				t.Skip(caps.NeedsEstimates)
			}
			CheckCase(t, c, newPolicy, caps)
		})
	}
}

// CheckCase runs one case and checks every property of the suite.
func CheckCase(t T, c Case, newPolicy func() sim.Policy, caps Caps) {
	t.Helper()
	res, err := sim.Run(c.Workload, newPolicy(), c.Options)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	t.Logf("%s", res)
	if err := check.Verify(c.Workload, res); err != nil {
		t.Errorf("checker: %v", err)
	}
	if res.Rejected > 0 {
		t.Errorf("%d invalid actions attempted", res.Rejected)
	}
	if caps.MayIdle == "" && res.Metrics.CompletedJobs != len(c.Workload.Jobs) {
		t.Errorf("%d of %d jobs completed", res.Metrics.CompletedJobs, len(c.Workload.Jobs))
	}
	// The second run on the same seed is the streamed one: it checks
	// determinism and the stream at once.
	checkStream(t, c, newPolicy, res)
	if c.Options.Heartbeat > 0 && caps.NoLiteralEquivalence == "" {
		opt := c.Options
		opt.LiteralHeartbeats = true
		lit, err := sim.Run(c.Workload, newPolicy(), opt)
		if err != nil {
			t.Fatalf("literal Run: %v", err)
		}
		if d := firstDiff(res.Trace, lit.Trace); d != "" {
			t.Errorf("literal heartbeats change the run (the policy breaks the wake contract): %s", d)
		}
	}
}

func firstDiff(a, b []sim.Attempt) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("trace[%d]: %+v vs %+v", i, a[i], b[i])
		}
	}
	if len(a) != len(b) {
		return fmt.Sprintf("%d vs %d segments", len(a), len(b))
	}
	return ""
}

// checkStream runs the case again on the same seed with the trace handed
// to a sink (Options.Sink): the sink must receive the first run's trace,
// record for record (which also says the policy is deterministic), the result must be the same but for the trace it no longer
// holds, and the streaming checker (check.Stream), fed as the run goes,
// must return what Verify returns on the kept run.
func checkStream(t T, c Case, newPolicy func() sim.Policy, kept *sim.Result) {
	t.Helper()
	opt := c.Options
	rec := &Recorder{}
	st := check.NewStream(c.Workload, opt)
	opt.Sink = sim.Tee(rec, st)
	res, err := sim.Run(c.Workload, newPolicy(), opt)
	if err != nil {
		t.Fatalf("streamed Run: %v", err)
	}
	rec.Close()
	berr, serr := check.Verify(c.Workload, kept), st.Finish(res)
	if (berr == nil) != (serr == nil) || (berr != nil && berr.Error() != serr.Error()) {
		t.Errorf("streamed run: the streaming checker disagrees with Verify:\nVerify: %v\nStream: %v", berr, serr)
	}
	for _, p := range rec.Problems[:min(len(rec.Problems), 5)] {
		t.Errorf("streamed run: %s", p)
	}
	if res.Trace != nil {
		t.Errorf("streamed run: the result holds a trace of %d records", len(res.Trace))
	}
	if d := firstDiff(kept.Trace, rec.Trace); d != "" {
		t.Errorf("not deterministic, or the stream loses records: a second run on the same seed, its trace handed to a sink, differs: %s", d)
	}
	if res.Metrics != kept.Metrics || !reflect.DeepEqual(res.Jobs, kept.Jobs) || res.Status != kept.Status ||
		res.Events != kept.Events || res.TaskEvents != kept.TaskEvents || res.Rejected != kept.Rejected {
		t.Errorf("not deterministic, or the stream changes the result: a second run on the same seed, streamed, differs: %+v\nfirst: %+v", res.Metrics, kept.Metrics)
	}
	if rec.Rep != kept.Rep || !reflect.DeepEqual(rec.Replicas, kept.Replicas) {
		t.Errorf("streamed run: the sink's replica table differs from the result's")
	}
}
