package comparesweep

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/compare"
	"github.com/mrbound/mrbound/compare/simbridge"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/sweep"
)

// TestItemsCollectToTheLocalTable: planning the family as items, running
// each item and collecting gives the records a single-machine sweep writes.
func TestItemsCollectToTheLocalTable(t *testing.T) {
	o := simbridge.SweepOptions{Family: "mrcp-small", Jobs: 5, Lambdas: []float64{1.0 / 60, 1.0 / 30}, Seeds: 2,
		Policies: []string{"fifo", "edf"}, Compare: simbridge.Options{Metric: lowerbound.MeanTurnaround, Sim: simbridge.IdealOptions()}}
	local, err := simbridge.Sweep(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Plan(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := check(m.Params, m.Items); err != nil {
		t.Fatal(err)
	}
	var results []json.RawMessage
	for _, it := range m.Items {
		raw, err := runItem(context.Background(), m.Params, it.Spec, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, raw)
	}
	results[1] = nil // a missing item is skipped
	path := filepath.Join(t.TempDir(), "table.csv")
	var stdout bytes.Buffer
	if err := collect(m.Params, results, sweep.Output{Path: path, Stdout: &stdout}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := compare.ReadSweep(path, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	want := append(append([]compare.SweepRecord{}, local[:2]...), local[4:]...)
	if len(got) != len(want) {
		t.Fatalf("%d records collected, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Key() != want[i].Key() || got[i].Value != want[i].Value || got[i].Bound != want[i].Bound {
			t.Errorf("record %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if _, err := os.Stat(path + ".svg"); err != nil || stdout.Len() == 0 {
		t.Errorf("plot %v, summary %q", err, stdout.String())
	}
	if err := check([]byte(`{"family":"mrcp-small","jobs":0}`), nil); err == nil {
		t.Error("params without jobs accepted")
	}
	if err := check([]byte(`{"family":"mrcp-small","jobs":3,"polices":["fifo"]}`), nil); err == nil || !strings.Contains(err.Error(), "polices") {
		t.Errorf("a misspelt field: %v", err)
	}
}
