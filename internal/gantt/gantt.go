package gantt

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/mrbound/mrbound/internal/svgplot"
)

// Bar is one interval [Start, End) on a lane.
type Bar struct {
	Lane       string
	Start, End float64
	Label      string
	// Job groups the bars of one job: they share a colour in the SVG chart
	// (empty: each bar is its own group).
	Job string
}

// MinWidth is the smallest time-axis width, in characters, that Text accepts.
const MinWidth = 10

// ErrBadBar is wrapped by the error for a bar that cannot be drawn.
var ErrBadBar = errors.New("gantt: bad bar")

func validate(bars []Bar) error {
	for i, b := range bars {
		if math.IsNaN(b.Start) || math.IsNaN(b.End) || math.IsInf(b.Start, 0) || math.IsInf(b.End, 0) {
			return fmt.Errorf("%w: bars[%d] (%s): interval [%v, %v] is not finite", ErrBadBar, i, b.Label, b.Start, b.End)
		}
		if b.End < b.Start {
			return fmt.Errorf("%w: bars[%d] (%s): end %v before start %v", ErrBadBar, i, b.Label, b.End, b.Start)
		}
	}
	return nil
}

// lanes returns the lane names in first-appearance order.
func lanes(bars []Bar) []string {
	seen := map[string]bool{}
	var out []string
	for _, b := range bars {
		if !seen[b.Lane] {
			seen[b.Lane] = true
			out = append(out, b.Lane)
		}
	}
	return out
}

// span returns the chart's time range: it starts at min(0, earliest start)
// and ends at the latest end (at least start+1).
func span(bars []Bar) (lo, hi float64) {
	lo, hi = 0, 0
	for _, b := range bars {
		lo = math.Min(lo, b.Start)
		hi = math.Max(hi, b.End)
	}
	if hi <= lo {
		hi = lo + 1
	}
	return lo, hi
}

// fmtTime prints a time compactly: integers without decimals.
func fmtTime(t float64) string {
	return strconv.FormatFloat(t, 'g', 6, 64)
}

// Text writes a text Gantt chart of bars with a time axis width characters
// wide (at least MinWidth), followed by a legend; its times are in
// unnamed "time units" (TextIn names them).
func Text(w io.Writer, bars []Bar, width int) error {
	return TextIn(w, bars, width, "time units")
}

