package external

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/mrbound/mrbound/examples/sjf"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/check"
	"github.com/mrbound/mrbound/sim/report"
	"github.com/mrbound/mrbound/sim/simtest"
	"github.com/mrbound/mrbound/workload"
	"github.com/mrbound/mrbound/workload/swim"
)

// TestPythonSJF: the Python SJF example (clients/python/examples/sjf.py)
// makes the Go reference SJF's decisions (examples/sjf), one for one: the
// two traces are byte-identical, and the schedule passes the independent
// checker, on fixed and fungible slots, two node classes with RAM limits,
// without estimates, the MRCP stream and the FB-2009 day's first jobs at
// 40 nodes, in ideal and hadoop1 mode.
func TestPythonSJF(t *testing.T) {
	needPython(t)
	pythonSJF := python + filepath.Join("..", "..", "clients", "python", "examples", "sjf.py")
	stream, err := workload.Load("../../examples/mrcp-stream.json", workload.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	type run struct {
		name string
		w    *sim.Workload
		est  sim.EstimateMode
	}
	runs := []run{
		{"random", simtest.Random(31, simtest.RandomSpec{}), sim.EstimateExact},
		{"random-fungible", simtest.Random(32, simtest.RandomSpec{Fungible: true}), sim.EstimateExact},
		{"random-hetero-ram", simtest.Random(33, simtest.RandomSpec{Hetero: true, RAM: true}), sim.EstimateExact},
		{"random-no-estimates", simtest.Random(34, simtest.RandomSpec{}), sim.EstimateNone},
		{"mrcp-stream", stream, sim.EstimateExact},
	}
	if _, err := os.Stat(fbDay); err == nil {
		o := workload.DefaultOptions()
		o.SWIMCluster = swim.DefaultCluster()
		o.SWIMCluster.Nodes = 40
		w, err := workload.Load(fbDay, o)
		if err != nil {
			t.Fatal(err)
		}
		w.Jobs = w.Jobs[:200] // a few hundred jobs queue up on 40 nodes: SJF's order matters
		runs = append(runs, run{"fb-day-40", w, sim.EstimateExact})
	}
	for _, r := range runs {
		for _, h := range []sim.Time{0, 3000} {
			t.Run(r.name+"/heartbeat-"+strconv.Itoa(int(h)), func(t *testing.T) {
				opt := sim.DefaultOptions()
				opt.Heartbeat, opt.Estimates = h, r.est
				res, err := sim.Run(r.w, newExternal(t, pythonSJF, 0), opt)
				if err != nil {
					t.Fatal(err)
				}
				if err := check.Verify(r.w, res); err != nil {
					t.Errorf("the Python SJF's schedule fails the checker: %v", err)
				}
				if res.Metrics.CompletedJobs != len(r.w.Jobs) {
					t.Errorf("%d of %d jobs completed", res.Metrics.CompletedJobs, len(r.w.Jobs))
				}
				var got bytes.Buffer
				if err := report.New("w", r.w, res).WriteTrace(&got); err != nil {
					t.Fatal(err)
				}
				if want := traceOf(t, r.w, sjf.New(), opt); !bytes.Equal(got.Bytes(), want) {
					t.Errorf("the Python SJF's trace differs from the Go SJF's at byte %d", firstDiff(got.Bytes(), want))
				}
			})
		}
	}
}
