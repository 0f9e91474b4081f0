package sweep

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/sweep/record"
)

// squareSpec is an item of the test kind: y = x² + offset; Fail fails the
// item, Panic panics in it, SleepMS waits (or until cancelled).
type squareSpec struct {
	X       int  `json:"x"`
	Fail    bool `json:"fail,omitempty"`
	Panic   bool `json:"panic,omitempty"`
	SleepMS int  `json:"sleep_ms,omitempty"`
}

var squareRuns atomic.Int64

func init() {
	Register(Kind{
		Name: "test-square",
		Check: func(params json.RawMessage, items []Item) error {
			var p struct{ Offset int }
			if json.Unmarshal(params, &p) != nil {
				return errors.New("params: offset is not a number")
			}
			return nil
		},
		Run: func(ctx context.Context, params, spec json.RawMessage, log io.Writer) (json.RawMessage, error) {
			squareRuns.Add(1)
			var p struct{ Offset int }
			var s squareSpec
			if err := json.Unmarshal(params, &p); err != nil {
				return nil, err
			}
			if err := json.Unmarshal(spec, &s); err != nil {
				return nil, err
			}
			fmt.Fprintf(log, "squaring %d\n", s.X)
			select {
			case <-time.After(time.Duration(s.SleepMS) * time.Millisecond):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			switch {
			case s.Fail:
				return nil, fmt.Errorf("x = %d is not welcome", s.X)
			case s.Panic:
				var m map[string]int
				m["boom"]++
			}
			return json.Marshal(map[string]int{"y": s.X*s.X + p.Offset})
		},
		Collect: func(params json.RawMessage, results []json.RawMessage, out Output) error {
			render := func(w io.Writer) error {
				fmt.Fprintln(w, "index,y")
				for i, r := range results {
					if r == nil {
						continue
					}
					var v struct{ Y int }
					if err := json.Unmarshal(r, &v); err != nil {
						return err
					}
					fmt.Fprintf(w, "%d,%d\n", i, v.Y)
				}
				return nil
			}
			if out.Path != "" {
				if err := record.WriteFileAtomic(out.Path, render); err != nil {
					return err
				}
			}
			return render(out.Stdout)
		},
	})
}

// squareSweep plans n items of the test kind in a new directory.
func squareSweep(t *testing.T, n int, spec func(i int) squareSpec) *Manifest {
	t.Helper()
	m := &Manifest{Sweep: "test-square", Params: json.RawMessage(`{"offset":1}`), Limits: Limits{Time: Duration(time.Minute), MemoryMB: 100}}
	for i := 0; i < n; i++ {
		s, _ := json.Marshal(spec(i))
		m.Items = append(m.Items, Item{ID: fmt.Sprintf("x%d", i), Spec: s})
	}
	if err := Write(t.TempDir(), m); err != nil {
		t.Fatal(err)
	}
	return m
}

func collect(t *testing.T, m *Manifest) (Report, string) {
	t.Helper()
	var out bytes.Buffer
	rep, err := Collect(m, Output{Path: filepath.Join(m.Dir(), "table.csv"), Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile(filepath.Join(m.Dir(), "table.csv"))
	if err != nil || string(file) != out.String() {
		t.Fatalf("table file %q (%v), stdout %q", file, err, out.String())
	}
	return rep, out.String()
}

func TestManifestWriteLoad(t *testing.T) {
	m := squareSweep(t, 3, func(i int) squareSpec { return squareSpec{X: i} })
	got, err := Load(m.Dir()) // a directory means its sweep.json
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, m) {
		t.Errorf("loaded %+v, wrote %+v", got, m)
	}
	// Writing the same sweep again is fine; a different one is refused.
	if err := Write(m.Dir(), got); err != nil {
		t.Errorf("rewriting the same manifest: %v", err)
	}
	other := *got
	other.Items = other.Items[:2]
	if err := Write(m.Dir(), &other); err == nil || !errors.Is(err, badinput.Err) {
		t.Errorf("a different manifest over an existing one: %v", err)
	}
}

func TestManifestBad(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ json, want string }{
		{`{"kind":"jlassi","schema_version":1}`, `sweep.json: kind: "jlassi", want "sweep"`},
		{`{"kind":"sweep","schema_version":2}`, `schema_version: 2, want 1`},
		{`{"kind":"sweep","schema_version":1,"sweep":"nope","items":[{"id":"a"}]}`, `sweep: unknown sweep kind "nope"`},
		{`{"kind":"sweep","schema_version":1,"sweep":"test-square","items":[]}`, `items: no items`},
		{`{"kind":"sweep","schema_version":1,"sweep":"test-square","items":[{"id":"a"},{"id":"a"}]}`, `items[1].id: "a" repeats items[0]`},
		{`{"kind":"sweep","schema_version":1,"sweep":"test-square","limits":{"time_per_item":"soon"},"items":[{"id":"a"}]}`, `not a duration: "soon"`},
		{"{\"kind\":\"sweep\",\n\"items\": [}", `sweep.json:2:11: invalid character '}'`},
		{`{"kind":"sweep","extra":1}`, `unknown field "extra"`},
		{`{"kind":"sweep","schema_version":1,"sweep":"test-square","params":{"offset":"x"},"items":[{"id":"a"}]}`, `sweep.json: params: offset is not a number`},
	} {
		path := filepath.Join(dir, ManifestName)
		os.WriteFile(path, []byte(c.json), 0o644)
		_, err := Load(path)
		if err == nil || !errors.Is(err, badinput.Err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want bad input containing %q", c.json, err, c.want)
		}
	}
}

// TestRunItemOnce runs an item twice: the second run does nothing and the
// result file is untouched; an out-of-range index is bad input.
func TestRunItemOnce(t *testing.T) {
	m := squareSweep(t, 2, func(i int) squareSpec { return squareSpec{X: i + 3} })
	out, _, err := RunItem(context.Background(), m, 1)
	if err != nil || out != Done {
		t.Fatalf("first run: %v, %v", out, err)
	}
	before, _ := os.ReadFile(m.ResultPath(1))
	out, _, err = RunItem(context.Background(), m, 1)
	if err != nil || out != Skipped {
		t.Fatalf("second run: %v, %v", out, err)
	}
	after, _ := os.ReadFile(m.ResultPath(1))
	if !bytes.Equal(before, after) || Attempts(m, 1) != 1 {
		t.Errorf("a finished item ran again: %d attempts", Attempts(m, 1))
	}
	if r, err := readResult(m, 1); err != nil || string(r.Value) != `{"y":17}` || r.ID != "x1" {
		t.Errorf("result %s (%v)", after, err)
	}
	if _, _, err := RunItem(context.Background(), m, 2); !errors.Is(err, badinput.Err) {
		t.Errorf("index 2 of 2: %v", err)
	}
	if got := Todo(m); !reflect.DeepEqual(got, []int{0}) {
		t.Errorf("Todo = %v, want [0]", got)
	}
}

// TestRunLocalKilledResumes cancels a local pool mid-way, runs it again and
// checks that only the items without a result ran the second time and that
// the table equals that of an uninterrupted sweep, byte for byte.
func TestRunLocalKilledResumes(t *testing.T) {
	const n = 12
	spec := func(i int) squareSpec { return squareSpec{X: i, SleepMS: 20} }
	whole := squareSweep(t, n, spec)
	sum, err := RunLocal(context.Background(), whole, PoolOptions{Jobs: 3})
	if err != nil || sum.Ran != n {
		t.Fatalf("uninterrupted: %+v, %v", sum, err)
	}
	rep, want := collect(t, whole)
	if !rep.Complete() || strings.Count(want, "\n") != n+1 {
		t.Fatalf("uninterrupted: %s\n%s", rep.Summary(), want)
	}

	m := squareSweep(t, n, spec)
	ctx, cancel := context.WithCancel(context.Background())
	sum, err = RunLocal(ctx, m, PoolOptions{Jobs: 3, Progress: func(done, total int) {
		if done >= 5 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled pool returned %v", err)
	}
	finished := map[int]bool{}
	for i := 0; i < n; i++ {
		if _, err := os.Stat(m.ResultPath(i)); err == nil {
			finished[i] = true
		}
	}
	if len(finished) < 5 || len(finished) == n {
		t.Fatalf("after the kill %d of %d items have results; want some but not all", len(finished), n)
	}
	if rep, _ := collect(t, m); rep.Complete() || len(rep.Missing) != n-len(finished) || len(rep.Failed) != 0 {
		t.Errorf("after the kill: %s", rep.Summary())
	}
	sum, err = RunLocal(context.Background(), m, PoolOptions{Jobs: 3})
	if err != nil || sum.Skipped != len(finished) || sum.Ran != n-len(finished) {
		t.Fatalf("resumed: %+v, %v (had %d results)", sum, err, len(finished))
	}
	for i := 0; i < n; i++ {
		a := Attempts(m, i)
		if finished[i] && a != 1 {
			t.Errorf("item %d had a result before the rerun but was attempted %d times", i, a)
		}
		if !finished[i] && a < 1 {
			t.Errorf("item %d: %d attempts", i, a)
		}
	}
	rep, got := collect(t, m)
	if !rep.Complete() || got != want {
		t.Errorf("resumed sweep: %s, table\n%s\nwant\n%s", rep.Summary(), got, want)
	}
}

// TestFailedItemReported: a failing and a panicking item are failures with
// their messages and logs, never dropped; collect still merges the others;
// the next run retries them.
func TestFailedItemReported(t *testing.T) {
	m := squareSweep(t, 5, func(i int) squareSpec { return squareSpec{X: i, Fail: i == 1, Panic: i == 3} })
	sum, err := RunLocal(context.Background(), m, PoolOptions{Jobs: 2})
	if err != nil || sum.Ran != 3 || sum.Failed != 2 {
		t.Fatalf("pool: %+v, %v", sum, err)
	}
	if sum.Failures[0].Index != 1 || !strings.Contains(sum.Failures[0].Error, "x = 1 is not welcome") ||
		sum.Failures[1].Index != 3 || !strings.Contains(sum.Failures[1].Error, "internal error") {
		t.Errorf("failures %+v", sum.Failures)
	}
	rep, table := collect(t, m)
	if rep.Complete() || rep.Done != 3 || len(rep.Failed) != 2 || len(rep.Missing) != 0 {
		t.Errorf("report %s", rep.Summary())
	}
	if table != "index,y\n0,1\n2,5\n4,17\n" {
		t.Errorf("table of the finished items:\n%s", table)
	}
	var probs bytes.Buffer
	rep.WriteProblems(&probs)
	for _, want := range []string{"failed: item 1 (x1): x = 1 is not welcome", "log: " + m.LogPath(1), "| squaring 1", "| == failed"} {
		if !strings.Contains(probs.String(), want) {
			t.Errorf("problems lack %q:\n%s", want, probs.String())
		}
	}
	RunLocal(context.Background(), m, PoolOptions{Jobs: 2})
	if Attempts(m, 1) != 2 || Attempts(m, 0) != 1 {
		t.Errorf("attempts after a rerun: failed item %d (want 2), done item %d (want 1)", Attempts(m, 1), Attempts(m, 0))
	}
}

// TestResultOfAnotherItem: a result file whose item ID is not the manifest's
// (old results under a new manifest) is an error, not silently merged.
func TestResultOfAnotherItem(t *testing.T) {
	m := squareSweep(t, 2, func(i int) squareSpec { return squareSpec{X: i} })
	if _, _, err := RunItem(context.Background(), m, 0); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(m.ResultPath(0))
	os.WriteFile(m.ResultPath(1), data, 0o644)
	if _, err := Collect(m, Output{Stdout: io.Discard}); err == nil || !strings.Contains(err.Error(), "but the manifest's item 1 is x1") {
		t.Errorf("foreign result: %v", err)
	}
}

func TestIndices(t *testing.T) {
	for _, c := range []struct {
		idx []int
		s   string
	}{{[]int{0, 1, 2, 3, 5, 7, 8, 9}, "0-3,5,7-9"}, {[]int{4}, "4"}, {[]int{1, 3}, "1,3"}} {
		if got := FormatIndices(c.idx); got != c.s {
			t.Errorf("FormatIndices(%v) = %q, want %q", c.idx, got, c.s)
		}
		if got, err := ParseIndices(c.s); err != nil || !reflect.DeepEqual(got, c.idx) {
			t.Errorf("ParseIndices(%q) = %v, %v", c.s, got, err)
		}
	}
	for _, bad := range []string{"", "-1", "3-1", "a", "1,,2"} {
		if _, err := ParseIndices(bad); err == nil {
			t.Errorf("ParseIndices(%q) accepted", bad)
		}
	}
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	t.Setenv("JOB_COMPLETION_INDEX", "7")
	if i, name, ok, err := EnvIndex(); i != 7 || name != "JOB_COMPLETION_INDEX" || !ok || err != nil {
		t.Errorf("EnvIndex = %d, %s, %v, %v", i, name, ok, err)
	}
	t.Setenv("SLURM_ARRAY_TASK_ID", "x")
	if _, _, _, err := EnvIndex(); !errors.Is(err, badinput.Err) {
		t.Errorf("EnvIndex with SLURM_ARRAY_TASK_ID=x: %v", err)
	}
}

func TestEnums(t *testing.T) {
	for s, want := range map[string]Engine{"": Local, "local": Local, "slurm": Slurm, "kubernetes": Kubernetes, "k8s": Kubernetes} {
		if e, err := ParseEngine(s); err != nil || e != want {
			t.Errorf("ParseEngine(%q) = %v, %v", s, e, err)
		}
	}
	for _, bad := range []string{"unknown", "pbs"} {
		if _, err := ParseEngine(bad); !errors.Is(err, badinput.Err) {
			t.Errorf("ParseEngine(%q): %v", bad, err)
		}
	}
	var e Engine
	if err := e.UnmarshalText([]byte("slurm")); err != nil || e != Slurm || Slurm.String() != "slurm" {
		t.Errorf("engine text round trip: %v, %v", e, err)
	}
	if Failed.String() != "failed" || Outcome(9).String() != "Outcome(9)" {
		t.Errorf("outcome names: %v %v", Failed, Outcome(9))
	}
}

// TestManifestControlCharacters: a title or item ID with a line break is
// refused by Write and Load with the JSON path, so it can never reach a
// job script.
func TestManifestControlCharacters(t *testing.T) {
	dir := t.TempDir()
	for place, m := range map[string]*Manifest{
		"title":       {Sweep: "test-square", Params: json.RawMessage(`{}`), Title: "x\ntouch /tmp/PWNED", Items: []Item{{ID: "a", Spec: json.RawMessage(`{}`)}}},
		"items[1].id": {Sweep: "test-square", Params: json.RawMessage(`{}`), Items: []Item{{ID: "a", Spec: json.RawMessage(`{}`)}, {ID: "b\rc", Spec: json.RawMessage(`{}`)}}},
	} {
		err := Write(dir, m)
		if !errors.Is(err, badinput.Err) || !strings.Contains(err.Error(), place+": ") {
			t.Errorf("%s: %v", place, err)
		}
	}
	os.WriteFile(filepath.Join(dir, ManifestName), []byte(`{"kind":"sweep","schema_version":1,"sweep":"test-square","title":"x\ntouch PWNED","params":{},"limits":{},"items":[{"id":"a","spec":{}}]}`), 0o644)
	if _, err := Load(dir); !errors.Is(err, badinput.Err) || !strings.Contains(err.Error(), "title: ") {
		t.Errorf("Load: %v", err)
	}
}

// TestManifestRepeatedKey: a manifest that repeats a key (here an item's
// id) is refused with file:line:column and the JSON path, not read with
// the last copy.
func TestManifestRepeatedKey(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ManifestName), []byte("{\"kind\":\"sweep\",\"schema_version\":1,\"sweep\":\"test-square\",\"params\":{},\"limits\":{},\n\"items\":[{\"id\":\"a\",\"spec\":{}},{\"id\":\"b\",\"id\":\"a\",\"spec\":{}}]}"), 0o644)
	_, err := Load(dir)
	if !errors.Is(err, badinput.Err) || !strings.Contains(err.Error(), ":2:41: items[1].id: key \"id\" repeats the one at line 2, column 32") {
		t.Errorf("Load: %v", err)
	}
}
