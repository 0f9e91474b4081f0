package tummrepro

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var write = flag.String("write", "", "write results.md's TuMM section and SVG figures under `DIR` (docs)")

// TestReproduce runs every experiment: each run passes the checker and is
// not below the lower bound (Reproduce fails otherwise).
func TestReproduce(t *testing.T) {
	if testing.Short() {
		t.Skip("the full reproduction (about 60 runs) is not short")
	}
	r, err := Reproduce(DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	r.WriteMarkdown(os.Stdout)
	if *write != "" {
		if err := r.WriteSVG(filepath.Join(*write, "figures")); err != nil {
			t.Fatal(err)
		}
	}
}
