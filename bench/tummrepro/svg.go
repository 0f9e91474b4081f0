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
	p.Legend.Top = true
	top := 0.0
	for _, s := range ss {
		for _, v := range s.values {
			top = max(top, v)
		}
	}
	p.Y.Min, p.Y.Max = 0, top*(1+0.12*float64(len(ss))) // room for the legend
	p.NominalX(groups...)
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
	return writeAtomic(filepath.Join(dir, "tumm-tpch.svg"), func(w io.Writer) error {
		return barChart(w, "H_TuMM vs FIFO, TPC-H-like chains (per-query makespan)", "makespan (s)", groups, ss)
	})
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
