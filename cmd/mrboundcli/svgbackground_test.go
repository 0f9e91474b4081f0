package mrboundcli

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

var (
	// svgBackground is a white rectangle from the canvas origin: a
	// background as vgsvg writes it.
	svgBackground = regexp.MustCompile(`<path d="M0,0L([0-9.]+),0L[0-9.]+,([0-9.]+)L0,[0-9.]+Z" style="fill:#FFFFFF" />`)
	svgViewBox    = regexp.MustCompile(`viewBox="0 0 ([0-9.]+) ([0-9.]+)"`)
)

// TestSVGGoldensOneBackground reads every SVG the CLI goldens hold (Gantt
// charts, simulate's timeline, compare's bars and the sweep plot) and wants
// one background rectangle, covering the whole canvas: the Gantt charts
// drew two (the canvas's and the plot's), compare's left the right margin
// unpainted.
func TestSVGGoldensOneBackground(t *testing.T) {
	checkOneBackground(t, "../mrbound/testdata/*/out.*.svg.golden", 5)
}

// TestDocFiguresOneBackground: the same for the committed figures of
// docs/figures (the README's compare plots, the bench reproductions), drawn
// by the sweep plot and the bench commands: the compare plots left the
// right margin unpainted and mrcponline.svg painted each of its eight tiles
// but not the padding between them.
func TestDocFiguresOneBackground(t *testing.T) {
	checkOneBackground(t, "../../docs/figures/*.svg", 14)
}

// checkOneBackground wants at least `least` files matching pattern, each with
// one white background rectangle from the origin, the size of its viewBox.
func checkOneBackground(t *testing.T, pattern string, least int) {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < least {
		t.Fatalf("only %d SVGs match %s: %q", len(files), pattern, files)
	}
	for _, g := range files {
		b, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		box := svgViewBox.FindSubmatch(b)
		if box == nil {
			t.Errorf("%s: no viewBox", g)
			continue
		}
		rects := svgBackground.FindAllSubmatch(b, -1)
		if len(rects) != 1 {
			t.Errorf("%s: %d background rectangles, want 1", g, len(rects))
			continue
		}
		if w, h := string(rects[0][1]), string(rects[0][2]); w != string(box[1]) || h != string(box[2]) {
			t.Errorf("%s: background %s × %s, canvas %s × %s", g, w, h, box[1], box[2])
		}
	}
}
