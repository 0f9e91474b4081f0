package parsefuzz

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
)

// File is the name the fuzz targets give their input.
const File = "fuzz.json"

// OneLineBadInput seeds f with the example files and the extra inputs, then
// fuzzes parse (called with File) and fails on an error that is not one
// line of bad input starting with "fuzz.json".
func OneLineBadInput(f *testing.F, examples []string, extra []string, parse func(name string, data []byte) error) {
	for _, p := range examples {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range extra {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := parse(File, data)
		if err == nil {
			return
		}
		msg := err.Error()
		if !errors.Is(err, badinput.Err) || !strings.HasPrefix(msg, File+":") || strings.ContainsAny(msg, "\n\r") {
			t.Fatalf("error %q is not one line of bad input naming the file", msg)
		}
	})
}
