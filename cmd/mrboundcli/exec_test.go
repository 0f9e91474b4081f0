package mrboundcli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
