package highs

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/sys"
)

// engine is one compiled highs.wasm with its host functions, shared by every
// solve in the process that uses the same directory.
type engine struct {
	dir  string
	glue *glue
	rt   wazero.Runtime
	cm   wazero.CompiledModule
}

var (
	enginesMu sync.Mutex
	engines   = map[string]*engine{}
)

// getEngine returns the engine for dir, compiling the module on first use. A
// failure is not remembered, so that a later call after `npm ci` succeeds.
func getEngine(dir string) (*engine, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	enginesMu.Lock()
	defer enginesMu.Unlock()
	if e := engines[abs]; e != nil {
		return e, nil
	}
	e, err := compile(context.Background(), abs, defaultCacheDir())
	if err != nil {
		return nil, err
	}
	engines[abs] = e
	return e, nil
}

// defaultCacheDir is os.UserCacheDir()/mrbound/wazero, or "" when there is no
// usable user cache directory.
func defaultCacheDir() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "mrbound", "wazero")
}

// compile reads and compiles the module in dir. cacheDir "" means no
// compilation cache; a cache that cannot be opened is skipped too.
func compile(ctx context.Context, dir, cacheDir string) (*engine, error) {
	if err := hasFiles(dir); err != nil {
		return nil, fmt.Errorf("%w in %s: %v; %s", ErrNotInstalled, dir, err, SetupHint)
	}
	js, err := os.ReadFile(filepath.Join(dir, glueFile))
	if err != nil {
		return nil, fmt.Errorf("highs: %v", err)
	}
	g, err := parseGlue(string(js))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v (not the emscripten glue this package understands); %s",
			ErrUnusable, filepath.Join(dir, glueFile), err, SetupHint)
	}
	bin, err := os.ReadFile(filepath.Join(dir, wasmFile))
	if err != nil {
		return nil, fmt.Errorf("highs: %v", err)
	}
	// No WithCloseOnContextDone: its termination checks in every loop make
	// HiGHS about 3.5 times slower. The clock host functions, which HiGHS
	// reads continually, stop the module instead (see callState).
	var rt wazero.Runtime
	var cm wazero.CompiledModule
	if cacheDir != "" {
		// A cache that cannot be opened, read or written is skipped.
		if cache, cerr := wazero.NewCompilationCacheWithDir(cacheDir); cerr == nil {
			rt = wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCompilationCache(cache))
			if cm, err = rt.CompileModule(ctx, bin); err != nil {
				rt.Close(ctx)
				cache.Close(ctx)
				rt = nil
			}
		}
	}
	if rt == nil {
		rt = wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig())
		cm, err = rt.CompileModule(ctx, bin)
	}
	if err != nil {
		rt.Close(ctx)
		return nil, fmt.Errorf("%w: %s is not a usable WebAssembly module: %v; %s",
			ErrUnusable, filepath.Join(dir, wasmFile), firstLine(err.Error()), SetupHint)
	}
	e := &engine{dir: dir, glue: g, rt: rt, cm: cm}
	if err := e.linkHost(ctx); err != nil {
		rt.Close(ctx)
		return nil, fmt.Errorf("%w: %s: %v; %s", ErrUnusable, filepath.Join(dir, wasmFile), err, SetupHint)
	}
	for sym, exp := range g.exports {
		if strings.HasPrefix(sym, "_Highs_") || sym == "_malloc" || sym == "_free" {
			if cm.ExportedFunctions()[exp] == nil {
				rt.Close(ctx)
				return nil, fmt.Errorf("%w: %s does not export %q (%s) named by %s; the two files do not match: %s",
					ErrUnusable, wasmFile, exp, sym, glueFile, SetupHint)
			}
		}
	}
	if g.memory == "" {
		for name := range cm.ExportedMemories() {
			g.memory = name
		}
	}
	if _, ok := cm.ExportedMemories()[g.memory]; !ok {
		rt.Close(ctx)
		return nil, fmt.Errorf("%w: %s exports no memory; %s", ErrUnusable, wasmFile, SetupHint)
	}
	return e, nil
}

// AbortError reports that HiGHS stopped inside the module: abort(), exit(), or
// a C++ exception (this build aborts on every throw).
type AbortError struct{ Reason string }

func (e *AbortError) Error() string { return "highs: HiGHS aborted: " + e.Reason }

