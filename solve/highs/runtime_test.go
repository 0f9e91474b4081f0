package highs

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tetratelabs/wazero/api"
)

// testEngine returns the engine of the installed build, skipping when there
// is none (and failing under CI, where `make test` installs it).
func testEngine(t *testing.T) *engine {
	t.Helper()
	dir, err := Locate()
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	e, err := getEngine(dir)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func testInstance(t *testing.T) *instance {
	t.Helper()
	e := testEngine(t)
	in, err := e.newInstance(context.WithValue(context.Background(), stateKey{}, &callState{log: io.Discard}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(in.close)
	return in
}

func TestParseGlueInstalled(t *testing.T) {
	e := testEngine(t)
	g := e.glue
	for _, name := range []string{"___cxa_throw", "_fd_write", "_emscripten_resize_heap", "_clock_time_get"} {
		found := false
		for _, v := range g.imports {
			found = found || v == name
		}
		if !found {
			t.Errorf("wasmImports has no %s: %v", name, g.imports)
		}
	}
	for _, sym := range []string{"_Highs_create", "_Highs_passMip", "_Highs_passLp", "_Highs_run", "_Highs_getSolution", "_malloc", "_free"} {
		if g.exports[sym] == "" {
			t.Errorf("no export mapping for %s", sym)
		}
	}
	if g.ctor == "" || g.memory == "" {
		t.Errorf("constructor %q, memory %q", g.ctor, g.memory)
	}
	// Every import of the module is one this package implements.
	for _, imp := range e.cm.ImportedFunctions() {
		_, name, _ := imp.Import()
		if _, ok := hostFuncs[g.imports[name]]; !ok {
			t.Errorf("import %s (%s) has no host implementation", name, g.imports[name])
		}
	}
}

func TestParseGlueSynthetic(t *testing.T) {
	js := `var wasmImports={a:___cxa_throw,b:_fd_write};function initRuntime(){runtimeInitialized=true;wasmExports["z"]();x()}` +
		`var _Highs_create=Module["_Highs_create"]=wasmExports["F"];var _Highs_run=Module["_Highs_run"]=wasmExports["N"];` +
		`var _malloc=Module["_malloc"]=wasmExports["m"],_free=Module["_free"]=wasmExports["f"];memory=wasmMemory=wasmExports["u"];`
	g, err := parseGlue(js)
	if err != nil {
		t.Fatal(err)
	}
	if g.imports["a"] != "___cxa_throw" || g.imports["b"] != "_fd_write" || g.exports["_Highs_run"] != "N" ||
		g.exports["_free"] != "f" || g.ctor != "z" || g.memory != "u" {
		t.Errorf("parsed %+v", g)
	}
	for _, bad := range []string{"", "console.log(1)", `var wasmImports={};`, `var wasmImports={a:_x};`} {
		if _, err := parseGlue(bad); err == nil {
			t.Errorf("parseGlue(%q) succeeded", bad)
		}
	}
}

// TestMemoryGrowth allocates far more than the module's initial memory.
func TestMemoryGrowth(t *testing.T) {
	in := testInstance(t)
	before := in.mem.Size()
	p, err := in.malloc(200 << 20)
	if err != nil {
		t.Fatal(err)
	}
	if in.mem.Size() <= before || p == 0 {
		t.Fatalf("memory %d → %d bytes after a 200 MiB malloc at %#x", before, in.mem.Size(), p)
	}
	b, err := in.view(p+(200<<20)-8, 8)
	if err != nil {
		t.Fatalf("end of the allocation not addressable: %v", err)
	}
	b[0] = 1
	// Beyond the 2 GiB the module allows, malloc fails cleanly.
	if _, err := in.malloc(3 << 30); err == nil {
		t.Fatal("3 GiB malloc succeeded")
	}
}

// TestAbortIsError drives HiGHS into a failure inside the module — a model
// claiming 300 million columns whose arrays are not there — and expects an
// error, not a crash of the test process.
func TestAbortIsError(t *testing.T) {
	in := testInstance(t)
	h, err := in.call("_Highs_create")
	if err != nil {
		t.Fatal(err)
	}
	p, err := in.malloc(64)
	if err != nil {
		t.Fatal(err)
	}
	n := uint64(300_000_000)
	args := []uint64{h, n, 0, 0, matrixColwise, objSenseMinimize, 0, uint64(p), uint64(p), uint64(p), uint64(p), uint64(p), uint64(p), uint64(p), uint64(p)}
	_, err = in.call("_Highs_passLp", args...)
	if err == nil {
		t.Fatal("passing a model with missing arrays succeeded")
	}
	var ab *AbortError
	if !errors.As(err, &ab) && !strings.Contains(err.Error(), "WebAssembly trap") {
		t.Fatalf("error %v is neither an abort nor a trap", err)
	}
	t.Logf("error: %v", err)
}

// TestHostAbort checks that the host functions for abort and exit unwind the
// call with an AbortError.
func TestHostAbort(t *testing.T) {
	for _, name := range []string{"__abort_js", "_exit", "_proc_exit"} {
		func() {
			defer func() {
				var ab *AbortError
				if err, _ := recover().(error); !errors.As(err, &ab) {
					t.Errorf("%s did not panic with an AbortError", name)
				}
			}()
			hostFuncs[name].fn(context.Background(), nil, make([]uint64, 2))
		}()
	}
}

func TestCompileMissingAndCorrupt(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	_, err := compile(ctx, dir, "")
	if !errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), "npm ci") {
		t.Errorf("empty dir: %v", err)
	}
	real := testEngine(t).dir
	js, err := os.ReadFile(filepath.Join(real, glueFile))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, glueFile), js, 0o644)
	os.WriteFile(filepath.Join(dir, wasmFile), []byte("\x00asm\x01\x00\x00\x00garbage"), 0o644)
	_, err = compile(ctx, dir, "")
	if err == nil || !strings.Contains(err.Error(), "not a usable WebAssembly module") {
		t.Fatalf("corrupt wasm: %v", err)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("error is not one line: %q", err)
	}
	os.WriteFile(filepath.Join(dir, glueFile), []byte("console.log('not emscripten')"), 0o644)
	_, err = compile(ctx, dir, "")
	if err == nil || !strings.Contains(err.Error(), "highs.js") {
		t.Errorf("corrupt glue: %v", err)
	}
}

