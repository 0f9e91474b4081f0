package slurm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/plural"
	"github.com/mrbound/mrbound/sweep"
)

// DefaultMaxArraySize is Slurm's default MaxArraySize: array indices must be
// below it.
const DefaultMaxArraySize = 1001

// Options describe the job array.
type Options struct {
	// Mrbound is the mrbound binary's path on the compute nodes.
	Mrbound string
	// Indices are the items to run (sorted, distinct).
	Indices []int
	// Throttle, when positive, caps the tasks running at once ("%k").
	Throttle int
	// Partition, when set, is the partition to submit to.
	Partition string
	// Time and MemoryMB override the manifest's limits when positive.
	Time     time.Duration
	MemoryMB int
	// MaxArraySize is the cluster's MaxArraySize; 0 means the default.
	MaxArraySize int
	// Extra are further sbatch options, one per #SBATCH line (e.g.
	// "--account=proj").
	Extra []string
}

// Script writes the sbatch script running opts.Indices of m.
func Script(w io.Writer, m *sweep.Manifest, opts Options) error {
	if len(opts.Indices) == 0 {
		return errors.New("slurm: no items to run")
	}
	maxSize := opts.MaxArraySize
	if maxSize <= 0 {
		maxSize = DefaultMaxArraySize
	}
	if last := opts.Indices[len(opts.Indices)-1]; last >= maxSize {
		return badinput.Errorf("slurm: item index %d is not below MaxArraySize %d; raise MaxArraySize in slurm.conf and pass --max-array-size", last, maxSize)
	}
	if err := checkValues(m, opts); err != nil {
		return err
	}
	// #SBATCH lines are split at white space; a log path with a space
	// would be cut, so such a sweep directory is refused.
	if strings.ContainsAny(m.LogDir(), " \t\n") {
		return badinput.Errorf("slurm: the sweep directory %q contains white space, which an #SBATCH --output line cannot carry; move the sweep", m.Dir())
	}
	array := sweep.FormatIndices(opts.Indices)
	if opts.Throttle > 0 {
		array += fmt.Sprintf("%%%d", opts.Throttle)
	}
	limit := time.Duration(m.Limits.Time)
	if opts.Time > 0 {
		limit = opts.Time
	}
	mem := m.Limits.MemoryMB
	if opts.MemoryMB > 0 {
		mem = opts.MemoryMB
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "#!/bin/sh\n")
	fmt.Fprintf(&b, "# mrbound sweep %s: %d of %s. Written by mrbound sweep submit --engine slurm.\n", m.Sweep, len(opts.Indices), plural.Count(len(m.Items), "item"))
	if m.Title != "" {
		fmt.Fprintf(&b, "# %s\n", m.Title)
	}
	fmt.Fprintf(&b, "#SBATCH --job-name=%s\n", JobName(m))
	fmt.Fprintf(&b, "#SBATCH --array=%s\n", array)
	fmt.Fprintf(&b, "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n")
	if limit > 0 {
		fmt.Fprintf(&b, "#SBATCH --time=%s\n", slurmTime(limit))
	}
	if mem > 0 {
		fmt.Fprintf(&b, "#SBATCH --mem=%dM\n", mem)
	}
	if opts.Partition != "" {
		fmt.Fprintf(&b, "#SBATCH --partition=%s\n", opts.Partition)
	}
	fmt.Fprintf(&b, "#SBATCH --output=%s\n", filepath.Join(m.LogDir(), "%a.slurm.out"))
	fmt.Fprintf(&b, "#SBATCH --open-mode=append\n")
	for _, e := range opts.Extra {
		fmt.Fprintf(&b, "#SBATCH %s\n", e)
	}
	fmt.Fprintf(&b, "exec %s sweep run %s\n", shellQuote(opts.Mrbound), shellQuote(m.Path))
	_, err := w.Write(b.Bytes())
	return err
}

// partitionName is what a --partition value may be: Slurm partition names,
// comma-separated. Nothing a shell or sbatch would read specially.
var partitionName = regexp.MustCompile(`^[A-Za-z0-9_.+-]+(,[A-Za-z0-9_.+-]+)*$`)

// checkValues refuses every value that would reach a line of the script
// and could change what the script does. The shell reads the #SBATCH lines
// as comments and sbatch reads them as options, so only a line break can
// turn a value into a command; the exec line quotes its words for sh. The
// title and item IDs are checked by sweep.Load too; they are checked again
// here because a manifest may be built in memory.
func checkValues(m *sweep.Manifest, opts Options) error {
	checks := []struct{ field, value string }{
		{"slurm: the manifest's title", m.Title},
		{"slurm: the sweep kind", m.Sweep},
		{"slurm: the sweep directory", m.Path},
		{"slurm: --mrbound", opts.Mrbound},
		{"slurm: --partition", opts.Partition},
	}
	for _, e := range opts.Extra {
		checks = append(checks, struct{ field, value string }{"slurm: --sbatch-option", e})
	}
	for _, c := range checks {
		if err := sweep.CheckText(c.field, c.value); err != nil {
			return err
		}
	}
	if opts.Partition != "" && !partitionName.MatchString(opts.Partition) {
		return badinput.Errorf("slurm: --partition %q is not a partition name (letters, digits, '_', '.', '+', '-', comma-separated)", opts.Partition)
	}
	for _, e := range opts.Extra {
		if !strings.HasPrefix(e, "-") {
			return badinput.Errorf("slurm: --sbatch-option %q is not an sbatch option (it must start with '-', e.g. --account=proj)", e)
		}
	}
	return nil
}

// JobName is the array's job name: "mrbound-" and the sweep kind.
func JobName(m *sweep.Manifest) string { return "mrbound-" + m.Sweep }

// slurmTime writes d as Slurm's "days-hours:minutes:seconds", rounded up to
// a whole second.
func slurmTime(d time.Duration) string {
	s := int64((d + time.Second - 1) / time.Second)
	days, s := s/86400, s%86400
	return fmt.Sprintf("%d-%02d:%02d:%02d", days, s/3600, s/60%60, s%60)
}

// shellQuote quotes s for sh.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Submit runs `sbatch --parsable script` (sbatch from PATH, with env added
// to the environment when set) and returns the job ID.
func Submit(ctx context.Context, script string, env []string) (string, error) {
	cmd := exec.CommandContext(ctx, "sbatch", "--parsable", script)
	if env != nil {
		cmd.Env = env
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.Error
		if errors.As(err, &ee) {
			return "", badinput.Errorf("slurm: sbatch not found (%v); is this a Slurm login node?", ee.Err)
		}
		return "", badinput.Errorf("slurm: sbatch %s: %v: %s", script, err, strings.TrimSpace(stderr.String()))
	}
	// --parsable prints "jobid" or "jobid;cluster".
	id, _, _ := strings.Cut(strings.TrimSpace(stdout.String()), ";")
	if id == "" {
		return "", fmt.Errorf("slurm: sbatch printed no job ID")
	}
	return id, nil
}
