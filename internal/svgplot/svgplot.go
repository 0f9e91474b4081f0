package svgplot

import (
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// RightMargin is kept right of the plot, for the last x tick label: 14
// points (a vg.Length is in points).
const RightMargin vg.Length = 14

// Write draws p on a width × height SVG canvas (fonts named, not embedded)
// and writes it to w. The canvas is filled once with p's background colour
// (none when it is nil); p itself is drawn with no background, RightMargin
// short of the right edge. p is left as it was.
func Write(w io.Writer, p *plot.Plot, width, height vg.Length) error {
	c := vgsvg.NewWith(vgsvg.UseWH(width, height), vgsvg.EmbedFonts(false))
	dc := draw.New(c)
	background := p.BackgroundColor
	if background != nil {
		dc.SetColor(background)
		dc.Fill(dc.Rectangle.Path())
	}
	p.BackgroundColor = nil
	p.Draw(draw.Crop(dc, 0, -RightMargin, 0, 0))
	p.BackgroundColor = background
	_, err := c.WriteTo(w)
	return err
}
