package formulations_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/formulations"
	"github.com/mrbound/mrbound/formulations/coshh"
	"github.com/mrbound/mrbound/formulations/jlassi"
	"github.com/mrbound/mrbound/formulations/mrcp"
	"github.com/mrbound/mrbound/formulations/tumm"
	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
	_ "github.com/mrbound/mrbound/solve/native"
)

// Every formulation's Report is a formulations.Report; the two that produce
// schedules are ScheduleReports.
var (
	_ formulations.ScheduleReport = (*jlassi.Report)(nil)
	_ formulations.ScheduleReport = (*mrcp.Report)(nil)
	_ formulations.Report         = (*coshh.Report)(nil)
	_ formulations.Report         = (*tumm.Report)(nil)
)

// door is one formulation's Run seen through the front door.
type door struct {
	kind string
	run  func(ctx context.Context, path string, data []byte) (formulations.Report, error)
}

// doorsWith returns the four formulations' Runs (jlassi, mrcp, coshh, tumm),
// each solving with so; jo and mrcp's mo add their own options.
func doorsWith(so solve.Options, jo jlassi.Options, mo mrcp.Options) []door {
	jo.Solve, mo.Solve = so, so
	return []door{
		{"jlassi", func(ctx context.Context, p string, d []byte) (formulations.Report, error) {
			return jlassi.Run(ctx, p, d, jo)
		}},
		{"mrcp", func(ctx context.Context, p string, d []byte) (formulations.Report, error) {
			return mrcp.Run(ctx, p, d, mo)
		}},
		{"coshh", func(ctx context.Context, p string, d []byte) (formulations.Report, error) {
			return coshh.Run(ctx, p, d, coshh.Options{Solve: so})
		}},
		{"tumm", func(ctx context.Context, p string, d []byte) (formulations.Report, error) {
			return tumm.Run(ctx, p, d, tumm.Options{Solve: so})
		}},
	}
}

// doors are the four Runs with default options.
var doors = doorsWith(solve.Options{}, jlassi.Options{}, mrcp.Options{})

// TestFrontDoorOptima runs one small scenario of each kind through the same
// code path, on the default (native) backend, and checks the Outcome
// against its known optimum: the optima are those of the CLI's golden files.
func TestFrontDoorOptima(t *testing.T) {
	cases := []struct {
		file    string
		sense   model.Sense
		measure string
		optimum float64
	}{
		{"../cmd/mrbound/testdata/jlassi-migration-text/input.json", model.Minimize, "realtime", 15},
		{"../cmd/mrbound/testdata/mrcp-tiny-text/input.json", model.Minimize, "product", 20},
		{"../examples/coshh-paper.json", model.Maximize, "lambda", 2.5 / 2.45}, // λ·α = 2.5 jobs/s served per class
		{"../examples/tumm-static.json", model.Minimize, "makespan", 522.1818181818},
	}
	for i, c := range cases {
		d := doors[i]
		t.Run(d.kind, func(t *testing.T) {
			data, err := os.ReadFile(c.file)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := d.run(context.Background(), c.file, data)
			if err != nil {
				t.Fatal(err)
			}
			o := rep.Outcome()
			if o.Status != solve.Optimal || !o.Verdict.Verified || o.Sense != c.sense || o.Measure != c.measure {
				t.Fatalf("outcome %+v; want optimal, verified, %v %s", o, c.sense, c.measure)
			}
			x, b := float64(o.Objective), float64(o.Bound)
			if math.Abs(x-c.optimum) > 1e-6*math.Max(1, c.optimum) {
				t.Errorf("objective %v, want %v", x, c.optimum)
			}
			// The bound is on the optimum's side of every answer, and tight here.
			if (c.sense == model.Minimize && b > x+1e-6) || (c.sense == model.Maximize && b < x-1e-6) || math.Abs(x-b) > 1e-6*math.Max(1, x) {
				t.Errorf("bound %v against objective %v (%v)", b, x, c.sense)
			}
			var js, txt bytes.Buffer
			if err := rep.WriteJSON(&js); err != nil || !json.Valid(js.Bytes()) {
				t.Errorf("WriteJSON: %v, valid %v", err, json.Valid(js.Bytes()))
			}
			if err := rep.WriteText(&txt); err != nil || txt.Len() == 0 {
				t.Errorf("WriteText: %v, %d bytes", err, txt.Len())
			}
			if _, err := json.Marshal(o); err != nil {
				t.Errorf("Outcome does not marshal: %v", err)
			}
		})
	}
}

