package policy

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/policy/external"
	"github.com/mrbound/mrbound/policy/fair"
	"github.com/mrbound/mrbound/policy/fifo"
	"github.com/mrbound/mrbound/sim"
)

// Params are the policy switches the CLI exposes; a policy ignores those
// that do not concern it.
type Params struct {
	// H1Caps applies Hadoop 1's per-heartbeat assignment caps (FIFO, EDF,
	// Fair; §1.6).
	H1Caps bool
	// Solver and SolveLimit: the MILP backend and the per-re-solve wall
	// limit of the policies that solve a model (mrcp); zero values mean
	// their defaults.
	Solver     string
	SolveLimit time.Duration
	// MRCPOptions: mrcp's policies.md §2.4 options, comma-separated
	// (mrcpsched.ParseOptions; the caller validates them first).
	MRCPOptions string
	// PolicyTimeout is an external policy's per-message deadline
	// ("exec:…"; 0 = external.DefaultTimeout).
	PolicyTimeout time.Duration
}

// Summarizer is implemented by policies with figures of their own beyond the
// simulator's report (mrcp: re-solves, optimal ones, median overhead); the
// CLI prints Summary's lines after the report.
type Summarizer interface {
	Summary(res *sim.Result) []string
}

// JSONSummarizer is implemented by policies whose own figures also go into
// the JSON report (`simulate --json`, field "policy_summary"): SummaryJSON
// returns a value that encoding/json marshals.
type JSONSummarizer interface {
	SummaryJSON(res *sim.Result) any
}

// Constructor builds a fresh policy.
type Constructor func(Params) sim.Policy

var registry = map[string]Constructor{
	"fifo": func(p Params) sim.Policy { q := fifo.New(); q.H1Caps = p.H1Caps; return q },
	"edf":  func(p Params) sim.Policy { q := fifo.NewEDF(); q.H1Caps = p.H1Caps; return q },
	"fair": func(p Params) sim.Policy { q := fair.New(); q.H1Caps = p.H1Caps; return q },
	"fair-nodelay": func(p Params) sim.Policy {
		q := fair.New()
		q.H1Caps, q.NoDelay = p.H1Caps, true
		return q
	},
}

// Register adds a policy under name; it panics on a duplicate (a
// programming error, at init time).
func Register(name string, c Constructor) {
	if _, dup := registry[name]; dup {
		panic("policy: " + name + " registered twice")
	}
	registry[name] = c
}

// Names lists the registered policies, sorted.
func Names() []string {
	var out []string
	for n := range registry {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// New builds the policy called name; an unknown name is bad input. A name
// "exec:COMMAND ARGS…" is a policy in its own process (policy/external); the
// process starts when the run does.
func New(name string, p Params) (sim.Policy, error) {
	if cmd, ok := strings.CutPrefix(name, external.Prefix); ok {
		return external.New(cmd, external.Options{Timeout: p.PolicyTimeout})
	}
	c, ok := registry[name]
	if !ok {
		return nil, badinput.Errorf("--policy: unknown policy %q (%s)", name, strings.Join(Names(), ", "))
	}
	return c(p), nil
}

// MustNew is New for names known to exist (tests).
func MustNew(name string) sim.Policy {
	p, err := New(name, Params{})
	if err != nil {
		panic(fmt.Sprint(err))
	}
	return p
}