// callState is what host functions need to know about the solve that calls
// them; it travels in the context passed to every call.
type callState struct {
	log io.Writer
	// done is the solve's context's Done channel. Once it is closed, the
	// clocks the module reads jump clockSkew ahead, so that HiGHS finds its
	// time limit (always finite, see noTimeLimit) exceeded at its next check
	// and stops by itself, keeping its incumbent and bound. Should it still
	// be running hardStopAfter later, the next clock read or write unwinds
	// the module call with errStopped.
	done <-chan struct{}
	// stoppedAt is when the module first saw done closed (UnixNano; 0 before).
	stoppedAt atomic.Int64
}

const (
	// noTimeLimit is the time_limit given to HiGHS when the caller sets none:
	// finite, so that the clock skew can trip it.
	noTimeLimit = 1e9 // seconds, about 32 years
	// clockSkew is how far the clocks jump once the context is done: past
	// any time limit, and small enough that a nanosecond clock cannot
	// overflow.
	clockSkew = 4e9 * time.Second
	// hardStopAfter is how long HiGHS gets to stop by itself after the
	// clocks jumped before the call is unwound.
	hardStopAfter = 2 * time.Second
)

// skew returns how far to move the clocks: clockSkew once the solve's context
// is done, else 0. It unwinds the call when HiGHS has ignored the jump for
// hardStopAfter.
func (s *callState) skew() time.Duration {
	if s.done == nil {
		return 0
	}
	select {
	case <-s.done:
	default:
		return 0
	}
	now := time.Now().UnixNano()
	if !s.stoppedAt.CompareAndSwap(0, now) && time.Duration(now-s.stoppedAt.Load()) > hardStopAfter {
		panic(errStopped)
	}
	return clockSkew
}

type stateKey struct{}

func stateOf(ctx context.Context) *callState {
	if s, ok := ctx.Value(stateKey{}).(*callState); ok {
		return s
	}
	return &callState{log: io.Discard}
}

// hostFunc is one emscripten host function: its signature and body.
type hostFunc struct {
	params, results []api.ValueType
	fn              api.GoModuleFunc
}

const (
	i32 = api.ValueTypeI32
	i64 = api.ValueTypeI64
	f64 = api.ValueTypeF64
)

// WASI errno values, which emscripten uses.
const (
	errnoBADF   = 8
	errnoINVAL  = 28
	errnoNOENT  = 44
	errnoNOTTY  = 59
	errnoSPIPE  = 70
	wasmPage    = 65536
	maxOvergrow = 96 << 20 // emscripten grows by 20% but at most this much over the request
)

var processStart = time.Now()

func abortf(format string, a ...any) { panic(&AbortError{Reason: fmt.Sprintf(format, a...)}) }