// TestFrontDoorBadInput: every Run reports a bad scenario with one error
// that wraps badinput.Err and names the file.
func TestFrontDoorBadInput(t *testing.T) {
	for _, d := range doors {
		for _, doc := range []string{
			`{"kind": "` + d.kind + `", "schema_version": 1}`,
			`{"kind": "` + d.kind + `", "schema_version": 1,`,
		} {
			rep, err := d.run(context.Background(), "bad.json", []byte(doc))
			if err == nil {
				t.Errorf("%s: %s: no error (report %v)", d.kind, doc, rep)
				continue
			}
			if !errors.Is(err, badinput.Err) || !strings.HasPrefix(err.Error(), "bad.json:") {
				t.Errorf("%s: %s: error %q: wraps badinput.Err %v, want it to and to start with the file",
					d.kind, doc, err, errors.Is(err, badinput.Err))
			}
		}
	}
}

// failingSolver is a backend whose every call fails.
type failingSolver struct{}

var errBackendDown = errors.New("backend down")

func (failingSolver) Name() string { return "failing-for-frontdoor-test" }
func (failingSolver) Solve(context.Context, *model.Model, solve.Options) (solve.Result, error) {
	return solve.Result{}, errBackendDown
}

func init() { solve.Register(failingSolver{}) }

// TestFrontDoorFailedCall: when the backend's call fails, every Run that
// solves returns that error, and it is not bad input.
func TestFrontDoorFailedCall(t *testing.T) {
	files := []string{"../cmd/mrbound/testdata/jlassi-migration-text/input.json", "../cmd/mrbound/testdata/mrcp-tiny-text/input.json",
		"../examples/coshh-paper.json", "../examples/tumm-heterogeneous.json"}
	so := solve.Options{Solver: failingSolver{}.Name()}
	for i, d := range doorsWith(so, jlassi.Options{NoHeuristic: true}, mrcp.Options{Method: mrcp.Plain}) {
		data, err := os.ReadFile(files[i])
		if err != nil {
			t.Fatal(err)
		}
		_, err = d.run(context.Background(), files[i], data)
		if !errors.Is(err, errBackendDown) || errors.Is(err, badinput.Err) {
			t.Errorf("%s: error %v; want the backend's failure, not bad input", d.kind, err)
		}
	}
}

func TestVerdictString(t *testing.T) {
	for _, c := range []struct {
		v    formulations.Verdict
		want string
	}{
		{formulations.Verified(), "verified"},
		{formulations.Rejected("slot: two tasks on m1"), "not verified: slot: two tasks on m1"},
		{formulations.Verdict{}, "not verified"},
	} {
		if got := c.v.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.v, got, c.want)
		}
	}
}

// TestFrontDoorBoundSide: stopped early (one node), every formulation's
// Outcome still keeps its bound on the right side of a verified objective,
// and reports no objective for an answer that is not verified.
func TestFrontDoorBoundSide(t *testing.T) {
	files := []string{"../examples/scenario5.json", "../examples/mrcp-stream.json", "../examples/coshh-facebook.json",
		"../examples/tumm-heterogeneous.json"}
	so := solve.Options{NodeLimit: 1, TimeLimit: 20 * time.Second}
	for i, d := range doorsWith(so, jlassi.Options{LPBound: true}, mrcp.Options{Method: mrcp.Monolithic}) {
		file := files[i]
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := d.run(context.Background(), file, data)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		o := rep.Outcome()
		x, b := float64(o.Objective), float64(o.Bound)
		t.Logf("%s: %v %s %v bound %v, %v", file, o.Status, o.Measure, x, b, o.Verdict)
		if !o.Verdict.Verified {
			if !math.IsNaN(x) {
				t.Errorf("%s: objective %v reported for an answer that is not verified", file, x)
			}
			continue
		}
		tol := 1e-6 * math.Max(1, math.Abs(x))
		if (o.Sense == model.Minimize && b > x+tol) || (o.Sense == model.Maximize && b < x-tol) {
			t.Errorf("%s: bound %v is beyond the verified objective %v (%v)", file, b, x, o.Sense)
		}
	}
}
