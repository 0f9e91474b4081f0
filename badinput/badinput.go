package badinput

import (
	"errors"
	"fmt"
	"strings"
)

// Err is wrapped by every error that means the input is wrong (a scenario
// file, an option, a flag), as opposed to a call that failed.
var Err = errors.New("bad input")

// PathError names the place in an input file that is wrong. Its message is
// the non-empty fields joined by ": ", e.g.
//
//	scenario.json: jobs[2].maps[1].blocks: a map task needs at least one block
//	scenario.json: coshh: $.classes[0].mu[1]: execution rate -1 is not a non-negative number
type PathError struct {
	// File names the input (as the caller gave it); may be empty.
	File string
	// Kind, when set, names the scenario kind after the file; the coshh and
	// tumm loaders set it, the others leave it empty.
	Kind string
	// Path is the JSON path (jobs[2].maps[1], $.classes[0]) or a
	// line:column for a syntax error; may be empty.
	Path string
	// Problem says what is wrong.
	Problem string
}

func (e *PathError) Error() string {
	parts := make([]string, 0, 4)
	for _, s := range []string{e.File, e.Kind, e.Path, e.Problem} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ": ")
}

// Unwrap lets errors.Is(err, Err) hold.
func (e *PathError) Unwrap() error { return Err }

// Errorf formats a bad-input message as fmt.Errorf does (%w verbs wrap);
// the result also wraps Err. The message does not repeat Err's text.
func Errorf(format string, a ...any) error { return &wrapped{fmt.Errorf(format, a...)} }

// wrapped adds Err to the chain of a formatted error.
type wrapped struct{ error }

func (e *wrapped) Unwrap() []error { return []error{Err, e.error} }

// InFile names file in a bad-input error: a *PathError without a file gets
// it, any other error is prefixed with "file: " (and wraps Err). A nil err
// or an empty file returns err unchanged.
func InFile(file string, err error) error {
	if err == nil || file == "" {
		return err
	}
	var pe *PathError
	if errors.As(err, &pe) && pe.File == "" && pe == err {
		named := *pe
		named.File = file
		return &named
	}
	return Errorf("%s: %w", file, err)
}
