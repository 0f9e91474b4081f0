package mrboundcli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// swimDay writes a SWIM trace of n jobs, one a second, each with 20 maps
// and 4 reduces' worth of bytes: large enough that writing its trace and
// timeline takes a while.
func swimDay(t *testing.T, path string, n int) {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "job%d\t%d\t1\t%d\t%d\t%d\n", i, i, 20<<26, 4<<26, 1<<26)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSignalLeavesNoTemporaryFile runs `simulate DAY --trace --svg` as a
// real process, waits until one of its outputs is being written (a
// temporary file is in the directory), sends SIGINT or SIGTERM, and checks
// that the process exits with 128 + the signal's number and the directory
// holds exactly the input: no temporary file, no partial output.
func TestSignalLeavesNoTemporaryFile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mrbound and simulates a few thousand jobs")
	}
	bin := buildMrbound(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "day.tsv")
			swimDay(t, in, 4000)
			cmd := exec.Command(bin, "simulate", in, "--nodes", "20", "--trace", filepath.Join(dir, "day.trace.tsv"), "--svg", filepath.Join(dir, "day.svg"), "--svg-max-tasks", "100000000")
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			seen := false
			deadline := time.After(5 * time.Minute)
		poll:
			for {
				select {
				case err := <-exited:
					t.Fatalf("the run ended before its outputs were being written (%v: %s); make the day longer", err, stderr.String())
				case <-deadline:
					cmd.Process.Kill()
					t.Fatal("no temporary file within 5 minutes")
				case <-time.After(time.Millisecond):
					if tmps, _ := filepath.Glob(filepath.Join(dir, ".*.tmp*")); len(tmps) > 0 {
						seen = true
						break poll
					}
				}
			}
			if !seen {
				t.Fatal("unreachable")
			}
			cmd.Process.Signal(sig)
			err := <-exited
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 128+int(sig) {
				t.Errorf("exit: %v, want code %d; stderr: %s", err, 128+int(sig), stderr.String())
			}
			entries, _ := os.ReadDir(dir)
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			// The trace may have been renamed into place, complete, before
			// the signal came while the timeline was being written; then
			// the trace is whole. Nothing else may be there.
			if !slices.Equal(names, []string{"day.tsv"}) && !slices.Equal(names, []string{"day.trace.tsv", "day.tsv"}) {
				t.Errorf("left behind: %v (stderr: %s)", names, stderr.String())
			}
			if slices.Contains(names, "day.trace.tsv") {
				b, _ := os.ReadFile(filepath.Join(dir, "day.trace.tsv"))
				if lines := strings.Count(string(b), "\n"); len(b) == 0 || b[len(b)-1] != '\n' || lines < 4000 {
					t.Errorf("the trace is partial: %d bytes, %d lines", len(b), lines)
				}
			}
			if !strings.Contains(stderr.String(), "no file half-written") {
				t.Errorf("stderr: %q", stderr.String())
			}
		})
	}
}

// TestCtrlCDuringARunExits130: Ctrl-C while simulate or compare runs
// stops the run (its context); simulate checks and reports the partial run,
// compare reports nothing beside a bound; both exit 130 like any run stopped
// by SIGINT (128 + 2), not 2.
func TestCtrlCDuringARunExits130(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mrbound and simulates a few thousand jobs")
	}
	bin := buildMrbound(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "day.tsv")
	swimDay(t, in, 20000)
	for _, args := range [][]string{
		{"simulate", in, "--nodes", "5"},
		{"compare", in, "--nodes", "5", "--policies", "fifo,fair"},
	} {
		cmd := exec.Command(bin, args...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// A signal before main watches for it would end the process the
		// default way: wait until it has run 0.2 s of CPU (its start takes a
		// few ms), however long a loaded machine makes that in wall time.
		waitCPU(t, cmd.Process.Pid, 200*time.Millisecond)
		cmd.Process.Signal(syscall.SIGINT)
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 130 {
			t.Errorf("%s: exit %v, want code 130; stderr: %s", args[0], err, stderr.String())
		}
		// The run was interrupted (its message says so), or the signal came
		// while the report was written (the watcher's line): both exit 130.
		if msg := stderr.String(); !strings.Contains(msg, "interrupted") && !strings.Contains(msg, "no file half-written") {
			t.Errorf("%s: stderr %q", args[0], msg)
		}
	}
}

// waitCPU waits until process pid has used cpu of user and system time
// (read from /proc/pid/stat, in clock ticks of 10 ms) or has ended.
func waitCPU(t *testing.T, pid int, cpu time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return // ended
		}
		// the fields after the command name (which may hold spaces): state is
		// field 3, utime 14, stime 15
		rest := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
		if len(rest) < 13 || rest[0] == "Z" {
			return
		}
		var utime, stime int64
		fmt.Sscan(rest[11], &utime)
		fmt.Sscan(rest[12], &stime)
		if time.Duration(utime+stime)*10*time.Millisecond >= cpu {
			return
		}
	}
	t.Fatalf("process %d used less than %v of CPU in 2 minutes", pid, cpu)
}
