package hugepage

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// TestPrefer: an array of MinBytes or more ends up in a mapping the kernel
// marks for huge pages (VmFlags "hg" in /proc/self/smaps), its contents
// unchanged; an array below MinBytes is not advised; nil and empty slices
// are accepted.
func TestPrefer(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(mode), "[never]") {
		t.Skip("transparent huge pages unavailable on this kernel")
	}
	Prefer([]int32(nil))
	Prefer(make([]struct{ a, b int64 }, 0))
	s := make([]int64, 0, 2*MinBytes/8)
	s = append(s, 7, -1)
	Prefer(s)
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
	// A small array in a mapping of its own size is left alone: the
	// runtime gives a large object (> 32 KB) its own span, but it may share
	// a mapping (arena) with the advised array above, so test one in a
	// fresh mmap instead.
	small, err := syscall.Mmap(-1, 0, MinBytes/2, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip("mmap:", err)
	}
	defer syscall.Munmap(small)
	Prefer(small)
	if flags, ok := vmFlags(t, uintptr(unsafe.Pointer(&small[0]))); !ok || strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("an array of %d bytes: mapping found %v, VmFlags %q; want found, no hg", len(small), ok, flags)
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
