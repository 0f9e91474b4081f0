package sweep

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/enum"
	"github.com/mrbound/mrbound/sweep/record"
)

// Result is the file results/<index>.json: one finished item.
type Result struct {
	SchemaVersion int    `json:"schema_version"`
	Index         int    `json:"index"`
	ID            string `json:"id"`
	// Host ran the item; Seconds is its wall time.
	Host    string  `json:"host"`
	Seconds float64 `json:"seconds"`
	// Value is the kind's result.
	Value json.RawMessage `json:"value"`
}

// Failure is the file results/<index>.failed.json: the last attempt of the
// item failed.
type Failure struct {
	SchemaVersion int    `json:"schema_version"`
	Index         int    `json:"index"`
	ID            string `json:"id"`
	Host          string `json:"host"`
	// Error is the failure's message.
	Error string `json:"error"`
	// Log is the item's log file.
	Log string `json:"log"`
}

// Outcome is what RunItem did. Zero is unknown.
type Outcome int8

const (
	OutcomeUnknown Outcome = iota
	// Skipped: the item already had a result; nothing ran.
	Skipped
	// Done: the item ran and its result was written.
	Done
	// Failed: the item ran and failed; its failure was written.
	Failed
)

var outcomeNames = enum.Names[Outcome]{"unknown", "skipped", "done", "failed"}

func (o Outcome) String() string { return outcomeNames.String(o) }

// MarshalText encodes the outcome by name.
func (o Outcome) MarshalText() ([]byte, error) { return outcomeNames.Text(o) }

// Log lines that mark an attempt's start and end in logs/<index>.log.
const (
	logAttempt = "== attempt"
	logDone    = "== done"
	logFailed  = "== failed"
	logStopped = "== interrupted"
)

// RunItem runs item index of m unless its result exists. A failure of the
// item is the Failed outcome with its message in fail (and in
// results/<index>.failed.json), not an error: the error is for a call that
// could not be made (bad index, unwritable directory) or was interrupted
// (ctx's error; the item stays missing).
//
// An item runs once even when several processes run the sweep at once (two
// `sweep submit --jobs 1`, a requeued array task): the attempt holds an
// exclusive lock on the item's log file (flock) from before it checks for
// a result until the result is written, and a second process waits for the
// lock, then finds the result and skips. The kernel drops the lock when its
// process dies, however it dies, so a killed attempt leaves no stale claim:
// the next one takes the lock and runs the item again.
func RunItem(ctx context.Context, m *Manifest, index int) (out Outcome, fail string, err error) {
	return runItem(ctx, m, index, true, failureNow(m, index))
}

// failureNow is item index's failure record as it is now (nil if none), to
// tell a failure recorded later by another process (a new file: records are
// renamed into place) from an old one. File identities, unlike times, do
// not depend on the clocks of an NFS server and its clients.
func failureNow(m *Manifest, index int) os.FileInfo {
	st, _ := os.Stat(m.FailurePath(index))
	return st
}

// errBusy: another process holds the item's lock and runItem was told not
// to wait.
var errBusy = errors.New("sweep: item running in another process")

