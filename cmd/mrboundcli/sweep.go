package mrboundcli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/mrbound/mrbound/internal/plural"
	"github.com/mrbound/mrbound/internal/progress"
	"github.com/mrbound/mrbound/sweep"
	"github.com/mrbound/mrbound/sweep/kube"
	"github.com/mrbound/mrbound/sweep/slurm"
)

func sweepCommand() *cli.Command {
	return &cli.Command{
		Name:  "sweep",
		Usage: "run a planned sweep (a long table's items) here, on Slurm or on Kubernetes, and collect it",
		Description: `A sweep is planned by a long command with --sweep DIR (e.g. mrbound table jlassi --sweep DIR),
which writes DIR/sweep.json listing the items. Each item runs as mrbound sweep run DIR --index I and
writes DIR/results/I.json; submit runs the missing items with an engine; collect merges the results
into the table, CSV and plot the single-machine command writes. See docs/sweeps.md.`,
		Subcommands: []*cli.Command{sweepRunCommand, sweepSubmitCommand, sweepCollectCommand, sweepStatusCommand},
	}
}

var sweepRunCommand = &cli.Command{
	Name:      "run",
	Usage:     "run one item of a sweep (what every engine runs per item)",
	ArgsUsage: "MANIFEST",
	Description: `The item's index is --index, else $SLURM_ARRAY_TASK_ID, else $JOB_COMPLETION_INDEX. With --items LIST
the index picks the LIST's entry instead (0 is its first). An item with a result does not run again.
Exit code 1 when the item fails (its failure and log are in the sweep directory).`,
	Flags: []cli.Flag{
		&cli.IntFlag{Name: "index", Value: -1, Usage: "the item to run (default: from the environment)"},
		&cli.StringFlag{Name: "items", Usage: "the index selects an entry of `LIST` (e.g. 3,5,7-9)"},
	},
	Action: sweepRun,
}

func loadSweep(c *cli.Context) (*sweep.Manifest, error) {
	path, err := oneArg(c, "MANIFEST")
	if err != nil {
		return nil, err
	}
	return sweep.Load(path)
}

func sweepRun(c *cli.Context) error {
	m, err := loadSweep(c)
	if err != nil {
		return err
	}
	index, from := c.Int("index"), "--index"
	if !c.IsSet("index") {
		i, name, ok, err := sweep.EnvIndex()
		if err != nil {
			return err
		}
		if !ok {
			return badInputf("sweep run: no item index: give --index, or run under a Slurm array or a Kubernetes Indexed Job (to run the whole sweep here: mrbound sweep submit)")
		}
		index, from = i, "$"+name
	}
	if l := c.String("items"); l != "" {
		list, err := sweep.ParseIndices(l)
		if err != nil {
			return badInputf("--items: %v", err)
		}
		if index < 0 || index >= len(list) {
			return badInputf("%s %d: --items has %s", from, index, plural.Count(len(list), "entry"))
		}
		index = list[index]
	}
	ctx, stop := sweepSignalContext()
	defer stop()
	out, msg, err := sweep.RunItem(ctx, m, index)
	if err != nil {
		if ctx.Err() != nil {
			return badInputf("item %d (%s) interrupted by a signal: it stays missing (log: %s)", index, m.Items[index].ID, m.LogPath(index))
		}
		return err
	}
	switch out {
	case sweep.Failed:
		return badInputf("item %d (%s) failed: %s (log: %s)", index, m.Items[index].ID, msg, m.LogPath(index))
	case sweep.Skipped:
		fmt.Fprintf(c.App.Writer, "item %d (%s): already done\n", index, m.Items[index].ID)
	default:
		fmt.Fprintf(c.App.Writer, "item %d (%s): done\n", index, m.Items[index].ID)
	}
	return nil
}

// engineFlags lists, per engine, the submit flags that apply to it.
var engineFlags = map[sweep.Engine][]string{
	sweep.Local:      {"jobs"},
	sweep.Slurm:      {"throttle", "partition", "time", "mem", "mrbound", "dry-run", "max-array-size", "sbatch-option"},
	sweep.Kubernetes: {"time", "mem", "image", "claim", "subpath", "mount", "name", "parallelism", "command"},
}

