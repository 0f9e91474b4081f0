package policy

import (
	"errors"
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
	if _, err := New("lifo", Params{}); !errors.Is(err, badinput.Err) || err.Error() != `--policy: unknown policy "lifo" (coshh, coshh-fallback, edf, fair, fair-nodelay, fifo)` {
		t.Errorf("unknown policy: %v", err)
	}
}
