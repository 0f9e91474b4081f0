package jlassitable

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mrbound/mrbound/formulations/jlassi"
	"github.com/mrbound/mrbound/solve"
	_ "github.com/mrbound/mrbound/solve/native"
	"github.com/mrbound/mrbound/sweep"
)

func TestPlan(t *testing.T) {
	o := jlassi.TableOptions{Scenarios: []int{2, 5}, Instances: 3, Form: jlassi.Published, Objective: jlassi.TST, Horizon: jlassi.Horizon{Mode: jlassi.HorizonFixed, T: 9},
		Solve: solve.Options{Solver: "highs", TimeLimit: 90 * time.Second, RelGap: 1e-3, NodeLimit: 5, Threads: 1, Seed: 4}}
	m, err := Plan(o)
	if err != nil {
		t.Fatal(err)
	}
	if m.Sweep != Name || len(m.Items) != 6 || m.Items[0].ID != "sc2-seed1" || m.Items[5].ID != "sc5-seed3" ||
		string(m.Items[4].Spec) != `{"scenario":5,"seed":2}` {
		t.Errorf("items %+v", m.Items)
	}
	if time.Duration(m.Limits.Time) != 2*90*time.Second+ItemOverhead || m.Limits.MemoryMB != ItemMemoryMB {
		t.Errorf("limits %+v", m.Limits)
	}
	var p Params
	if err := json.Unmarshal(m.Params, &p); err != nil {
		t.Fatal(err)
	}
	back, err := p.options()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, o) {
		t.Errorf("params round trip: %+v, want %+v", back, o)
	}
	if _, err := (Params{Formulation: "weak"}).options(); err == nil {
		t.Error("formulation weak accepted")
	}
	if _, err := (Params{Horizon: "never"}).options(); err == nil {
		t.Error("horizon never accepted")
	}
	if _, err := (Params{Objective: "makespan"}).options(); err == nil {
		t.Error("objective makespan accepted")
	}
	if m, _ := Plan(jlassi.TableOptions{Scenarios: []int{1}, Instances: 1}); m.Limits.Time != 0 {
		t.Errorf("no time limit, yet a time per item of %v", m.Limits.Time)
	}
}

// TestSweepIsTheTable runs a three-instance table as a sweep on the local
// pool and collects it; then `mrbound table jlassi` is pointed at the
// collected records file: it resumes with every instance done, solves
// nothing, and writes a table identical byte for byte to the sweep's — the
// sweep writes exactly the single-machine run's files.
func TestSweepIsTheTable(t *testing.T) {
	o := jlassi.TableOptions{Scenarios: []int{1}, Instances: 3, Solve: solve.Options{Solver: "native", TimeLimit: time.Minute}}
	m, err := Plan(o)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := sweep.Write(dir, m); err != nil {
		t.Fatal(err)
	}
	if sum, err := sweep.RunLocal(context.Background(), m, sweep.PoolOptions{Jobs: 2}); err != nil || sum.Ran != 3 {
		t.Fatalf("pool: %+v, %v", sum, err)
	}
	var swept bytes.Buffer
	out := filepath.Join(dir, "t.md")
	rep, err := sweep.Collect(m, sweep.Output{Path: out, Stdout: &swept})
	if err != nil || !rep.Complete() {
		t.Fatalf("collect: %s, %v", rep.Summary(), err)
	}
	recs, _ := os.ReadFile(out + ".instances.csv")
	got, err := jlassi.Records.Read("r", bytes.NewReader(recs))
	if err != nil || len(got) != 3 {
		t.Fatalf("records %q: %v", recs, err)
	}
	for i, r := range got {
		// Optimal in about a second; a minute's limit is only hit under
		// -race on a loaded machine, and the bounds must hold either way.
		settled := r.Status == solve.Optimal || r.Status == solve.TimeLimit
		if r.Scenario != 1 || r.Seed != int64(i+1) || !settled || !r.Verified || r.Bound > r.RealTime+1e-6 || r.LPBound > r.RealTime+1e-6 {
			t.Errorf("record %d: %+v (want optimal, verified, bounds below RealTime)", i, r)
		}
	}

	single := filepath.Join(t.TempDir(), "t.md")
	os.WriteFile(single+".instances.csv", recs, 0o644)
	var alone bytes.Buffer
	if err := RunTable(context.Background(), o, single, &alone); err != nil {
		t.Fatal(err)
	}
	tableSweep, _ := os.ReadFile(out)
	tableAlone, _ := os.ReadFile(single)
	recsAlone, _ := os.ReadFile(single + ".instances.csv")
	if !bytes.Equal(tableSweep, tableAlone) || alone.String() != swept.String() || !bytes.Equal(recs, recsAlone) {
		t.Errorf("single-machine files differ from the sweep's:\n%s\nvs\n%s", tableAlone, tableSweep)
	}
}

// TestCheck: a manifest's params and specs are checked when it is loaded;
// the error names the place.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ params, spec, want string }{
		{`{"scenarios":[1],"instances":1,"solvr":"highs"}`, `{"scenario":1,"seed":1}`, `sweep.json: params: unknown field "solvr"`},
		{`{"scenarios":[1],"instances":1,"horizon":"soon"}`, `{"scenario":1,"seed":1}`, `params.horizon: jlassi: horizon "soon"`},
		{`{"scenarios":[1],"instances":1,"time_limit":"-1s"}`, `{"scenario":1,"seed":1}`, `params: solve: time limit -1s is negative`},
		{`{"scenarios":[1],"instances":1}`, `{"scenario":"1","seed":1}`, `items[0].spec: cannot unmarshal string into Go struct field spec.scenario of type int`},
	} {
		data := `{"kind":"sweep","schema_version":1,"sweep":"jlassi-table","params":` + c.params + `,"limits":{},"items":[{"id":"a","spec":` + c.spec + `}]}`
		path := filepath.Join(dir, "sweep.json")
		os.WriteFile(path, []byte(data), 0o644)
		_, err := sweep.Load(path)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: %v, want %q", c.params, c.spec, err, c.want)
		}
	}
}