// hostFuncs implements the emscripten imports highs.wasm needs, by their
// unminified names.
var hostFuncs = map[string]hostFunc{
	"___cxa_throw": {[]api.ValueType{i32, i32, i32}, nil, func(ctx context.Context, m api.Module, s []uint64) {
		abortf("C++ exception %s thrown inside HiGHS", typeName(m.Memory(), uint32(s[1])))
	}},
	"__abort_js":                           {nil, nil, func(ctx context.Context, m api.Module, s []uint64) { abortf("abort() inside HiGHS") }},
	"_exit":                                {[]api.ValueType{i32}, nil, func(ctx context.Context, m api.Module, s []uint64) { abortf("exit(%d) inside HiGHS", int32(s[0])) }},
	"_proc_exit":                           {[]api.ValueType{i32}, nil, func(ctx context.Context, m api.Module, s []uint64) { abortf("exit(%d) inside HiGHS", int32(s[0])) }},
	"__emscripten_runtime_keepalive_clear": {nil, nil, func(context.Context, api.Module, []uint64) {}},
	"___syscall_fcntl64": {[]api.ValueType{i32, i32, i32}, []api.ValueType{i32}, func(_ context.Context, _ api.Module, s []uint64) {
		s[0] = api.EncodeI32(-errnoBADF)
	}},
	"___syscall_ioctl": {[]api.ValueType{i32, i32, i32}, []api.ValueType{i32}, func(_ context.Context, _ api.Module, s []uint64) {
		// The standard streams claim to be terminals, so that the C library
		// line-buffers stdout and the log arrives line by line.
		if fd := int32(s[0]); fd >= 0 && fd <= 2 {
			s[0] = 0
		} else {
			s[0] = api.EncodeI32(-errnoNOTTY)
		}
	}},
	"___syscall_openat": {[]api.ValueType{i32, i32, i32, i32}, []api.ValueType{i32}, func(_ context.Context, _ api.Module, s []uint64) {
		s[0] = api.EncodeI32(-errnoNOENT) // no file system
	}},
	"__setitimer_js": {[]api.ValueType{i32, f64}, []api.ValueType{i32}, func(_ context.Context, _ api.Module, s []uint64) {
		s[0] = 0 // timers never fire; HiGHS polls its clock instead
	}},
	"__tzset_js": {[]api.ValueType{i32, i32, i32, i32}, nil, func(_ context.Context, m api.Module, s []uint64) {
		mem := m.Memory()
		mem.WriteUint32Le(uint32(s[0]), 0)
		mem.WriteUint32Le(uint32(s[1]), 0)
		mem.WriteString(uint32(s[2]), "UTC\x00")
		mem.WriteString(uint32(s[3]), "UTC\x00")
	}},
	"_clock_time_get": {[]api.ValueType{i32, i64, i32}, []api.ValueType{i32}, func(ctx context.Context, m api.Module, s []uint64) {
		skew := int64(stateOf(ctx).skew())
		var ns int64
		switch uint32(s[0]) {
		case 0: // realtime
			ns = time.Now().UnixNano() + skew
		case 1, 2, 3: // monotonic, process and thread CPU time
			ns = int64(time.Since(processStart)) + skew
		default:
			s[0] = errnoINVAL
			return
		}
		m.Memory().WriteUint64Le(uint32(s[2]), uint64(ns))
		s[0] = 0
	}},
	"_emscripten_date_now": {nil, []api.ValueType{f64}, func(ctx context.Context, _ api.Module, s []uint64) {
		skew := stateOf(ctx).skew()
		s[0] = api.EncodeF64(float64(time.Now().UnixNano()+int64(skew)) / 1e6)
	}},
	"_emscripten_get_now": {nil, []api.ValueType{f64}, func(ctx context.Context, _ api.Module, s []uint64) {
		skew := stateOf(ctx).skew()
		s[0] = api.EncodeF64(float64(time.Since(processStart)+skew) / 1e6)
	}},
	"_emscripten_resize_heap": {[]api.ValueType{i32}, []api.ValueType{i32}, func(_ context.Context, m api.Module, s []uint64) {
		if growHeap(m.Memory(), uint64(uint32(s[0]))) {
			s[0] = 1
		} else {
			s[0] = 0
		}
	}},
	"_environ_get": {[]api.ValueType{i32, i32}, []api.ValueType{i32}, func(_ context.Context, _ api.Module, s []uint64) {
		s[0] = 0 // empty environment
	}},
	"_environ_sizes_get": {[]api.ValueType{i32, i32}, []api.ValueType{i32}, func(_ context.Context, m api.Module, s []uint64) {
		m.Memory().WriteUint32Le(uint32(s[0]), 0)
		m.Memory().WriteUint32Le(uint32(s[1]), 0)
		s[0] = 0
	}},
	"_fd_close": {[]api.ValueType{i32}, []api.ValueType{i32}, func(_ context.Context, _ api.Module, s []uint64) {
		s[0] = 0
	}},
	"_fd_read": {[]api.ValueType{i32, i32, i32, i32}, []api.ValueType{i32}, func(_ context.Context, m api.Module, s []uint64) {
		if uint32(s[0]) != 0 {
			s[0] = errnoBADF
			return
		}
		m.Memory().WriteUint32Le(uint32(s[3]), 0) // standard input is empty
		s[0] = 0
	}},
	"_fd_seek": {[]api.ValueType{i32, i64, i32, i32}, []api.ValueType{i32}, func(_ context.Context, _ api.Module, s []uint64) {
		s[0] = errnoSPIPE
	}},
	"_fd_write": {[]api.ValueType{i32, i32, i32, i32}, []api.ValueType{i32}, func(ctx context.Context, m api.Module, s []uint64) {
		fd, iov, n, pnum := uint32(s[0]), uint32(s[1]), uint32(s[2]), uint32(s[3])
		if fd != 1 && fd != 2 {
			s[0] = errnoBADF
			return
		}
		st := stateOf(ctx)
		st.skew()
		mem := m.Memory()
		w := st.log
		var total uint32
		for i := uint32(0); i < n; i++ {
			p, ok1 := mem.ReadUint32Le(iov + 8*i)
			l, ok2 := mem.ReadUint32Le(iov + 8*i + 4)
			if !ok1 || !ok2 {
				s[0] = errnoINVAL
				return
			}
			b, ok := mem.Read(p, l)
			if !ok {
				s[0] = errnoINVAL
				return
			}
			w.Write(b) // a failing log writer must not stop the solve
			total += l
		}
		mem.WriteUint32Le(pnum, total)
		s[0] = 0
	}},
}

