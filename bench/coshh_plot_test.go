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
	p.Title.Text = "COSHH §5–6: mean completion time / FIFO's"
	p.Y.Label.Text = "mean completion / FIFO's"
	groups := []struct{ trace, users, label string }{
		{"facebook", "heterogeneous", "FB het."}, {"facebook", "homogeneous", "FB hom."},
		{"yahoo", "heterogeneous", "Y! het."}, {"yahoo", "homogeneous", "Y! hom."},
	}
	series := []struct {
		label string
		vals  func(g int) float64
	}{}
	mean := func(trace, users, pol string) float64 {
		m, _, _ := meanOf(rows, func(r coshhRow) bool { return r.trace == trace && r.users == users && r.policy == pol },
			func(r coshhRow) float64 { return r.turnaround })
		return m
	}
	for _, pol := range policies[1:] {
		series = append(series, struct {
			label string
			vals  func(g int) float64
		}{pol + " (sim.)", func(g int) float64 {
			gr := groups[g]
			return mean(gr.trace, gr.users, pol) / mean(gr.trace, gr.users, "fifo")
		}})
	}
	for k, name := range []string{"fair (paper)", "coshh (paper)"} {
		series = append(series, struct {
			label string
			vals  func(g int) float64
		}{name, func(g int) float64 { return publishedRelative[g][k] }})
	}
	w := vg.Points(11)
	for i, sr := range series {
		vals := make(plotter.Values, len(groups))
		for g := range groups {
			vals[g] = sr.vals(g)
		}
		bars, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return err
		}
		bars.Color = plotutil.Color(i)
		bars.LineStyle.Width = 0
		bars.Offset = vg.Length(i)*w - vg.Length(len(series))*w/2 + w/2
		p.Add(bars)
		p.Legend.Add(sr.label, bars)
	}
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	p.Legend.Left = true
	p.Y.Min, p.Y.Max = 0, 2.1
	p.X.Min, p.X.Max = -0.7, float64(len(groups))-0.3
	names := make([]string, len(groups))
	for g, gr := range groups {
		names[g] = gr.label
	}
	p.NominalX(names...)
	return writeSVG(p, filepath.Join(out, "coshh-completion.svg"))
}

func errorPlot(out string, errRows []coshhRow) error {
	q := plot.New()
	q.Title.Text = "COSHH: completion time vs error I (ratio to I = 0)"
	q.X.Label.Text = "I (estimates L·(1+E), E ~ U[−I, I] per job)"
	q.Y.Label.Text = "mean completion / at I = 0"
	errs := []float64{0, 0.1, 0.2, 0.3, 0.4}
	for i, trace := range []string{"facebook", "yahoo"} {
		base, _, _ := meanOf(errRows, func(r coshhRow) bool { return r.trace == trace && r.errI == 0 }, func(r coshhRow) float64 { return r.turnaround })
		var pts plotter.XYs
		for _, e := range errs {
			m, _, n := meanOf(errRows, func(r coshhRow) bool { return r.trace == trace && r.errI == e }, func(r coshhRow) float64 { return r.turnaround })
			if n > 0 {
				pts = append(pts, plotter.XY{X: e, Y: m / base})
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
	q.Y.Min, q.Y.Max = 0, 1.6
	q.X.Min, q.X.Max = -0.02, 0.42
	q.Legend.Top = true
	q.Legend.Left = true
	q.Add(plotter.NewGrid())
	return writeSVG(q, filepath.Join(out, "coshh-error.svg"))
}

// publishedRelative is §5's average completion time of Fair and COSHH as a
// fraction of FIFO's, derived from the stated percentages: FB heterogeneous
// (COSHH 31.27% below FIFO, 42.41% below Fair), FB homogeneous (Fair 26.42%
// below FIFO, COSHH 42.97% below Fair), Yahoo heterogeneous (74.49%, 79.73%),
// Yahoo homogeneous (Fair 37.72% below FIFO, COSHH 75.92% below Fair).
var publishedRelative = [4][2]float64{
	{(1 - 0.3127) / (1 - 0.4241), 1 - 0.3127},
	{1 - 0.2642, (1 - 0.2642) * (1 - 0.4297)},
	{(1 - 0.7449) / (1 - 0.7973), 1 - 0.7449},
	{1 - 0.3772, (1 - 0.3772) * (1 - 0.7592)},
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

// scalePlot writes coshh-scale-PART.svg: mean completion time (log scale)
// against the jobs submitted (§6.2.1, Figs 13–14) or the resources (§6.2.2,
// Figs 17–18), one line per policy and trace (solid Facebook, dashed Yahoo).
func scalePlot(out, part string, rows []coshhRow) error {
	p := plot.New()
	xs := scaleJobs
	p.Title.Text = "COSHH §6.2.1: mean completion time vs jobs submitted"
	p.X.Label.Text = "jobs submitted (Table 3, ρ = 0.9)"
	if part == "resources" {
		xs = scaleResources
		p.Title.Text = "COSHH §6.2.2: mean completion time vs resources"
		p.X.Label.Text = "Table 10 resources (Table 3's arrival rate)"
	}
	p.Y.Label.Text = "mean completion time (s, log)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	top := 0.0
	for ti, trace := range []string{"facebook", "yahoo"} {
		for pi, pol := range coshhPolicies[:3] {
			var pts plotter.XYs
			for _, x := range xs {
				var ts []float64
				for _, r := range rows {
					if r.trace == trace && r.policy == pol && scaleX(part, r) == x && r.turnaround > 0 {
						ts = append(ts, r.turnaround)
					}
				}
				if len(ts) > 0 {
					pts = append(pts, plotter.XY{X: float64(x), Y: mean(ts)})
					top = max(top, mean(ts))
				}
			}
			if len(pts) == 0 {
				continue
			}
			l, s, err := plotter.NewLinePoints(pts)
			if err != nil {
				return err
			}
			l.Color, s.Color = plotutil.Color(pi), plotutil.Color(pi)
			s.Shape = plotutil.Shape(pi)
			if ti == 1 {
				l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
			}
			p.Add(l, s)
			p.Legend.Add(fmt.Sprintf("%s, %s", pol, map[string]string{"facebook": "FB", "yahoo": "Y!"}[trace]), l, s)
		}
	}
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	p.Y.Max = top * 30 // room above the lines for the legend (log scale)
	return writeSVG(p, filepath.Join(out, "coshh-scale-"+part+".svg"))
}
