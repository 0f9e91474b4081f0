package mrboundcli

import (
	"errors"
	"io"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/atomicfile"
)

// Exit codes of mrbound.
const (
	exitOK       = 0
	exitBadInput = 1
	exitInternal = 2
)

// badInput marks err as the user's input being wrong (exit code 1); its
// message is unchanged.
func badInput(err error) error {
	if err == nil || errors.Is(err, badinput.Err) {
		return err
	}
	return badinput.Errorf("%w", err)
}

// badInputf is badInput(fmt.Errorf(...)).
func badInputf(format string, a ...any) error { return badinput.Errorf(format, a...) }

// exitCode maps an error returned by an action to the process exit code:
// bad input (anything wrapping badinput.Err, the one sentinel of every
// mrbound library) 1, anything else 2.
func exitCode(err error) int {
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, badinput.Err):
		return exitBadInput
	}
	var st *stoppedBySignal
	if errors.As(err, &st) {
		return 128 + st.signal
	}
	return exitInternal
}

// stoppedBySignal is a run that a signal's context stopped after it had
// reported what it did: it exits 128 + the signal's number, as a signal
// during the outputs' writing does (signals.go).
type stoppedBySignal struct {
	err    error
	signal int
}

func (e *stoppedBySignal) Error() string { return e.err.Error() }
func (e *stoppedBySignal) Unwrap() error { return e.err }

// writeFileAtomic writes path through a temporary file in the same directory
// and renames it into place, so that a failure leaves no half-written file.
func writeFileAtomic(path string, write func(io.Writer) error) error {
	return atomicfile.Write(path, write)
}
