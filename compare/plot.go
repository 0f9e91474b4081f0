package compare

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// logSpan: ratios spread over more than this factor are drawn on a log
// scale, so that 1.07 and 1.09 stay apart next to 14.9 (on a linear axis
// they flatten into equal stubs).
const logSpan = 10

// useLog reports whether values (all > 0) span more than logSpan.
func useLog(values []float64) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		if v > 0 && !math.IsInf(v, 0) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	return hi/lo > logSpan
}

// ratioTicks labels a log axis at 1, 2, 5, 10, 20, 50, … (plot.LogTicks
// labels only powers of ten: one label between 1 and 20).
type ratioTicks struct{}

func (ratioTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for e := math.Floor(math.Log10(lo)); math.Pow(10, e) <= hi; e++ {
		for _, m := range []float64{1, 2, 3, 4, 5, 6, 7, 8, 9} {
			v := m * math.Pow(10, e)
			if v < lo || v > hi {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || m == 2 || m == 5 {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ts = append(ts, t)
		}
	}
	return ts
}

// fontSlack: the SVG names its font (Liberation Serif) without embedding
// it, and a viewer without it draws a fallback up to a fifth wider (DejaVu
// Serif, Linux's default serif); text is measured with this much slack so
// that it is not clipped there. Centred text is placed by the measured
// width and grows to one side only, so a centred line of measured width m
// needs (2·fontSlack − 1)·m of room.
const fontSlack = 1.3

// room is the room a centred text of measured width m needs.
func room(m vg.Length) vg.Length { return m * (2*fontSlack - 1) }

// fitWidth is w, widened so that the title and the axis labels fit (a
// gonum plot clips text that does not fit its canvas).
func fitWidth(p *plot.Plot, w vg.Length) vg.Length {
	need := room(p.Title.TextStyle.Width(p.Title.Text)) + vg.Points(24)
	return max(w, need, room(p.X.Label.TextStyle.Width(p.X.Label.Text))+vg.Points(80))
}

// fitHeight is h, raised so that the y label (drawn vertically) fits.
func fitHeight(p *plot.Plot, h vg.Length) vg.Length {
	return max(h, room(p.Y.Label.TextStyle.Width(p.Y.Label.Text))+vg.Points(80))
}

// barsFromFloor draws one bar per value from the bottom of the data area,
// so that bars work on a log axis (gonum's BarChart starts every bar at 0,
// which a log scale cannot place), each labelled with its value above it.
type barsFromFloor struct {
	values []float64
	labels []string
	width  vg.Length
	color  color.Color
	font   draw.TextStyle
}

func (b *barsFromFloor) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for i, v := range b.values {
		if !(v > 0) {
			continue
		}
		x := trX(float64(i))
		top := trY(v)
		rect := vg.Rectangle{Min: vg.Point{X: x - b.width/2, Y: c.Min.Y}, Max: vg.Point{X: x + b.width/2, Y: top}}
		c.SetColor(b.color)
		c.Fill(rect.Path())
		if i < len(b.labels) {
			c.FillText(b.font, vg.Point{X: x, Y: top + vg.Points(3)}, b.labels[i])
		}
	}
}

func (b *barsFromFloor) DataRange() (xmin, xmax, ymin, ymax float64) {
	ymin, ymax = math.Inf(1), math.Inf(-1)
	for _, v := range b.values {
		if v > 0 {
			ymin, ymax = math.Min(ymin, v), math.Max(ymax, v)
		}
	}
	if math.IsInf(ymin, 1) {
		ymin, ymax = 1, 1
	}
	return -0.5, float64(len(b.values)) - 0.5, ymin, ymax
}

// ratioLabel prints a ratio for a bar or a point: three significant digits.
func ratioLabel(v float64) string { return fmt.Sprintf("%.3g", v) }

// niceTicks labels a linear axis every 1, 2 or 5 × 10^k, about five labels,
// each printed exactly (gonum's default can label 1.15 as "1.2").
type niceTicks struct{}

func (niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'g', 6, 64)}}
	}
	raw := (hi - lo) / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var ts []plot.Tick
	for i := math.Ceil(lo / step); i*step <= hi+step*1e-9; i++ {
		v := i * step
		ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', 6, 64)})
		// an unlabelled minor tick halfway
		if m := v + step/2; m <= hi {
			ts = append(ts, plot.Tick{Value: m})
		}
	}
	return ts
}
