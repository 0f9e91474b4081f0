package report

import (
	"bytes"
	"testing"

	"github.com/mrbound/mrbound/policy"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
	"github.com/mrbound/mrbound/sim/simtest"
)

// TestTraceWriterStopped: on runs stopped at a horizon (records still
// running, End -1, handed over last) and on preempting policies (killed and
// suspended records, zero-length kill records), TraceWriter writes the
// bytes WriteTrace writes from the kept trace, and the streaming checker
// returns Verify's verdict.
func TestTraceWriterStopped(t *testing.T) {
	open, killed, suspended := 0, 0, 0
	for _, c := range simtest.Cases() {
		for _, pol := range []string{"fifo", "hfsp-kill", "hfsp-suspend"} {
			for _, horizon := range []sim.Time{0, 20000} {
				opt := c.Options
				opt.Horizon = horizon
				p, err := policy.New(pol, policy.Params{})
				if err != nil {
					t.Fatal(err)
				}
				res, err := sim.Run(c.Workload, p, opt)
				if err != nil {
					t.Fatal(err)
				}
				var want bytes.Buffer
				if err := New("", c.Workload, res).WriteTrace(&want); err != nil {
					t.Fatal(err)
				}
				p, _ = policy.New(pol, policy.Params{})
				var got bytes.Buffer
				tw := NewTraceWriter(&got)
				st := check.NewStream(c.Workload, opt)
				opt.Sink = sim.Tee(tw, st)
				sres, err := sim.Run(c.Workload, p, opt)
				if err != nil {
					t.Fatal(err)
				}
				if err := tw.Close(); err != nil {
					t.Fatalf("%s/%s/horizon %d: %v", c.Name, pol, horizon, err)
				}
				if !bytes.Equal(got.Bytes(), want.Bytes()) {
					t.Errorf("%s/%s/horizon %d: the trace writer's %d bytes differ from WriteTrace's %d", c.Name, pol, horizon, got.Len(), want.Len())
				}
				berr, serr := check.Verify(c.Workload, res), st.Finish(sres)
				if (berr == nil) != (serr == nil) || (berr != nil && berr.Error() != serr.Error()) {
					t.Errorf("%s/%s/horizon %d: Verify says %v, the stream %v", c.Name, pol, horizon, berr, serr)
				}
				open += bytes.Count(want.Bytes(), []byte("\t-\t"))
				killed += res.Metrics.Killed
				suspended += res.Metrics.Suspended
			}
		}
	}
	// what the test is for must have happened
	if open == 0 || killed == 0 || suspended == 0 {
		t.Errorf("%d records without an end, %d killed, %d suspended: the cases miss one", open, killed, suspended)
	}
}