var sweepSubmitCommand = &cli.Command{
	Name:      "submit",
	Usage:     "run a sweep's missing items: a local worker pool (default), a Slurm job array or a Kubernetes Indexed Job",
	ArgsUsage: "MANIFEST",
	Description: `Only items without a result are run or submitted, so submitting again after a kill or a failure
runs what is left. local runs --jobs items at once here and reports failures (exit 1 if any);
slurm writes DIR/sweep.sbatch and submits it with sbatch; kubernetes writes DIR/sweep-job.json for
kubectl apply -f. Time and memory per item come from the manifest's limits unless --time/--mem.`,
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "engine", Value: "local", Usage: "local, slurm or kubernetes"},
		&cli.IntFlag{Name: "jobs", Usage: "local: items at once (default: one per core)"},
		&cli.IntFlag{Name: "throttle", Usage: "slurm: at most `K` array tasks at once (%K)"},
		&cli.StringFlag{Name: "partition", Usage: "slurm: the partition"},
		&cli.DurationFlag{Name: "time", Usage: "slurm, kubernetes: wall time per item (default: the manifest's)"},
		&cli.IntFlag{Name: "mem", Usage: "slurm, kubernetes: memory per item in `MiB` (default: the manifest's)"},
		&cli.StringFlag{Name: "mrbound", Usage: "slurm: the mrbound binary on the compute nodes (default: this one)"},
		&cli.BoolFlag{Name: "dry-run", Usage: "slurm: write the script, do not submit it"},
		&cli.IntFlag{Name: "max-array-size", Usage: "slurm: the cluster's MaxArraySize (default 1001)"},
		&cli.StringSliceFlag{Name: "sbatch-option", Usage: "slurm: a further #SBATCH option, e.g. --account=proj (repeatable)"},
		&cli.StringFlag{Name: "image", Usage: "kubernetes: the container image holding mrbound"},
		&cli.StringFlag{Name: "claim", Usage: "kubernetes: the PersistentVolumeClaim holding the sweep directory"},
		&cli.StringFlag{Name: "subpath", Usage: "kubernetes: the sweep directory's path inside the claim (default: its root)"},
		&cli.StringFlag{Name: "mount", Usage: "kubernetes: where the claim is mounted (default /sweep)"},
		&cli.StringFlag{Name: "name", Usage: "kubernetes: the Job's name (default mrbound-KIND)"},
		&cli.IntFlag{Name: "parallelism", Usage: "kubernetes: pods at once (default: all)"},
		&cli.StringFlag{Name: "command", Usage: "kubernetes: the mrbound binary in the image (default mrbound)"},
	},
	Action: sweepSubmit,
}

func sweepSubmit(c *cli.Context) error {
	m, err := loadSweep(c)
	if err != nil {
		return err
	}
	engine, err := sweep.ParseEngine(c.String("engine"))
	if err != nil {
		return badInputf("--engine: %v", err)
	}
	// A flag of another engine is an error, never silently ignored.
	applies := map[string]bool{}
	for _, f := range engineFlags[engine] {
		applies[f] = true
	}
	for e, flags := range engineFlags {
		for _, f := range flags {
			if e != engine && !applies[f] && c.IsSet(f) {
				return badInputf("--%s: does not apply to --engine %s", f, engine)
			}
		}
	}
	for _, f := range []string{"jobs", "throttle", "mem", "max-array-size", "parallelism"} {
		if c.Int(f) < 0 {
			return badInputf("--%s: must not be negative, got %d", f, c.Int(f))
		}
	}
	if c.Duration("time") < 0 {
		return badInputf("--time: must not be negative, got %v", c.Duration("time"))
	}
	todo := sweep.Todo(m)
	w := c.App.Writer
	if len(todo) == 0 {
		fmt.Fprintf(w, "nothing to run: every item is done (%s); next: mrbound sweep collect %s\n", plural.Count(len(m.Items), "item"), m.Dir())
		return nil
	}
	switch engine {
	case sweep.Slurm:
		return submitSlurm(c, m, todo)
	case sweep.Kubernetes:
		return submitKubernetes(c, m, todo)
	}
	bar := progressBar(c, len(m.Items), m.Sweep)
	ctx, stop := sweepSignalContext()
	defer stop()
	sum, err := sweep.RunLocal(ctx, m, sweep.PoolOptions{Jobs: c.Int("jobs"), Progress: bar.set})
	bar.finish()
	if err != nil {
		if ctx.Err() != nil {
			return badInputf("interrupted: %s ran, the others are left; submit again to finish", plural.Count(sum.Ran, "item"))
		}
		return err
	}
	fmt.Fprintf(w, "%s: %d ran now, %d done before, %d failed\n", plural.Count(sum.Items, "item"), sum.Ran, sum.Skipped, sum.Failed)
	if sum.Failed > 0 {
		rep, _, err := sweep.Status(m)
		if err != nil {
			return err
		}
		rep.WriteProblems(c.App.ErrWriter)
		return badInputf("%d of %s failed (their logs are listed above); fix and submit again", sum.Failed, plural.Count(sum.Items, "item"))
	}
	fmt.Fprintf(w, "next: mrbound sweep collect %s\n", m.Dir())
	return nil
}

