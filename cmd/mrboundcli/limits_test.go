package mrboundcli

import (
	"errors"
	"reflect"
	"testing"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/sizelimit"
)

// TestTakeMaxMemory: --max-memory is taken from anywhere before "--", in
// both forms, the last one winning; a malformed size or environment value
// is bad input naming it.
func TestTakeMaxMemory(t *testing.T) {
	t.Setenv(sizelimit.EnvVar, "")
	for _, c := range []struct {
		args []string
		rest []string
		size int64
	}{
		{[]string{"mrbound", "solve", "x.json"}, []string{"mrbound", "solve", "x.json"}, 0},
		{[]string{"mrbound", "--max-memory", "64GiB", "solve", "x.json"}, []string{"mrbound", "solve", "x.json"}, 64 << 30},
		{[]string{"mrbound", "solve", "x.json", "--max-memory=1e9", "--json"}, []string{"mrbound", "solve", "x.json", "--json"}, 1e9},
		{[]string{"mrbound", "solve", "-max-memory", "1MiB", "--max-memory", "2MiB", "x.json"}, []string{"mrbound", "solve", "x.json"}, 2 << 20},
		{[]string{"mrbound", "solve", "--", "--max-memory", "1"}, []string{"mrbound", "solve", "--", "--max-memory", "1"}, 0},
	} {
		rest, size, err := takeMaxMemory(c.args)
		if err != nil || size != c.size || !reflect.DeepEqual(rest, c.rest) {
			t.Errorf("%q: %q, %d, %v; want %q, %d", c.args, rest, size, err, c.rest, c.size)
		}
	}
	for _, args := range [][]string{{"mrbound", "--max-memory"}, {"mrbound", "--max-memory", "-5"}, {"mrbound", "--max-memory=lots"}} {
		if _, _, err := takeMaxMemory(args); err == nil || !errors.Is(err, badinput.Err) {
			t.Errorf("%q: %v, want bad input", args, err)
		}
	}
	t.Setenv(sizelimit.EnvVar, "many")
	if _, _, err := takeMaxMemory([]string{"mrbound", "version"}); err == nil || !errors.Is(err, badinput.Err) {
		t.Errorf("%s=many: %v, want bad input", sizelimit.EnvVar, err)
	}
	if _, size, err := takeMaxMemory([]string{"mrbound", "--max-memory", "3GiB", "version"}); err != nil || size != 3<<30 {
		t.Errorf("the flag over a malformed environment: %d, %v", size, err)
	}
}
