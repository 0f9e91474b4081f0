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

// published are the P values MRCP §5 states in its text (policies.md §5),
// per workload and policy as (λ, P): the CP scheduler's P = 0 at every λ of
// large and EDF's 0.49 at 1/70; P = 0 for both at small 1/22.5 and medium
// 1/45. The rest of the paper's figures are plots without numbers.
var published = map[key]plotter.XYs{
	{"large", "mrcp"}:  {{X: 1 / 77.5}, {X: 1 / 75.0}, {X: 1 / 72.5}, {X: 1 / 70.0}},
	{"large", "edf"}:   {{X: 1 / 70.0, Y: 0.49}},
	{"small", "mrcp"}:  {{X: 1 / 22.5}},
	{"small", "edf"}:   {{X: 1 / 22.5}},
	{"medium", "mrcp"}: {{X: 1 / 45.0}},
	{"medium", "edf"}:  {{X: 1 / 45.0}},
}

// writeSVG draws P and T against λ for each workload, mrcp and edf, in a
// 4 × 2 grid, atomically.
func writeSVG(path string, pts map[key][]point) error {
	const rows, cols = 4, 2
	c := vgsvg.NewWith(vgsvg.UseWH(vg.Points(720), vg.Points(960)), vgsvg.EmbedFonts(false))
	dc := draw.New(c)
	// One background over the whole canvas (the padding between tiles
	// included), and none per tile: each tile painted its own and left the
	// padding transparent, a grid of strips on a dark viewer.
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
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
				if pub := published[key{wl, pol}]; ci == 0 && pub != nil {
					sc, err := plotter.NewScatter(pub)
					if err != nil {
						return err
					}
					sc.Color, sc.Shape, sc.Radius = colours[pol], draw.CrossGlyph{}, vg.Points(5)
					p.Add(sc)
					p.Legend.Add("paper "+pol, sc)
				}
			}
			p.Legend.Top, p.Legend.Left = true, true
			p.Y.Min = 0
			p.BackgroundColor = nil
			p.Draw(tiles.At(dc, ci, r))
		}
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := c.WriteTo(w)
		return err
	})
}

// writeOptTable prints, per workload, λ and seed where both ran, mrcp's
// figures beside mrcp-opt's (every re-solve solved to proven optimality if
// it can be): the claim that the fast setting's P and T are those of
// optimal re-solves.
func writeOptTable(w io.Writer, dir string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*-mrcp-opt.tsv"))
	if err != nil || len(files) == 0 {
		return err
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| workload | λ (1/s) | seed | P fast / opt | T fast / opt (s) | proven optimal fast / opt | O median fast / opt (ms) | O mean fast / opt (ms) | wall limit fast / opt |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	row := func(path string) (map[string]string, error) {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		ls := strings.Split(strings.TrimSpace(string(data)), "\n")
		if len(ls) != 2 {
			return nil, fmt.Errorf("%s: want a header and one row", path)
		}
		m := map[string]string{}
		vs := strings.Split(ls[1], "\t")
		for i, h := range strings.Split(ls[0], "\t") {
			if i < len(vs) {
				m[h] = vs[i]
			}
		}
		return m, nil
	}
	slices.Sort(files)
	for _, f := range files {
		o, err := row(f)
		if err != nil {
			return err
		}
		fast, err := row(strings.TrimSuffix(f, "-mrcp-opt.tsv") + "-mrcp.tsv")
		if err != nil {
			continue // the fast run of this point is not there (yet)
		}
		fmt.Fprintf(w, "| %s | 1/%s | %s | %s / %s | %s / %s | %s/%s / %s/%s | %s / %s | %s / %s | %s / %s |\n",
			o["workload"], o["gap_s"], o["seed"], fast["P"], o["P"], fast["T_s"], o["T_s"],
			fast["optimal"], fast["solves"], o["optimal"], o["solves"], fast["O_median_ms"], o["O_median_ms"],
			fast["O_mean_ms"], o["O_mean_ms"], fast["wall_limit"], o["wall_limit"])
	}
	return nil
}
