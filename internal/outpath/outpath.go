package outpath

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mrbound/mrbound/badinput"
)

// Output is a file a command will write, named by the flag that gave it.
type Output struct {
	// Flag names the option in messages, e.g. "--svg".
	Flag string
	// Path is the file.
	Path string
}

// sweepState are the names inside a sweep directory that hold its state:
// the manifest, every item's result and failure record, every log.
var sweepState = []string{"sweep.json", "results", "logs"}

// Target refuses, as bad input, a path that exists and is not a regular
// file (a directory, a device node, a FIFO, a socket): writing would fail
// half-way or replace the special file with a regular one. A symbolic link
// is judged by what it points to.
func Target(path string) error {
	if p := targetProblem(path); p != "" {
		return badinput.Errorf("%s: %s", path, p)
	}
	return nil
}

// targetProblem says why path cannot be written, or "".
func targetProblem(path string) string {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return ""
	case err != nil:
		return fmt.Sprintf("cannot write: %v", err)
	case st.IsDir():
		return "is a directory, not a file to write"
	case !st.Mode().IsRegular():
		return fmt.Sprintf("is a %s, not a regular file; mrbound writes outputs through a temporary file and a rename, which would replace it", kind(st.Mode()))
	}
	return ""
}

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "special file"
}

// Check refuses, as bad input with one line naming the flag, an output
// that is not a writable target (Target), that is the same file as one of
// inputs, that is a sweep directory's state when an input is a sweep
// directory, or that is the same file as an earlier output. Inputs that do
// not exist are ignored (their readers report them); so are empty paths and
// "-" (standard input or output).
func Check(inputs []string, outputs []Output) error {
	type seen struct {
		name string
		info fs.FileInfo
	}
	var in []seen
	var dirs []string
	for _, p := range inputs {
		if p == "" || p == "-" {
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			continue
		}
		in = append(in, seen{p, st})
		if st.IsDir() {
			dirs = append(dirs, p)
		}
	}
	var outs []seen
	for _, o := range outputs {
		if o.Path == "" || o.Path == "-" {
			continue
		}
		if p := targetProblem(o.Path); p != "" {
			return badinput.Errorf("%s %s: %s", o.Flag, o.Path, p)
		}
		if st, err := os.Stat(o.Path); err == nil {
			for _, i := range in {
				if os.SameFile(st, i.info) {
					return badinput.Errorf("%s %s: is the input %s; writing it would destroy the input", o.Flag, o.Path, i.name)
				}
			}
			for _, e := range outs {
				if os.SameFile(st, e.info) {
					return badinput.Errorf("%s %s: is also the output %s", o.Flag, o.Path, e.name)
				}
			}
			outs = append(outs, seen{o.Flag + " " + o.Path, st})
		} else {
			for _, e := range outs {
				if e.info == nil && samePath(e.name, o.Path) {
					return badinput.Errorf("%s %s: is also the output %s", o.Flag, o.Path, e.name)
				}
			}
			outs = append(outs, seen{o.Path, nil})
		}
		for _, d := range dirs {
			if state, ok := inSweepState(d, o.Path); ok {
				return badinput.Errorf("%s %s: is the sweep directory %s's %s; writing it would destroy the sweep's state", o.Flag, o.Path, d, state)
			}
		}
	}
	return nil
}

// samePath says whether two paths that do not exist yet name the same file.
func samePath(a, b string) bool {
	a, b = resolve(a), resolve(b)
	return a != "" && a == b
}

// resolve returns the absolute path of p with its directory's symbolic
// links resolved, or "" when that fails.
func resolve(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return ""
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return abs
	}
	return filepath.Join(dir, filepath.Base(abs))
}

// inSweepState says whether out lies on one of dir's state names (the
// manifest, results/, logs/ or below) and which one, when dir holds a
// sweep manifest.
func inSweepState(dir, out string) (string, bool) {
	if _, err := os.Stat(filepath.Join(dir, sweepState[0])); err != nil {
		return "", false
	}
	d, o := resolve(filepath.Join(dir, "x")), resolve(out)
	if d == "" || o == "" {
		return "", false
	}
	d = filepath.Dir(d)
	rel, err := filepath.Rel(d, o)
	if err != nil {
		return "", false
	}
	for _, s := range sweepState {
		if rel == s || len(rel) > len(s) && rel[:len(s)+1] == s+string(filepath.Separator) {
			return s, true
		}
	}
	return "", false
}
