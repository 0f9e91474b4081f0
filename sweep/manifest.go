package sweep

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/strictjson"
	"github.com/mrbound/mrbound/sweep/record"
)

// Manifest file constants.
const (
	// ManifestKind is the top-level "kind" of every manifest.
	ManifestKind = "sweep"
	// SchemaVersion is the manifest and result format's version.
	SchemaVersion = 1
	// ManifestName is the manifest's file name inside a sweep directory.
	ManifestName = "sweep.json"
)

// Manifest lists a sweep's work. Its directory holds results/ and logs/.
type Manifest struct {
	// Kind is always ManifestKind.
	Kind string `json:"kind"`
	// SchemaVersion is SchemaVersion.
	SchemaVersion int `json:"schema_version"`
	// Sweep names the registered Kind that runs and collects the items.
	Sweep string `json:"sweep"`
	// Title says what the sweep computes, for people and job names.
	Title string `json:"title,omitempty"`
	// Params are the kind's parameters, shared by every item.
	Params json.RawMessage `json:"params"`
	// Limits bound one item; engines ask the scheduler for them.
	Limits Limits `json:"limits"`
	// Items are the work items; an item's index is its position. IDs are
	// non-empty and distinct.
	Items []Item `json:"items"`

	// Path is the manifest's file (set by Load and Write).
	Path string `json:"-"`
}

// Item is one unit of work.
type Item struct {
	// ID names the item in logs and reports (e.g. "sc3-seed7").
	ID string `json:"id"`
	// Spec is the kind's description of the item.
	Spec json.RawMessage `json:"spec"`
}

// Limits bound one item's resources; zero means no bound (the engine's
// default).
type Limits struct {
	// Time is the wall time one item may take, its solves' time limits
	// included.
	Time Duration `json:"time_per_item,omitempty"`
	// MemoryMB is the memory one item may use, in MiB.
	MemoryMB int `json:"memory_mb,omitempty"`
}

// Duration is a time.Duration written in JSON as "1m30s".
type Duration time.Duration

// MarshalText writes the duration as time.Duration.String does.
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// UnmarshalText reads a duration such as "90s" or "1h30m".
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("not a duration: %q", b)
	}
	*d = Duration(v)
	return nil
}

// Dir is the sweep directory (the manifest's).
func (m *Manifest) Dir() string { return filepath.Dir(m.Path) }

// ResultPath, FailurePath and LogPath are where item i's result, failure
// record and log go.
func (m *Manifest) ResultPath(i int) string {
	return filepath.Join(m.Dir(), "results", fmt.Sprintf("%d.json", i))
}

// FailurePath is where item i's failure is recorded.
func (m *Manifest) FailurePath(i int) string {
	return filepath.Join(m.Dir(), "results", fmt.Sprintf("%d.failed.json", i))
}

// LogPath is item i's log, appended by every attempt.
func (m *Manifest) LogPath(i int) string {
	return filepath.Join(m.Dir(), "logs", fmt.Sprintf("%d.log", i))
}

// LogDir holds the items' logs (engines put their own per-item logs there
// too, named "<index>.<engine>.out").
func (m *Manifest) LogDir() string { return filepath.Join(m.Dir(), "logs") }

// ManifestPath returns path, or path/sweep.json when path is a directory.
func ManifestPath(path string) string {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return filepath.Join(path, ManifestName)
	}
	return path
}

// Load reads and validates the manifest at path (a file, or a sweep
// directory holding sweep.json).
func Load(path string) (*Manifest, error) {
	path = ManifestPath(path)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, badinput.Errorf("%v", err)
	}
	return Parse(path, data)
}

// Parse reads and validates the manifest in data; path names it in errors
// and becomes its Path (made absolute), whose directory holds the results.
// Every error but a failure to make path absolute is one line of bad input
// that starts with path.
func Parse(path string, data []byte) (*Manifest, error) {
	if err := strictjson.Check(path, data); err != nil {
		return nil, err
	}
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, &badinput.PathError{File: path, Path: jsonPlace(data, err), Problem: jsonProblem(err)}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	m.Path = abs
	m.compact()
	if err := m.validate(); err != nil {
		var pe *badinput.PathError
		if errors.As(err, &pe) {
			pe.File = path
		}
		return nil, err
	}
	return &m, nil
}

