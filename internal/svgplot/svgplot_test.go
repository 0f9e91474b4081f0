package svgplot

import (
	"bytes"
	"image/color"
	"regexp"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// backgroundRect is a filled rectangle from the canvas origin: the shape a
// background takes in a vgsvg file.
var backgroundRect = regexp.MustCompile(`<path d="M0,0L([0-9.]+),0L([0-9.]+),([0-9.]+)L0,([0-9.]+)Z" style="fill:(#[0-9A-F]+)" />`)

// TestOneBackgroundOverTheCanvas: the chart has exactly one background
// rectangle, the whole canvas in the plot's colour, and the plot keeps its
// background colour after the call.
func TestOneBackgroundOverTheCanvas(t *testing.T) {
	p := plot.New()
	p.Title.Text = "t"
	p.BackgroundColor = color.RGBA{R: 0xEE, G: 0xEE, B: 0xEE, A: 0xFF}
	line, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 300, Y: 1}})
	if err != nil {
		t.Fatal(err)
	}
	p.Add(line)
	var buf bytes.Buffer
	if err := Write(&buf, p, vg.Points(400), vg.Points(200)); err != nil {
		t.Fatal(err)
	}
	rects := backgroundRect.FindAllStringSubmatch(buf.String(), -1)
	if len(rects) != 1 {
		t.Fatalf("%d background rectangles, want 1: %q", len(rects), rects)
	}
	if r := rects[0]; r[1] != "400" || r[2] != "400" || r[3] != "200" || r[4] != "200" || r[5] != "#EEEEEE" {
		t.Errorf("background %q, want the 400 × 200 canvas in #EEEEEE", r[0])
	}
	if p.BackgroundColor != (color.RGBA{R: 0xEE, G: 0xEE, B: 0xEE, A: 0xFF}) {
		t.Errorf("plot's background left as %v", p.BackgroundColor)
	}

	// Without a background colour, nothing is painted under the plot.
	p.BackgroundColor = nil
	buf.Reset()
	if err := Write(&buf, p, vg.Points(400), vg.Points(200)); err != nil {
		t.Fatal(err)
	}
	if rects := backgroundRect.FindAllString(buf.String(), -1); len(rects) != 0 {
		t.Errorf("background %q drawn for a plot without one", rects)
	}
}
