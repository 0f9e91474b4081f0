package formulations_test

import (
	"context"
	"fmt"
	"os"

	"github.com/mrbound/mrbound/formulations"
	"github.com/mrbound/mrbound/formulations/coshh"
	"github.com/mrbound/mrbound/formulations/jlassi"
	"github.com/mrbound/mrbound/formulations/mrcp"
	"github.com/mrbound/mrbound/formulations/tumm"
)

// Every formulation is called the same way and read through the same
// interface: here one small scenario of each kind, on the default backend.
func Example() {
	ctx := context.Background()
	run := map[string]func(path string, data []byte) (formulations.Report, error){
		"jlassi": func(p string, d []byte) (formulations.Report, error) { return jlassi.Run(ctx, p, d, jlassi.Options{}) },
		"mrcp":   func(p string, d []byte) (formulations.Report, error) { return mrcp.Run(ctx, p, d, mrcp.Options{}) },
		"coshh":  func(p string, d []byte) (formulations.Report, error) { return coshh.Run(ctx, p, d, coshh.Options{}) },
		"tumm":   func(p string, d []byte) (formulations.Report, error) { return tumm.Run(ctx, p, d, tumm.Options{}) },
	}
	for _, c := range []struct{ kind, file string }{
		{"jlassi", "../cmd/mrbound/testdata/jlassi-migration-text/input.json"},
		{"mrcp", "../cmd/mrbound/testdata/mrcp-tiny-text/input.json"},
		{"coshh", "../examples/coshh-paper.json"},
		{"tumm", "../examples/tumm-static.json"},
	} {
		data, err := os.ReadFile(c.file)
		if err != nil {
			fmt.Println(err)
			return
		}
		rep, err := run[c.kind](c.file, data)
		if err != nil {
			fmt.Println(err) // bad input (errors.Is(err, badinput.Err)) or a failed call
			return
		}
		o := rep.Outcome()
		fmt.Printf("%-6s %v, %s %s %.6g (bound %.6g), %v\n", c.kind, o.Status, o.Sense, o.Measure, o.Objective, o.Bound, o.Verdict)
	}
	// Output:
	// jlassi optimal, minimize realtime 15 (bound 15), verified
	// mrcp   optimal, minimize product 20 (bound 20), verified
	// coshh  optimal, maximize lambda 1.02041 (bound 1.02041), verified
	// tumm   optimal, minimize makespan 522.182 (bound 522.182), verified
}
