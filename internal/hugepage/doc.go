// Package hugepage asks the kernel to back large, once-written arrays with
// transparent huge pages: the simulator's per-task arrays, the workload's
// task specs and the checker's per-task status, which a day of millions of
// tasks fills once, page after page (issue 30).
//
// # Why
//
// On a virtual machine the first touch of a fresh 4-KB page costs about
// 18 µs of CPU, much more than the writes it takes (docs/results.md, issue
// 30, s11engine). The kernel here runs transparent huge pages in "madvise"
// mode, and the Go runtime does not ask for them, so an array gets 4-KB
// pages unless it is advised.
//
// # What it does not do
//
// It changes no value: the advice is about how memory is backed. Below
// MinBytes it does nothing (a 2-MB page of a small array would mostly back
// other objects), and where the advice is not supported (another system,
// an old kernel, THP disabled) it is a no-op.
package hugepage
