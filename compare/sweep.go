package compare

import (
	"encoding/csv"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/mrbound/mrbound/internal/plural"
	"github.com/mrbound/mrbound/internal/svgplot"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/sweep/record"
)

// SweepRecord is one policy on one instance of a generated family: a row of
// the sweep table, written as soon as it is known so that a killed sweep
// loses nothing finished.
type SweepRecord struct {
	Workload string
	// Lambda is the arrival rate (jobs/s) and Load the offered load it gives.
	Lambda, Load float64
	Seed         uint64
	Policy       string
	Metric       lowerbound.Metric
	// Unit is the unit of Value and Bound, as in compare's CSV report:
	// HumanUnit of the report's unit ("s" for times, "jobs" for late jobs).
	Unit string
	// Value is the policy's metric; Bound the certified bound (or proven
	// optimum when BoundStatus is "optimal"); Ratio = Value/Bound (NaN when
	// the bound is 0).
	Value, Bound, Ratio float64
	BoundStatus         string
	Verified            bool
}

// Key identifies the instance-and-policy a record settles (for resuming).
func (r SweepRecord) Key() string {
	return fmt.Sprintf("%s|%s|%s|%d|%s|%s", r.Workload, ff(r.Lambda), ff(r.Load), r.Seed, r.Policy, r.Metric)
}

// sweepHeader is the table's header; lambda_per_s is the arrival rate in
// jobs/s. Older tables are read and, on resume, rewritten under it:
// legacySweepHeaders[0] (before the unit column) has value and bound in ms
// (jobs for late jobs); legacySweepHeaders[1] (before lambda had its unit)
// has the current columns under the old name.
var (
	sweepHeader        = []string{"workload", "lambda_per_s", "load", "seed", "policy", "metric", "unit", "value", "bound", "ratio", "bound_status", "verified"}
	legacySweepHeaders = [][]string{
		{"workload", "lambda", "load", "seed", "policy", "metric", "value", "bound", "ratio", "bound_status", "verified"},
		{"workload", "lambda", "load", "seed", "policy", "metric", "unit", "value", "bound", "ratio", "bound_status", "verified"},
	}
)

