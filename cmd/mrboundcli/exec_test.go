package mrboundcli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestExecPolicyFails: a policy process that crashes makes simulate exit 1
// with one line naming the message, and no trace file appears.
func TestExecPolicyFails(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: no external policy can run (make test installs it)")
	}
	trace := filepath.Join(t.TempDir(), "trace.tsv")
	var stdout, stderr bytes.Buffer
	code := run([]string{"mrbound", "simulate", "--policy", "exec:python3 -S ../../policy/external/testdata/misbehave.py crash",
		"--trace", trace, "../../examples/mrcp-stream.json"}, &stdout, &stderr)
	if code != exitBadInput {
		t.Errorf("exit code %d, want %d", code, exitBadInput)
	}
	msg := stderr.String()
	if strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "message 1 (events at 0 ms): the policy closed its stdout (exit status 3)") {
		t.Errorf("stderr %q, want one line naming message 1 and the exit status", msg)
	}
	if _, err := os.Stat(trace); !os.IsNotExist(err) {
		t.Errorf("the trace file exists after a failed run (%v)", err)
	}
	if stdout.Len() > 0 {
		t.Errorf("stdout %q after a failed run", stdout.String())
	}
}

// TestComparePolicyTimeout: a hanging exec: policy in compare ends the run
// at --policy-timeout with one line naming the message, exit 1, and neither
// the policy nor the child it started is left running; the flag is refused
// without an exec: policy and with --family.
func TestComparePolicyTimeout(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: no external policy can run (make test installs it)")
	}
	dir := t.TempDir()
	childFile, selfFile := filepath.Join(dir, "child.pid"), filepath.Join(dir, "self.pid")
	var stdout, stderr bytes.Buffer
	// the line names the deadline (3 s, not the default 10 s: a Python
	// start on a loaded machine can take a second)
	code := run([]string{"mrbound", "compare", "--policies",
		"fifo,exec:python3 -S ../../policy/external/testdata/misbehave.py hang " + childFile + " " + selfFile,
		"--policy-timeout", "3s", "--no-upper", "../../examples/mrcp-stream.json"}, &stdout, &stderr)
	if code != exitBadInput {
		t.Errorf("exit code %d, want %d (stderr %q)", code, exitBadInput, stderr.String())
	}
	msg := stderr.String()
	if strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "message 1 (events at 0 ms): no reply within 3s (--policy-timeout)") {
		t.Errorf("stderr %q, want one line naming message 1 and the 3 s deadline", msg)
	}
	if stdout.Len() > 0 {
		t.Errorf("stdout %q after a failed run", stdout.String())
	}
	for _, f := range []string{childFile, selfFile} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pid, _ := strconv.Atoi(string(b))
		deadline := time.Now().Add(2 * time.Second)
		for running(pid) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if running(pid) {
			t.Errorf("process %d (%s) outlived the run", pid, filepath.Base(f))
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", "--policies", "fifo", "--policy-timeout", "1s", "../../examples/mrcp-stream.json"}, "--policy-timeout applies to exec: policies only"},
		{[]string{"compare", "--policies", "exec:python3 x.py", "--policy-timeout", "0s", "../../examples/mrcp-stream.json"}, "--policy-timeout: 0s is not positive"},
		{[]string{"compare", "--family", "mrcp-small", "--policies", "exec:python3 x.py", "--policy-timeout", "1s"}, "--policy-timeout does not apply to a sweep"},
	} {
		stdout.Reset()
		stderr.Reset()
		if code := run(append([]string{"mrbound"}, c.args...), &stdout, &stderr); code != exitBadInput || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", c.args, code, stderr.String(), exitBadInput, c.want)
		}
	}
}

// running reports whether process pid still runs (a zombie does not).
func running(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	return len(f) > 0 && f[0] != "Z"
}
