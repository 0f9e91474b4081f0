package highs

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/mrbound/mrbound/badinput"
)

// EnvDir names the environment variable that points at a directory holding
// highs.wasm and highs.js; it overrides the search for node_modules.
const EnvDir = "MRBOUND_HIGHS_DIR"

// installDir is where npm puts the build, relative to the repository root.
var installDir = filepath.Join("node_modules", "highs", "build")

// SetupHint is the command that installs the WebAssembly build.
const SetupHint = "run `npm ci` (or `make test`) in the mrbound repository root, or set " + EnvDir + " to a directory holding highs.wasm and highs.js"

// ErrNotInstalled is wrapped by the errors for a missing build and for
// ErrUnusable by those for a build that is there but cannot be loaded; both
// messages say how to install it. Both count as bad input (they wrap
// badinput.Err): the set-up is the caller's to fix, as an input file is.
var (
	ErrNotInstalled = badinput.Errorf("highs: HiGHS WebAssembly build not found")
	ErrUnusable     = badinput.Errorf("highs: unusable HiGHS WebAssembly build")
)

// Locate returns the directory holding highs.wasm and highs.js: $MRBOUND_HIGHS_DIR
// when set, else the first node_modules/highs/build found walking up from the
// working directory, from the executable's directory and from this package's
// source directory.
func Locate() (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		if err := hasFiles(d); err != nil {
			return "", fmt.Errorf("%w: %s=%s: %v; %s", ErrNotInstalled, EnvDir, d, err, SetupHint)
		}
		return d, nil
	}
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if exe, err := os.Executable(); err == nil {
		starts = append(starts, filepath.Dir(exe))
	}
	if _, file, _, ok := runtime.Caller(0); ok {
		starts = append(starts, filepath.Dir(file))
	}
	for _, s := range starts {
		for dir := s; ; {
			cand := filepath.Join(dir, installDir)
			if hasFiles(cand) == nil {
				return cand, nil
			}
			up := filepath.Dir(dir)
			if up == dir {
				break
			}
			dir = up
		}
	}
	return "", fmt.Errorf("%w (looked for %s above the working directory and the executable): %s",
		ErrNotInstalled, installDir, SetupHint)
}

func hasFiles(dir string) error {
	for _, f := range []string{wasmFile, glueFile} {
		st, err := os.Stat(filepath.Join(dir, f))
		if err != nil {
			return fmt.Errorf("no %s", f)
		}
		if st.IsDir() {
			return fmt.Errorf("%s is a directory", f)
		}
	}
	return nil
}

const (
	wasmFile = "highs.wasm"
	glueFile = "highs.js"
)
