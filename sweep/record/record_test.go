package record

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mrbound/mrbound/badinput"
)

type pair struct {
	Name string
	N    int
}

var pairs = Codec[pair]{
	Header: []string{"name", "n"},
	Fields: func(p pair) []string { return []string{p.Name, strconv.Itoa(p.N)} },
	Parse: func(row []string) (pair, error) {
		n, err := strconv.Atoi(row[1])
		return pair{row[0], n}, err
	},
}

func sum(w io.Writer, ps []pair) error {
	t := 0
	for _, p := range ps {
		t += p.N
	}
	_, err := fmt.Fprintf(w, "%d records, total %d\n", len(ps), t)
	return err
}

// TestSessionResumes adds records, "kills" the run mid-line, opens the
// session again and checks that it resumes with the complete records only,
// appends after them, and leaves the files WriteOutputs writes for the same
// records.
func TestSessionResumes(t *testing.T) {
	out := filepath.Join(t.TempDir(), "table.txt")
	s, err := Open(out, pairs, sum)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []pair{{"a", 1}, {"b", 2}} {
		if err := s.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	if b, _ := os.ReadFile(out); string(b) != "2 records, total 3\n" {
		t.Errorf("table after two records: %q", b)
	}
	f, _ := os.OpenFile(RecordsPath(out), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("c,3") // killed while writing "c,31\n"
	f.Close()

	s, err = Open(out, pairs, sum)
	if err != nil {
		t.Fatal(err)
	}
	if d := s.Done(); len(d) != 2 || d[1] != (pair{"b", 2}) {
		t.Fatalf("resumed with %v", d)
	}
	s.Add(pair{"c", 4})
	var stdout bytes.Buffer
	if err := s.Finish(&stdout); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if stdout.String() != "3 records, total 7\n" {
		t.Errorf("table %q", stdout.String())
	}
	if recs, _ := os.ReadFile(RecordsPath(out)); string(recs) != "name,n\na,1\nb,2\nc,4\n" {
		t.Errorf("records file after resuming: %q (the cut line must go)", recs)
	}

	// WriteOutputs over the same records writes the same table.
	out2 := filepath.Join(t.TempDir(), "table.txt")
	var stdout2 bytes.Buffer
	if err := WriteOutputs(out2, pairs, []pair{{"a", 1}, {"b", 2}, {"c", 4}}, sum, &stdout2); err != nil {
		t.Fatal(err)
	}
	t1, _ := os.ReadFile(out)
	t2, _ := os.ReadFile(out2)
	r2, _ := os.ReadFile(RecordsPath(out2))
	if !bytes.Equal(t1, t2) || stdout2.String() != stdout.String() || string(r2) != "name,n\na,1\nb,2\nc,4\n" {
		t.Errorf("WriteOutputs: table %q vs %q, records %q", t2, t1, r2)
	}
}

func TestReadBad(t *testing.T) {
	for _, c := range []struct{ csv, want string }{
		{"x,y\n", `f.csv:1: not a records file of this table (header "x,y"`},
		{"name,n\na,1,9\nb,2\n", "f.csv:2: 3 fields, want 2"},
		{"name,n\na\nb,2\n", "f.csv:2: 1 field, want 2"},
		{"name,n\na,one\n", `f.csv:2: strconv.Atoi: parsing "one"`},
		{"name,n\n\"a,1\n", "f.csv:"},
	} {
		_, err := pairs.Read("f.csv", strings.NewReader(c.csv))
		if !errors.Is(err, badinput.Err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want bad input containing %q", c.csv, err, c.want)
		}
	}
	if got, err := pairs.Read("f.csv", strings.NewReader("")); err != nil || got != nil {
		t.Errorf("empty file: %v, %v", got, err)
	}
}

// TestSessionInMemory: without a table file nothing is written.
func TestSessionInMemory(t *testing.T) {
	s, err := Open("", pairs, sum)
	if err != nil {
		t.Fatal(err)
	}
	s.Add(pair{"a", 5})
	var b bytes.Buffer
	s.Finish(&b)
	if b.String() != "1 records, total 5\n" || s.Close() != nil {
		t.Errorf("in memory: %q", b.String())
	}
}

// TestLegacyHeader: a file of an older version (fewer columns) reads, and a
// session resuming it rewrites it in the current version before appending.
func TestLegacyHeader(t *testing.T) {
	c := pairs
	c.Legacy = [][]string{{"name"}}
	c.Parse = func(row []string) (pair, error) {
		if len(row) == 1 {
			return pair{row[0], 0}, nil
		}
		return pairs.Parse(row)
	}
	out := filepath.Join(t.TempDir(), "t.txt")
	os.WriteFile(RecordsPath(out), []byte("name\nold\n"), 0o644)
	s, err := Open(out, c, sum)
	if err != nil {
		t.Fatal(err)
	}
	if d := s.Done(); len(d) != 1 || d[0] != (pair{"old", 0}) {
		t.Errorf("legacy records %v", d)
	}
	s.Add(pair{"new", 3})
	s.Close()
	if b, _ := os.ReadFile(RecordsPath(out)); string(b) != "name,n\nold,0\nnew,3\n" {
		t.Errorf("records file %q", b)
	}
	if _, err := pairs.Read("f", strings.NewReader("name\nold\n")); err == nil {
		t.Error("a codec without the legacy header read a legacy file")
	}
}
