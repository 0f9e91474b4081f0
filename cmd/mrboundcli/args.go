package mrboundcli

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// interspersed moves a command's flags before its positional arguments, so
// that `mrbound solve FILE --json` works as well as `mrbound solve --json FILE`
// (urfave/cli v2 stops parsing flags at the first positional argument).
func interspersed(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	out := []string{args[0]}
	var rest []string
	for _, a := range args[1:] {
		if a == "--" {
			break
		}
		if isGlobalFlag(a) {
			out = append(out, a) // --quiet may be written anywhere
		}
	}
	for i, a := range args[1:] {
		if a == "--" {
			rest = append(rest, args[1+i:]...)
			break
		}
		if !isGlobalFlag(a) {
			rest = append(rest, a)
		}
	}
	// Global flags come first; then the command and any subcommands.
	for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
		out, rest = append(out, rest[0]), rest[1:]
	}
	cmds := app.Commands
	var cmd *cli.Command
	for len(rest) > 0 {
		next := findCommand(cmds, rest[0])
		if next == nil {
			break
		}
		cmd = next
		out, rest = append(out, rest[0]), rest[1:]
		cmds = cmd.Subcommands
	}
	if cmd == nil {
		return append(out, rest...)
	}
	var flags, positional []string
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			positional = append(positional, rest[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			positional = append(positional, a)
			continue
		}
		flags = append(flags, a)
		if !strings.Contains(a, "=") && takesValue(cmd, strings.TrimLeft(a, "-")) && i+1 < len(rest) {
			i++
			flags = append(flags, rest[i])
		}
	}
	out = append(out, flags...)
	return append(out, positional...)
}

// isGlobalFlag reports whether a is the global --quiet (the one flag the
// app itself reads), in any of its spellings.
func isGlobalFlag(a string) bool {
	switch a {
	case "--quiet", "-quiet", "-q", "--q", "--quiet=true", "--quiet=false", "-q=true", "-q=false":
		return true
	}
	return false
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

// takesValue reports whether the flag called name on cmd reads a value.
func takesValue(cmd *cli.Command, name string) bool {
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			if n != name {
				continue
			}
			if _, isBool := f.(*cli.BoolFlag); isBool {
				return false
			}
			return true
		}
	}
	return false
}
