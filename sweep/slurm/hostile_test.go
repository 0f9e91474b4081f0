package slurm

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
)

// hostile are values an attacker (or a careless copy and paste) might put
// in a manifest's title or an engine option: line breaks followed by a
// command, command substitutions, backticks, quotes.
var hostile = []string{
	"x\ntouch PWNED",
	"x\r\ntouch PWNED",
	"x\u2028touch PWNED",
	"$(touch PWNED)",
	"`touch PWNED`",
	"'; touch PWNED; '",
	`"; touch PWNED; "`,
	"x;touch PWNED",
	"x\x00touch PWNED",
}

// TestHostileValuesRefused: a value with a line break or another control
// character, in any field that reaches the script, is refused as bad input
// naming the field; a partition or sbatch option that is no such thing is
// refused too.
func TestHostileValuesRefused(t *testing.T) {
	for _, v := range hostile {
		lineBreak := strings.ContainsAny(v, "\n\r\x00\u2028")
		cases := map[string]func() error{
			"title": func() error {
				m := manifest(t, 2)
				m.Title = v
				return Script(&bytes.Buffer{}, m, Options{Indices: []int{0}})
			},
			"--partition": func() error {
				return Script(&bytes.Buffer{}, manifest(t, 2), Options{Indices: []int{0}, Partition: v})
			},
			"--sbatch-option": func() error {
				return Script(&bytes.Buffer{}, manifest(t, 2), Options{Indices: []int{0}, Extra: []string{"--comment=" + v}})
			},
			"--mrbound": func() error {
				return Script(&bytes.Buffer{}, manifest(t, 2), Options{Indices: []int{0}, Mrbound: v})
			},
		}
		for field, run := range cases {
			err := run()
			// A partition must be a partition name, so every hostile value
			// is refused there; elsewhere only line breaks and control
			// characters are, the rest is made inert (TestHostileValuesInert).
			mustRefuse := lineBreak || field == "--partition"
			if mustRefuse && (!errors.Is(err, badinput.Err) || !strings.Contains(err.Error(), field)) {
				t.Errorf("%s %q: %v, want bad input naming %s", field, v, err, field)
			}
			if !mustRefuse && err != nil {
				t.Errorf("%s %q: %v, want an inert value", field, v, err)
			}
		}
	}
	if err := Script(&bytes.Buffer{}, manifest(t, 1), Options{Indices: []int{0}, Extra: []string{"touch PWNED"}}); !errors.Is(err, badinput.Err) {
		t.Errorf("an sbatch option not starting with '-': %v", err)
	}
}

// TestHostileValuesInert writes scripts with every hostile value that is
// not refused — in the title, an #SBATCH option and the mrbound path — and
// runs them with sh and bash in an empty directory, where "mrbound" is a
// stand-in that records its arguments: the stand-in must run with the exact
// path and arguments, and no PWNED file may appear.
func TestHostileValuesInert(t *testing.T) {
	for _, shell := range []string{"sh", "bash"} {
		if _, err := exec.LookPath(shell); err != nil {
			t.Logf("no %s: %v", shell, err)
			continue
		}
		for i, v := range hostile {
			if strings.ContainsAny(v, "\n\r\x00\u2028") {
				continue // refused (TestHostileValuesRefused)
			}
			dir := t.TempDir()
			bin := filepath.Join(dir, "bin "+v)
			if strings.ContainsRune(v, '/') {
				continue // not a file name
			}
			if err := os.WriteFile(bin, []byte("#!/bin/sh\nprintf '%s\\n' \"$0\" \"$@\" > ran\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			m := manifest(t, 2)
			m.Title = v
			m.Path = filepath.Join(dir, "sweep.json")
			var b bytes.Buffer
			if err := Script(&b, m, Options{Mrbound: bin, Indices: []int{0, 1}, Extra: []string{"--comment=" + v}}); err != nil {
				t.Fatalf("%q: %v", v, err)
			}
			script := filepath.Join(dir, "s.sbatch")
			os.WriteFile(script, b.Bytes(), 0o644)
			cmd := exec.Command(shell, script)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s, value %d %q: the script failed: %v: %s\n%s", shell, i, v, err, out, b.String())
			}
			if _, err := os.Stat(filepath.Join(dir, "PWNED")); err == nil {
				t.Errorf("%s, value %d %q: the script ran an injected command:\n%s", shell, i, v, b.String())
			}
			ran, err := os.ReadFile(filepath.Join(dir, "ran"))
			if want := bin + "\nsweep\nrun\n" + m.Path + "\n"; err != nil || string(ran) != want {
				t.Errorf("%s, value %d %q: the stand-in saw %q (%v), want %q", shell, i, v, ran, err, want)
			}
		}
	}
}
