package compare

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/lowerbound"
)

// barReport is a report with the given ratios to a bound of 10 s.
func barReport(ratios ...float64) *Report {
	r := &Report{Instance: "day.tsv", Metric: lowerbound.MeanTurnaround, Unit: "ms", Bound: 10000, BoundStatus: "bound"}
	for i, x := range ratios {
		x := x
		r.Policies = append(r.Policies, Row{Policy: []string{"fifo", "fair", "edf"}[i], Value: x * 10000, Ratio: &x, Verified: true})
	}
	return r
}

func svgText(t *testing.T, r *Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := r.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The bar chart names the instance, the metric and the bound with its unit,
// labels every bar with its ratio and every policy with its value in
// seconds, and has a legend for the dashed line.
func TestBarChartLabels(t *testing.T) {
	s := svgText(t, barReport(1.07, 1.5))
	for _, want := range []string{"day.tsv, mean-turnaround: policy value / certified lower bound (10 s)",
		">1.07<", ">1.5<", ">fifo<", ">10.7 s<", ">fair<", ">15 s<", "ratio 1 = the certified lower bound", "ratio to the certified lower bound"} {
		if !strings.Contains(s, want) {
			t.Errorf("chart lacks %q", want)
		}
	}
}

// A late-jobs chart counts jobs: one job is "1 job", in a bar's name and in
// the title's bound, and any other count is plural.
func TestBarChartSingularJob(t *testing.T) {
	one, two := 1.0, 2.0
	r := &Report{Instance: "s.json", Metric: lowerbound.LateJobs, Unit: "jobs", Bound: 1, BoundStatus: "optimal",
		Policies: []Row{{Policy: "fifo", Value: 1, Ratio: &one, Verified: true}, {Policy: "fair", Value: 2, Ratio: &two, Verified: true}}}
	s := svgText(t, r)
	for _, want := range []string{">1 job<", ">2 jobs<", "(1 job)"} {
		if !strings.Contains(s, want) {
			t.Errorf("chart lacks %q", want)
		}
	}
	if strings.Contains(s, "1 jobs") {
		t.Error(`chart says "1 jobs"`)
	}
}

// Ratios within a factor 10 get a linear axis from 0; ratios spanning
// more (FIFO at 14.9 next to 1.07 and 1.09) a log axis labelled 1, 2, 5,
// 10, on which the small ratios stay apart.
func TestBarChartScale(t *testing.T) {
	lin := svgText(t, barReport(1.07, 1.09, 1.5))
	if !strings.Contains(lin, ">0<") {
		t.Error("linear chart: no 0 on the ratio axis")
	}
	log := svgText(t, barReport(1.07, 1.09, 14.9))
	for _, want := range []string{">1<", ">2<", ">5<", ">10<", ">14.9<"} {
		if !strings.Contains(log, want) {
			t.Errorf("log chart lacks the label %q", want)
		}
	}
	if strings.Contains(log, ">0<") {
		t.Error("log chart has a 0 on its axis")
	}
}

func TestRatioTicks(t *testing.T) {
	var labels []string
	for _, tk := range (ratioTicks{}).Ticks(0.8, 60) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, ","); got != "1,2,5,10,20,50" {
		t.Errorf("log labels %s, want 1,2,5,10,20,50", got)
	}
	for _, tk := range (niceTicks{}).Ticks(1, 1.394) {
		if tk.Label != "" && tk.Label != strings.TrimRight(strings.TrimRight(tk.Label, "0"), ".") {
			t.Errorf("label %q", tk.Label)
		}
	}
	var lin []string
	for _, tk := range (niceTicks{}).Ticks(1, 1.394) {
		if tk.Label != "" {
			lin = append(lin, tk.Label)
		}
	}
	if got := strings.Join(lin, ","); got != "1,1.1,1.2,1.3" {
		t.Errorf("linear labels %s, want 1,1.1,1.2,1.3 (each label at its own value)", got)
	}
}

// Two policies with equal means are both visible: their points are shifted
// apart and drawn with different markers.
func TestSweepEqualSeriesVisible(t *testing.T) {
	pts := []SweepPoint{{Policy: "edf", Load: 0.5, Mean: 1.2, N: 1}, {Policy: "fifo", Load: 0.5, Mean: 1.2, N: 1},
		{Policy: "edf", Load: 0.8, Mean: 1.4, N: 1}, {Policy: "fifo", Load: 0.8, Mean: 1.4, N: 1}}
	var b bytes.Buffer
	if err := WriteSweepSVG(&b, SweepTitle("mrcp-small", 5, lowerbound.MeanTurnaround), pts); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	if !strings.Contains(s, "mrcp-small, 5 jobs, mean-turnaround") || !strings.Contains(s, ">edf<") || !strings.Contains(s, ">fifo<") {
		t.Error("title or legend missing")
	}
	// Each series draws its own line path; equal data at equal x would
	// give identical paths.
	var paths []string
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, "<path d=\"M") && strings.Count(line, "L") == 1 && strings.Contains(line, "stroke-width:1.5") {
			paths = append(paths, line[:strings.Index(line, "\" ")])
		}
	}
	if len(paths) < 2 || paths[0] == paths[1] {
		t.Errorf("the two equal series are drawn on the same path: %q", paths)
	}
}

// The text and Markdown reports print seconds to six significant digits
// (the FB-2009 day's bound 73285.43875 ms reads 73.2854 s; a value of a
// million seconds gets no exponent); the CSV, read by programs, keeps every
// digit.
func TestHumanDigits(t *testing.T) {
	r := barReport(1.5)
	r.Bound, r.Policies[0].Value = 73285.43875, 2748964.716
	var text, md, csv bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteCSV(&csv); err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]string{"text": text.String(), "markdown": md.String()} {
		if !strings.Contains(s, "73.2854 ") || !strings.Contains(s, " 2748.96 ") || strings.Contains(s, "73.28543875") {
			t.Errorf("%s report, want 73.2854 and 2748.96:\n%s", name, s)
		}
	}
	if !strings.Contains(csv.String(), ",73.28543875,") || !strings.Contains(csv.String(), ",2748.964716,") {
		t.Errorf("CSV lost digits:\n%s", csv.String())
	}
	if got := r.show(1234567.4e3); got != "1234567" {
		t.Errorf("show(1234567.4 s) = %q, want 1234567", got)
	}
}
