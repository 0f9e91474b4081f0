package mrboundcli

import (
	"time"

	"github.com/mrbound/mrbound/sim"
	"github.com/urfave/cli/v2"
)

// compareModeFlags are simulate's realistic-mode options, for compare. Its
// defaults stay the ideal mode (simbridge.IdealOptions). Every combination
// keeps the bounds valid (docs/bounds.md, "Realistic modes"): heartbeats and
// estimates change only the policies' decisions, and a reduce launched
// before its job's map phase ends (slow-start < 1, overlap ω = 0) still does
// its whole work after the last map.
func compareModeFlags() []cli.Flag {
	return []cli.Flag{
		&cli.DurationFlag{Name: "heartbeat", Usage: "heartbeat interval H of the runs; 0 = ideal mode (offers at every state change)"},
		&cli.BoolFlag{Name: "oob", Usage: "a task end triggers an immediate out-of-band heartbeat"},
		&cli.Float64Flag{Name: "slowstart", Value: 1, Usage: "reduces may launch once this fraction of the job's maps completed (early reduces idle in shuffle; the bounds stay valid)"},
		&cli.StringFlag{Name: "estimates", Value: "exact", Usage: "what policies see: exact, given, mean, noisy, none"},
		&cli.Float64Flag{Name: "estimate-error", Usage: "I of --estimates noisy: estimate = truth x U[1-I, 1+I]"},
	}
}

// applyCompareModes sets the runs' realistic-mode options from the flags.
func applyCompareModes(c *cli.Context, opt *sim.Options) error {
	h := c.Duration("heartbeat")
	if h < 0 {
		return badInputf("--heartbeat: %v is negative", h)
	}
	if opt.Heartbeat = sim.Time(h / time.Millisecond); h > 0 && opt.Heartbeat == 0 {
		return badInputf("--heartbeat: %v is below 1 ms", h)
	}
	if opt.OOB = c.Bool("oob"); opt.OOB && opt.Heartbeat == 0 {
		return badInputf("--oob needs heartbeats (--heartbeat > 0)")
	}
	if opt.SlowStart = c.Float64("slowstart"); !(opt.SlowStart >= 0 && opt.SlowStart <= 1) {
		return badInputf("--slowstart: %v is not in [0, 1]", opt.SlowStart)
	}
	mode, ok := sim.ParseEstimateMode(c.String("estimates"))
	if !ok {
		return badInputf("--estimates: unknown mode %q (exact, given, mean, noisy, none)", c.String("estimates"))
	}
	opt.Estimates = mode
	if opt.EstimateError = c.Float64("estimate-error"); c.IsSet("estimate-error") && mode != sim.EstimateNoisy {
		return badInputf("--estimate-error applies to --estimates noisy only")
	}
	if !(opt.EstimateError >= 0 && opt.EstimateError < 1) {
		return badInputf("--estimate-error: %v is not in [0, 1)", opt.EstimateError)
	}
	return nil
}
