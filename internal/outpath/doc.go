// Package outpath refuses an output path that would destroy an input or is
// not a file: the same file as an input (through symbolic links, relative
// paths or hard links), a sweep directory's manifest or state files, a
// directory, a device node, a FIFO or a socket, or the same file as another
// output of the same run.
//
// # Use
//
// The CLI calls Check once per command, before the command reads or writes
// anything, with the command's inputs (its positional arguments and the
// files its flags read) and its outputs (the flags that name files to
// write). internal/atomicfile calls Target on every write, so a directory or
// a device node is refused on every path, the CLI's or a library's.
package outpath
