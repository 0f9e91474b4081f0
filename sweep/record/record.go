package record

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/atomicfile"
	"github.com/mrbound/mrbound/internal/plural"
)

// Codec reads and writes records of type R as CSV rows.
type Codec[R any] struct {
	// Header is the first row of every records file.
	Header []string
	// Fields renders a record as one row of len(Header) fields.
	Fields func(R) []string
	// Parse reads a row back: len(Header) fields, or len(h) for a file with
	// a Legacy header h. The error need not name the place (Read adds
	// file:line).
	Parse func([]string) (R, error)
	// Legacy lists the headers of older versions of the file that Parse
	// still reads; a Session rewrites such a file with Header first.
	Legacy [][]string
}

// width returns the number of fields under header, and whether it is
// Header itself.
func (c Codec[R]) width(header []string) (n int, current, ok bool) {
	if slices.Equal(header, c.Header) {
		return len(c.Header), true, true
	}
	for _, h := range c.Legacy {
		if slices.Equal(header, h) {
			return len(h), false, true
		}
	}
	return 0, false, false
}

// HasLegacyHeader reports whether data, a records file's content, starts
// with one of the Legacy headers (a file to rewrite before appending).
func (c Codec[R]) HasLegacyHeader(data []byte) bool {
	header, err := csv.NewReader(bytes.NewReader(data)).Read()
	if err != nil {
		return false
	}
	_, current, ok := c.width(header)
	return ok && !current
}

// Read reads a records file (as written by WriteAll or a Session); name labels
// errors. A truncated last line (an interrupted run) is ignored.
func (c Codec[R]) Read(name string, rd io.Reader) ([]R, error) {
	cr := csv.NewReader(rd)
	cr.FieldsPerRecord = -1
	rows, err := cr.ReadAll()
	if err != nil {
		return nil, badinput.Errorf("%s: %v", name, err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	width, _, ok := c.width(rows[0])
	if !ok {
		return nil, badinput.Errorf("%s:1: not a records file of this table (header %q, want %q)", name, strings.Join(rows[0], ","), strings.Join(c.Header, ","))
	}
	var out []R
	for i, row := range rows[1:] {
		if len(row) != width {
			if i == len(rows)-2 {
				break
			}
			return nil, badinput.Errorf("%s:%d: %s, want %d", name, i+2, plural.Count(len(row), "field"), width)
		}
		r, err := c.Parse(row)
		if err != nil {
			return nil, badinput.Errorf("%s:%d: %v", name, i+2, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// WriteAll writes the header and every record.
func (c Codec[R]) WriteAll(w io.Writer, recs []R) error {
	cw := csv.NewWriter(w)
	cw.Write(c.Header)
	for _, r := range recs {
		cw.Write(c.Fields(r))
	}
	cw.Flush()
	return cw.Error()
}

// RecordsPath is where the records of the table file out are kept.
func RecordsPath(out string) string { return out + ".instances.csv" }

// Session is a resumable run of a table written to a file: the records file
// (RecordsPath) grows by one line per record and the table file is rewritten
// after each. A Session with no table file keeps the records in memory only.
type Session[R any] struct {
	codec  Codec[R]
	out    string
	render func(io.Writer, []R) error
	file   *os.File
	recs   []R
	done   int
}

// Open starts a session writing the table rendered by render to out (""
// for none). When out's records file exists, its records are read back: they
// are Done, and the new ones are appended after them.
func Open[R any](out string, c Codec[R], render func(io.Writer, []R) error) (*Session[R], error) {
	s := &Session[R]{codec: c, out: out, render: render}
	if out == "" {
		return s, nil
	}
	path := RecordsPath(out)
	if data, err := os.ReadFile(path); err == nil {
		// A line without its newline was cut by a kill (even if its
		// fields parse, a number may be short): drop it from the file,
		// so the next record starts on a line of its own.
		if n := len(data); n > 0 && data[n-1] != '\n' {
			data = data[:strings.LastIndexByte(string(data), '\n')+1]
			if err := os.Truncate(path, int64(len(data))); err != nil {
				return nil, badinput.Errorf("%s: %v", path, err)
			}
		}
		if s.recs, err = c.Read(path, strings.NewReader(string(data))); err != nil {
			return nil, err
		}
		s.done = len(s.recs)
		// A file of an older version is rewritten in the current one, so
		// that the rows appended next match its header.
		header, _, _ := strings.Cut(string(data), "\n")
		if _, current, _ := c.width(strings.Split(strings.TrimSuffix(header, "\r"), ",")); !current && len(data) > 0 {
			if err := WriteFileAtomic(path, func(w io.Writer) error { return c.WriteAll(w, s.recs) }); err != nil {
				return nil, err
			}
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, badinput.Errorf("%s: %v", path, err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, badinput.Errorf("%s: %v", path, err)
	}
	s.file = f
	if st, err := f.Stat(); err == nil && st.Size() == 0 {
		cw := csv.NewWriter(f)
		cw.Write(c.Header)
		cw.Flush()
		if err := cw.Error(); err != nil {
			f.Close()
			return nil, err
		}
	}
	return s, nil
}

// Done returns the records read back when the session opened.
func (s *Session[R]) Done() []R { return s.recs[:s.done:s.done] }

// Records returns every record so far.
func (s *Session[R]) Records() []R { return s.recs }

// Add appends r to the records file and rewrites the table.
func (s *Session[R]) Add(r R) error {
	s.recs = append(s.recs, r)
	if s.file == nil {
		return nil
	}
	cw := csv.NewWriter(s.file)
	cw.Write(s.codec.Fields(r))
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return WriteFileAtomic(s.out, s.writeTable)
}

func (s *Session[R]) writeTable(w io.Writer) error { return s.render(w, s.recs) }

// Finish rewrites the table file (when there is one) and renders the table
// to w.
func (s *Session[R]) Finish(w io.Writer) error {
	if s.out != "" {
		if err := WriteFileAtomic(s.out, s.writeTable); err != nil {
			return err
		}
	}
	return s.writeTable(w)
}

// Close closes the records file.
func (s *Session[R]) Close() error {
	if s.file == nil {
		return nil
	}
	return s.file.Close()
}

// WriteOutputs writes what a whole Session over recs leaves behind — the
// records file and the table file out (both atomically; none when out is
// "") — and renders the table to w.
func WriteOutputs[R any](out string, c Codec[R], recs []R, render func(io.Writer, []R) error, w io.Writer) error {
	if out != "" {
		if err := WriteFileAtomic(RecordsPath(out), func(w io.Writer) error { return c.WriteAll(w, recs) }); err != nil {
			return err
		}
		if err := WriteFileAtomic(out, func(w io.Writer) error { return render(w, recs) }); err != nil {
			return err
		}
	}
	return render(w, recs)
}

// WriteFileAtomic writes path through a temporary file and a rename
// (package internal/atomicfile).
func WriteFileAtomic(path string, write func(io.Writer) error) error {
	return atomicfile.Write(path, write)
}
