package mrboundcli

import "testing"

// TestKindFlagsDeclared: every flag a kind says it reads is a kind flag, so
// that a typo cannot make a flag silently rejected or silently ignored.
func TestKindFlagsDeclared(t *testing.T) {
	known := map[string]bool{}
	for _, f := range kindFlags {
		known[f.Names()[0]] = true
	}
	if len(kinds) != 4 {
		t.Errorf("%d kinds registered, want 4 (jlassi, mrcp, coshh, tumm)", len(kinds))
	}
	for name, k := range kinds {
		if k.Run == nil {
			t.Errorf("kind %s has no Run", name)
		}
		for _, f := range k.Flags {
			if !known[f] {
				t.Errorf("kind %s reads --%s, which is not a kind flag", name, f)
			}
		}
	}
}
