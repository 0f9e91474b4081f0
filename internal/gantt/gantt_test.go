package gantt

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/internal/golden"
)

// sample is a two-resource MapReduce schedule: three maps then a reduce.
var sample = []Bar{
	{Lane: "r0.map", Start: 0, End: 12, Label: "j0.m0"},
	{Lane: "r1.map", Start: 0, End: 10, Label: "j0.m1"},
	{Lane: "r0.map", Start: 12, End: 20, Label: "j0.m2"},
	{Lane: "r0.reduce", Start: 20, End: 35, Label: "j0.r0"},
	{Lane: "r1.map", Start: 10, End: 11, Label: "j1.m0"},
}

func TestTextGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := Text(&buf, sample, 70); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "sample.txt", buf.Bytes())
}

func TestTextLayout(t *testing.T) {
	var buf bytes.Buffer
	if err := Text(&buf, sample, 35); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(buf.String(), "\n")
	// Lanes in first-appearance order, one line each.
	for i, want := range []string{"r0.map", "r1.map", "r0.reduce"} {
		if !strings.HasPrefix(lines[i], want+" ") {
			t.Errorf("line %d = %q, want lane %s", i, lines[i], want)
		}
	}
	// 35 columns for 35 time units: j0.r0 occupies columns 20..34 with its label.
	row := lines[2][strings.Index(lines[2], "|")+1:]
	if got := row[20:35]; got != "[j0.r0--------]" {
		t.Errorf("reduce bar drawn as %q", got)
	}
	// The one-unit bar j1.m0 is a single mark at column 10.
	row = lines[1][strings.Index(lines[1], "|")+1:]
	if row[10] != '|' {
		t.Errorf("short bar not drawn as '|': %q", row)
	}
	// Every bar is in the legend with its exact interval.
	if !strings.Contains(buf.String(), "j1.m0  r1.map     [10, 11)") {
		t.Errorf("legend misses j1.m0:\n%s", buf.String())
	}
}

func TestTextErrors(t *testing.T) {
	var buf bytes.Buffer
	if err := Text(&buf, sample, 3); err == nil {
		t.Error("width 3 accepted")
	}
	bad := []Bar{{Lane: "a", Start: 5, End: 2, Label: "x"}}
	if err := Text(&buf, bad, 40); !errors.Is(err, ErrBadBar) {
		t.Errorf("reversed bar: err = %v", err)
	}
	if err := SVG(&buf, []Bar{{Lane: "a", Start: math.NaN(), End: 2}}, "t"); !errors.Is(err, ErrBadBar) {
		t.Errorf("NaN bar: err = %v", err)
	}
	buf.Reset()
	if err := Text(&buf, nil, 40); err != nil || buf.String() != "(empty schedule)\n" {
		t.Errorf("empty: %q, %v", buf.String(), err)
	}
}

func TestSVGGolden(t *testing.T) {
	var a, b bytes.Buffer
	if err := SVG(&a, sample, "sample schedule"); err != nil {
		t.Fatal(err)
	}
	if err := SVG(&b, sample, "sample schedule"); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("SVG output is not deterministic")
	}
	if !bytes.Contains(a.Bytes(), []byte("j0.r0")) {
		t.Error("label j0.r0 missing from SVG")
	}
	golden.Check(t, "sample.svg", a.Bytes())
}

func TestSVGEmpty(t *testing.T) {
	var buf bytes.Buffer
	if err := SVG(&buf, nil, "nothing"); err != nil {
		t.Fatal(err)
	}
}