// TextIn is Text with the unit of its times named on the scale line ("s"),
// so that a chart printed beside a report in seconds does not say "time
// units".
func TextIn(w io.Writer, bars []Bar, width int, unit string) error {
	if width < MinWidth {
		return fmt.Errorf("gantt: width %d is below %d", width, MinWidth)
	}
	if err := validate(bars); err != nil {
		return err
	}
	var sb strings.Builder
	if len(bars) == 0 {
		sb.WriteString("(empty schedule)\n")
		_, err := io.WriteString(w, sb.String())
		return err
	}
	ls := lanes(bars)
	lw := 0
	for _, l := range ls {
		lw = max(lw, len(l))
	}
	lo, hi := span(bars)
	scale := float64(width) / (hi - lo) // columns per time unit
	col := func(t float64) int {
		c := int(math.Round((t - lo) * scale))
		return min(max(c, 0), width)
	}
	rows := map[string][]byte{}
	for _, l := range ls {
		rows[l] = []byte(strings.Repeat(" ", width))
	}
	for _, b := range bars {
		row := rows[b.Lane]
		c0, c1 := col(b.Start), col(b.End)
		if c1 <= c0 { // too short to see: one column
			c1 = min(c0+1, width)
			c0 = c1 - 1
		}
		n := c1 - c0
		switch {
		case n == 1:
			row[c0] = '|'
		default:
			row[c0], row[c1-1] = '[', ']'
			for c := c0 + 1; c < c1-1; c++ {
				row[c] = '-'
			}
			if len(b.Label) <= n-2 {
				copy(row[c0+1:], b.Label)
			}
		}
	}
	pad := strings.Repeat(" ", lw)
	for _, l := range ls {
		fmt.Fprintf(&sb, "%-*s |%s|\n", lw, l, rows[l])
	}
	// Axis: ticks at round times (multiples of 1, 2, 2.5 or 5 × 10^k) at
	// least tickCols columns apart, each labelled with its time where the
	// label fits: 0 50 100 150 reads at a glance, 0 36.1111 72.2222 does not.
	axis := []byte(strings.Repeat("-", width+1))
	labels := []byte(strings.Repeat(" ", width+16))
	const tickCols = 10
	step := niceStep(tickCols / scale)
	next := 0
	for k := math.Ceil(lo / step); ; k++ {
		t := k * step
		c := int(math.Round((t - lo) * scale))
		if c > width {
			break
		}
		axis[c] = '+'
		s := fmtTime(t)
		if c >= next && c+len(s) <= len(labels) {
			copy(labels[c:], s)
			next = c + len(s) + 1
		}
	}
	fmt.Fprintf(&sb, "%s %s\n", pad, axis)
	fmt.Fprintf(&sb, "%s %s\n", pad, strings.TrimRight(string(labels), " "))
	fmt.Fprintf(&sb, "one column = %s %s\n", fmtTime(1/scale), unit)
	sb.WriteString("legend:\n")
	labW := 0
	for _, b := range bars {
		labW = max(labW, len(b.Label))
	}
	for _, b := range bars {
		fmt.Fprintf(&sb, "  %-*s  %-*s  [%s, %s)\n", labW, b.Label, lw, b.Lane, fmtTime(b.Start), fmtTime(b.End))
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// niceStep returns the least of 1, 2, 2.5 and 5 times a power of ten that
// is at least min (> 0): the spacing of the text axis's ticks.
func niceStep(min float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(min)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		// the tolerance keeps an exact min (5 columns of 1 s) on its own step
		// despite the rounding of Log10 and Pow
		if m*p >= min*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// SVG size per lane and margins, in points.
const (
	svgWidth      = 720
	svgLaneHeight = 28
	svgMargin     = 60
)

// palette is a fixed colour cycle (colour-blind friendly, Okabe–Ito).
var palette = []color.RGBA{
	{230, 159, 0, 255}, {86, 180, 233, 255}, {0, 158, 115, 255}, {240, 228, 66, 255},
	{0, 114, 178, 255}, {213, 94, 0, 255}, {204, 121, 167, 255}, {153, 153, 153, 255},
}

// barsPlotter draws the bars on a plot whose y axis has one nominal entry per
// lane (lane i at y = n−1−i, so the first lane is on top).
type barsPlotter struct {
	bars   []Bar
	colour []color.Color
	laneOf map[string]int
	nLanes int
	font   font.Font
}

func (p *barsPlotter) DataRange() (xmin, xmax, ymin, ymax float64) {
	lo, hi := span(p.bars)
	return lo, hi, -0.5, float64(p.nLanes) - 0.5
}

func (p *barsPlotter) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	for i, b := range p.bars {
		y := float64(p.nLanes - 1 - p.laneOf[b.Lane])
		x0, x1 := trX(b.Start), trX(b.End)
		y0, y1 := trY(y-0.35), trY(y+0.35)
		rect := vg.Rectangle{Min: vg.Point{X: x0, Y: y0}, Max: vg.Point{X: x1, Y: y1}}
		c.SetColor(p.colour[i])
		c.Fill(rect.Path())
		c.SetColor(color.Black)
		c.SetLineWidth(vg.Points(0.5))
		c.Stroke(rect.Path())
		sty := draw.TextStyle{Color: color.Black, Font: p.font, XAlign: draw.XCenter, YAlign: draw.YCenter, Handler: plt.Title.TextStyle.Handler}
		if sty.Width(b.Label) <= x1-x0-2 {
			c.FillText(sty, vg.Point{X: (x0 + x1) / 2, Y: (y0 + y1) / 2}, b.Label)
		}
	}
}

// Chart is an SVG Gantt chart: its title, the unit of its time axis ("s",
// "time units") and its bars.
type Chart struct {
	Title, Unit string
	Bars        []Bar
}

// SVG writes an SVG Gantt chart of bars with the given title and a time
// axis without a unit (SVGChart names it).
func SVG(w io.Writer, bars []Bar, title string) error {
	return SVGChart(w, Chart{Title: title, Bars: bars})
}

// colours gives each bar its job's colour: jobs take the palette in order
// of first appearance, so that a job's tasks read as one across lanes.
func colours(bars []Bar) []color.Color {
	out := make([]color.Color, len(bars))
	jobOf := map[string]int{}
	for i, b := range bars {
		key := b.Job
		if key == "" {
			key = "\x00" + strconv.Itoa(i)
		}
		j, ok := jobOf[key]
		if !ok {
			j = len(jobOf)
			jobOf[key] = j
		}
		out[i] = palette[j%len(palette)]
	}
	return out
}

// SVGChart writes c as an SVG Gantt chart.
func SVGChart(w io.Writer, ch Chart) error {
	bars, title := ch.Bars, ch.Title
	if err := validate(bars); err != nil {
		return err
	}
	ls := lanes(bars)
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "time"
	if ch.Unit != "" {
		p.X.Label.Text = "time (" + ch.Unit + ")"
	}
	laneOf := make(map[string]int, len(ls))
	names := make([]string, len(ls))
	for i, l := range ls {
		laneOf[l] = i
		names[len(ls)-1-i] = l
	}
	f := p.X.Tick.Label.Font
	f.Size = vg.Points(8)
	p.Add(&barsPlotter{bars: bars, colour: colours(bars), laneOf: laneOf, nLanes: len(ls), font: f})
	if len(ls) > 0 {
		p.NominalY(names...)
	}
	p.Y.Min, p.Y.Max = -0.5, math.Max(float64(len(ls))-0.5, 0.5)
	// A lane name is placed by its width in the SVG's named font and grows
	// to the right in a wider fallback (up to ×1.3), into the bars: keep that
	// much room between the names and the axis with invisible ticks (a lane
	// tick means nothing).
	var widest vg.Length
	for _, l := range ls {
		widest = max(widest, p.Y.Tick.Label.Width(l))
	}
	p.Y.Tick.Length = widest*0.3 + vg.Points(4)
	p.Y.Tick.LineStyle.Width, p.Y.Tick.LineStyle.Color = vg.Points(0.5), color.Transparent // gonum skips a zero-width tick's length
	h := vg.Points(float64(svgMargin + svgLaneHeight*max(len(ls), 1)))
	// A viewer without the named font draws a wider fallback (up to ×1.3);
	// widen the chart so that a long title is not cut off.
	width := max(vg.Points(svgWidth), p.Title.TextStyle.Width(title)*1.6+vg.Points(24))
	// The last time label is centred on the axis's end; in a viewer's wider
	// fallback font it ran past the chart's right edge (s18walk: `300` on
	// scenario5's chart): svgplot keeps a margin for it.
	return svgplot.Write(w, p, width, h)
}
