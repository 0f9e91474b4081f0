package sim

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestPreferHuge: a per-task array of hugeMinBytes or more ends up in a
// mapping the kernel marks for huge pages (VmFlags "hg" in
// /proc/self/smaps), its contents unchanged; nil and empty slices are
// accepted.
func TestPreferHuge(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(mode), "[never]") {
		t.Skip("transparent huge pages unavailable on this kernel")
	}
	preferHuge([]int32(nil))
	preferHuge(make([]taskRT, 0))
	s := make([]int64, 0, 2*hugeMinBytes/8)
	s = append(s, 7, -1)
	preferHuge(s)
	if len(s) != 2 || s[0] != 7 || s[1] != -1 {
		t.Fatalf("contents changed: %v", s)
	}
	// a whole page inside the array, past any unaligned head
	addr := uintptr(unsafe.Pointer(&s[:cap(s)][cap(s)/2]))
	flags, ok := vmFlags(t, addr)
	if !ok {
		t.Fatalf("no mapping holds %#x", addr)
	}
	if !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("mapping of %#x has VmFlags %q, want hg", addr, flags)
	}
}

// vmFlags returns the VmFlags line of the mapping of /proc/self/smaps that
// holds addr.
func vmFlags(t *testing.T, addr uintptr) (string, bool) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps")
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := strings.Cut(strings.Fields(line + " ")[0], "-"); ok && !strings.HasSuffix(lo, ":") {
			a, err1 := strconv.ParseUint(lo, 16, 64)
			b, err2 := strconv.ParseUint(hi, 16, 64)
			in = err1 == nil && err2 == nil && uint64(addr) >= a && uint64(addr) < b
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:")), true
		}
	}
	return "", false
}
