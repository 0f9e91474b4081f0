package highs

import (
	"fmt"
	"regexp"
	"strings"
)

// glue is what this package needs from the emscripten JavaScript glue
// (highs.js): the names behind the module's minified imports and exports.
type glue struct {
	// imports maps a minified import name (module "a") to the emscripten
	// function it stands for, e.g. "a" → "___cxa_throw".
	imports map[string]string
	// exports maps a C symbol (with emscripten's leading underscore, e.g.
	// "_Highs_run", "_malloc") to its minified export name.
	exports map[string]string
	// ctor is the export that runs the static constructors (initRuntime's
	// wasmExports["v"]()); empty when the glue calls none.
	ctor string
	// memory is the exported memory's name; empty when not found.
	memory string
}

var (
	reImports = regexp.MustCompile(`wasmImports\s*=\s*\{([^}]*)\}`)
	// _Highs_run=Module["_Highs_run"]=wasmExports["N"] and
	// __emscripten_stack_alloc=wasmExports["xc"] and wasmMemory=wasmExports["u"].
	reExport = regexp.MustCompile(`([A-Za-z_$][\w$]*)\s*=\s*(?:Module\["[^"]*"\]\s*=\s*)?wasmExports\["([^"]+)"\]`)
	reInit   = regexp.MustCompile(`function initRuntime\(\)\s*\{[^}]*?wasmExports\["([^"]+)"\]\(\)`)
)

// parseGlue reads the import and export mappings from the text of highs.js.
func parseGlue(js string) (*glue, error) {
	g := &glue{imports: map[string]string{}, exports: map[string]string{}}
	m := reImports.FindStringSubmatch(js)
	if m == nil {
		return nil, fmt.Errorf("no wasmImports={...} object")
	}
	for _, pair := range strings.Split(m[1], ",") {
		pair = strings.TrimSpace(pair)
		if pair == "" {
			continue
		}
		k, v, ok := strings.Cut(pair, ":")
		if !ok {
			return nil, fmt.Errorf("wasmImports entry %q is not key:value", pair)
		}
		k = strings.Trim(strings.TrimSpace(k), `"'`)
		g.imports[k] = strings.TrimSpace(v)
	}
	if len(g.imports) == 0 {
		return nil, fmt.Errorf("empty wasmImports object")
	}
	for _, m := range reExport.FindAllStringSubmatch(js, -1) {
		sym, exp := m[1], m[2]
		switch sym {
		case "wasmMemory":
			g.memory = exp
		case "wasmTable":
		default:
			g.exports[sym] = exp
		}
	}
	if m := reInit.FindStringSubmatch(js); m != nil {
		g.ctor = m[1]
	} else if e, ok := g.exports["___wasm_call_ctors"]; ok {
		g.ctor = e
	}
	for _, need := range []string{"_malloc", "_free", "_Highs_create", "_Highs_run"} {
		if _, ok := g.exports[need]; !ok {
			return nil, fmt.Errorf("no export mapping for %s", need)
		}
	}
	return g, nil
}