// ff is the shortest decimal that reads back to v exactly (resume keys and
// round trips depend on it).
func ff(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func (r SweepRecord) fields() []string {
	return []string{r.Workload, ff(r.Lambda), ff(r.Load), strconv.FormatUint(r.Seed, 10), r.Policy, r.Metric.String(),
		r.Unit, ff(r.Value), ff(r.Bound), ff(r.Ratio), r.BoundStatus, strconv.FormatBool(r.Verified)}
}

// WriteSweepHeader writes the CSV header of a sweep file.
func WriteSweepHeader(w io.Writer) error {
	cw := csv.NewWriter(w)
	_ = cw.Write(sweepHeader)
	cw.Flush()
	return cw.Error()
}

// WriteSweepRecord appends one record as a CSV line.
func WriteSweepRecord(w io.Writer, r SweepRecord) error {
	cw := csv.NewWriter(w)
	_ = cw.Write(r.fields())
	cw.Flush()
	return cw.Error()
}

// SweepRecords is the CSV codec of sweep tables (package sweep/record): a
// truncated last line (a killed sweep) is dropped on reading, and a table
// under an older header (legacySweepHeaders) is read in its old units.
var SweepRecords = record.Codec[SweepRecord]{Header: sweepHeader, Fields: SweepRecord.fields, Parse: parseSweepRow,
	Legacy: legacySweepHeaders}

// ReadSweep reads a sweep CSV; name labels errors (name:line).
func ReadSweep(name string, rd io.Reader) ([]SweepRecord, error) { return SweepRecords.Read(name, rd) }

// IsLegacySweep reports whether a sweep table's content starts with an
// older header (legacySweepHeaders), which a resumed run rewrites before
// appending to it.
func IsLegacySweep(table []byte) bool { return SweepRecords.HasLegacyHeader(table) }

// parseSweepRow reads a row of any header (the two of the current width
// differ in a name only). A row without the unit column has its times in ms:
// they are turned into seconds, the current table's unit.
func parseSweepRow(row []string) (SweepRecord, error) {
	var r SweepRecord
	legacy := len(row) == len(legacySweepHeaders[0])
	if !legacy && len(row) != len(sweepHeader) {
		return r, fmt.Errorf("%s, want %d", plural.Count(len(row), "field"), len(sweepHeader))
	}
	var errs []error
	atof := func(s string) float64 { v, err := strconv.ParseFloat(s, 64); errs = append(errs, err); return v }
	r.Workload = row[0]
	r.Lambda, r.Load = atof(row[1]), atof(row[2])
	seed, err := strconv.ParseUint(row[3], 10, 64)
	errs = append(errs, err)
	r.Seed = seed
	r.Policy = row[4]
	errs = append(errs, r.Metric.UnmarshalText([]byte(row[5])))
	rest := row[6:]
	if legacy {
		unit := unitOfMetric(r.Metric)
		r.Unit = HumanUnit(unit)
		r.Value, r.Bound = InHumanUnit(unit, atof(rest[0])), InHumanUnit(unit, atof(rest[1]))
	} else {
		r.Unit, rest = rest[0], rest[1:]
		if want := HumanUnit(unitOfMetric(r.Metric)); r.Unit != want && r.Metric != lowerbound.MetricUnknown {
			errs = append(errs, fmt.Errorf("unit %q, want %q for metric %s", r.Unit, want, r.Metric))
		}
		r.Value, r.Bound = atof(rest[0]), atof(rest[1])
	}
	r.Ratio = atof(rest[2])
	r.BoundStatus = rest[3]
	r.Verified = rest[4] == "true"
	return r, errors.Join(errs...)
}

// SweepPoint is the mean ratio of one policy at one arrival rate over the
// seeds, placed at the mean offered load of those instances.
type SweepPoint struct {
	Policy       string
	Lambda, Load float64
	Mean         float64
	N            int
}

// SweepMeans averages the verified, finite ratios per (policy, λ), sorted
// by policy then load.
func SweepMeans(recs []SweepRecord) []SweepPoint {
	type key struct {
		policy string
		lambda float64
	}
	type acc struct {
		ratio, load float64
		n           int
	}
	sums := map[key]*acc{}
	for _, r := range recs {
		if !r.Verified || math.IsNaN(r.Ratio) || math.IsInf(r.Ratio, 0) {
			continue
		}
		k := key{r.Policy, r.Lambda}
		if sums[k] == nil {
			sums[k] = &acc{}
		}
		sums[k].ratio += r.Ratio
		sums[k].load += r.Load
		sums[k].n++
	}
	var out []SweepPoint
	for k, a := range sums {
		out = append(out, SweepPoint{k.policy, k.lambda, a.load / float64(a.n), a.ratio / float64(a.n), a.n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Policy != out[j].Policy {
			return out[i].Policy < out[j].Policy
		}
		return out[i].Load < out[j].Load
	})
	return out
}

// palette is a colour-blind friendly cycle (Okabe–Ito).
var palette = []color.RGBA{
	{230, 159, 0, 255}, {86, 180, 233, 255}, {0, 158, 115, 255}, {0, 114, 178, 255},
	{213, 94, 0, 255}, {204, 121, 167, 255}, {153, 153, 153, 255}, {0, 0, 0, 255},
}

// glyphs and dashes tell the series apart where their lines coincide (two
// policies with equal ratios): each policy has its own marker, dash and a
// marker a little smaller than the one before, so that every listed series
// stays visible.
var (
	glyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.RingGlyph{},
		draw.CrossGlyph{}, draw.PyramidGlyph{}, draw.PlusGlyph{}, draw.BoxGlyph{}}
	dashes = [][]vg.Length{nil, {vg.Points(6), vg.Points(3)}, {vg.Points(2), vg.Points(2)},
		{vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)}}
)

// SweepTitle is the title of a sweep plot: the family, its size and the
// metric, and what the ratio is taken to.
func SweepTitle(family string, jobs int, m lowerbound.Metric) string {
	return fmt.Sprintf("%s, %s, %s: policy / bound (the optimum where proven)", family, plural.Count(jobs, "job"), m)
}

