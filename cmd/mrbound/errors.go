package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/solve"
	"github.com/mrbound/mrbound/solve/highs"
)

// Exit codes of mrbound.
const (
	exitOK       = 0
	exitBadInput = 1
	exitInternal = 2
)

// exitError carries an exit code; it implements cli.ExitCoder.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }
func (e *exitError) ExitCode() int { return e.code }

// badInput marks err as the user's input being wrong: exit code 1.
func badInput(err error) error {
	if err == nil {
		return nil
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return err
	}
	return &exitError{code: exitBadInput, err: err}
}

// badInputf is badInput(fmt.Errorf(...)).
func badInputf(format string, a ...any) error { return badInput(fmt.Errorf(format, a...)) }

// exitCode maps an error returned by an action to the process exit code:
// bad input 1, anything else 2.
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	for _, bad := range userErrors {
		if errors.Is(err, bad) {
			return exitBadInput
		}
	}
	return exitInternal
}

// userErrors are library errors that mean the input or the set-up is wrong
// (exit 1), wherever in a command they surface.
var userErrors = []error{
	badinput.Err,
	model.ErrInvalid,
	solve.ErrUnknownSolver,
	highs.ErrNotInstalled,
	highs.ErrUnusable,
	highs.ErrRejected,
}

// writeFileAtomic writes path through a temporary file in the same directory
// and renames it into place, so that a failure leaves no half-written file.
func writeFileAtomic(path string, write func(io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return badInput(fmt.Errorf("%s: cannot write: %v", path, err))
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = write(tmp); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
