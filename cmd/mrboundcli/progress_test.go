package mrboundcli

import (
	"bytes"
	"reflect"
	"testing"
)

// --quiet is global but may be written anywhere: interspersed moves it
// before the command, and every spelling runs.
func TestQuietAnywhere(t *testing.T) {
	app := newApp(nil, nil)
	got := interspersed(app, []string{"mrbound", "solve", "x.mps", "--quiet", "--json"})
	want := []string{"mrbound", "--quiet", "solve", "--json", "x.mps"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("interspersed = %q, want %q", got, want)
	}
	for _, args := range [][]string{{"mrbound", "--quiet", "version"}, {"mrbound", "version", "-q"}, {"mrbound", "version", "--quiet"}} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 0 || stderr.Len() != 0 {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr.String())
		}
	}
}