func (m *Manifest) validate() error {
	bad := func(place, format string, a ...any) error {
		return &badinput.PathError{File: m.Path, Path: place, Problem: fmt.Sprintf(format, a...)}
	}
	switch {
	case m.Kind != ManifestKind:
		return bad("kind", "%q, want %q (a sweep manifest)", m.Kind, ManifestKind)
	case m.SchemaVersion != SchemaVersion:
		return bad("schema_version", "%d, want %d", m.SchemaVersion, SchemaVersion)
	case m.Limits.Time < 0:
		return bad("limits.time_per_item", "negative")
	case m.Limits.MemoryMB < 0:
		return bad("limits.memory_mb", "negative")
	case len(m.Items) == 0:
		return bad("items", "no items")
	}
	if p := textProblem(m.Title); p != "" {
		return bad("title", "%s", p)
	}
	k, ok := Lookup(m.Sweep)
	if !ok {
		return bad("sweep", "unknown sweep kind %q (one of %v)", m.Sweep, Kinds())
	}
	seen := map[string]int{}
	for i, it := range m.Items {
		if it.ID == "" {
			return bad(fmt.Sprintf("items[%d].id", i), "empty")
		}
		if p := textProblem(it.ID); p != "" {
			return bad(fmt.Sprintf("items[%d].id", i), "%s", p)
		}
		if j, dup := seen[it.ID]; dup {
			return bad(fmt.Sprintf("items[%d].id", i), "%q repeats items[%d]", it.ID, j)
		}
		seen[it.ID] = i
	}
	if k.Check != nil {
		if err := k.Check(m.Params, m.Items); err != nil {
			return &badinput.PathError{File: m.Path, Problem: err.Error()}
		}
	}
	return nil
}

// Write writes m as dir/sweep.json (creating dir) and sets m.Path. When a
// manifest is already there it must be the same sweep: writing it again
// does nothing, a different one is refused (its results would be mixed).
func Write(dir string, m *Manifest) error {
	m.Kind, m.SchemaVersion = ManifestKind, SchemaVersion
	m.compact()
	if err := m.validate(); err != nil {
		return err
	}
	data, err := m.marshal()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return badinput.Errorf("%s: %v", dir, err)
	}
	path := filepath.Join(dir, ManifestName)
	if old, err := os.ReadFile(path); err == nil {
		if !bytes.Equal(old, data) {
			return badinput.Errorf("%s: a different sweep is already planned there; remove the directory or choose another", path)
		}
	} else if err := record.WriteFileAtomic(path, func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
		return err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	m.Path = abs
	return nil
}

// marshal writes the manifest with one item per line, so that a sweep of
// thousands of items stays readable and diffs well.
func (m *Manifest) marshal() ([]byte, error) {
	var b bytes.Buffer
	field := func(name string, v any, last bool) error {
		data, err := json.Marshal(v)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "  %q: %s", name, data)
		if !last {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
		return nil
	}
	b.WriteString("{\n")
	for _, f := range []struct {
		name string
		v    any
		skip bool
	}{{"kind", m.Kind, false}, {"schema_version", m.SchemaVersion, false}, {"sweep", m.Sweep, false},
		{"title", m.Title, m.Title == ""}, {"params", m.Params, len(m.Params) == 0}, {"limits", m.Limits, false}} {
		if !f.skip {
			if err := field(f.name, f.v, false); err != nil {
				return nil, err
			}
		}
	}
	b.WriteString("  \"items\": [\n")
	for i, it := range m.Items {
		data, err := json.Marshal(it)
		if err != nil {
			return nil, err
		}
		b.WriteString("    ")
		b.Write(data)
		if i+1 < len(m.Items) {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("  ]\n}\n")
	return b.Bytes(), nil
}

// compact rewrites the params and specs without insignificant space, so a
// manifest reads back equal to what was written.
func (m *Manifest) compact() {
	m.Params = compactJSON(m.Params)
	for i := range m.Items {
		m.Items[i].Spec = compactJSON(m.Items[i].Spec)
	}
}

func compactJSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return raw
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw // invalid: Marshal or Unmarshal reports it
	}
	return b.Bytes()
}

// jsonPlace turns a decoding error into "line:column" (syntax) or the
// field's name (type), the place to look.
func jsonPlace(data []byte, err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return lineCol(data, max(0, se.Offset-1)) // the offending character
	case errors.As(err, &te):
		return strictjson.TypePath(data, te)
	}
	return ""
}

func jsonProblem(err error) string {
	return strings.TrimPrefix(err.Error(), "json: ")
}

func lineCol(data []byte, off int64) string {
	off = min(off, int64(len(data)))
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := off - int64(bytes.LastIndexByte(data[:off], '\n'))
	return fmt.Sprintf("%d:%d", line, col)
}
