package mrboundcli

import (
	"strings"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/sizelimit"
)

// maxMemoryFlag is the global --max-memory flag: the memory an input may
// imply (package sizelimit). It is read by run, anywhere on the command
// line before a "--", because every command and generator honours it.
const maxMemoryFlag = "--max-memory"

// takeMaxMemory removes --max-memory SIZE (or --max-memory=SIZE) from args
// and returns the size in bytes (0 when absent). A malformed size, or a
// malformed MRBOUND_MAX_MEMORY when the flag is absent, is bad input.
func takeMaxMemory(args []string) ([]string, int64, error) {
	out := make([]string, 0, len(args))
	var size int64
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			out = append(out, args[i:]...)
			break
		}
		var value string
		switch {
		case a == maxMemoryFlag || a == "-max-memory":
			if i+1 >= len(args) {
				return nil, 0, badinput.Errorf("%s: needs a size, e.g. 64GiB", maxMemoryFlag)
			}
			i++
			value = args[i]
		case strings.HasPrefix(a, maxMemoryFlag+"=") || strings.HasPrefix(a, "-max-memory="):
			_, value, _ = strings.Cut(a, "=")
		default:
			out = append(out, a)
			continue
		}
		b, err := sizelimit.ParseBytes(value)
		if err != nil {
			return nil, 0, badinput.Errorf("%s: %v", maxMemoryFlag, err)
		}
		size = b
	}
	if size == 0 {
		if err := sizelimit.CheckEnv(); err != nil {
			return nil, 0, err
		}
	}
	return out, size, nil
}