// growHeap grows mem so that it holds at least req bytes, over-allocating as
// emscripten's own resize_heap does, and reports success.
func growHeap(mem api.Memory, req uint64) bool {
	old := uint64(mem.Size())
	maxPages := uint64(65536)
	if mx, ok := mem.Definition().Max(); ok {
		maxPages = uint64(mx)
	}
	maxBytes := maxPages * wasmPage
	if req > maxBytes {
		return false
	}
	if req <= old {
		return true
	}
	for _, want := range []uint64{min(max(req, old+old/5), req+maxOvergrow), req} {
		want = min((want+wasmPage-1)/wasmPage*wasmPage, maxBytes)
		if _, ok := mem.Grow(uint32((want - old) / wasmPage)); ok {
			return true
		}
	}
	return false
}

// typeName reads the mangled name of a std::type_info at p (a vtable pointer
// followed by a char* name) and spells common std:: names out.
func typeName(mem api.Memory, p uint32) string {
	np, ok := mem.ReadUint32Le(p + 4)
	if !ok {
		return "(unknown type)"
	}
	name := cString(mem, np, 256)
	if rest, ok := strings.CutPrefix(name, "St"); ok {
		i := 0
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i > 0 {
			return "std::" + rest[i:]
		}
	}
	if name == "" {
		return "(unknown type)"
	}
	return name
}

// cString reads a NUL-terminated string of at most limit bytes at p.
func cString(mem api.Memory, p uint32, limit uint32) string {
	var sb strings.Builder
	for i := uint32(0); i < limit; i++ {
		c, ok := mem.ReadByte(p + i)
		if !ok || c == 0 {
			break
		}
		sb.WriteByte(c)
	}
	return sb.String()
}

// linkHost instantiates the host module that satisfies the compiled module's
// imports, mapping each minified import to its emscripten name through the
// glue. An import this package does not implement gets a body that aborts
// with its name when called, so that a newer build still loads.
func (e *engine) linkHost(ctx context.Context) error {
	byModule := map[string]wazero.HostModuleBuilder{}
	for _, imp := range e.cm.ImportedFunctions() {
		modName, name, _ := imp.Import()
		hb, ok := byModule[modName]
		if !ok {
			hb = e.rt.NewHostModuleBuilder(modName)
			byModule[modName] = hb
		}
		emName, ok := e.glue.imports[name]
		if !ok {
			return fmt.Errorf("import %s.%s is not in highs.js's wasmImports", modName, name)
		}
		params, results := imp.ParamTypes(), imp.ResultTypes()
		h, known := hostFuncs[emName]
		if known && (!sameTypes(h.params, params) || !sameTypes(h.results, results)) {
			return fmt.Errorf("import %s (%s) has signature %v→%v, expected %v→%v",
				name, emName, params, results, h.params, h.results)
		}
		fn := h.fn
		if !known {
			missing := emName
			fn = func(context.Context, api.Module, []uint64) {
				abortf("HiGHS called host function %s, which mrbound does not implement", missing)
			}
		}
		hb.NewFunctionBuilder().WithGoModuleFunction(fn, params, results).WithName(emName).Export(name)
	}
	for modName, hb := range byModule {
		if _, err := hb.Instantiate(ctx); err != nil {
			return fmt.Errorf("host module %q: %v", modName, err)
		}
	}
	return nil
}

func sameTypes(a, b []api.ValueType) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// instance is one module instance: one HiGHS process, used by one solve.
type instance struct {
	e   *engine
	mod api.Module
	mem api.Memory
	ctx context.Context
}

// newInstance instantiates the module and runs its static constructors. ctx
// carries the call state and cancels the instance when done.
func (e *engine) newInstance(ctx context.Context) (*instance, error) {
	mod, err := e.rt.InstantiateModule(ctx, e.cm, wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		return nil, wrapCallErr(ctx, "instantiate", err)
	}
	in := &instance{e: e, mod: mod, mem: mod.ExportedMemory(e.glue.memory), ctx: ctx}
	if in.mem == nil {
		mod.Close(ctx)
		return nil, fmt.Errorf("highs: module exports no memory %q", e.glue.memory)
	}
	if e.glue.ctor != "" {
		f := mod.ExportedFunction(e.glue.ctor)
		if f == nil {
			mod.Close(ctx)
			return nil, fmt.Errorf("highs: module exports no constructor %q", e.glue.ctor)
		}
		if _, err := f.Call(ctx); err != nil {
			mod.Close(ctx)
			return nil, wrapCallErr(ctx, "constructors", err)
		}
	}
	return in, nil
}

