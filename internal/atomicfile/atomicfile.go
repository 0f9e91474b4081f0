package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/outpath"
)

// ErrAbandoned is returned by a Write whose temporary file was removed by
// RemoveTemps (the process is being stopped by a signal).
var ErrAbandoned = errors.New("atomicfile: abandoned: the process is stopping")

// temps are the temporary files being written now, so that RemoveTemps can
// remove them when a signal stops the process; a removed one is marked
// false, and its Write then neither renames nor reports success.
var temps = struct {
	sync.Mutex
	live map[string]bool
}{live: map[string]bool{}}

// Write writes path with write. A place that cannot be written (a missing
// directory, a directory, a device node, a FIFO) is bad input. When path is
// a symbolic link, the file it points to is replaced and the link stays.
func Write(path string, write func(io.Writer) error) (err error) {
	if err := outpath.Target(path); err != nil {
		return err
	}
	if st, lerr := os.Lstat(path); lerr == nil && st.Mode()&os.ModeSymlink != 0 {
		if target, rerr := filepath.EvalSymlinks(path); rerr == nil {
			path = target
		}
	}
	// Created and registered under the lock, so that RemoveTemps never
	// misses a temporary file that exists.
	temps.Lock()
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		temps.Unlock()
		return badinput.Errorf("%s: cannot write: %v", path, err)
	}
	name := tmp.Name()
	temps.live[name] = true
	temps.Unlock()
	defer func() {
		temps.Lock()
		defer temps.Unlock()
		abandoned := !temps.live[name]
		delete(temps.live, name)
		if abandoned {
			err = ErrAbandoned // whatever failed after the removal
		}
		if err == nil {
			// Renaming under the lock: RemoveTemps sees the file either
			// before (and removes it) or after (when it is the output).
			err = os.Rename(name, path)
		}
		if err != nil {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if err = write(tmp); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Chmod(name, 0o644)
}

// RemoveTemps removes every temporary file being written now and makes
// their Writes fail with ErrAbandoned; it returns how many it removed. The
// CLI calls it when a signal stops the process, which then exits leaving
// every output either as it was or complete.
func RemoveTemps() int {
	temps.Lock()
	defer temps.Unlock()
	n := 0
	for name, live := range temps.live {
		if live {
			os.Remove(name)
			temps.live[name] = false
			n++
		}
	}
	return n
}
