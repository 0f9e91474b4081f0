package mrcp

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/mrbound/mrbound/internal/enum"
)

// Formulation selects the MILP. The zero value is unknown.
type Formulation int8

const (
	FormulationUnknown Formulation = iota
	// TimeIndexed: x[t,ℓ,τ] = 1 when task t starts on lane ℓ at τ.
	TimeIndexed
	// Disjunctive: integer starts, unit-slot assignment and big-M ordering.
	Disjunctive
)

var formulationNames = enum.Names[Formulation]{"unknown", "time-indexed", "disjunctive"}

func (f Formulation) String() string { return formulationNames.String(f) }

// MarshalText encodes the formulation by name.
func (f Formulation) MarshalText() ([]byte, error) { return formulationNames.Text(f) }

// UnmarshalText decodes a formulation name.
func (f *Formulation) UnmarshalText(b []byte) error {
	p, err := ParseFormulation(string(b))
	*f = p
	return err
}

// ParseFormulation reads time-indexed or disjunctive.
func ParseFormulation(s string) (Formulation, error) {
	if f, ok := formulationNames.Parse(s); ok {
		return f, nil
	}
	return FormulationUnknown, fmt.Errorf("mrcp: unknown formulation %q (time-indexed or disjunctive)", s)
}

// ObjectiveKind selects what is minimised. The zero value is unknown.
type ObjectiveKind int8

const (
	ObjectiveUnknown ObjectiveKind = iota
	// Product is the paper's (Σ N_j + 1) · max_j (C_j − s_j).
	Product
	// Lexicographic: fewest late jobs, then smallest maximum turnaround.
	Lexicographic
	// Weighted: LateWeight · Σ N_j + max_j (C_j − s_j).
	Weighted
	// LateCount: fewest late jobs, the maximum turnaround left as found
	// (the late-count decomposition stops once the count is proven).
	LateCount
	// TotalTurnaround: Σ_j (C_j − s_j), lateness ignored (the simulator's
	// total and, over n jobs, mean turnaround).
	TotalTurnaround
	// Makespan: max_j C_j − min_j s_j, lateness ignored.
	Makespan
)

var objectiveNames = enum.Names[ObjectiveKind]{"unknown", "product", "lexicographic", "weighted", "late-count", "total-turnaround", "makespan"}

// scheduleScored reports whether the kind scores a schedule by its
// completions (ScheduleValue) rather than by its late count and maximum
// turnaround (Value).
func (o ObjectiveKind) scheduleScored() bool { return o == TotalTurnaround || o == Makespan }

func (o ObjectiveKind) String() string { return objectiveNames.String(o) }

// MarshalText encodes the objective by name.
func (o ObjectiveKind) MarshalText() ([]byte, error) { return objectiveNames.Text(o) }

// UnmarshalText decodes an objective name.
func (o *ObjectiveKind) UnmarshalText(b []byte) error {
	k, ok := objectiveNames.Parse(string(b))
	if ok {
		*o = k
		return nil
	}
	return fmt.Errorf("mrcp: unknown objective %q", b)
}

// DefaultLateWeight is the weight of one late job in the weighted objective,
// in time units of maximum turnaround.
const DefaultLateWeight = 100

// Objective is an objective kind with its weight (Weighted only).
type Objective struct {
	Kind ObjectiveKind
	// LateWeight is the weight of one late job for Weighted (> 0);
	// 0 means DefaultLateWeight.
	LateWeight float64
}

// ParseObjective reads product, lexicographic, weighted, weighted:W,
// late-count, total-turnaround or makespan.
func ParseObjective(s string) (Objective, error) {
	name, w, hasW := strings.Cut(s, ":")
	var o Objective
	if err := o.Kind.UnmarshalText([]byte(name)); err != nil {
		return o, fmt.Errorf("mrcp: unknown objective %q (product, lexicographic, weighted, weighted:W, late-count, total-turnaround or makespan)", s)
	}
	if hasW {
		f, err := strconv.ParseFloat(w, 64)
		if o.Kind != Weighted || err != nil || !(f > 0) || f > 1e9 {
			return o, fmt.Errorf("mrcp: objective %q: a weight W > 0 is only for weighted:W", s)
		}
		o.LateWeight = f
	}
	return o, nil
}

func (o Objective) weight() float64 {
	if o.LateWeight > 0 {
		return o.LateWeight
	}
	return DefaultLateWeight
}

// String formats the objective as ParseObjective reads it.
func (o Objective) String() string {
	if o.Kind == Weighted {
		return fmt.Sprintf("weighted:%g", o.weight())
	}
	return o.Kind.String()
}

// Value is the objective of a schedule with late jobs K and maximum
// turnaround Z (0 for TotalTurnaround and Makespan, which ScheduleValue
// scores). The lexicographic value is K·(zSpan+1) + Z, where zSpan
// bounds the range of Z (as in the model); Lexicographic ranks by K then Z.
func (o Objective) Value(k, z int, zSpan int) float64 {
	switch o.Kind {
	case Product:
		return float64(k+1) * float64(z)
	case Lexicographic:
		return float64(k)*float64(zSpan+1) + float64(z)
	case Weighted:
		return o.weight()*float64(k) + float64(z)
	case LateCount:
		return float64(k)
	}
	return 0
}

// ScheduleValue is the objective of s: Value of its late count and maximum
// turnaround, or for TotalTurnaround and Makespan the sum of its
// turnarounds and its last completion minus its first release (a job's
// release is its completion minus its turnaround).
func (o Objective) ScheduleValue(s *Schedule, zSpan int) float64 {
	switch o.Kind {
	case TotalTurnaround:
		sum := 0
		for _, j := range s.Jobs {
			sum += j.Turnaround
		}
		return float64(sum)
	case Makespan:
		if len(s.Jobs) == 0 {
			return 0
		}
		last, first := math.MinInt, math.MaxInt
		for _, j := range s.Jobs {
			last, first = max(last, j.Completion), min(first, j.Completion-j.Turnaround)
		}
		return float64(last - first)
	}
	return o.Value(s.LateJobs, s.MaxTurnaround, zSpan)
}

// Method says how Run solves the model. The zero value means the default:
// Decomposition for the product and lexicographic objectives, Monolithic for
// the weighted one.
type Method int8

const (
	MethodUnknown Method = iota
	// Decomposition solves the product (or lexicographic) objective by late count K: for each
	// K, minimise the maximum turnaround with at most K late jobs, raising
	// the cap from Zmin (see the package doc).
	Decomposition
	// SerialDecomposition is Decomposition solving each late count once,
	// with the incumbent's cap.
	SerialDecomposition
	// Monolithic solves one model, cut off at the greedy heuristic's value.
	Monolithic
	// Plain solves one model without the heuristic's cutoff.
	Plain
)

var methodNames = enum.Names[Method]{"unknown", "decomposition", "serial-decomposition", "monolithic", "plain"}

func (m Method) String() string { return methodNames.String(m) }

// MarshalText encodes the method by name.
func (m Method) MarshalText() ([]byte, error) { return methodNames.Text(m) }

// ParseMethod reads decomposition, serial-decomposition, monolithic or plain.
func ParseMethod(s string) (Method, error) {
	if m, ok := methodNames.Parse(s); ok {
		return m, nil
	}
	return MethodUnknown, fmt.Errorf("mrcp: unknown method %q (decomposition, serial-decomposition, monolithic or plain)", s)
}
