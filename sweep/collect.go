package sweep

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mrbound/mrbound/internal/plural"
)

// Report is the state of a sweep's items.
type Report struct {
	// Items in the sweep; Done have a result.
	Items, Done int
	// Failed items: their last attempt failed (and none succeeded since).
	Failed []Failure
	// Missing items have neither a result nor a failure: never run, still
	// running, or killed (by a scheduler's time or memory limit, say).
	Missing []Missing
}

// Missing is an item without a result or failure.
type Missing struct {
	Index int
	ID    string
	// Logs are the item's log files that exist (ours and the engine's).
	Logs []string
}

// Complete reports whether every item has a result.
func (r Report) Complete() bool { return r.Done == r.Items }

// logTail is how many lines of a failed item's log WriteProblems shows.
const logTail = 5

// WriteProblems lists the failed items (message, log and the log's last
// lines) and the missing ones (with their logs, if any), one block per
// item; nothing when the sweep is complete.
func (r Report) WriteProblems(w io.Writer) {
	for _, f := range r.Failed {
		fmt.Fprintf(w, "failed: item %d (%s): %s\n  log: %s\n", f.Index, f.ID, f.Error, f.Log)
		for _, line := range tail(f.Log, logTail) {
			fmt.Fprintf(w, "  | %s\n", line)
		}
	}
	for _, mi := range r.Missing {
		fmt.Fprintf(w, "missing: item %d (%s)", mi.Index, mi.ID)
		if len(mi.Logs) > 0 {
			fmt.Fprintf(w, "; logs: %s", strings.Join(mi.Logs, ", "))
		}
		fmt.Fprintln(w)
	}
}

// Summary is one line: "12 items: 10 done, 1 failed, 1 missing" ("1 item: …").
func (r Report) Summary() string {
	return fmt.Sprintf("%s: %d done, %d failed, %d missing", plural.Count(r.Items, "item"), r.Done, len(r.Failed), len(r.Missing))
}

func tail(path string, n int) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	return lines[max(0, len(lines)-n):]
}

// Status reads the results, failures and logs of m's items; results holds
// each item's value (nil when it has none). A result file that cannot be
// read is an error naming it.
func Status(m *Manifest) (rep Report, results []json.RawMessage, err error) {
	rep.Items = len(m.Items)
	results = make([]json.RawMessage, len(m.Items))
	for i, it := range m.Items {
		r, err := readResult(m, i)
		switch {
		case err == nil:
			rep.Done++
			results[i] = r.Value
			continue
		case !errors.Is(err, errNoResult):
			return rep, nil, err
		}
		if data, err := os.ReadFile(m.FailurePath(i)); err == nil {
			var f Failure
			if err := json.Unmarshal(data, &f); err != nil {
				return rep, nil, fmt.Errorf("%s: %s", m.FailurePath(i), jsonProblem(err))
			}
			// The log as seen from here (a pod or node may have written
			// the failure under another mount point).
			f.Log = m.LogPath(i)
			rep.Failed = append(rep.Failed, f)
			continue
		}
		logs, _ := filepath.Glob(filepath.Join(m.LogDir(), fmt.Sprintf("%d.*", i)))
		sort.Strings(logs)
		rep.Missing = append(rep.Missing, Missing{Index: i, ID: it.ID, Logs: logs})
	}
	return rep, results, nil
}

// Collect merges m's results through its kind's Collect into out, and
// reports which items are failed or missing (the table then covers the
// others). The error is for a collect that could not be done.
func Collect(m *Manifest, out Output) (Report, error) {
	rep, results, err := Status(m)
	if err != nil {
		return rep, err
	}
	k, _ := Lookup(m.Sweep)
	return rep, k.Collect(m.Params, results, out)
}

func sortFailures(f []Failure) {
	sort.Slice(f, func(a, b int) bool { return f[a].Index < f[b].Index })
}
