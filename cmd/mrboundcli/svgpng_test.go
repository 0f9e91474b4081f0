package mrboundcli

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSVGRendersToPNG writes every kind of SVG the CLI draws — the Gantt
// chart of a Jlassi and of an MRCP solve, simulate's timeline, compare's bar
// chart on a linear and on a log scale, the sweep plot of compare --family
// and the same plot written by sweep collect from a planned sweep — and renders
// each to PNG with rsvg-convert (Debian's librsvg2-bin, installed by make
// test). A chart fails when rsvg-convert rejects it or the image is empty:
// zero-sized or a single colour.
func TestSVGRendersToPNG(t *testing.T) {
	rsvg, err := exec.LookPath("rsvg-convert")
	if err != nil {
		t.Skip("rsvg-convert is missing (Debian package librsvg2-bin; make test installs it as root): SVG charts not rendered")
	}
	out := t.TempDir()
	// pre runs before args (e.g. planning and running a sweep); svg, when
	// set, is where args writes its chart instead of $SVG (sweep collect
	// writes it beside its --out table). $OUT is the test's directory.
	cases := []struct {
		name string
		pre  [][]string
		args []string
		svg  string
	}{
		{name: "jlassi-gantt", args: []string{"solve", "../mrbound/testdata/jlassi-migration-json/input.json", "--solver", "highs", "--svg", "$SVG"}},
		{name: "mrcp-gantt", args: []string{"solve", "../mrbound/testdata/mrcp-tiny-text/input.json", "--solver", "highs", "--svg", "$SVG"}},
		{name: "simulate-timeline", args: []string{"simulate", "../../examples/mrcp-stream.json", "--policy", "edf", "--svg", "$SVG"}},
		{name: "compare-bars", args: []string{"compare", "../mrbound/testdata/compare-swim-text/input.tsv", "--nodes", "4", "--policies", "fifo,fair", "--svg", "$SVG"}},
		// late jobs: ratios 1 to 3 and a value 0 (no bar), on a linear scale
		{name: "compare-bars-optimum", args: []string{"compare", "../../examples/mrcp-stream.json", "--policies", "fifo,edf,fair", "--metric", "late-jobs", "--svg", "$SVG"}},
		{name: "compare-sweep", args: []string{"compare", "--family", "mrcp-small", "--jobs", "4", "--lambdas", "1/60,1/30", "--seeds", "1",
			"--policies", "fifo,edf", "--table", filepath.Join(out, "sweep.csv"), "--svg", "$SVG"}},
		{name: "sweep-collect", pre: [][]string{
			{"compare", "--family", "mrcp-small", "--jobs", "4", "--lambdas", "1/60,1/30", "--seeds", "1", "--policies", "fifo,edf", "--sweep", "$OUT/planned", "--quiet"},
			{"sweep", "submit", "$OUT/planned", "--jobs", "1"},
		}, args: []string{"sweep", "collect", "$OUT/planned", "--out", "$OUT/collected.csv"}, svg: "collected.csv.svg"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			svg := filepath.Join(out, c.name+".svg")
			if c.svg != "" {
				svg = filepath.Join(out, c.svg)
			}
			for _, cmd := range append(c.pre, c.args) {
				args := []string{"mrbound"}
				for _, a := range cmd {
					a = strings.ReplaceAll(a, "$OUT", out)
					if a == "$SVG" {
						a = svg
					}
					args = append(args, a)
				}
				var stdout, stderr bytes.Buffer
				if code := run(args, &stdout, &stderr); code != 0 {
					t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
				}
			}
			if err := renderPNG(rsvg, svg, filepath.Join(out, c.name+".png")); err != nil {
				t.Error(err)
			}
		})
	}
	// The check can fail: a cut-off chart and a blank one are refused.
	whole, err := os.ReadFile(filepath.Join(out, "compare-bars.svg"))
	if err != nil {
		t.Fatal(err)
	}
	broken := map[string]string{
		"truncated": string(whole[:len(whole)/2]),
		"blank":     `<svg xmlns="http://www.w3.org/2000/svg" width="300pt" height="200pt"><rect width="300" height="200" fill="#fff"/></svg>`,
	}
	for name, text := range broken {
		svg := filepath.Join(out, name+".svg")
		if err := os.WriteFile(svg, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := renderPNG(rsvg, svg, filepath.Join(out, name+".png")); err == nil {
			t.Errorf("a %s SVG passed the check", name)
		}
	}
}

// renderPNG renders svg to pngPath with rsvg-convert and fails unless the
// result is a PNG image with some drawing on it.
func renderPNG(rsvg, svg, pngPath string) error {
	if msg, err := exec.Command(rsvg, "-o", pngPath, svg).CombinedOutput(); err != nil {
		return fmt.Errorf("rsvg-convert %s: %v: %s", svg, err, bytes.TrimSpace(msg))
	}
	f, err := os.Open(pngPath)
	if err != nil {
		return err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return fmt.Errorf("%s: %v", pngPath, err)
	}
	b := img.Bounds()
	if b.Dx() < 100 || b.Dy() < 100 {
		return fmt.Errorf("%s: %d×%d pixels, too small for a chart", pngPath, b.Dx(), b.Dy())
	}
	if n := colours(img, 3); n < 3 {
		return fmt.Errorf("%s: %d colours: an empty chart", pngPath, n)
	}
	return nil
}

// colours counts the distinct colours of img, stopping at limit.
func colours(img image.Image, limit int) int {
	seen := map[color.RGBA]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			seen[color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), uint8(a >> 8)}] = true
			if len(seen) >= limit {
				return len(seen)
			}
		}
	}
	return len(seen)
}
