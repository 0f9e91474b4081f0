package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/mrbound/mrbound/badinput"
)

// TestWrite: a failed write leaves the old file and no temporary file; a
// good one replaces it; an unwritable directory is bad input.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.txt")
	put := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	if err := Write(path, put("old")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	if err := Write(path, func(w io.Writer) error { io.WriteString(w, "half"); return boom }); err != boom {
		t.Errorf("failed write returned %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("after a failed write the file holds %q", b)
	}
	if err := Write(path, put("new")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("file holds %q", b)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if err := Write(filepath.Join(dir, "no", "f"), put("x")); !errors.Is(err, badinput.Err) {
		t.Errorf("missing directory: %v", err)
	}
}

// TestRemoveTemps: RemoveTemps during a write removes its temporary file,
// and the Write then fails with ErrAbandoned, leaving the old file whole.
func TestRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.txt")
	os.WriteFile(path, []byte("old"), 0o644)
	removed := -1
	err := Write(path, func(w io.Writer) error {
		io.WriteString(w, "half")
		removed = RemoveTemps()
		io.WriteString(w, " and the rest")
		return nil
	})
	if !errors.Is(err, ErrAbandoned) || removed != 1 {
		t.Errorf("Write: %v, RemoveTemps removed %d", err, removed)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("the file holds %q", b)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if n := RemoveTemps(); n != 0 {
		t.Errorf("RemoveTemps with nothing being written removed %d", n)
	}
}

// TestWriteTargets: a directory is refused; a symbolic link keeps pointing
// at the file, which gets the new contents.
func TestWriteTargets(t *testing.T) {
	dir := t.TempDir()
	put := func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }
	if err := Write(dir, put); !errors.Is(err, badinput.Err) {
		t.Errorf("a directory: %v", err)
	}
	target := filepath.Join(dir, "target.txt")
	os.WriteFile(target, []byte("old"), 0o644)
	link := filepath.Join(dir, "link.txt")
	os.Symlink("target.txt", link)
	if err := Write(link, put); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Errorf("the target holds %q", b)
	}
}
