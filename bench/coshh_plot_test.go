package bench

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	vgsvg "gonum.org/v1/plot/vg/vgsvg"
)

// coshhPlots writes coshh-completion.svg (mean completion time per policy and
// setting, as Figs 5, 6, 9, 10) and coshh-error.svg (COSHH's completion time
// against the estimation error I, as §6.3).
func coshhPlots(out string, rows, errRows []coshhRow, policies []string) error {
	if len(rows) == 0 {
		return errorPlot(out, errRows)
	}
	p := plot.New()
	p.Title.Text = "Average completion time, Table 3, 100 jobs (simulated)"
	p.Y.Label.Text = "seconds"
	groups := []struct{ trace, users, label string }{
		{"facebook", "heterogeneous", "FB het."}, {"facebook", "homogeneous", "FB hom."},
		{"yahoo", "heterogeneous", "Y! het."}, {"yahoo", "homogeneous", "Y! hom."},
	}
	w := vg.Points(14)
	for i, pol := range policies {
		vals := make(plotter.Values, len(groups))
		for g, gr := range groups {
			vals[g], _, _ = meanOf(rows, func(r coshhRow) bool { return r.trace == gr.trace && r.users == gr.users && r.policy == pol },
				func(r coshhRow) float64 { return r.turnaround })
		}
		bars, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return err
		}
		bars.Color = plotutil.Color(i)
		bars.LineStyle.Width = 0
		bars.Offset = vg.Length(i-len(policies)/2)*w + w/2
		p.Add(bars)
		p.Legend.Add(pol, bars)
	}
	p.Legend.Top = true
	names := make([]string, len(groups))
	for g, gr := range groups {
		names[g] = gr.label
	}
	p.NominalX(names...)
	return writeSVG(p, filepath.Join(out, "coshh-completion.svg"))
}

func errorPlot(out string, errRows []coshhRow) error {
	q := plot.New()
	q.Title.Text = "COSHH: completion time against estimation error I"
	q.X.Label.Text = "I"
	q.Y.Label.Text = "average completion time (s)"
	for i, trace := range []string{"facebook", "yahoo"} {
		var pts plotter.XYs
		for _, e := range []float64{0, 0.1, 0.2, 0.3, 0.4} {
			m, _, n := meanOf(errRows, func(r coshhRow) bool { return r.trace == trace && r.errI == e }, func(r coshhRow) float64 { return r.turnaround })
			if n > 0 {
				pts = append(pts, plotter.XY{X: e, Y: m})
			}
		}
		l, s, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		l.Color, s.Color = plotutil.Color(i), plotutil.Color(i)
		s.Shape = draw.CircleGlyph{}
		q.Add(l, s)
		q.Legend.Add(trace, l, s)
	}
	q.Legend.Top = true
	q.Add(plotter.NewGrid())
	return writeSVG(q, filepath.Join(out, "coshh-error.svg"))
}

// writeSVG renders p to path atomically (temp file + rename).
func writeSVG(p *plot.Plot, path string) error {
	c := vgsvg.NewWith(vgsvg.UseWH(6*vg.Inch, 4*vg.Inch), vgsvg.EmbedFonts(false))
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", tmp, err)
	}
	return os.Rename(tmp, path)
}