// TestBrokenCache: a compilation cache whose entries are garbage, or whose
// directory is a file, is skipped rather than failing the load.
func TestBrokenCache(t *testing.T) {
	if testing.Short() {
		t.Skip("two cold compiles: skipped under -short")
	}
	real := testEngine(t).dir
	ctx := context.Background()
	cache := t.TempDir()
	e, err := compile(ctx, real, cache)
	if err != nil {
		t.Fatal(err)
	}
	e.rt.Close(ctx)
	n := 0
	filepath.Walk(cache, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			n++
			return os.WriteFile(p, []byte("garbage"), 0o644)
		}
		return nil
	})
	if n == 0 {
		t.Fatal("the cache holds no files after a compile")
	}
	if e, err = compile(ctx, real, cache); err != nil {
		t.Fatalf("garbage cache: %v", err)
	}
	e.rt.Close(ctx)
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	if e, err = compile(ctx, real, file); err != nil {
		t.Fatalf("cache dir is a file: %v", err)
	}
	e.rt.Close(ctx)
}

// TestSkewAndHardStop: once the context is done the clocks jump ahead, and
// after hardStopAfter a clock read unwinds the call.
func TestSkewAndHardStop(t *testing.T) {
	done := make(chan struct{})
	st := &callState{log: io.Discard, done: done}
	ctx := context.WithValue(context.Background(), stateKey{}, st)
	now := hostFuncs["_emscripten_get_now"].fn
	stack := make([]uint64, 1)
	now(ctx, nil, stack)
	before := api.DecodeF64(stack[0])
	close(done)
	now(ctx, nil, stack)
	if jump := api.DecodeF64(stack[0]) - before; jump < float64(clockSkew/time.Millisecond) {
		t.Fatalf("clock moved %v ms after cancellation", jump)
	}
	st.stoppedAt.Store(time.Now().Add(-2 * hardStopAfter).UnixNano())
	defer func() {
		if err, _ := recover().(error); !errors.Is(err, errStopped) {
			t.Errorf("clock read %v after the stop did not unwind with errStopped", 2*hardStopAfter)
		}
	}()
	now(ctx, nil, stack)
}
