package sweep

import (
	"errors"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/sizelimit"
)

// TestParseIndicesSize: a list of a few bytes that names 2·10^9 items is
// refused before one index is appended (it would have been 16 GB of
// indices), naming the list and the budget; a list of 10^5 is expanded.
func TestParseIndicesSize(t *testing.T) {
	defer sizelimit.SetBudget(8 << 30)()
	for _, s := range []string{"0-2000000000", "0-9,5-9223372036854775806", "1," + strings.Repeat("0-100000000,", 200) + "3"} {
		_, err := ParseIndices(s)
		if err == nil || !errors.Is(err, sizelimit.ErrTooLarge) || !errors.Is(err, badinput.Err) || !strings.HasPrefix(err.Error(), "items \"") {
			t.Errorf("%.40s: %v, want a refusal naming the items", s, err)
		}
	}
	idx, err := ParseIndices("0-99999")
	if err != nil || len(idx) != 100000 || idx[99999] != 99999 {
		t.Errorf("0-99999: %d indices, %v", len(idx), err)
	}
}
