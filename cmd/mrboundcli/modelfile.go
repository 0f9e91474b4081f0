package mrboundcli

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/model/lpformat"
	"github.com/mrbound/mrbound/model/mps"
	"github.com/mrbound/mrbound/solve"
)

// isModelFile reports whether path names an MPS or LP model by its extension.
func isModelFile(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".mps", ".lp":
		return true
	}
	return false
}

func readModelFile(path string) (*model.Model, error) {
	var m *model.Model
	var err error
	switch strings.ToLower(filepath.Ext(path)) {
	case ".mps":
		m, err = mps.ReadFile(path)
	case ".lp":
		m, err = lpformat.ReadFile(path)
	default:
		return nil, badInputf("%s: unknown model format (expected .mps or .lp)", path)
	}
	return m, badInput(err)
}

func statsCommand() *cli.Command {
	return &cli.Command{
		Name:      "stats",
		Usage:     "print the size and numeric ranges of a model",
		ArgsUsage: "FILE.mps|FILE.lp",
		Action: func(c *cli.Context) error {
			path, err := oneArg(c, "FILE")
			if err != nil {
				return err
			}
			m, err := readModelFile(path)
			if err != nil {
				return err
			}
			w := c.App.Writer
			name := m.Name
			if name == "" {
				name = filepath.Base(path)
			}
			fmt.Fprintf(w, "model        %s\nsense        %s\n", name, m.Sense)
			return m.Stats().Write(w)
		},
	}
}

func exportCommand() *cli.Command {
	return &cli.Command{
		Name:      "export",
		Usage:     "convert a model to free MPS or CPLEX LP format",
		ArgsUsage: "FILE",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "mps", Usage: "output format: mps or lp"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` (atomically) instead of standard output"},
		},
		Action: func(c *cli.Context) error {
			path, err := oneArg(c, "FILE")
			if err != nil {
				return err
			}
			var write func(io.Writer, *model.Model) error
			switch c.String("format") {
			case "mps":
				write = mps.Write
			case "lp":
				write = lpformat.Write
			default:
				return badInputf("--format: unknown format %q (mps or lp)", c.String("format"))
			}
			m, err := readModelFile(path)
			if err != nil {
				return err
			}
			if out := c.String("output"); out != "" {
				return writeFileAtomic(out, func(w io.Writer) error { return write(w, m) })
			}
			return write(c.App.Writer, m)
		},
	}
}

func writeVersion(w io.Writer) error {
	_, err := fmt.Fprintf(w, "mrbound %s\nsolvers: %s\n", version, strings.Join(solve.Backends(), ", "))
	return err
}