// dodge is the sideways shift between two policies' points, as a fraction
// of the load range: small enough to read the load, large enough to see
// every marker.
const dodge = 0.012

// WriteSweepSVG plots, per policy, the mean ratio to the bound against the
// offered load; title names the family and the metric. The ratio axis is
// logarithmic when the means span more than logSpan.
func WriteSweepSVG(w io.Writer, title string, pts []SweepPoint) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "offered load (work / slot capacity over the arrival span)"
	p.Y.Label.Text = "mean ratio to the bound"
	byPolicy := map[string]plotter.XYs{}
	var names []string
	for _, pt := range pts {
		if _, ok := byPolicy[pt.Policy]; !ok {
			names = append(names, pt.Policy)
		}
		byPolicy[pt.Policy] = append(byPolicy[pt.Policy], plotter.XY{X: pt.Load, Y: pt.Mean})
	}
	sort.Strings(names)
	// Dodge: policy i is drawn (i − (n−1)/2)·dodge of the load range to the
	// side, so that equal series sit side by side instead of on top of each
	// other (the load of a point is still read to within that shift).
	xlo, xhi := math.Inf(1), math.Inf(-1)
	for _, pt := range pts {
		xlo, xhi = math.Min(xlo, pt.Load), math.Max(xhi, pt.Load)
	}
	xr := xhi - xlo
	if !(xr > 0) {
		xr = math.Max(math.Abs(xhi), 1) * 0.1
	}
	for i, n := range names {
		shifted := append(plotter.XYs(nil), byPolicy[n]...)
		for k := range shifted {
			shifted[k].X += (float64(i) - float64(len(names)-1)/2) * dodge * xr
		}
		line, points, err := plotter.NewLinePoints(shifted)
		if err != nil {
			return err
		}
		c := palette[i%len(palette)]
		line.Color, points.Color = c, c
		line.Width = vg.Points(1.5)
		line.Dashes = dashes[i%len(dashes)]
		points.Shape = glyphs[i%len(glyphs)]
		points.Radius = vg.Points(math.Max(5-0.5*float64(i), 2))
		p.Add(line, points)
		p.Legend.Add(n, line, points)
	}
	// Ratios are ≥ 1 (the invariant); start the axis there and leave room
	// above the lines for the legend (top left, where a wider fallback font
	// grows into the plot rather than off the canvas).
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.XOffs = vg.Points(8)
	hi := 1.0
	means := []float64{1}
	for _, pt := range pts {
		hi = math.Max(hi, pt.Mean)
		means = append(means, pt.Mean)
	}
	if useLog(means) {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, ratioTicks{}
		p.Y.Min, p.Y.Max = 1, math.Pow(hi, 1.25+0.08*float64(len(names)))
	} else {
		p.Y.Min, p.Y.Max = 1, 1+(hi-1)*(1.25+0.08*float64(len(names)))+0.01
		p.Y.Tick.Marker = niceTicks{}
	}
	if len(pts) > 0 {
		p.X.Min, p.X.Max = xlo-0.06*xr, xhi+0.06*xr
	}
	return svgplot.Write(w, p, fitWidth(p, vg.Points(560)), fitHeight(p, vg.Points(360)))
}

// WriteSweepSummary prints the mean ratio per policy and arrival rate.
func WriteSweepSummary(w io.Writer, family string, m lowerbound.Metric, pts []SweepPoint, records int) error {
	if _, err := fmt.Fprintf(w, "%s, %s: %s\n", family, m, plural.Count(records, "record")); err != nil {
		return err
	}
	for _, p := range pts {
		// λ is in jobs/s, the unit --lambdas takes
		rate := strconv.FormatFloat(p.Lambda, 'g', 4, 64) + "/s"
		if _, err := fmt.Fprintf(w, "  %-14s λ %-11s load %-6.3f mean ratio %.3f over %s\n", p.Policy, rate, p.Load, p.Mean, plural.Count(p.N, "instance")); err != nil {
			return err
		}
	}
	return nil
}
