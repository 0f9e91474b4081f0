// Package atomicfile writes a file through a temporary file in the same
// directory and renames it into place, so that a failure or a kill leaves the
// old file or the new one, never half of one.
package atomicfile
