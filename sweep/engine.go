package sweep

import (
	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/enum"
)

// Engine is what runs a sweep's items. Zero is unknown.
type Engine int8

const (
	EngineUnknown Engine = iota
	// Local: a worker pool on this machine (RunLocal).
	Local
	// Slurm: a job array (package sweep/slurm).
	Slurm
	// Kubernetes: an Indexed Job (package sweep/kube).
	Kubernetes
)

var engineNames = enum.Names[Engine]{"unknown", "local", "slurm", "kubernetes"}

func (e Engine) String() string { return engineNames.String(e) }

// MarshalText encodes the engine by name.
func (e Engine) MarshalText() ([]byte, error) { return engineNames.Text(e) }

// UnmarshalText decodes an engine name.
func (e *Engine) UnmarshalText(b []byte) error {
	v, err := ParseEngine(string(b))
	*e = v
	return err
}

// ParseEngine reads "local" (also ""), "slurm" or "kubernetes" ("k8s").
func ParseEngine(s string) (Engine, error) {
	switch s {
	case "":
		return Local, nil
	case "k8s":
		return Kubernetes, nil
	}
	if e, ok := engineNames.Parse(s); ok {
		return e, nil
	}
	return EngineUnknown, badinput.Errorf("unknown engine %q (local, slurm, kubernetes)", s)
}
