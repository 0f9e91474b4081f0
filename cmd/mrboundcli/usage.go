package mrboundcli

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mrbound/mrbound/badinput"
)

// Usage errors — an unknown flag or command, a flag value that does not
// parse, a flag without its value, a missing required flag — are bad input
// (exit 1) with one line naming the flag and the command; exit 2 stays for
// internal errors. urfave/cli reports them in Go's flag package's words
// ("invalid value "abc" for flag -nodes: parse error") and, left alone,
// prints the whole help; usageError rewrites them.

var (
	invalidValue = regexp.MustCompile(`^invalid value "(.*)" for flag -{1,2}([^:]+): (.*)$`)
	undefined    = regexp.MustCompile(`^flag provided but not defined: -{1,2}(.+)$`)
	needsValue   = regexp.MustCompile(`^flag needs an argument: -{1,2}(.+)$`)
)

// usageError turns a parse error of cmd's flags (cmd is "" for mrbound
// itself, else e.g. "generate mrcp") into one line of bad input.
func usageError(c *cli.Context, cmd string, err error) error {
	msg := err.Error()
	switch {
	case invalidValue.MatchString(msg):
		m := invalidValue.FindStringSubmatch(msg)
		msg = fmt.Sprintf("--%s: %q is not %s", m[2], m[1], valueKind(c, m[2]))
	case undefined.MatchString(msg):
		msg = fmt.Sprintf("unknown flag --%s", undefined.FindStringSubmatch(msg)[1])
	case needsValue.MatchString(msg):
		msg = fmt.Sprintf("--%s needs a value", needsValue.FindStringSubmatch(msg)[1])
	}
	help := strings.TrimSpace("mrbound " + cmd)
	if cmd != "" {
		msg = cmd + ": " + msg
	}
	return badinput.Errorf("%s (see %s --help)", msg, help)
}

// valueKind says what the flag name of the command being parsed takes.
func valueKind(c *cli.Context, name string) string {
	var flags []cli.Flag
	if c.Command != nil {
		flags = c.Command.Flags
	}
	for _, f := range append(flags, c.App.Flags...) {
		if !slices.Contains(f.Names(), name) {
			continue
		}
		switch f.(type) {
		case *cli.IntFlag, *cli.Int64Flag, *cli.UintFlag, *cli.Uint64Flag:
			return "an integer"
		case *cli.Float64Flag:
			return "a number"
		case *cli.DurationFlag:
			return "a duration such as 90s, 5m or 1h30m"
		case *cli.BoolFlag:
			return "true or false"
		}
	}
	return "a valid value"
}

// guardUsage makes every usage error of app and its commands bad input.
// An unknown command is recorded in notFound, which run reports. Required
// flags are checked before the action instead of by urfave/cli, which would
// print the whole help to standard output besides the error.
func guardUsage(app *cli.App, notFound *string) {
	app.OnUsageError = func(c *cli.Context, err error, _ bool) error { return usageError(c, "", err) }
	app.CommandNotFound = func(c *cli.Context, name string) {
		where := commandPath(c)
		if where != "" {
			where += ": "
		}
		*notFound = fmt.Sprintf("%sunknown command %q (one of %s; see mrbound %s--help)", where, name, strings.Join(commandNames(c), ", "), strings.TrimSuffix(where, ": ")+" ")
		*notFound = strings.ReplaceAll(*notFound, "mrbound  --help", "mrbound --help")
	}
	var walk func(prefix string, cmds []*cli.Command)
	walk = func(prefix string, cmds []*cli.Command) {
		for _, cmd := range cmds {
			path := strings.TrimSpace(prefix + " " + cmd.Name)
			cmd.OnUsageError = func(c *cli.Context, err error, _ bool) error { return usageError(c, path, err) }
			var must []string
			for _, f := range cmd.Flags {
				if sf, ok := f.(*cli.StringFlag); ok && sf.Required {
					sf.Required = false
					must = append(must, sf.Name)
				}
			}
			if act := cmd.Action; act != nil && len(must) > 0 {
				cmd.Action = func(c *cli.Context) error {
					for _, name := range must {
						if !c.IsSet(name) {
							return badinput.Errorf("%s: missing required flag --%s (see mrbound %s --help)", path, name, path)
						}
					}
					return act(c)
				}
			}
			walk(path, cmd.Subcommands)
		}
	}
	walk("", app.Commands)
}

// commandPath is the command whose subcommand was not found ("" at the top).
func commandPath(c *cli.Context) string {
	if c.Command == nil || c.Command.Name == "" || c.Command.Name == c.App.Name {
		return ""
	}
	return c.Command.FullName()
}

func commandNames(c *cli.Context) []string {
	cmds := c.App.Commands
	if c.Command != nil && len(c.Command.Subcommands) > 0 {
		cmds = c.Command.Subcommands
	}
	var names []string
	for _, cmd := range cmds {
		if !cmd.Hidden && cmd.Name != "help" {
			names = append(names, cmd.Name)
		}
	}
	return names
}