// A job's bars share one colour, different jobs' bars differ, and the time
// axis names its unit.
func TestSVGChartJobColoursAndUnit(t *testing.T) {
	bars := []Bar{
		{Lane: "n0 map", Start: 0, End: 2, Label: "j0.m0", Job: "0"},
		{Lane: "n1 map", Start: 0, End: 3, Label: "j1.m0", Job: "1"},
		{Lane: "n0 map", Start: 2, End: 4, Label: "j0.m1", Job: "0"},
		{Lane: "n0 reduce", Start: 4, End: 5, Label: "j0.r0", Job: "0"},
	}
	cs := colours(bars)
	if cs[0] != cs[2] || cs[0] != cs[3] {
		t.Errorf("job 0's bars have colours %v, %v, %v", cs[0], cs[2], cs[3])
	}
	if cs[0] == cs[1] {
		t.Error("jobs 0 and 1 share a colour")
	}
	var buf bytes.Buffer
	if err := SVGChart(&buf, Chart{Title: "t", Unit: "s", Bars: bars}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(buf.Bytes(), []byte(">time (s)<")) {
		t.Error("the time axis does not name its unit")
	}
}

// TestTextAxisRoundTicks: the text axis labels round times (0 50 100 …, not
// 0 36.1111 72.2222 …), every '+' sits on the column of a multiple of one
// step of 1, 2, 2.5 or 5 × 10^k, the ticks are at least 10 columns apart,
// and TextIn names the unit on the scale line.
func TestTextAxisRoundTicks(t *testing.T) {
	var buf bytes.Buffer
	bars := []Bar{{Lane: "m1", Start: 0, End: 260, Label: "j1"}}
	if err := TextIn(&buf, bars, 70, "s"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(buf.String(), "\n")
	if got, want := strings.Fields(lines[2]), []string{"0", "50", "100", "150", "200", "250"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("axis labels %q, want %q", got, want)
	}
	if !strings.HasPrefix(lines[3], "one column = ") || !strings.HasSuffix(lines[3], " s") {
		t.Errorf("scale line %q does not name the unit s", lines[3])
	}
	for _, hi := range []float64{0.7, 1, 3.3, 17, 99.5, 260, 1234.5, 86430.476} {
		for _, width := range []int{MinWidth, 35, 70, 100} {
			buf.Reset()
			if err := Text(&buf, []Bar{{Lane: "x", Start: 0, End: hi}}, width); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(buf.String(), "\n")
			axis := strings.TrimLeft(lines[1], " ")
			scale := float64(width) / hi
			step := niceStep(10 / scale)
			mant := step / math.Pow(10, math.Floor(math.Log10(step)+1e-9))
			if !slicesContain([]float64{1, 2, 2.5, 5}, mant) {
				t.Errorf("hi %v width %d: step %v is not 1, 2, 2.5 or 5 × 10^k", hi, width, step)
			}
			prev := -100
			for c, ch := range axis {
				if ch != '+' {
					continue
				}
				if c-prev < 10-1 { // rounding may pull two ticks one column closer
					t.Errorf("hi %v width %d: ticks at columns %d and %d", hi, width, prev, c)
				}
				prev = c
				// the nearest multiple of step to this column's time
				k := math.Round(float64(c) / scale / step)
				if int(math.Round(k*step*scale)) != c {
					t.Errorf("hi %v width %d: tick at column %d is not on a multiple of %v", hi, width, c, step)
				}
			}
			if prev < 0 {
				t.Errorf("hi %v width %d: no tick on %q", hi, width, axis)
			}
		}
	}
}

func slicesContain(xs []float64, v float64) bool {
	for _, x := range xs {
		if math.Abs(x-v) < 1e-9 {
			return true
		}
	}
	return false
}

// TestSVGLastLabelInside: the time labels fit the chart's width even in a
// fallback font 1.3 times wider than the named one (digits about half an
// em): the last label, centred on the axis's end, ran past the right edge
// (s18walk, scenario5's `300`).
func TestSVGLastLabelInside(t *testing.T) {
	for _, end := range []float64{30, 300, 3000, 257, 99894} {
		var buf bytes.Buffer
		bars := []Bar{{Lane: "node 1", Start: 0, End: end, Label: "j0"}}
		if err := SVG(&buf, bars, "t"); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		var width float64
		if _, err := fmt.Sscanf(out[strings.Index(out, "viewBox="):], `viewBox="0 0 %g`, &width); err != nil {
			t.Fatal(err)
		}
		re := regexp.MustCompile(`<text x="([-0-9.]+)"[^>]*\n?[^>]*font-size:10px">([0-9.]+)</text>`)
		labels := re.FindAllStringSubmatch(out, -1)
		if len(labels) < 2 {
			t.Fatalf("end %g: %d time labels found", end, len(labels))
		}
		for _, m := range labels {
			x, _ := strconv.ParseFloat(m[1], 64)
			if right := x + float64(len(m[2]))*10*0.5*1.3; right > width {
				t.Errorf("end %g: label %s ends at %.1f in a 1.3× font, past the width %g", end, m[2], right, width)
			}
		}
	}
}
