package hugepage

import (
	"syscall"
	"unsafe"
)

// advise gives MADV_HUGEPAGE for the whole pages of [p, p+n). An error (an
// old kernel, THP disabled) leaves the default pages: it is ignored.
func advise(p unsafe.Pointer, n uintptr) {
	const page = 4096
	start := (uintptr(p) + page - 1) &^ (page - 1)
	end := (uintptr(p) + n) &^ (page - 1)
	if end <= start {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Add(p, start-uintptr(p))), end-start)
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
}
