package main

import (
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/mrbound/mrbound/internal/atomicfile"
)

// point is the mean over seeds of one (workload, gap, policy).
type point struct {
	gap, p, t, omean, omed, u float64
	pmin, pmax, tmin, tmax    float64 // over the seeds
	seeds, solves, optimal    int
}

type key struct{ workload, policy string }

// readPoints averages the rows of the result files in dir (*.tsv, each a
// header and rows) over seeds.
func readPoints(dir string) (map[key][]point, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.tsv"))
	if err != nil {
		return nil, err
	}
	var lines, where []string // rows after the header, and file:line of each
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		ls := strings.Split(strings.TrimSpace(string(data)), "\n")
		if len(lines) == 0 {
			lines = append(lines, ls[0])
		}
		for i, l := range ls[1:] {
			lines = append(lines, l)
			where = append(where, fmt.Sprintf("%s:%d", f, i+2))
		}
	}
	if len(lines) < 2 {
		return nil, fmt.Errorf("%s: no rows", dir)
	}
	col := map[string]int{}
	for i, h := range strings.Split(lines[0], "\t") {
		col[h] = i
	}
	sums := map[key]map[float64]*point{}
	for n, line := range lines[1:] {
		f := strings.Split(line, "\t")
		num := func(name string) float64 {
			v, e := strconv.ParseFloat(f[col[name]], 64)
			if e != nil {
				err = fmt.Errorf("%s: %s: %v", where[n], name, e)
			}
			return v
		}
		k := key{f[col["workload"]], f[col["policy"]]}
		g := num("gap_s")
		if sums[k] == nil {
			sums[k] = map[float64]*point{}
		}
		pt := sums[k][g]
		if pt == nil {
			pt = &point{gap: g}
			sums[k][g] = pt
		}
		pv, tv := num("P"), num("T_s")
		if pt.seeds == 0 {
			pt.pmin, pt.pmax, pt.tmin, pt.tmax = pv, pv, tv, tv
		}
		pt.pmin, pt.pmax, pt.tmin, pt.tmax = min(pt.pmin, pv), max(pt.pmax, pv), min(pt.tmin, tv), max(pt.tmax, tv)
		pt.seeds++
		pt.p += pv
		pt.t += tv
		pt.omean += num("O_mean_ms")
		pt.omed += num("O_median_ms")
		pt.u += num("U")
		pt.solves += int(num("solves"))
		pt.optimal += int(num("optimal"))
		if err != nil {
			return nil, err
		}
	}
	out := map[key][]point{}
	for k, m := range sums {
		for _, pt := range m {
			n := float64(pt.seeds)
			pt.p, pt.t, pt.omean, pt.omed, pt.u = pt.p/n, pt.t/n, pt.omean/n, pt.omed/n, pt.u/n
			out[k] = append(out[k], *pt)
		}
		slices.SortFunc(out[k], func(a, b point) int { return int(b.gap*10 - a.gap*10) }) // rising λ
	}
	return out, nil
}

var workloadOrder = []string{"small", "medium", "large", "mixed"}

// writeTable prints the markdown table: one row per workload and λ.
func writeTable(w io.Writer, pts map[key][]point) {
	fmt.Fprintln(w, "| workload | λ (1/s) | seeds | P mrcp (min–max) | P edf (min–max) | T mrcp (s) | T edf (s) | ΔP | ΔT | O mrcp mean / median (ms) | U mrcp | optimal re-solves |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, wl := range workloadOrder {
		for _, m := range pts[key{wl, "mrcp"}] {
			var e point
			for _, x := range pts[key{wl, "edf"}] {
				if x.gap == m.gap {
					e = x
				}
			}
			rel := func(a, b float64) string {
				if b == 0 {
					return "–"
				}
				return fmt.Sprintf("%+.0f %%", 100*(a-b)/b)
			}
			fmt.Fprintf(w, "| %s | 1/%g | %d | %.4f (%.3f–%.3f) | %.4f (%.3f–%.3f) | %.1f | %.1f | %s | %s | %.1f / %.3f | %.2f | %d / %d |\n",
				wl, m.gap, m.seeds, m.p, m.pmin, m.pmax, e.p, e.pmin, e.pmax, m.t, e.t, rel(m.p, e.p), rel(m.t, e.t), m.omean, m.omed, m.u, m.optimal, m.solves)
		}
	}
}

var colours = map[string]color.Color{"mrcp": color.RGBA{0x08, 0x45, 0x94, 0xff}, "edf": color.RGBA{0xd9, 0x48, 0x01, 0xff}}

// writeSVG draws P and T against λ for each workload, mrcp and edf, in a
// 4 × 2 grid, atomically.
func writeSVG(path string, pts map[key][]point) error {
	const rows, cols = 4, 2
	c := vgsvg.NewWith(vgsvg.UseWH(vg.Points(720), vg.Points(960)), vgsvg.EmbedFonts(false))
	dc := draw.New(c)
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(12), PadY: vg.Points(12), PadTop: vg.Points(8), PadBottom: vg.Points(8), PadLeft: vg.Points(8), PadRight: vg.Points(8)}
	for r, wl := range workloadOrder {
		for ci, metric := range []string{"P (late fraction)", "T (mean turnaround, s)"} {
			p := plot.New()
			p.Title.Text = fmt.Sprintf("%s: %s", wl, metric)
			p.X.Label.Text = "λ (jobs/s)"
			for _, pol := range []string{"mrcp", "edf"} {
				var xy plotter.XYs
				for _, pt := range pts[key{wl, pol}] {
					y := pt.p
					if ci == 1 {
						y = pt.t
					}
					xy = append(xy, plotter.XY{X: 1 / pt.gap, Y: y})
				}
				if len(xy) == 0 {
					continue
				}
				l, s, err := plotter.NewLinePoints(xy)
				if err != nil {
					return err
				}
				l.Color, s.Color = colours[pol], colours[pol]
				p.Add(l, s)
				p.Legend.Add(pol, l, s)
			}
			p.Legend.Top, p.Legend.Left = true, true
			p.Y.Min = 0
			p.Draw(tiles.At(dc, ci, r))
		}
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := c.WriteTo(w)
		return err
	})
}
