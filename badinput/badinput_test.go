package badinput

import (
	"errors"
	"io/fs"
	"testing"
)

func TestPathErrorMessage(t *testing.T) {
	for _, c := range []struct {
		e    PathError
		want string
	}{
		{PathError{File: "s.json", Path: "jobs[2].maps[1].blocks", Problem: "a map task needs at least one block"}, "s.json: jobs[2].maps[1].blocks: a map task needs at least one block"},
		{PathError{File: "s.json", Problem: "trailing data"}, "s.json: trailing data"},
		{PathError{Kind: "coshh", Path: "$.classes[0].mu[1]", Problem: "negative"}, "coshh: $.classes[0].mu[1]: negative"},
		{PathError{File: "a", Kind: "tumm", Path: "$", Problem: "empty"}, "a: tumm: $: empty"},
	} {
		if got := c.e.Error(); got != c.want {
			t.Errorf("%+v: got %q, want %q", c.e, got, c.want)
		}
		if !errors.Is(&c.e, Err) {
			t.Errorf("%+v does not wrap Err", c.e)
		}
	}
}

func TestErrorf(t *testing.T) {
	err := Errorf("--horizon: %w", fs.ErrNotExist)
	if got, want := err.Error(), "--horizon: "+fs.ErrNotExist.Error(); got != want {
		t.Errorf("message %q, want %q", got, want)
	}
	if !errors.Is(err, Err) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%v: wraps Err %v, wraps fs.ErrNotExist %v", err, errors.Is(err, Err), errors.Is(err, fs.ErrNotExist))
	}
	if errors.Is(errors.New("x"), Err) {
		t.Error("a plain error wraps Err")
	}
}

func TestInFile(t *testing.T) {
	pe := &PathError{Kind: "coshh", Path: "$.x", Problem: "bad"}
	if got, want := InFile("a.json", pe).Error(), "a.json: coshh: $.x: bad"; got != want {
		t.Errorf("PathError: %q, want %q", got, want)
	}
	if pe.File != "" {
		t.Error("InFile changed its argument")
	}
	err := InFile("a.json", fs.ErrNotExist)
	if got, want := err.Error(), "a.json: "+fs.ErrNotExist.Error(); got != want || !errors.Is(err, Err) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("plain error: %q (want %q), wraps Err %v", got, want, errors.Is(err, Err))
	}
	named := &PathError{File: "b.json", Problem: "x"}
	if got := InFile("a.json", named).Error(); got != "a.json: b.json: x" {
		t.Errorf("a PathError with a file is prefixed: got %q", got)
	}
	if InFile("a.json", nil) != nil || InFile("", pe) != pe {
		t.Error("nil error or empty file not passed through")
	}
}