// runItem is RunItem; without wait it returns errBusy when another process
// holds the item. A failure recorded since the caller looked (oldFailure,
// from failureNow) — by another process, while this one waited or worked
// on other items — is this attempt's too: the item is not run again until
// the next submit.
func runItem(ctx context.Context, m *Manifest, index int, wait bool, oldFailure os.FileInfo) (out Outcome, fail string, err error) {
	if index < 0 || index >= len(m.Items) {
		return OutcomeUnknown, "", badinput.Errorf("%s: item index %d out of range 0..%d", m.Path, index, len(m.Items)-1)
	}
	if _, err := readResult(m, index); err == nil {
		return Skipped, "", nil
	}
	k, _ := Lookup(m.Sweep)
	for _, d := range []string{filepath.Dir(m.ResultPath(index)), m.LogDir()} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return OutcomeUnknown, "", badinput.Errorf("%s: %v", d, err)
		}
	}
	logf, err := os.OpenFile(m.LogPath(index), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return OutcomeUnknown, "", badinput.Errorf("%s: %v", m.LogPath(index), err)
	}
	defer logf.Close()
	if _, err := lockItem(ctx, logf, wait); err != nil {
		return OutcomeUnknown, "", err
	}
	// Another process may have finished the item while we waited: its
	// result, or its failure, is this attempt's too.
	if _, err := readResult(m, index); err == nil {
		return Skipped, "", nil
	}
	if st, err := os.Stat(m.FailurePath(index)); err == nil && (oldFailure == nil || !os.SameFile(st, oldFailure)) {
		if f, err := readFailure(m, index); err == nil {
			return Failed, f.Error, nil
		}
	}
	host, _ := os.Hostname()
	item := m.Items[index]
	start := time.Now()
	fmt.Fprintf(logf, "%s %d (%s) on %s, pid %d, at %s\n", logAttempt, index, item.ID, host, os.Getpid(), start.UTC().Format(time.RFC3339))
	value, runErr := runGuarded(ctx, k, m.Params, item.Spec, logf)
	secs := time.Since(start).Seconds()
	if runErr != nil && ctx.Err() != nil {
		fmt.Fprintf(logf, "%s after %.3fs: %v\n", logStopped, secs, runErr)
		return OutcomeUnknown, "", ctx.Err()
	}
	if runErr == nil && !json.Valid(value) {
		runErr = fmt.Errorf("sweep kind %s returned a result that is not JSON", m.Sweep)
	}
	if runErr != nil {
		msg := strings.Join(strings.Fields(runErr.Error()), " ")
		f := Failure{SchemaVersion: SchemaVersion, Index: index, ID: item.ID, Host: host, Error: msg, Log: m.LogPath(index)}
		if err := writeJSON(m.FailurePath(index), f); err != nil {
			return OutcomeUnknown, "", err
		}
		fmt.Fprintf(logf, "%s after %.3fs: %s\n", logFailed, secs, msg)
		return Failed, msg, nil
	}
	r := Result{SchemaVersion: SchemaVersion, Index: index, ID: item.ID, Host: host, Seconds: secs, Value: value}
	if err := writeJSON(m.ResultPath(index), r); err != nil {
		return OutcomeUnknown, "", err
	}
	os.Remove(m.FailurePath(index))
	fmt.Fprintf(logf, "%s in %.3fs\n", logDone, secs)
	return Done, "", nil
}

// runGuarded runs k.Run, turning a panic into the item's failure.
func runGuarded(ctx context.Context, k Kind, params, spec json.RawMessage, log io.Writer) (v json.RawMessage, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: %v", r)
		}
	}()
	return k.Run(ctx, params, spec, log)
}

func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	return record.WriteFileAtomic(path, func(w io.Writer) error { _, err := w.Write(data); return err })
}

// errNoResult: the item has no result file.
var errNoResult = errors.New("sweep: no result")

// readResult reads item index's result; errNoResult when there is none. A
// result that belongs to another item (a manifest rewritten under old
// results) is an error.
func readResult(m *Manifest, index int) (*Result, error) {
	path := m.ResultPath(index)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, errNoResult
	}
	if err != nil {
		return nil, err
	}
	var r Result
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, &badinput.PathError{File: path, Problem: jsonProblem(err)}
	}
	r.Value = compactJSON(r.Value)
	if r.Index != index || r.ID != m.Items[index].ID {
		return nil, &badinput.PathError{File: path, Problem: fmt.Sprintf("result of item %d (%s), but the manifest's item %d is %s", r.Index, r.ID, index, m.Items[index].ID)}
	}
	return &r, nil
}

// Todo lists the items without a result, in order (failed ones
// included: they run again).
func Todo(m *Manifest) []int {
	var out []int
	for i := range m.Items {
		if _, err := readResult(m, i); err != nil {
			out = append(out, i)
		}
	}
	return out
}

// Attempts counts the attempts recorded in item index's log.
func Attempts(m *Manifest, index int) int {
	data, err := os.ReadFile(m.LogPath(index))
	if err != nil {
		return 0
	}
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, logAttempt+" ") {
			n++
		}
	}
	return n
}

// readFailure reads item index's failure record.
func readFailure(m *Manifest, index int) (*Failure, error) {
	data, err := os.ReadFile(m.FailurePath(index))
	if err != nil {
		return nil, err
	}
	var f Failure
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	return &f, nil
}
