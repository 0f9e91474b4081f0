package hfsprepro

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// WriteMarkdown writes the table of rows.
func WriteMarkdown(w io.Writer, rows []Row) error {
	var b strings.Builder
	fmt.Fprintf(&b, "| policy | mean sojourn (s) | slowdown mean / p50 / p95 / p99 / max | %s | C ≤ C(%s): jobs | killed / suspended (work lost s) | decisions | per decision mean / worst | run wall |\n",
		strings.Join(rows[0].Classes, " | "), rows[0].Policy)
	b.WriteString("|---|---|---|" + strings.Repeat("---|", len(rows[0].Classes)) + "---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %.1f | %.2f / %.2f / %.2f / %.1f / %.1f |", r.Policy, r.MeanSojourn, r.SlowMean, r.SlowP50, r.SlowP95, r.SlowP99, r.SlowMax)
		for _, v := range r.ClassSojourn {
			if math.IsNaN(v) {
				b.WriteString(" – |")
			} else {
				fmt.Fprintf(&b, " %.1f |", v)
			}
		}
		fmt.Fprintf(&b, " %.1f%% (%d) | %d / %d (%.0f) | %d | %s / %s | %.1f s |\n", 100*r.Dominance, r.DominanceJobs, r.Killed, r.Suspended, r.WorkLost,
			r.Offers, dur(r.OfferMean), dur(r.OfferWorst), r.Wall.Seconds())
	}
	if len(rows) > 0 {
		fmt.Fprintf(&b, "\nJobs per class: ")
		for c, n := range rows[0].ClassJobs {
			fmt.Fprintf(&b, "%s %d; ", rows[0].Classes[c], n)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteDominance writes the FSP dominance check per class: for each policy
// the jobs completing no later than under the reference (the first row), per
// class, and how much later the others complete (median and worst).
func WriteDominance(w io.Writer, rows []Row) error {
	var b strings.Builder
	ref := rows[0]
	fmt.Fprintf(&b, "| policy | C ≤ C(%s): all |", ref.Policy)
	for c, name := range ref.Classes {
		fmt.Fprintf(&b, " %s (%d) |", name, ref.ClassJobs[c])
	}
	b.WriteString(" the others: later by p50 / max (s) |\n|---|---|" + strings.Repeat("---|", len(ref.Classes)) + "---|\n")
	for _, r := range rows[1:] {
		fmt.Fprintf(&b, "| %s | %d of %d |", r.Policy, r.DominanceJobs, r.Jobs)
		for c, n := range r.ClassDominance {
			if r.ClassJobs[c] == 0 {
				b.WriteString(" – |")
			} else {
				fmt.Fprintf(&b, " %.1f%% |", 100*float64(n)/float64(r.ClassJobs[c]))
			}
		}
		fmt.Fprintf(&b, " %.1f / %.1f |\n", r.LateP50, r.LateMax)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func dur(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%.1f µs", float64(d)/1e3)
	default:
		return fmt.Sprintf("%.1f ms", float64(d)/1e6)
	}
}

var palette = []color.Color{
	color.RGBA{0x99, 0x99, 0x99, 0xff}, color.RGBA{0xfd, 0xae, 0x6b, 0xff}, color.RGBA{0x9e, 0xca, 0xe1, 0xff},
	color.RGBA{0x42, 0x92, 0xc6, 0xff}, color.RGBA{0x08, 0x45, 0x94, 0xff}, color.RGBA{0xd9, 0x48, 0x01, 0xff},
}

// WriteSVG draws the mean sojourn per size class, one bar per policy.
func WriteSVG(w io.Writer, title string, rows []Row) error {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = "mean sojourn (s)"
	width := vg.Points(60 / float64(len(rows)))
	for i, r := range rows {
		vals := make(plotter.Values, len(r.Classes))
		for c, v := range r.ClassSojourn {
			vals[c] = v
			if math.IsNaN(v) {
				vals[c] = 0
			}
		}
		b, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return err
		}
		b.Color = palette[i%len(palette)]
		b.LineStyle.Width = 0
		b.Offset = width * vg.Length(float64(i)-float64(len(rows)-1)/2)
		p.Add(b)
		p.Legend.Add(r.Policy, b)
	}
	p.Legend.Top = true
	p.Legend.Left = true
	p.NominalX(rows[0].Classes...)
	c := vgsvg.New(8*vg.Inch, 4*vg.Inch)
	p.Draw(draw.New(c))
	_, err := c.WriteTo(w)
	return err
}
