//go:build !linux

package hugepage

import "unsafe"

// advise is a no-op where transparent huge pages cannot be asked for.
func advise(p unsafe.Pointer, n uintptr) {}
