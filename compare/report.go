package compare

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/jedib0t/go-pretty/v6/text"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/mrbound/mrbound/internal/plural"
	"github.com/mrbound/mrbound/internal/svgplot"
)

func num(v float64) string { return strconv.FormatFloat(v, 'g', 10, 64) }

// orEmpty is a CSV cell: "" for nil.
func orEmpty(p *float64) string {
	if p == nil {
		return ""
	}
	return num(*p)
}

func ratio(p *float64) string {
	if p == nil {
		return "-"
	}
	return strconv.FormatFloat(*p, 'f', 3, 64)
}

func verdict(r Row) string {
	if r.Verified {
		return "verified"
	}
	if r.CheckError != "" {
		return "FAILED: " + r.CheckError
	}
	return "not verified"
}

// header is the one-paragraph summary of the offline side.
func (r *Report) header() string {
	s := fmt.Sprintf("metric %s (%s): ", r.Metric, r.humanUnit())
	if r.BoundStatus == "optimal" {
		s += fmt.Sprintf("optimum %s (proven", r.show(r.Bound))
		if r.OfflineVerified {
			s += ", verified"
		}
		s += ")"
	} else {
		s += fmt.Sprintf("certified lower bound %s (by %s)", r.show(r.Bound), r.By)
	}
	if r.Gap != nil {
		s += fmt.Sprintf("; gap to the best verified policy %.2f%%", 100**r.Gap)
	}
	return s + r.upperLine()
}

// upperLine is the header's second sentence: the best known schedule and
// the bracket, "" without an upper value.
func (r *Report) upperLine() string {
	if r.Upper == nil {
		return ""
	}
	v := "verified"
	if !r.UpperVerified {
		v = "schedule not verified"
	}
	s := fmt.Sprintf("\nbest known schedule %s (by %s, %s); bracket upper/bound ", r.show(*r.Upper), r.UpperBy, v)
	if r.Bracket == nil {
		s += "-"
	} else {
		s += strconv.FormatFloat(*r.Bracket, 'f', 3, 64)
	}
	if r.OfflineStopped != "" {
		s += "; offline search stopped early (" + r.OfflineStopped + ")"
	}
	return s
}

// offlineRows are the offline schedules as (name, value, verdict).
func (r *Report) offlineRows() [][3]string {
	var out [][3]string
	for _, sc := range r.Offline {
		val, v := r.show(sc.Value), "verified"
		if !sc.Verified {
			val, v = "-", "FAILED: "+sc.CheckError+" (not used)"
		}
		out = append(out, [3]string{sc.By, val, v})
	}
	return out
}

// WriteText writes the header and a table of the policies.
func (r *Report) WriteText(w io.Writer) error {
	tw := table.NewWriter()
	tw.SetOutputMirror(w)
	tw.SetStyle(table.StyleLight)
	tw.Style().Format.Header = text.FormatDefault // "value (s)", not "VALUE (S)"
	ratioHead := "ratio to bound"
	if r.BoundStatus == "optimal" {
		ratioHead = "ratio to optimum"
	}
	tw.AppendHeader(table.Row{"policy", "value (" + r.humanUnit() + ")", ratioHead, "ratio to upper", "checker"})
	for _, p := range r.Policies {
		tw.AppendRow(table.Row{p.Policy, r.show(p.Value), ratio(p.Ratio), ratio(p.RatioToUpper), verdict(p)})
	}
	if r.Instance != "" {
		if _, err := fmt.Fprintf(w, "%s\n", r.Instance); err != nil {
			return err
		}
	}
	if _, err := fmt.Fprintln(w, r.header()); err != nil {
		return err
	}
	tw.Render()
	if len(r.Offline) == 0 {
		return nil
	}
	if _, err := fmt.Fprintln(w, "offline schedules (clairvoyant constructions, package upperbound):"); err != nil {
		return err
	}
	ow := table.NewWriter()
	ow.SetOutputMirror(w)
	ow.SetStyle(table.StyleLight)
	ow.Style().Format.Header = text.FormatDefault
	ow.AppendHeader(table.Row{"construction", "value (" + r.humanUnit() + ")", "checker"})
	for _, o := range r.offlineRows() {
		ow.AppendRow(table.Row{o[0], o[1], o[2]})
	}
	ow.Render()
	return nil
}

// WriteJSON writes the report as one indented JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteMarkdown writes the header and a Markdown table.
func (r *Report) WriteMarkdown(w io.Writer) error {
	s := ""
	if r.Instance != "" {
		s += fmt.Sprintf("**%s**\n\n", r.Instance)
	}
	s += strings.ReplaceAll(r.header(), "\n", "\n\n") + "\n\n| policy | value (" + r.humanUnit() + ") | ratio | ratio to upper | checker |\n|---|---|---|---|---|\n"
	for _, p := range r.Policies {
		s += fmt.Sprintf("| %s | %s | %s | %s | %s |\n", p.Policy, r.show(p.Value), ratio(p.Ratio), ratio(p.RatioToUpper), verdict(p))
	}
	if rows := r.offlineRows(); len(rows) > 0 {
		s += "\n| offline construction | value (" + r.humanUnit() + ") | checker |\n|---|---|---|\n"
		for _, o := range rows {
			s += fmt.Sprintf("| %s | %s | %s |\n", o[0], o[1], o[2])
		}
	}
	_, err := io.WriteString(w, s)
	return err
}

