package lpformat

import (
	"bytes"
	"testing"

	"github.com/mrbound/mrbound/model/internal/modeltest"
)

// FuzzRead checks that no input makes Read panic, and that whatever Read
// accepts is a valid model that the writer reproduces: write → read gives the
// same model (under the names the writer chose) and write → read → write the
// same text.
func FuzzRead(f *testing.F) {
	f.Add([]byte("Minimize\n obj: x + 2 y\nSubject To\n c: x + y >= 1\nBounds\n x <= 4\nEnd\n"))
	f.Add([]byte("max\n 3 x1 + 2x2 - x3 + 4\nst\n c1: -5 < x2 - x3 < 5\n 3 >= x1 + 1\nbounds\n -inf <= x2 <= +inf\n x5 free\ngen\n x1\nbin\n x4\nend\n"))
	f.Add([]byte("\\ Problem: p\nMinimize\n obj: + 1 x + 0 z - 2.5\nSubject To\n r: 1 <= + 1 x <= 2\n e: 0 >= 3\nBounds\n z = 1\nEnd\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Read(bytes.NewReader(data), "fuzz.lp")
		if err != nil {
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("Read returned an invalid model: %v", err)
		}
		var b bytes.Buffer
		if err := Write(&b, m); err != nil {
			t.Fatalf("Write: %v", err)
		}
		text := b.String()
		m2, err := Read(&b, "again.lp")
		if err != nil {
			t.Fatalf("re-read: %v\n%s", err, text)
		}
		want := m.Clone()
		want.ColNames = legalNames(m.NumCols(), m.ColNames, "C")
		want.RowNames = legalNames(m.NumRows(), m.RowNames, "R")
		if d := modeltest.Diff(want, m2); d != "" {
			t.Fatalf("round trip differs: %s\n%s", d, text)
		}
		var b2 bytes.Buffer
		if err := Write(&b2, m2); err != nil {
			t.Fatal(err)
		}
		if b2.String() != text {
			t.Fatalf("write→read→write differs:\n%s\n---\n%s", text, b2.String())
		}
	})
}
