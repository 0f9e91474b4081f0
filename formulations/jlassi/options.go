package jlassi

import (
	"fmt"
	"strconv"

	"github.com/mrbound/mrbound/internal/enum"
)

// Objective selects what the model minimises. The zero value is unknown.
type Objective int8

const (
	ObjectiveUnknown Objective = iota
	// RealTime minimises Σ_t L_t, the schedule's makespan (eq 18).
	RealTime
	// TST is eq 1 as published: N plus the transfer time of migrated blocks.
	TST
	// TRC is eq 2 as published: the resource cost.
	TRC
	// Feasibility has no objective, as in the paper's experiments.
	Feasibility
)

var objectiveNames = enum.Names[Objective]{"unknown", "realtime", "tst", "trc", "feasibility"}

func (o Objective) String() string { return objectiveNames.String(o) }

// MarshalText encodes the objective by name.
func (o Objective) MarshalText() ([]byte, error) { return objectiveNames.Text(o) }

// UnmarshalText decodes an objective name.
func (o *Objective) UnmarshalText(b []byte) error {
	v, err := ParseObjective(string(b))
	*o = v
	return err
}

// ParseObjective decodes an objective name; "" means RealTime.
func ParseObjective(s string) (Objective, error) {
	if s == "" {
		return RealTime, nil
	}
	if o, ok := objectiveNames.Parse(s); ok {
		return o, nil
	}
	return ObjectiveUnknown, fmt.Errorf("jlassi: unknown objective %q (realtime, tst, trc, feasibility)", s)
}

// Form selects the constraint forms. The zero value is unknown.
type Form int8

const (
	FormUnknown Form = iota
	// Strong emits the forms with the tighter LP relaxation: cumulative
	// precedence, incremental block arrival, aggregated locality, compact
	// shuffle, one length row per slot (see the package doc).
	Strong
	// Published emits the constraints as the paper writes them.
	Published
)

var formNames = enum.Names[Form]{"unknown", "strong", "published"}

func (f Form) String() string { return formNames.String(f) }

// MarshalText encodes the form by name.
func (f Form) MarshalText() ([]byte, error) { return formNames.Text(f) }

// UnmarshalText decodes a form name.
func (f *Form) UnmarshalText(b []byte) error {
	v, err := ParseForm(string(b))
	*f = v
	return err
}

// ParseForm decodes a form name; "" means Strong.
func ParseForm(s string) (Form, error) {
	switch s {
	case "", "strong":
		return Strong, nil
	case "published":
		return Published, nil
	}
	return FormUnknown, fmt.Errorf("jlassi: unknown formulation %q (strong, published)", s)
}

// HorizonMode says how T is chosen. The zero value is unknown.
type HorizonMode int8

const (
	HorizonUnknown HorizonMode = iota
	// HorizonFile uses the scenario's "horizon", or eq 17 when it has none.
	HorizonFile
	// HorizonFixed uses Horizon.T.
	HorizonFixed
	// HorizonEq17 uses eq 17.
	HorizonEq17
	// HorizonTable5 uses Table 5's T for the scenario the instance came from.
	HorizonTable5
	// HorizonSearch grows T from a lower bound until the model is feasible.
	HorizonSearch
)

var horizonNames = enum.Names[HorizonMode]{"unknown", "file", "fixed", "eq17", "table5", "search"}

func (h HorizonMode) String() string { return horizonNames.String(h) }

// MarshalText encodes the mode by name.
func (h HorizonMode) MarshalText() ([]byte, error) { return horizonNames.Text(h) }

// Horizon is a horizon choice.
type Horizon struct {
	Mode HorizonMode
	// T is the number of intervals for HorizonFixed.
	T int
}

// ParseHorizon reads "" (the file's), a positive integer, "eq17", "table5" or
// "search".
func ParseHorizon(s string) (Horizon, error) {
	switch s {
	case "", "file":
		return Horizon{Mode: HorizonFile}, nil
	case "eq17":
		return Horizon{Mode: HorizonEq17}, nil
	case "table5":
		return Horizon{Mode: HorizonTable5}, nil
	case "search":
		return Horizon{Mode: HorizonSearch}, nil
	}
	t, err := strconv.Atoi(s)
	if err != nil || t <= 0 {
		return Horizon{}, fmt.Errorf("jlassi: horizon %q: want a positive number of intervals, eq17, table5 or search", s)
	}
	return Horizon{Mode: HorizonFixed, T: t}, nil
}

func (h Horizon) String() string {
	if h.Mode == HorizonFixed {
		return strconv.Itoa(h.T)
	}
	return h.Mode.String()
}