// WriteCSV writes one row per policy with the offline side repeated; bound,
// optimum and value are in the unit column's unit (s for times, as in the
// text report).
func (r *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"instance", "metric", "unit", "bound", "bound_status", "bound_by", "optimum", "policy", "value", "ratio", "verified",
		"upper", "upper_by", "upper_verified", "bracket", "ratio_to_upper"})
	opt, upper := "", ""
	if r.Optimum != nil {
		opt = r.exact(*r.Optimum)
	}
	if r.Upper != nil {
		upper = r.exact(*r.Upper)
	}
	for _, p := range r.Policies {
		_ = cw.Write([]string{r.Instance, r.Metric.String(), r.humanUnit(), r.exact(r.Bound), r.BoundStatus, r.By, opt, p.Policy, r.exact(p.Value), orEmpty(p.Ratio),
			strconv.FormatBool(p.Verified), upper, r.UpperBy, strconv.FormatBool(r.UpperVerified), orEmpty(r.Bracket), orEmpty(p.RatioToUpper)})
	}
	cw.Flush()
	return cw.Error()
}

// WriteSVG draws each policy's ratio to the bound (or optimum) as a
// labelled bar, the policy's value in seconds under its name, and the
// dashed line "ratio 1" in the legend; the ratio axis is logarithmic when
// the ratios span more than logSpan.
func (r *Report) WriteSVG(w io.Writer) error {
	against := "certified lower bound"
	if r.BoundStatus == "optimal" {
		against = "proven optimum"
	}
	name := r.Instance
	if name == "" {
		name = "instance"
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s, %s: policy value / %s (%s %s)", name, r.Metric, against, r.short(r.Bound), r.unitOf(r.Bound))
	p.X.Label.Text = fmt.Sprintf("policy (and its %s in %s)", r.Metric, r.humanUnit())
	p.Y.Label.Text = "ratio to the " + against
	vals := make([]float64, len(r.Policies))
	labels := make([]string, len(r.Policies))
	names := make([]string, len(r.Policies))
	for i, row := range r.Policies {
		names[i] = fmt.Sprintf("%s\n%s %s", row.Policy, r.short(row.Value), r.unitOf(row.Value))
		labels[i] = "-"
		if row.Ratio != nil {
			vals[i], labels[i] = *row.Ratio, ratioLabel(*row.Ratio)
		}
		if !row.Verified {
			labels[i] += " (not verified)"
		}
	}
	font := p.X.Tick.Label
	font.XAlign, font.YAlign = draw.XCenter, draw.YBottom
	if len(vals) > 0 {
		p.Add(&barsFromFloor{values: vals, labels: labels, width: vg.Points(28), color: color.RGBA{0, 114, 178, 255}, font: font})
		p.NominalX(names...)
	}
	one := plotter.NewFunction(func(float64) float64 { return 1 })
	one.Color = color.RGBA{213, 94, 0, 255}
	one.Width = vg.Points(1.5)
	one.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
	p.Add(one)
	p.Legend.Add("ratio 1 = the "+against, one)
	if r.Bracket != nil {
		// OPT lies between the two dashed lines.
		b := *r.Bracket
		up := plotter.NewFunction(func(float64) float64 { return b })
		up.Color = color.RGBA{0, 158, 115, 255}
		up.Width = vg.Points(1.5)
		up.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
		p.Add(up)
		p.Legend.Add("best known schedule ("+r.UpperBy+")", up)
	}
	// Top left, inside the axes: a wider fallback font then grows into the
	// plot, not off the canvas.
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.XOffs = vg.Points(8)
	hi := 1.0
	for _, v := range vals {
		hi = math.Max(hi, v)
	}
	if useLog(append(vals, 1)) {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, ratioTicks{}
		p.Y.Min, p.Y.Max = 0.8, hi*4 // room above the tallest bar for its label and the legend
	} else {
		p.Y.Min, p.Y.Max = 0, hi*1.45
		p.Y.Tick.Marker = niceTicks{}
	}
	p.X.Min, p.X.Max = -0.5, math.Max(float64(len(vals))-0.5, 0.5)
	width := fitWidth(p, vg.Points(float64(200+72*len(vals))))
	height := fitHeight(p, vg.Points(320))
	return svgplot.Write(w, p, width, height)
}

// humanUnit is the unit of the human reports: seconds for times (as in
// simulate's report), jobs for late jobs. The JSON keeps Unit (ms).
func (r *Report) humanUnit() string { return HumanUnit(r.Unit) }

// HumanUnit is the unit that the text, Markdown and CSV reports give a
// value of the JSON unit (Unit: "ms" or "jobs") in: seconds for times,
// jobs for late jobs.
func HumanUnit(unit string) string {
	if unit == "ms" {
		return "s"
	}
	return unit
}

// InHumanUnit is v, a value in the JSON unit, in HumanUnit(unit).
func InHumanUnit(unit string, v float64) float64 {
	if unit == "ms" {
		return v / 1000
	}
	return v
}

// unitOf is humanUnit after the value v: "1 job", "2 jobs", "3.5 s".
func (r *Report) unitOf(v float64) string {
	if r.Unit == "jobs" {
		return plural.Noun(v, "job")
	}
	return r.humanUnit()
}

// short prints a value of the metric in humanUnit to four significant
// digits, for charts.
func (r *Report) short(v float64) string {
	return strconv.FormatFloat(InHumanUnit(r.Unit, v), 'g', 4, 64)
}

// show prints a value of the metric in humanUnit for a person to read: six
// significant digits ("73.2854", not "73.28543875" — the simulator's
// millisecond clock gives no meaning to more), never an exponent.
func (r *Report) show(v float64) string {
	v = InHumanUnit(r.Unit, v)
	s := strconv.FormatFloat(v, 'g', humanDigits, 64)
	if strings.ContainsAny(s, "e") {
		s = strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	}
	return s
}

// humanDigits is the number of significant digits of show.
const humanDigits = 6

// exact prints a value of the metric in humanUnit to full precision, for
// the CSV, which other programs read.
func (r *Report) exact(v float64) string { return num(InHumanUnit(r.Unit, v)) }