// close releases the instance and its memory.
func (in *instance) close() { in.mod.Close(context.Background()) }

// errStopped is returned by calls after the context stopped the instance.
var errStopped = errors.New("highs: stopped by context")

// wrapCallErr turns an error from a call into the module into this package's
// errors: the context's stop, an AbortError, or a WebAssembly trap.
func wrapCallErr(ctx context.Context, what string, err error) error {
	var exit *sys.ExitError
	if errors.Is(err, errStopped) || ctx.Err() != nil || (errors.As(err, &exit) &&
		(exit.ExitCode() == sys.ExitCodeContextCanceled || exit.ExitCode() == sys.ExitCodeDeadlineExceeded)) {
		return errStopped
	}
	var ab *AbortError
	if errors.As(err, &ab) {
		return ab
	}
	return fmt.Errorf("highs: %s: WebAssembly trap: %s", what, firstLine(err.Error()))
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// call calls the C function sym (e.g. "_Highs_run") with raw arguments.
func (in *instance) call(sym string, args ...uint64) (uint64, error) {
	name, ok := in.e.glue.exports[sym]
	if !ok {
		return 0, fmt.Errorf("highs: highs.js maps no export for %s", sym)
	}
	f := in.mod.ExportedFunction(name)
	if f == nil {
		return 0, fmt.Errorf("highs: module does not export %s (%s)", name, sym)
	}
	res, err := f.Call(in.ctx, args...)
	if err != nil {
		return 0, wrapCallErr(in.ctx, sym, err)
	}
	if len(res) == 0 {
		return 0, nil
	}
	return res[0], nil
}

// callInt calls sym and returns its HighsInt (32-bit) result.
func (in *instance) callInt(sym string, args ...uint64) (int32, error) {
	r, err := in.call(sym, args...)
	return int32(uint32(r)), err
}

// malloc allocates n bytes (at least 8) in the module's heap.
func (in *instance) malloc(n int) (uint32, error) {
	if n < 8 {
		n = 8
	}
	if n > math.MaxInt32 {
		return 0, fmt.Errorf("highs: allocation of %d bytes exceeds the 32-bit address space", n)
	}
	p, err := in.call("_malloc", uint64(n))
	if err != nil {
		return 0, err
	}
	if uint32(p) == 0 {
		return 0, fmt.Errorf("highs: out of WebAssembly memory allocating %d bytes", n)
	}
	return uint32(p), nil
}

// view returns the n bytes at p as a slice aliasing module memory; valid until
// the next call into the module.
func (in *instance) view(p uint32, n int) ([]byte, error) {
	b, ok := in.mem.Read(p, uint32(n))
	if !ok {
		return nil, fmt.Errorf("highs: memory access out of range")
	}
	return b, nil
}

// putF64s copies xs into a new heap array and returns its address.
func (in *instance) putF64s(xs []float64) (uint32, error) {
	p, err := in.malloc(8 * len(xs))
	if err != nil {
		return 0, err
	}
	b, err := in.view(p, 8*len(xs))
	if err != nil {
		return 0, err
	}
	for i, x := range xs {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	return p, nil
}

// putI32s copies xs into a new heap array of 32-bit ints.
func (in *instance) putI32s(xs []int32) (uint32, error) {
	p, err := in.malloc(4 * len(xs))
	if err != nil {
		return 0, err
	}
	b, err := in.view(p, 4*len(xs))
	if err != nil {
		return 0, err
	}
	for i, x := range xs {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
	}
	return p, nil
}

// getF64s reads n doubles at p.
func (in *instance) getF64s(p uint32, n int) ([]float64, error) {
	b, err := in.view(p, 8*n)
	if err != nil {
		return nil, err
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out, nil
}

// getI32s reads n 32-bit ints at p.
func (in *instance) getI32s(p uint32, n int) ([]int32, error) {
	b, err := in.view(p, 4*n)
	if err != nil {
		return nil, err
	}
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out, nil
}

// cstr copies s into the heap as a NUL-terminated string.
func (in *instance) cstr(s string) (uint32, error) {
	p, err := in.malloc(len(s) + 1)
	if err != nil {
		return 0, err
	}
	if !in.mem.WriteString(p, s+"\x00") {
		return 0, fmt.Errorf("highs: memory access out of range")
	}
	return p, nil
}
