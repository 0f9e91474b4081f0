package outpath

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mrbound/mrbound/badinput"
)

// TestCheck: every way an output can name an input, a sweep's state, a
// directory, a special file or another output is refused as bad input in
// one line naming the flag; new files, existing outputs that are no input,
// "-" and empty paths pass.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	write := func(name string) {
		if err := os.WriteFile(name, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("in.json")
	write("old.svg")
	os.Symlink("in.json", "link.json")
	os.Link("in.json", "hard.json")
	os.Mkdir("sub", 0o755)
	os.Mkdir("sw", 0o755)
	write("sw/sweep.json")
	os.Mkdir("sw/results", 0o755)
	write("sw/results/0.json")
	fifo := "fifo"
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Logf("no FIFO: %v", err)
		fifo = ""
	}
	refused := map[string]struct {
		inputs []string
		outs   []Output
		says   string
	}{
		"same":             {[]string{"in.json"}, []Output{{"--schedule", "in.json"}}, "is the input in.json"},
		"relative":         {[]string{"in.json"}, []Output{{"--svg", "sub/../in.json"}}, "is the input"},
		"absolute":         {[]string{"in.json"}, []Output{{"--svg", filepath.Join(dir, "in.json")}}, "is the input"},
		"symlink":          {[]string{"in.json"}, []Output{{"--svg", "link.json"}}, "is the input"},
		"input symlink":    {[]string{"link.json"}, []Output{{"--svg", "in.json"}}, "is the input"},
		"hard link":        {[]string{"in.json"}, []Output{{"-o", "hard.json"}}, "is the input"},
		"directory":        {nil, []Output{{"--svg", "sub"}}, "is a directory"},
		"device":           {nil, []Output{{"--svg", os.DevNull}}, "character device"},
		"manifest":         {[]string{"sw"}, []Output{{"--out", "sw/sweep.json"}}, "sweep.json"},
		"manifest dotted":  {[]string{"sw"}, []Output{{"--out", "./sw/./sweep.json"}}, "sweep.json"},
		"results":          {[]string{"sw"}, []Output{{"--out", "sw/results/0.json"}}, "results"},
		"new in results":   {[]string{"sw"}, []Output{{"--out", "sw/results/t.csv"}}, "results"},
		"logs":             {[]string{"sw"}, []Output{{"--out", "sw/logs"}}, "logs"},
		"manifest as file": {[]string{"sw/sweep.json"}, []Output{{"--out", "sw/sweep.json"}}, "is the input"},
		"two outputs":      {nil, []Output{{"--svg", "new.svg"}, {"--trace", "./new.svg"}}, "is also the output"},
		"two old outputs":  {nil, []Output{{"--svg", "old.svg"}, {"--trace", "./old.svg"}}, "is also the output"},
	}
	if fifo != "" {
		refused["fifo"] = struct {
			inputs []string
			outs   []Output
			says   string
		}{nil, []Output{{"--svg", fifo}}, "FIFO"}
	}
	for name, c := range refused {
		err := Check(c.inputs, c.outs)
		if !errors.Is(err, badinput.Err) || !strings.Contains(err.Error(), c.says) || !strings.Contains(err.Error(), c.outs[len(c.outs)-1].Flag) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line naming %s and saying %q", name, err, c.outs[len(c.outs)-1].Flag, c.says)
		}
	}
	for name, c := range map[string]struct {
		inputs []string
		outs   []Output
	}{
		"new file":           {[]string{"in.json"}, []Output{{"--svg", "new.svg"}}},
		"existing output":    {[]string{"in.json"}, []Output{{"--svg", "old.svg"}}},
		"table beside sweep": {[]string{"sw"}, []Output{{"--out", "sw/table.csv"}}},
		"stdout":             {[]string{"in.json"}, []Output{{"-o", "-"}, {"--svg", ""}}},
		"missing input":      {[]string{"nope.json"}, []Output{{"--svg", "nope.svg"}}},
	} {
		if err := Check(c.inputs, c.outs); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := Target("sub"); !errors.Is(err, badinput.Err) {
		t.Errorf("Target(directory): %v", err)
	}
	if err := Target("in.json"); err != nil {
		t.Errorf("Target(file): %v", err)
	}
}
