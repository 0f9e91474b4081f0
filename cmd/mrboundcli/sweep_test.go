package mrboundcli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mrbound/mrbound/sweep"
)

// mustRun runs mrbound in-process and returns its standard output.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	code, stdout, stderr := runCode(args...)
	if code != 0 {
		t.Fatalf("mrbound %s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	return stdout
}

// planJlassi plans a Jlassi table sweep (`table jlassi --sweep`) of
// scenarios (e.g. "1") with the given instances and time limit in a new
// directory and loads it.
func planJlassi(t *testing.T, scenarios string, instances int, limit string) (string, *sweep.Manifest) {
	t.Helper()
	dir := t.TempDir()
	mustRun(t, "table", "jlassi", "--scenarios", scenarios, "--instances", strconv.Itoa(instances), "--time-limit", limit, "--sweep", dir)
	m, err := sweep.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, m
}

// runCode runs mrbound in-process and returns the exit code and outputs.
func runCode(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"mrbound"}, args...), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// TestSweepOneItem: a sweep of one item says "1 item" wherever it counts
// them (Slurm script, submit, a second submit, status) and its title "1
// instance"; TestSweepFailedItem has the plural of each.
func TestSweepOneItem(t *testing.T) {
	dir, m := planJlassi(t, "1", 1, "30s")
	if m.Title != "Jlassi Table 6 analogue: scenarios [1], 1 instance each" {
		t.Errorf("title %q", m.Title)
	}
	if out := mustRun(t, "sweep", "submit", dir, "--engine", "slurm", "--dry-run"); !strings.Contains(out, ": 1 of 1 item; submit it") {
		t.Errorf("slurm dry run: %q", out)
	}
	if script, err := os.ReadFile(filepath.Join(dir, "sweep.sbatch")); err != nil || !strings.Contains(string(script), ": 1 of 1 item. Written") {
		t.Errorf("slurm script: %v\n%s", err, script)
	}
	if out := mustRun(t, "sweep", "submit", dir, "--jobs", "1"); !strings.HasPrefix(out, "1 item: 1 ran now, 0 done before, 0 failed\n") {
		t.Errorf("submit: %q", out)
	}
	if out := mustRun(t, "sweep", "submit", dir); !strings.HasPrefix(out, "nothing to run: every item is done (1 item); ") {
		t.Errorf("second submit: %q", out)
	}
	if out := mustRun(t, "sweep", "status", dir); out != "1 item: 1 done, 0 failed, 0 missing\n" {
		t.Errorf("status: %q", out)
	}
}

