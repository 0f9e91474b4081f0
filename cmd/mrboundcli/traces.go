package mrboundcli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mrbound/mrbound/workload"
	"github.com/mrbound/mrbound/workload/jobfile"
	"github.com/mrbound/mrbound/workload/sls"
	"github.com/mrbound/mrbound/workload/trace"
)

// detectFormat reads path's content to tell its format (unknown when it
// cannot be read: the loader then reports that).
func detectFormat(path string) workload.Format {
	data, err := os.ReadFile(path)
	if err != nil {
		return workload.FormatUnknown
	}
	return workload.Detect(path, data)
}

// traceFlags are the flags a job trace reads; the other SWIM flags are
// refused for it.
var traceFlags = []string{"nodes", "map-slots", "reduce-slots", "nodes-file"}

// traceOptions reads the cluster overrides of a job trace: only the flags
// given (their SWIM defaults do not apply).
func traceOptions(c *cli.Context, path string, f workload.Format) (workload.Options, error) {
	o := workload.DefaultOptions()
	for _, name := range swimFlags {
		if c.IsSet(name) && !contains(traceFlags, name) {
			return o, badInputf("--%s applies to SWIM traces (.tsv) only; %s is a %s trace", name, path, f)
		}
	}
	for _, name := range []string{"nodes", "map-slots", "reduce-slots"} {
		if c.IsSet(name) && c.Int(name) <= 0 {
			return o, badInputf("--%s: %d must be positive", name, c.Int(name))
		}
	}
	if c.IsSet("nodes") {
		o.Cluster.Nodes = c.Int("nodes")
	}
	if c.IsSet("map-slots") {
		o.Cluster.MapSlots = c.Int("map-slots")
	}
	if c.IsSet("reduce-slots") {
		o.Cluster.ReduceSlots = c.Int("reduce-slots")
	}
	o.NodesFile = c.String("nodes-file")
	return o, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func convertCommand() *cli.Command {
	flags := []cli.Flag{
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Required: true, Usage: "the file to write: .jsonl (job file) or .json (SLS JSON job trace); --to overrides"},
		&cli.StringFlag{Name: "to", Usage: "output format: jobfile or sls (default: by the extension of -o)"},
	}
	for _, f := range simulateCommand().Flags {
		if n := f.Names()[0]; contains(swimFlags, n) || n == "nodes-file" {
			flags = append(flags, f)
		}
	}
	return &cli.Command{
		Name:      "convert",
		Usage:     "convert a workload to the plain job file (JSON Lines) or to an SLS JSON job trace",
		ArgsUsage: "IN -o OUT",
		Description: `IN is any input simulate reads: a SWIM trace (.tsv, with the SWIM flags), an mrcp, coshh or jlassi
scenario, an SLS JSON job trace, a Rumen trace, an SLS synthetic workload (its jobs drawn from
rand_seed) or a job file. OUT is a job file (.jsonl, docs/traces.md, docs/jobfile.schema.json) or an
SLS JSON job trace (.json) that SLS can replay; a trace's recorded containers are written where and
when they ran, a workload without a record is laid out from each job's submission. What the
target cannot hold is said on stderr ("note: ..."); what it cannot represent at all (per-node
durations, node speeds) is an error.`,
		Flags:  flags,
		Action: convertAction,
	}
}

func convertAction(c *cli.Context) error {
	in, err := oneArg(c, "IN")
	if err != nil {
		return err
	}
	out := c.String("output")
	to := c.String("to")
	if to == "" {
		switch strings.ToLower(filepath.Ext(out)) {
		case ".jsonl":
			to = "jobfile"
		case ".json":
			to = "sls"
		default:
			return badInputf("-o %s: say the format with --to jobfile|sls (or name the file .jsonl or .json)", out)
		}
	}
	if to != "jobfile" && to != "sls" {
		return badInputf("--to: %q is not jobfile or sls", to)
	}
	wopts, err := workloadOptions(c, in)
	if err != nil {
		return err
	}
	tr, err := convertTrace(in, wopts)
	if err != nil {
		return err
	}
	for _, n := range tr.Notes {
		fmt.Fprintf(c.App.ErrWriter, "note: %s\n", n)
	}
	write := func(w io.Writer) error { return jobfile.Write(w, tr) }
	if to == "sls" {
		if tr.NodeCount > 0 || len(tr.Hosts) > 0 {
			fmt.Fprintln(c.App.ErrWriter, "note: SLS JSON job traces carry no cluster: give SLS a nodes file (or mrbound --nodes/--nodes-file when reading it back)")
		}
		write = func(w io.Writer) error { return sls.WriteJobs(w, tr) }
	}
	return writeFileAtomic(out, write)
}

// convertTrace reads any input into the common trace form, with the
// cluster the flags give.
func convertTrace(path string, o workload.Options) (*trace.Trace, error) {
	l, err := workload.LoadAll(path, o)
	if err != nil {
		return nil, err
	}
	if l.Trace == nil {
		return workload.FromWorkload(path, l.Workload)
	}
	tr := *l.Trace
	// the cluster the workload was built on (flags and nodes file included)
	w := l.Workload
	tr.NodeCount = len(w.Cluster.Nodes)
	tr.MapSlots, tr.ReduceSlots = w.Cluster.Nodes[0].MapSlots, w.Cluster.Nodes[0].ReduceSlots
	tr.Hosts = nil
	named := true
	for _, n := range w.Cluster.Nodes {
		tr.Hosts = append(tr.Hosts, n.Name)
		named = named && n.Name != ""
	}
	if !named {
		tr.Hosts = nil
	}
	return &tr, nil
}
