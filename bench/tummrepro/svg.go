package tummrepro

import (
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// palette colours the bars of a group, one per series.
var palette = []color.Color{
	color.RGBA{0x9e, 0xca, 0xe1, 0xff}, color.RGBA{0x42, 0x92, 0xc6, 0xff}, color.RGBA{0x08, 0x45, 0x94, 0xff},
	color.RGBA{0xfd, 0xae, 0x6b, 0xff}, color.RGBA{0xd9, 0x48, 0x01, 0xff}, color.RGBA{0x99, 0x99, 0x99, 0xff},
}

// series is one bar per group.
type series struct {
	name   string
	values []float64
}

// barChart writes grouped bars (groups on the x axis) as SVG.
func barChart(w io.Writer, title, ylabel string, groups []string, ss []series) error {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = ylabel
	width := vg.Points(60 / float64(len(ss)))
	for i, s := range ss {
		b, err := plotter.NewBarChart(plotter.Values(s.values), width)
		if err != nil {
			return err
		}
		b.Color = palette[i%len(palette)]
		b.LineStyle.Width = 0
		b.Offset = width * vg.Length(float64(i)-float64(len(ss)-1)/2)
		p.Add(b)
		p.Legend.Add(s.name, b)
	}
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.XOffs = vg.Points(10)
	top := 0.0
	for _, s := range ss {
		for _, v := range s.values {
			top = max(top, v)
		}
	}
	p.Y.Min, p.Y.Max = 0, top*(1+0.12*float64(len(ss))) // room for the legend
	p.NominalX(groups...)
	p.X.Min, p.X.Max = -0.6, float64(len(groups))-0.4 // room for the outer bars and labels
	c := vgsvg.NewWith(vgsvg.UseWH(vg.Points(640), vg.Points(360)), vgsvg.EmbedFonts(false))
	p.Draw(draw.New(c))
	_, err := c.WriteTo(w)
	return err
}

// WriteSVG writes tumm-simple.svg, tumm-mixed.svg and tumm-tpch.svg into
// dir (atomically, each through a temporary file).
func (r *Report) WriteSVG(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, exp := range []string{"simple", "mixed"} {
		wls := r.workloads(exp)
		var ss []series
		for _, p := range SimplePolicies {
			s := series{name: p}
			for _, wl := range wls {
				x, _ := r.find(exp, wl, p)
				s.values = append(s.values, x.Makespan)
			}
			ss = append(ss, s)
		}
		title := fmt.Sprintf("TuMM vs static splits, %s batches (simulated, 4×4 slots)", exp)
		if err := writeAtomic(filepath.Join(dir, "tumm-"+exp+".svg"), func(w io.Writer) error {
			return barChart(w, title, "makespan (s)", wls, ss)
		}); err != nil {
			return err
		}
	}
	var groups []string
	ss := []series{{name: "FIFO (sim)"}, {name: "H_TuMM (sim)"}, {name: "FIFO (Table 5)"}, {name: "H_TuMM (Table 5)"}}
	for _, cl := range r.workloads("tpch") {
		f, _ := r.find("tpch", cl, "static:nodes")
		h, _ := r.find("tpch", cl, "htumm")
		for _, q := range []string{"q15", "q16", "q18"} {
			groups = append(groups, cl+" "+q)
			pub := published[cl+"/"+q]
			for i, v := range []float64{f.QueryMakespan[q], h.QueryMakespan[q], pub[0], pub[1]} {
				ss[i].values = append(ss[i].values, v)
			}
		}
	}
	if err := writeAtomic(filepath.Join(dir, "tumm-tpch.svg"), func(w io.Writer) error {
		return barChart(w, "H_TuMM vs FIFO, TPC-H-like chains (per-query makespan)", "makespan (s)", groups, ss)
	}); err != nil {
		return err
	}
	return writeAtomic(filepath.Join(dir, "tumm-ratio.svg"), func(w io.Writer) error { return ratioChart(w, r.Ratio) })
}

// ratioPlotStep is the plotted resolution of the running counts (s).
const ratioPlotStep = 5

// ratioChart draws TuMM's target s_m and the running maps and reduces over
// time as step lines (Fig 8).
func ratioChart(w io.Writer, rt RatioTrace) error {
	p := plot.New()
	p.Title.Text = "TuMM on the mixed batch (Johnson order): map-slot target and running tasks"
	p.X.Label.Text = "time (s)"
	p.Y.Label.Text = "slots"
	var target, maps, reds plotter.XYs
	for _, t := range rt.Targets {
		target = append(target, plotter.XY{X: t.At.Seconds(), Y: float64(t.MapSlots)})
	}
	for i, c := range rt.Steps {
		// one point per ratioPlotStep s keeps the file small; the last is kept
		if len(maps) > 0 && c.At.Seconds()-maps[len(maps)-1].X < ratioPlotStep && i+1 < len(rt.Steps) {
			continue
		}
		maps = append(maps, plotter.XY{X: c.At.Seconds(), Y: float64(c.Maps)})
		reds = append(reds, plotter.XY{X: c.At.Seconds(), Y: float64(c.Reduces)})
	}
	if n := len(rt.Steps); n > 0 && len(target) > 0 {
		target = append(target, plotter.XY{X: rt.Steps[n-1].At.Seconds(), Y: target[len(target)-1].Y})
	}
	for i, s := range []struct {
		name string
		xy   plotter.XYs
	}{{"running maps", maps}, {"running reduces", reds}, {"target s_m", target}} {
		if len(s.xy) == 0 {
			continue
		}
		l, err := plotter.NewLine(s.xy)
		if err != nil {
			return err
		}
		l.StepStyle = plotter.PreStep
		l.Color = palette[[]int{1, 4, 2}[i]]
		if i == 2 {
			l.Width = vg.Points(2)
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
		}
		p.Add(l)
		p.Legend.Add(s.name, l)
	}
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.XOffs = vg.Points(10)
	p.Y.Min, p.Y.Max = 0, 20
	c := vgsvg.NewWith(vgsvg.UseWH(vg.Points(640), vg.Points(320)), vgsvg.EmbedFonts(false))
	p.Draw(draw.New(c))
	_, err := c.WriteTo(w)
	return err
}

// writeAtomic writes path through a temporary file and a rename.
func writeAtomic(path string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path))
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