// TestSweepFailedItem plans a three-instance Jlassi sweep, breaks one item
// (scenario 9 does not exist), and checks that submit, collect and status
// report it with its message and log, exit 1, and that the table covers the
// two good items.
func TestSweepFailedItem(t *testing.T) {
	dir, _ := planJlassi(t, "1", 3, "30s")
	path := filepath.Join(dir, "sweep.json")
	data, _ := os.ReadFile(path)
	broken := strings.Replace(string(data), `{"scenario":1,"seed":2}`, `{"scenario":9,"seed":2}`, 1)
	if broken == string(data) {
		t.Fatalf("could not break item 1 of:\n%s", data)
	}
	os.WriteFile(path, []byte(broken), 0o644)
	log := filepath.Join(dir, "logs", "1.log")

	code, stdout, stderr := runCode("sweep", "submit", dir, "--jobs", "2")
	if code != exitBadInput || !strings.Contains(stdout, "3 items: 2 ran now, 0 done before, 1 failed") ||
		!strings.Contains(stderr, "failed: item 1 (sc1-seed2): ") || !strings.Contains(stderr, "log: "+log) ||
		!strings.Contains(stderr, "1 of 3 items failed") {
		t.Errorf("submit: exit %d\n%s\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCode("sweep", "collect", dir, "--out", filepath.Join(dir, "t.md"))
	if code != exitBadInput || !strings.Contains(stdout, "| Sc1 | native | 2 | 0 | 2 |") ||
		!strings.Contains(stderr, "failed: item 1 (sc1-seed2): jlassi") || !strings.Contains(stderr, "log: "+log) ||
		!strings.Contains(stderr, "| == failed") || !strings.Contains(stderr, "sweep incomplete: 3 items: 2 done, 1 failed, 0 missing") {
		t.Errorf("collect: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if table, err := os.ReadFile(filepath.Join(dir, "t.md")); err != nil || string(table) != stdout {
		t.Errorf("table file %q (%v) is not the table printed", table, err)
	}
	code, stdout, _ = runCode("sweep", "status", dir)
	if code != exitBadInput || stdout != "3 items: 2 done, 1 failed, 0 missing\n" {
		t.Errorf("status: exit %d, %q", code, stdout)
	}
	// The failed item runs again (and fails again) by index; a done one
	// does not.
	if code, _, stderr := runCode("sweep", "run", dir, "--index", "1"); code != exitBadInput || !strings.Contains(stderr, "item 1 (sc1-seed2) failed") {
		t.Errorf("run --index 1: exit %d, %s", code, stderr)
	}
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	t.Setenv("JOB_COMPLETION_INDEX", "1")
	if code, stdout, stderr := runCode("sweep", "run", dir, "--items", "0,2"); code != 0 || stdout != "item 2 (sc1-seed3): already done\n" {
		t.Errorf("run --items 0,2 with JOB_COMPLETION_INDEX=1: exit %d, %q %s", code, stdout, stderr)
	}
	m, err := sweep.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if sweep.Attempts(m, 1) != 2 || sweep.Attempts(m, 2) != 1 {
		t.Errorf("attempts: item 1 %d (want 2), item 2 %d (want 1)", sweep.Attempts(m, 1), sweep.Attempts(m, 2))
	}
}

func TestSweepCLIErrors(t *testing.T) {
	dir := t.TempDir()
	mustRun(t, "table", "jlassi", "--scenarios", "2", "--instances", "2", "--sweep", dir)
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	t.Setenv("JOB_COMPLETION_INDEX", "")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "run", dir}, "no item index: give --index"},
		{[]string{"sweep", "run", dir, "--index", "2"}, "item index 2 out of range 0..1"},
		{[]string{"sweep", "run", dir, "--index", "1", "--items", "0"}, "--index 1: --items has 1 entry"},
		{[]string{"sweep", "submit", dir, "--image", "x"}, "--image: does not apply to --engine local"},
		{[]string{"sweep", "submit", dir, "--engine", "slurm", "--jobs", "3"}, "--jobs: does not apply to --engine slurm"},
		{[]string{"sweep", "submit", dir, "--engine", "pbs"}, `unknown engine "pbs"`},
		{[]string{"sweep", "submit", dir, "--engine", "kubernetes", "--claim", "c"}, "an image holding mrbound is required"},
		{[]string{"sweep", "collect", filepath.Join(dir, "nope.json")}, "no such file"},
		{[]string{"table", "jlassi", "--scenarios", "3", "--instances", "2", "--sweep", dir}, "a different sweep is already planned there"},
		{[]string{"table", "jlassi", "--sweep", t.TempDir(), "--out", "t.md"}, "--out: does not apply with --sweep"},
	} {
		code, _, stderr := runCode(c.args...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("mrbound %s: exit %d, %q; want exit 1 and %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
	}
	// Planning the same sweep again is harmless.
	mustRun(t, "table", "jlassi", "--scenarios", "2", "--instances", "2", "--sweep", dir)
}

// TestSweepSubmitSlurmDryRun and Kubernetes: the files are written beside
// the manifest for the missing items only.
func TestSweepSubmitEngineFiles(t *testing.T) {
	dir, _ := planJlassi(t, "1", 4, "10s")
	mustRun(t, "sweep", "run", dir, "--index", "2")
	out := mustRun(t, "sweep", "submit", dir, "--engine", "slurm", "--dry-run", "--mrbound", "/opt/bin/mrbound", "--throttle", "3", "--sbatch-option", "--qos=short")
	script, err := os.ReadFile(filepath.Join(dir, "sweep.sbatch"))
	if err != nil || !strings.Contains(out, "3 of 4 items") {
		t.Fatalf("dry run: %v\n%s", err, out)
	}
	for _, want := range []string{"#SBATCH --array=0-1,3%3\n", "#SBATCH --time=0-00:01:20\n", "#SBATCH --mem=2048M\n", "#SBATCH --qos=short\n", "exec /opt/bin/mrbound sweep run "} {
		if !strings.Contains(string(script), want) {
			t.Errorf("script lacks %q:\n%s", want, script)
		}
	}
	mustRun(t, "sweep", "submit", dir, "--engine", "kubernetes", "--image", "mrbound:dev", "--claim", "sweeps", "--parallelism", "2")
	job, err := os.ReadFile(filepath.Join(dir, "sweep-job.json"))
	if err != nil || !strings.Contains(string(job), `"completions": 3`) || !strings.Contains(string(job), `"0-1,3"`) {
		t.Errorf("job %s (%v)", job, err)
	}
}

// built is the mrbound binary the tests that need a real process share:
// built once (linking takes seconds), removed by TestMain.
var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// buildMrbound builds the mrbound binary, once per test run.
func buildMrbound(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "mrbound-bin"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "mrbound")
		if out, err := exec.Command("go", "build", "-o", built.bin, "../mrbound").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// TestSweepKilledProcess kills (SIGKILL) a local-pool sweep process once two
// items are done, submits again and checks that the items finished before
// the kill were not run again, that every item is done, and that the table
// is complete.
func TestSweepKilledProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mrbound and solves six instances")
	}
	bin := buildMrbound(t)
	dir, m := planJlassi(t, "1", 6, "30s")
	cmd := exec.Command(bin, "sweep", "submit", dir, "--jobs", "1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for len(m.Items)-len(sweep.Todo(m)) < 2 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("two items did not finish in 2 minutes")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	before := map[int]bool{}
	for i := range m.Items {
		if _, err := os.Stat(m.ResultPath(i)); err == nil {
			before[i] = true
		}
	}
	if len(before) == len(m.Items) {
		t.Skip("the sweep finished before it could be killed")
	}
	out := mustRun(t, "sweep", "submit", dir, "--jobs", "2")
	if !strings.Contains(out, "done before") {
		t.Errorf("resubmit: %s", out)
	}
	for i := range m.Items {
		a := sweep.Attempts(m, i)
		if before[i] && a != 1 {
			t.Errorf("item %d was done before the kill, yet attempted %d times", i, a)
		}
		if _, err := os.Stat(m.ResultPath(i)); err != nil {
			t.Errorf("item %d has no result after the resubmission", i)
		}
	}
	table := mustRun(t, "sweep", "collect", dir)
	if !strings.Contains(table, "| Sc1 | native             |  6 |") {
		t.Errorf("table:\n%s", table)
	}
	t.Logf("%d of %d items were done at the kill", len(before), len(m.Items))
}

// TestSweepItemTerminated sends SIGTERM (what Slurm sends at an item's time
// limit and Kubernetes at its deadline) to a running `sweep run`: the item
// stops at once, logs that it was interrupted, exits 1, and is missing — not
// failed, not done — so the next submission runs it.
func TestSweepItemTerminated(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mrbound")
	}
	bin := buildMrbound(t)
	// Scenario 7 takes minutes to prove: it is still running at the signal.
	dir, m := planJlassi(t, "7", 1, "5m")
	cmd := exec.Command(bin, "sweep", "run", dir, "--index", "0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for sweep.Attempts(m, 0) == 0 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the item did not start in a minute")
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitBadInput || !strings.Contains(stderr.String(), "interrupted by a signal: it stays missing") {
		t.Errorf("after SIGTERM: %v, %s", err, stderr.String())
	}
	log, _ := os.ReadFile(m.LogPath(0))
	if !strings.Contains(string(log), "== interrupted after") {
		t.Errorf("log:\n%s", log)
	}
	rep, _, err := sweep.Status(m)
	if err != nil || len(rep.Missing) != 1 || rep.Done != 0 || len(rep.Failed) != 0 || rep.Missing[0].Logs[0] != m.LogPath(0) {
		t.Errorf("status after SIGTERM: %+v, %v", rep, err)
	}
}

// TestSweepTwoSubmitters starts two `sweep submit DIR --jobs 1` processes
// at once and checks that every item ran once (one attempt in its log),
// that both exit 0, and that the sweep is complete.
func TestSweepTwoSubmitters(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mrbound and solves four instances")
	}
	bin := buildMrbound(t)
	dir, m := planJlassi(t, "1", 4, "30s")
	var cmds []*exec.Cmd
	var outs []*bytes.Buffer
	for range 2 {
		cmd := exec.Command(bin, "sweep", "submit", dir, "--jobs", "1")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, &out)
	}
	for p, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("submitter %d: %v\n%s", p, err, outs[p])
		}
	}
	for i := range m.Items {
		if a := sweep.Attempts(m, i); a != 1 {
			t.Errorf("item %d ran %d times", i, a)
		}
	}
	if code, _, stderr := runCode("sweep", "status", dir); code != 0 {
		t.Errorf("status: %d %s", code, stderr)
	}
}
