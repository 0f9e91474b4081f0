package mrboundcli

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mrbound/mrbound/compare"
	"github.com/mrbound/mrbound/compare/comparesweep"
	"github.com/mrbound/mrbound/compare/simbridge"
	"github.com/mrbound/mrbound/lowerbound"
	"github.com/mrbound/mrbound/policy/external"
)

// parseRates reads "0.02,1/40" into rates.
func parseRates(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		num, den, isFrac := strings.Cut(f, "/")
		v, err := strconv.ParseFloat(num, 64)
		if err == nil && isFrac {
			var d float64
			if d, err = strconv.ParseFloat(den, 64); err == nil {
				v /= d
			}
		}
		if err != nil || !(v > 0) || v > 1e9 {
			return nil, badInputf("--lambdas: %q is not a positive rate", f)
		}
		out = append(out, v)
	}
	return out, nil
}

func compareSweepAction(c *cli.Context) (rerr error) {
	if c.NArg() != 0 {
		return badInputf("compare --family runs a sweep and takes no FILE (got %q)", c.Args().First())
	}
	if c.IsSet("policy-timeout") {
		// the sweep's items make their policies in compare/simbridge, with
		// the default deadline
		return badInputf("--policy-timeout does not apply to a sweep (--family): its exec: policies get the default %v", external.DefaultTimeout)
	}
	for _, f := range []string{"no-upper", "upper-evals", "upper-time-limit"} {
		if c.IsSet(f) {
			// Its records carry no upper value: the offline constructions run
			// with their defaults only to check the invariant.
			return badInputf("--%s does not apply to a sweep (its records carry no upper value)", f)
		}
	}
	if !c.IsSet("lambdas") {
		// without this, the empty list read as one empty rate: `--lambdas:
		// "" is not a positive rate`, which names no mistake a user made
		return badInputf("compare --family needs --lambdas: the arrival rates in jobs/s, comma-separated (e.g. 1/100,1/50)")
	}
	o := simbridge.SweepOptions{Family: c.String("family"), Jobs: c.Int("jobs"), Seeds: c.Int("seeds")}
	var err error
	if o.Lambdas, err = parseRates(c.String("lambdas")); err != nil {
		return err
	}
	if o.Policies, err = parsePolicies(c.String("policies")); err != nil {
		return err
	}
	o.Compare.Sim = simbridge.IdealOptions()
	if err := applyCompareModes(c, &o.Compare.Sim); err != nil {
		return err
	}
	o.Compare.Sim.Noise = c.Float64("noise")
	o.Compare.Metric = lowerbound.MeanTurnaround
	if s := c.String("metric"); s != "" {
		if o.Compare.Metric, err = lowerbound.ParseMetric(s); err != nil {
			return badInputf("--metric: %v", err)
		}
	}
	if o.Compare.Solve, err = solverOptions(c); err != nil {
		return err
	}
	o.Compare.LP, o.Compare.WindowJobs, o.Compare.OptimumJobs = c.Bool("lp"), c.Int("windows"), c.Int("optimum-jobs")
	if o.Compare.WindowJobs < 0 || o.Compare.OptimumJobs < 0 {
		return badInputf("--windows and --optimum-jobs must be ≥ 0")
	}
	if dir := c.String("sweep"); dir != "" {
		if c.IsSet("table") || c.IsSet("svg") {
			return badInputf("--table and --svg do not apply with --sweep (give --out to mrbound sweep collect)")
		}
		m, err := comparesweep.Plan(o)
		if err != nil {
			return err
		}
		return planSweep(c, dir, m)
	}
	table := c.String("table")
	if table == "" {
		return badInputf("compare --family needs --table FILE.csv (the resumable results table)")
	}
	// Resume: read what the table holds, then append.
	rows := 0 // appended by this run
	old, err := os.ReadFile(table)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// A run that fails before its first row leaves no table behind,
		// not a header alone that looks like a finished empty sweep.
		defer func() {
			if rerr != nil && rows == 0 {
				os.Remove(table)
			}
		}()
		var hdr bytes.Buffer
		if err := compare.WriteSweepHeader(&hdr); err != nil {
			return err
		}
		if err := writeFileAtomic(table, func(w io.Writer) error { _, err := w.Write(hdr.Bytes()); return err }); err != nil {
			return err
		}
	case err != nil:
		return badInputf("%s: %v", table, err)
	default:
		// A killed sweep may have left a partial line: it is neither read
		// (a cut number may still parse) nor kept before appending.
		whole := old[:bytes.LastIndexByte(old, '\n')+1]
		if o.Done, err = compare.ReadSweep(table, bytes.NewReader(whole)); err != nil {
			return badInput(err)
		}
		switch {
		case len(whole) == 0 || compare.IsLegacySweep(whole):
			// A table written before the unit column is rewritten in the
			// current form, so that the rows appended next match its header
			// (and an empty one, or one cut inside its header, gets one).
			if err := writeFileAtomic(table, func(w io.Writer) error { return compare.SweepRecords.WriteAll(w, o.Done) }); err != nil {
				return err
			}
		case len(whole) < len(old):
			if err := writeFileAtomic(table, func(w io.Writer) error { _, err := w.Write(whole); return err }); err != nil {
				return err
			}
		}
	}
	f, err := os.OpenFile(table, os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return badInputf("%s: %v", table, err)
	}
	defer f.Close()
	o.Emit = func(r compare.SweepRecord) error {
		if err := compare.WriteSweepRecord(f, r); err != nil {
			return err
		}
		rows++
		return f.Sync()
	}
	ctx, stop := signalContext()
	defer stop()
	bar := startProgress(c, "compare --family "+o.Family, 0, "instances")
	o.Progress = bar.Set
	recs, err := simbridge.Sweep(ctx, o)
	bar.Finish()
	if err != nil {
		return err
	}
	pts := compare.SweepMeans(recs)
	if svg := c.String("svg"); svg != "" {
		title := compare.SweepTitle(o.Family, o.Jobs, o.Compare.Metric)
		if err := writeFileAtomic(svg, func(w io.Writer) error { return compare.WriteSweepSVG(w, title, pts) }); err != nil {
			return err
		}
	}
	return compare.WriteSweepSummary(c.App.Writer, o.Family, o.Compare.Metric, pts, len(recs))
}
