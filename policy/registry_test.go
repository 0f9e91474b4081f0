package policy

import (
	"errors"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
)

func TestNew(t *testing.T) {
	for _, n := range Names() {
		p, err := New(n, Params{})
		if err != nil || p == nil {
			t.Errorf("%s: %v", n, err)
		}
	}
	want := `--policy: unknown policy "lifo" (` + strings.Join(Names(), ", ") + ")"
	if _, err := New("lifo", Params{}); !errors.Is(err, badinput.Err) || err.Error() != want {
		t.Errorf("unknown policy: %v", err)
	}
}
