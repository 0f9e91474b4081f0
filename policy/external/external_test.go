package external

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
	"github.com/mrbound/mrbound/sim/report"
	"github.com/mrbound/mrbound/sim/simtest"
	"github.com/mrbound/mrbound/workload"
	"github.com/mrbound/mrbound/workload/swim"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// fbDay is the FB-2009 day of the issue (../shared/traces/swim).
const fbDay = "../../../shared/traces/swim/FB-2009_samples_24_times_1hr_0.tsv"

// fbJobs is how much of the FB day the identity test replays: the first
// jobs (about 2 h of the day) keep the test within a few seconds; the whole
// day is BenchmarkFBDay's and the command lines (docs/results.md).
const fbJobs = 500

// python runs the clients: the interpreter python3 resolves to (a version
// manager's shim can cost seconds per start), with -S, which skips
// site-packages (the clients need the standard library only).
var python, pythonFIFO string

var findPython sync.Once

func needPython(t testing.TB) {
	t.Helper()
	findPython.Do(func() {
		if _, err := exec.LookPath("python3"); err != nil {
			return
		}
		exe, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
		if err != nil || len(bytes.TrimSpace(exe)) == 0 {
			exe = []byte("python3")
		}
		python = strconv.Quote(string(bytes.TrimSpace(exe))) + " -S "
		pythonFIFO = python + filepath.Join("..", "..", "clients", "python", "examples", "fifo.py")
	})
	if python == "" {
		t.Skip("python3 is not installed: the Python client cannot run (make test installs it)")
	}
}

