package lowerbound

import (
	"fmt"
	"math"

	"github.com/mrbound/mrbound/internal/enum"
)

// Metric is an objective that a bound is for. The zero value is unknown.
type Metric int8

const (
	MetricUnknown Metric = iota
	// Makespan is max_j C_j − min_j a_j, in ms.
	Makespan
	// TotalTurnaround is Σ_j (C_j − a_j), in ms.
	TotalTurnaround
	// MeanTurnaround is TotalTurnaround / #jobs, in ms.
	MeanTurnaround
	// MaxTurnaround is max_j (C_j − a_j), in ms.
	MaxTurnaround
	// LateJobs is |{j : C_j > d_j}| over the jobs with a deadline.
	LateJobs
	// MRCPProduct is MRCP's (LateJobs + 1) · MaxTurnaround, in ms.
	MRCPProduct
)

var metricNames = enum.Names[Metric]{"unknown", "makespan", "total-turnaround", "mean-turnaround",
	"max-turnaround", "late-jobs", "mrcp-product"}

// Metrics lists every known metric, in declaration order.
func Metrics() []Metric {
	return []Metric{Makespan, TotalTurnaround, MeanTurnaround, MaxTurnaround, LateJobs, MRCPProduct}
}

func (m Metric) String() string { return metricNames.String(m) }

// MarshalText encodes the metric by name.
func (m Metric) MarshalText() ([]byte, error) { return metricNames.Text(m) }

// UnmarshalText decodes a metric name.
func (m *Metric) UnmarshalText(b []byte) error {
	p, err := ParseMetric(string(b))
	*m = p
	return err
}

// ParseMetric reads a metric name.
func ParseMetric(s string) (Metric, error) {
	if m, ok := metricNames.Parse(s); ok {
		return m, nil
	}
	return MetricUnknown, fmt.Errorf("lowerbound: unknown metric %q (makespan, total-turnaround, "+
		"mean-turnaround, max-turnaround, late-jobs or mrcp-product)", s)
}

// Component is one valid lower bound, named after its argument in
// docs/bounds.md.
type Component struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

// Bound is the best lower bound found for one metric.
type Bound struct {
	Metric Metric `json:"metric"`
	// Value is the largest component: every schedule of the problem has a
	// metric value ≥ Value.
	Value float64 `json:"value"`
	// Certified is Value rounded up to what integral data allow (whole ms for
	// times and turnaround sums, whole jobs for counts), after roundingSlack is
	// taken off: still ≤ the optimum.
	Certified float64 `json:"certified"`
	// By names the component that attains Value.
	By         string      `json:"by"`
	Components []Component `json:"components"`
}

// roundingSlack is taken off a floating-point bound before it is rounded up
// to an integer: relative 1e-9 plus 1e-6 ms covers the error of summing up to
// 10^7 durations below 2^47 ms in float64 (each sum keeps ~15 significant
// digits), so rounding never crosses an integer the exact bound is below.
func roundingSlack(x float64) float64 { return 1e-6 + 1e-9*math.Abs(x) }

// ceilSafe rounds a valid real lower bound of an integer quantity up.
func ceilSafe(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return math.Ceil(x - roundingSlack(x))
}

// newBound takes the maximum of the components (all ≥ 0).
func newBound(m Metric, comps []Component) Bound {
	b := Bound{Metric: m, Components: comps}
	for _, c := range comps {
		if c.Value > b.Value || b.By == "" {
			b.Value, b.By = c.Value, c.Name
		}
	}
	if b.Value < 0 {
		b.Value = 0
	}
	b.Certified = ceilSafe(b.Value)
	return b
}
