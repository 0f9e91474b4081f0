package compare

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"strconv"
	"strings"

	"github.com/jedib0t/go-pretty/v6/table"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
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
	s := fmt.Sprintf("metric %s (%s): ", r.Metric, r.Unit)
	if r.BoundStatus == "optimal" {
		s += fmt.Sprintf("optimum %s (proven", num(r.Bound))
		if r.OfflineVerified {
			s += ", verified"
		}
		s += ")"
	} else {
		s += fmt.Sprintf("certified lower bound %s (by %s)", num(r.Bound), r.By)
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
	s := fmt.Sprintf("\nbest known schedule %s (by %s, %s); bracket upper/bound ", num(*r.Upper), r.UpperBy, v)
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
		val, v := num(sc.Value), "verified"
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
	ratioHead := "ratio to bound"
	if r.BoundStatus == "optimal" {
		ratioHead = "ratio to optimum"
	}
	tw.AppendHeader(table.Row{"policy", "value", ratioHead, "ratio to upper", "checker"})
	for _, p := range r.Policies {
		tw.AppendRow(table.Row{p.Policy, num(p.Value), ratio(p.Ratio), ratio(p.RatioToUpper), verdict(p)})
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
	ow.AppendHeader(table.Row{"construction", "value", "checker"})
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
	s += strings.ReplaceAll(r.header(), "\n", "\n\n") + "\n\n| policy | value | ratio | ratio to upper | checker |\n|---|---|---|---|---|\n"
	for _, p := range r.Policies {
		s += fmt.Sprintf("| %s | %s | %s | %s | %s |\n", p.Policy, num(p.Value), ratio(p.Ratio), ratio(p.RatioToUpper), verdict(p))
	}
	if rows := r.offlineRows(); len(rows) > 0 {
		s += "\n| offline construction | value | checker |\n|---|---|---|\n"
		for _, o := range rows {
			s += fmt.Sprintf("| %s | %s | %s |\n", o[0], o[1], o[2])
		}
	}
	_, err := io.WriteString(w, s)
	return err
}

// WriteCSV writes one row per policy with the offline side repeated.
func (r *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"instance", "metric", "bound", "bound_status", "bound_by", "optimum", "policy", "value", "ratio", "verified",
		"upper", "upper_by", "upper_verified", "bracket", "ratio_to_upper"})
	opt := orEmpty(r.Optimum)
	for _, p := range r.Policies {
		_ = cw.Write([]string{r.Instance, r.Metric.String(), num(r.Bound), r.BoundStatus, r.By, opt, p.Policy, num(p.Value), orEmpty(p.Ratio),
			strconv.FormatBool(p.Verified), orEmpty(r.Upper), r.UpperBy, strconv.FormatBool(r.UpperVerified), orEmpty(r.Bracket), orEmpty(p.RatioToUpper)})
	}
	cw.Flush()
	return cw.Error()
}

// WriteSVG draws the ratio of each policy to the bound (or optimum) as bars,
// with the line y = 1.
func (r *Report) WriteSVG(w io.Writer) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: ratio to the %s", r.Metric, map[bool]string{true: "optimum", false: "lower bound"}[r.BoundStatus == "optimal"])
	p.Y.Label.Text = "ratio"
	vals := make(plotter.Values, len(r.Policies))
	names := make([]string, len(r.Policies))
	for i, row := range r.Policies {
		names[i] = row.Policy
		if row.Ratio != nil {
			vals[i] = *row.Ratio
		}
	}
	if len(vals) > 0 {
		bars, err := plotter.NewBarChart(vals, vg.Points(24))
		if err != nil {
			return err
		}
		bars.Color = color.RGBA{0, 114, 178, 255}
		p.Add(bars)
		p.NominalX(names...)
	}
	one := plotter.NewFunction(func(float64) float64 { return 1 })
	one.Color = color.RGBA{213, 94, 0, 255}
	one.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
	p.Add(one)
	p.Legend.Add("bound", one)
	if r.Bracket != nil {
		// OPT lies between the two dashed lines.
		b := *r.Bracket
		up := plotter.NewFunction(func(float64) float64 { return b })
		up.Color = color.RGBA{0, 158, 115, 255}
		up.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
		p.Add(up)
		p.Legend.Add("best known ("+r.UpperBy+")", up)
	}
	p.Legend.Top = true
	p.Y.Min = 0
	c := vgsvg.NewWith(vgsvg.UseWH(vg.Points(float64(160+48*len(vals))), vg.Points(300)), vgsvg.EmbedFonts(false))
	p.Draw(draw.New(c))
	_, err := c.WriteTo(w)
	return err
}