func newExternal(t testing.TB, command string, timeout time.Duration) *Policy {
	t.Helper()
	p, err := New(command, Options{Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSplitWords(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"python3 fifo.py", []string{"python3", "fifo.py"}},
		{"  a\tb  ", []string{"a", "b"}},
		{`prog 'two words' "and $HOME" x\ y`, []string{"prog", "two words", "and $HOME", "x y"}},
		{`a "q\"uote" 'it''s' "b\\c" "d\e"`, []string{"a", `q"uote`, "its", `b\c`, `d\e`}},
		{`run ; rm -rf / | cat > x`, []string{"run", ";", "rm", "-rf", "/", "|", "cat", ">", "x"}},
		{`a""b ''`, []string{"ab", ""}},
	} {
		got, err := SplitWords(c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("SplitWords(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "   ", `a 'b`, `a "b`, `a\`} {
		if got, err := SplitWords(bad); err == nil {
			t.Errorf("SplitWords(%q) = %q, want an error", bad, got)
		}
	}
}

// TestConformance runs the policy conformance suite on the Python FIFO.
func TestConformance(t *testing.T) {
	needPython(t)
	simtest.Run(t, func() sim.Policy { return newExternal(t, pythonFIFO, 0) }, simtest.Caps{})
}

// traceOf runs p on w and returns the TSV trace `simulate --trace` writes.
func traceOf(t *testing.T, w *sim.Workload, p sim.Policy, opt sim.Options) []byte {
	t.Helper()
	res, err := sim.Run(w, p, opt)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := report.New("w", w, res).WriteTrace(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestTraceIdentity: the Python FIFO's trace is byte for byte the built-in
// FIFO's, in both offer modes, on examples/mrcp-stream.json and on the
// FB-2009 day's first fbJobs jobs at 600 and 40 nodes.
func TestTraceIdentity(t *testing.T) {
	needPython(t)
	type run struct {
		name string
		w    *sim.Workload
	}
	stream, err := workload.Load("../../examples/mrcp-stream.json", workload.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	runs := []run{{"mrcp-stream", stream}}
	if _, err := os.Stat(fbDay); err == nil {
		for _, nodes := range []int{600, 40} {
			o := workload.DefaultOptions()
			o.SWIMCluster = swim.DefaultCluster()
			o.SWIMCluster.Nodes = nodes
			w, err := workload.Load(fbDay, o)
			if err != nil {
				t.Fatal(err)
			}
			w.Jobs = w.Jobs[:fbJobs]
			runs = append(runs, run{"fb-day-" + strconv.Itoa(nodes), w})
		}
	} else {
		t.Logf("%s is absent: only mrcp-stream is compared", fbDay)
	}
	for _, r := range runs {
		for _, h := range []sim.Time{0, 3000} {
			t.Run(r.name+"/heartbeat-"+strconv.Itoa(int(h)), func(t *testing.T) {
				opt := sim.DefaultOptions()
				opt.Heartbeat = h
				want := traceOf(t, r.w, fifo.New(), opt)
				got := traceOf(t, r.w, newExternal(t, pythonFIFO, 0), opt)
				if !bytes.Equal(got, want) {
					t.Errorf("the Python FIFO's trace differs from the built-in FIFO's at byte %d", firstDiff(got, want))
				}
			})
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// twoMaps is one node with one map and one reduce slot and one job of two
// maps and a reduce.
func twoMaps() *sim.Workload {
	return &sim.Workload{
		Name:    "two-maps",
		Cluster: sim.Cluster{Nodes: []sim.Node{{MapSlots: 1, ReduceSlots: 1}}},
		Jobs: []sim.Job{{Name: "j", Deadline: sim.NoDeadline, Parent: -1,
			Maps:    []sim.TaskSpec{{Work: 1000}, {Work: 1000}},
			Reduces: []sim.TaskSpec{{Work: 500}}}},
	}
}

// alive reports whether process pid still runs (a zombie does not).
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	return len(f) > 0 && f[0] != "Z"
}

// TestMisbehaving: each broken client stops the run with one line naming
// the message and what was wrong, and leaves no process behind.
func TestMisbehaving(t *testing.T) {
	needPython(t)
	script := filepath.Join("testdata", "misbehave.py")
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	for _, c := range []struct {
		mode, want string
		timeout    time.Duration
	}{
		{"crash", `message 1 (events at 0 ms): the policy closed its stdout (exit status 3); its last stderr line: "policy: something went wrong"`, 0},
		{"hang " + pidFile, "message 1 (events at 0 ms): no reply within 3s (--policy-timeout)", 3 * time.Second},
		{"malformed", `message 1 (events at 0 ms): reply is not protocol JSON: "{\"actions\": ["`, 0},
		{"noise", `message 1 (events at 0 ms): reply is not protocol JSON: "launching map 0 now"`, 0},
		{"flood", "message 1 (events at 0 ms): a reply line longer than 16778240 bytes", 0},
		{"unknown-action", `message 1 (events at 0 ms): action 0: unknown action "explode"`, 0},
		{"busy-slot", "message 1 (events at 0 ms): action 1: launch refused: sim: invalid action: launch: task 1: node 0 has no free map slot", 0},
		{"not-pending", "message 1 (events at 0 ms): action 2: suspend refused: sim: invalid action: suspend: task 0 is not running", 0},
		{"missing-field", `message 1 (events at 0 ms): action 0: launch refused: "launch" needs "node"`, 0},
	} {
		t.Run(strings.Fields(c.mode)[0], func(t *testing.T) {
			p := newExternal(t, python+script+" "+c.mode, c.timeout)
			res, err := sim.Run(twoMaps(), p, sim.DefaultOptions())
			if err == nil {
				t.Fatalf("the run succeeded (%v); want an error", res)
			}
			if !errors.Is(err, badinput.Err) {
				t.Errorf("error %v is not bad input (the CLI's exit code 1)", err)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") || !strings.Contains(msg, c.want) {
				t.Errorf("error %q\nwant one line containing %q", msg, c.want)
			}
			if !strings.Contains(msg, "policy exec:"+python) {
				t.Errorf("error %q does not name the policy first", msg)
			}
			if alive(p.pid) {
				t.Errorf("the policy process %d is still running", p.pid)
			}
			if strings.HasPrefix(c.mode, "hang") {
				b, err := os.ReadFile(pidFile)
				if err != nil {
					t.Fatal(err)
				}
				child, _ := strconv.Atoi(string(b))
				deadline := time.Now().Add(2 * time.Second)
				for alive(child) && time.Now().Before(deadline) {
					time.Sleep(20 * time.Millisecond)
				}
				if alive(child) {
					t.Errorf("the policy's child %d outlived the run", child)
				}
			}
		})
	}
	t.Run("no-such-program", func(t *testing.T) {
		_, err := sim.Run(twoMaps(), newExternal(t, "/no/such/policy --x", 0), sim.DefaultOptions())
		if err == nil || !strings.Contains(err.Error(), "/no/such/policy") {
			t.Errorf("error %v, want one naming the program", err)
		}
	})
}

// TestSchema validates every line of real runs (the Python FIFO on the MRCP
// stream in both modes, and a client that uses every action) against
// docs/protocol.schema.json, and checks that the schema rejects broken lines.
func TestSchema(t *testing.T) {
	needPython(t)
	sch, err := jsonschema.NewCompiler().Compile("../../docs/protocol.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	stream, err := workload.Load("../../examples/mrcp-stream.json", workload.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, c := range []struct {
		command string
		w       *sim.Workload
		opt     func(*sim.Options)
	}{
		{pythonFIFO, stream, func(o *sim.Options) { o.Heartbeat = 0 }},
		{pythonFIFO, stream, func(o *sim.Options) { o.Estimates = sim.EstimateNone }},
		{pythonFIFO, simtest.Random(13, simtest.RandomSpec{Fungible: true, RAM: true}), func(*sim.Options) {}},
		{python + filepath.Join("testdata", "allactions.py"), stream, func(o *sim.Options) { o.Heartbeat = 0 }},
	} {
		var lines [][]byte
		opt := sim.DefaultOptions()
		c.opt(&opt)
		p, err := New(c.command, Options{Record: func(_ bool, l []byte) { lines = append(lines, bytes.Clone(l)) }})
		if err != nil {
			t.Fatal(err)
		}
		res, err := sim.Run(c.w, p, opt)
		if err != nil {
			t.Fatal(err)
		}
		if res.Rejected > 0 || res.Metrics.CompletedJobs != len(c.w.Jobs) {
			t.Fatalf("%s: %d rejected actions, %d of %d jobs", c.command, res.Rejected, res.Metrics.CompletedJobs, len(c.w.Jobs))
		}
		for i, l := range lines {
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(l))
			if err != nil {
				t.Fatalf("line %d %s: %v", i, l, err)
			}
			if err := sch.Validate(v); err != nil {
				t.Errorf("line %d %s: %v", i, l, err)
			}
			for _, k := range messageKinds(l) {
				kinds[k]++
			}
		}
	}
	for _, k := range []string{"hello", "events", "end", "reply", "arrival", "task_ends", "timer", "offers",
		"launch", "kill", "suspend", "resume", "wake"} {
		if kinds[k] == 0 {
			t.Errorf("no recorded line has a %q: the schema test does not cover it", k)
		}
	}
	for _, bad := range []string{`{"actions":[{"type":"explode"}]}`, `{"actions":[{"type":"launch","task":1}]}`,
		`{"type":"events","seq":1,"now":0,"events":[]}`, `{"actions":[],"extra":1}`} {
		v, _ := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if sch.Validate(v) == nil {
			t.Errorf("the schema accepts %s", bad)
		}
	}
}

// messageKinds names a line's message type and the event and action types
// in it (the schema test's coverage).
func messageKinds(l []byte) []string {
	var m struct {
		Type    string
		Events  []struct{ Type string }
		Actions []struct{ Type string }
	}
	if json.Unmarshal(l, &m) != nil {
		return nil
	}
	kinds := []string{m.Type}
	if m.Type == "" {
		kinds[0] = "reply"
	}
	for _, e := range m.Events {
		kinds = append(kinds, e.Type)
	}
	for _, a := range m.Actions {
		kinds = append(kinds, a.Type)
	}
	return kinds
}