func submitSlurm(c *cli.Context, m *sweep.Manifest, todo []int) error {
	bin := c.String("mrbound")
	if bin == "" {
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		bin = exe
	}
	if err := os.MkdirAll(m.LogDir(), 0o755); err != nil {
		return badInput(err)
	}
	opts := slurm.Options{Mrbound: bin, Indices: todo, Throttle: c.Int("throttle"), Partition: c.String("partition"),
		Time: c.Duration("time"), MemoryMB: c.Int("mem"), MaxArraySize: c.Int("max-array-size"), Extra: c.StringSlice("sbatch-option")}
	script := filepath.Join(m.Dir(), "sweep.sbatch")
	if err := writeFileAtomic(script, func(w io.Writer) error { return slurm.Script(w, m, opts) }); err != nil {
		return err
	}
	w := c.App.Writer
	if c.Bool("dry-run") {
		fmt.Fprintf(w, "wrote %s: %d of %s; submit it with sbatch %s\n", script, len(todo), plural.Count(len(m.Items), "item"), script)
		return nil
	}
	ctx, stop := signalContext()
	defer stop()
	id, err := slurm.Submit(ctx, script, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "submitted Slurm job %s: %d of %s (array %s); logs in %s\nnext, when it is done: mrbound sweep collect %s\n",
		id, len(todo), plural.Count(len(m.Items), "item"), sweep.FormatIndices(todo), m.LogDir(), m.Dir())
	return nil
}

func submitKubernetes(c *cli.Context, m *sweep.Manifest, todo []int) error {
	job, err := kube.NewJob(m, kube.Options{Name: c.String("name"), Image: c.String("image"), Command: c.String("command"),
		Claim: c.String("claim"), SubPath: c.String("subpath"), MountPath: c.String("mount"), Indices: todo,
		Parallelism: c.Int("parallelism"), Time: c.Duration("time"), MemoryMB: c.Int("mem")})
	if err != nil {
		return err
	}
	path := filepath.Join(m.Dir(), "sweep-job.json")
	if err := writeFileAtomic(path, job.WriteJSON); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "wrote %s: an Indexed Job of %d of %s\nnext: put %s on claim %s, then kubectl apply -f %s; when it is done, mrbound sweep collect on the claim's copy\n",
		path, len(todo), plural.Count(len(m.Items), "item"), m.Dir(), c.String("claim"), path)
	return nil
}

var sweepCollectCommand = &cli.Command{
	Name:      "collect",
	Usage:     "merge a sweep's results into its table (the files the single-machine command writes)",
	ArgsUsage: "MANIFEST",
	Description: `The table goes to standard output and, with --out FILE, to FILE with the files a single-machine
run writes beside it (e.g. FILE.instances.csv). Failed items (with their logs) and missing items are
listed on standard error, and the exit code is then 1; the table covers the finished items.`,
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "out", Usage: "write the table to `FILE` (its extension chooses the format)"},
	},
	Action: func(c *cli.Context) error {
		m, err := loadSweep(c)
		if err != nil {
			return err
		}
		rep, err := sweep.Collect(m, sweep.Output{Path: c.String("out"), Stdout: c.App.Writer})
		if err != nil {
			return err
		}
		return incomplete(c, rep)
	},
}

var sweepStatusCommand = &cli.Command{
	Name:      "status",
	Usage:     "count a sweep's done, failed and missing items and list the failed and missing ones",
	ArgsUsage: "MANIFEST",
	Action: func(c *cli.Context) error {
		m, err := loadSweep(c)
		if err != nil {
			return err
		}
		rep, _, err := sweep.Status(m)
		if err != nil {
			return err
		}
		fmt.Fprintln(c.App.Writer, rep.Summary())
		return incomplete(c, rep)
	},
}

// incomplete lists a sweep's problems and is an error (exit 1) unless every
// item is done.
func incomplete(c *cli.Context, rep sweep.Report) error {
	if rep.Complete() {
		return nil
	}
	rep.WriteProblems(c.App.ErrWriter)
	return badInputf("sweep incomplete: %s", rep.Summary())
}

// sweepSignalContext is cancelled by Ctrl-C and by SIGTERM, which Slurm
// (at the time limit, or scancel) and Kubernetes (at the deadline) send
// before killing: the running items stop, log that they were interrupted
// and stay missing.
func sweepSignalContext() (context.Context, context.CancelFunc) {
	return notifyContext(os.Interrupt, syscall.SIGTERM)
}

// planSweep writes a planned sweep into dir and says what comes next.
func planSweep(c *cli.Context, dir string, m *sweep.Manifest) error {
	if err := sweep.Write(dir, m); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "planned %s: %s (%s)\nnext: mrbound sweep submit %s [--engine slurm|kubernetes], then mrbound sweep collect %s\n",
		m.Path, plural.Count(len(m.Items), "item"), m.Sweep, dir, dir)
	return nil
}

// bar is the progress of a long loop on standard error (startProgress: a
// bar on a terminal, plain lines otherwise, nothing with --quiet).
type bar struct{ r *progress.Reporter }

func progressBar(c *cli.Context, total int, desc string) bar {
	return bar{startProgress(c, desc, total, "items")}
}

func (b bar) set(done, total int) { b.r.Set(done, total) }

func (b bar) finish() { b.r.Finish() }
