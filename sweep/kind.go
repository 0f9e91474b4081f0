package sweep

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"github.com/mrbound/mrbound/badinput"
	"io"
	"sort"
	"strings"
	"sync"
)

// Kind is one sort of sweep: how an item runs and how results merge.
type Kind struct {
	// Name is the manifest's "sweep" value, e.g. "jlassi-table".
	Name string
	// Run computes one item from the sweep's params and the item's spec and
	// returns its result as JSON. It writes what it wants kept about the
	// run to log. When ctx is cancelled it returns ctx's error (the item
	// is then missing, not failed); any other error fails the item.
	Run func(ctx context.Context, params, spec json.RawMessage, log io.Writer) (json.RawMessage, error)
	// Check, when set, validates the params and the items' specs when the
	// manifest is loaded (a typo fails at once, not in every item); its
	// error names the place ("params.solver", "items[3].spec"). What only
	// running can tell (a scenario that does not exist) fails the item.
	Check func(params json.RawMessage, items []Item) error
	// Collect renders the results — one per item, in item order, nil for
	// an item without one — as out says.
	Collect func(params json.RawMessage, results []json.RawMessage, out Output) error
}

// Output is where Collect writes.
type Output struct {
	// Path, when set, is the table file; the kind chooses the format from
	// its extension and writes the files a single-machine run writes
	// beside it (records CSV, plot).
	Path string
	// Stdout receives the table.
	Stdout io.Writer
}

var (
	kindsMu sync.RWMutex
	kinds   = map[string]Kind{}
)

// Register adds a kind; registering a name twice is a programming error.
func Register(k Kind) {
	kindsMu.Lock()
	defer kindsMu.Unlock()
	if _, dup := kinds[k.Name]; dup {
		panic("sweep: kind registered twice: " + k.Name)
	}
	kinds[k.Name] = k
}

// Lookup returns the kind called name.
func Lookup(name string) (Kind, bool) {
	kindsMu.RLock()
	defer kindsMu.RUnlock()
	k, ok := kinds[name]
	return k, ok
}

// Kinds lists the registered kinds' names, sorted.
func Kinds() []string {
	kindsMu.RLock()
	defer kindsMu.RUnlock()
	names := make([]string, 0, len(kinds))
	for n := range kinds {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// DecodeStrict decodes a manifest's params or an item's spec into v,
// refusing unknown fields (for Kind.Check); the error has no "json: " prefix.
func DecodeStrict(data json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

// DecodeItem decodes what a Kind's Run receives, an item's params and spec;
// either one malformed is bad input.
func DecodeItem[P, S any](params, spec json.RawMessage) (p P, s S, err error) {
	if err = json.Unmarshal(params, &p); err != nil {
		return p, s, badinput.Errorf("params: %v", err)
	}
	if err = json.Unmarshal(spec, &s); err != nil {
		return p, s, badinput.Errorf("spec: %v", err)
	}
	return p, s, nil
}
