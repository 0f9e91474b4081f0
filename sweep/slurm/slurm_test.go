package slurm

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/sweep"
)

func manifest(t *testing.T, n int) *sweep.Manifest {
	m := &sweep.Manifest{Sweep: "test-slurm", Title: "a test", Params: json.RawMessage(`{}`),
		Limits: sweep.Limits{Time: sweep.Duration(90*time.Second + time.Millisecond), MemoryMB: 700}, Path: "/data/my-sweep/sweep.json"}
	for i := 0; i < n; i++ {
		m.Items = append(m.Items, sweep.Item{ID: strings.Repeat("x", i+1), Spec: json.RawMessage(`{}`)})
	}
	return m
}

// TestScript checks every #SBATCH line the script carries: the array of the
// items to run with its throttle, one CPU, the manifest's time (rounded up
// to a second) and memory or the overrides, one appended log per item, and
// the command, quoted for sh.
func TestScript(t *testing.T) {
	m := manifest(t, 12)
	var b bytes.Buffer
	err := Script(&b, m, Options{Mrbound: "/opt/mrbound/bin/mr bound", Indices: []int{1, 2, 3, 7, 9, 10, 11}, Throttle: 4,
		Partition: "long", Extra: []string{"--account=proj"}})
	if err != nil {
		t.Fatal(err)
	}
	want := `#!/bin/sh
# mrbound sweep test-slurm: 7 of 12 items. Written by mrbound sweep submit --engine slurm.
# a test
#SBATCH --job-name=mrbound-test-slurm
#SBATCH --array=1-3,7,9-11%4
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --time=0-00:01:31
#SBATCH --mem=700M
#SBATCH --partition=long
#SBATCH --output=/data/my-sweep/logs/%a.slurm.out
#SBATCH --open-mode=append
#SBATCH --account=proj
exec '/opt/mrbound/bin/mr bound' sweep run /data/my-sweep/sweep.json
`
	if b.String() != want {
		t.Errorf("script:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	if err := Script(&b, m, Options{Mrbound: "mrbound", Indices: []int{0}, Time: 50 * time.Hour, MemoryMB: 64}); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"#SBATCH --array=0\n", "#SBATCH --time=2-02:00:00\n", "#SBATCH --mem=64M\n"} {
		if !strings.Contains(b.String(), line) {
			t.Errorf("script lacks %q:\n%s", line, b.String())
		}
	}
	if strings.Contains(b.String(), "--partition") {
		t.Errorf("no partition asked, yet:\n%s", b.String())
	}
}

func TestScriptLimits(t *testing.T) {
	m := manifest(t, 1)
	m.Items = make([]sweep.Item, 1500)
	err := Script(&bytes.Buffer{}, m, Options{Indices: []int{1000, 1001}})
	if !errors.Is(err, badinput.Err) || !strings.Contains(err.Error(), "MaxArraySize 1001") {
		t.Errorf("index 1001: %v", err)
	}
	if err := Script(&bytes.Buffer{}, m, Options{Indices: []int{1499}, MaxArraySize: 2000}); err != nil {
		t.Errorf("index 1499 with MaxArraySize 2000: %v", err)
	}
	if err := Script(&bytes.Buffer{}, m, Options{}); err == nil {
		t.Error("no items accepted")
	}
	m.Path = "/data/my sweep/sweep.json"
	if err := Script(&bytes.Buffer{}, m, Options{Indices: []int{0}}); !errors.Is(err, badinput.Err) || !strings.Contains(err.Error(), "white space") {
		t.Errorf("a sweep directory with a space: %v", err)
	}
	m.Path = "/data/s/sweep.json"
	m.Limits = sweep.Limits{}
	var b bytes.Buffer
	Script(&b, m, Options{Indices: []int{0}})
	if strings.Contains(b.String(), "--time") || strings.Contains(b.String(), "--mem") {
		t.Errorf("no limits, yet:\n%s", b.String())
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{"/a/b-c_d.json": "/a/b-c_d.json", "a b": "'a b'", "it's": `'it'\''s'`, "": "''", "$HOME": "'$HOME'"} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestSubmitWithoutSbatch(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := Submit(t.Context(), filepath.Join(t.TempDir(), "x.sbatch"), nil)
	if !errors.Is(err, badinput.Err) || !strings.Contains(err.Error(), "sbatch not found") {
		t.Errorf("Submit without sbatch: %v", err)
	}
}
