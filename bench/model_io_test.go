package bench

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/mrbound/mrbound/model"
	"github.com/mrbound/mrbound/model/lpformat"
	"github.com/mrbound/mrbound/model/mps"
)

// largestTestsetMPS returns the contents and name of the largest MPS file
// under ../shared/testsets, skipping when there is none.
func largestTestsetMPS(b *testing.B) ([]byte, string) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "shared", "testsets", "*", "*.mps"))
	var best string
	var size int64
	for _, f := range files {
		if st, err := os.Stat(f); err == nil && st.Size() > size {
			best, size = f, st.Size()
		}
	}
	if best == "" {
		b.Skip("no testsets")
	}
	data, err := os.ReadFile(best)
	if err != nil {
		b.Fatal(err)
	}
	return data, filepath.Base(best)
}

func readLargest(b *testing.B) (*model.Model, []byte) {
	data, name := largestTestsetMPS(b)
	m, err := mps.Read(bytes.NewReader(data), name)
	if err != nil {
		b.Fatal(err)
	}
	return m, data
}

// BenchmarkModelReadMPS reads the largest testset MPS file (misc07) from
// memory.
func BenchmarkModelReadMPS(b *testing.B) {
	_, data := readLargest(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := mps.Read(bytes.NewReader(data), "x"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkModelWriteMPS writes it back as free MPS.
func BenchmarkModelWriteMPS(b *testing.B) {
	m, _ := readLargest(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := mps.Write(io.Discard, m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkModelReadLP reads the same model in LP format.
func BenchmarkModelReadLP(b *testing.B) {
	m, _ := readLargest(b)
	var buf bytes.Buffer
	if err := lpformat.Write(&buf, m); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := lpformat.Read(bytes.NewReader(data), "x"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkModelWriteLP writes it in LP format.
func BenchmarkModelWriteLP(b *testing.B) {
	m, _ := readLargest(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := lpformat.Write(io.Discard, m); err != nil {
			b.Fatal(err)
		}
	}
}

// synthetic1M builds a model with 1,000,000 nonzeros: 100,000 columns
// x(i,j), 50,000 rows of 20 terms each.
func synthetic1M(b *testing.B) *model.Model {
	type key struct{ I, J int }
	bl := model.NewBuilder("synthetic1M")
	x := model.NewFamily[key](bl, "x")
	vars := make([]model.Var, 0, 100000)
	for i := 0; i < 1000; i++ {
		for j := 0; j < 100; j++ {
			vars = append(vars, x.Add(key{i, j}, 0, 1, float64(i%7+j%5), model.Integer))
		}
	}
	rows := model.NewRowFamily[int](bl, "r")
	e := model.NewExpr(20)
	for r := 0; r < 50000; r++ {
		e.Terms = e.Terms[:0]
		for k := 0; k < 20; k++ {
			e.Add(vars[(r*7+k*5003)%len(vars)], float64(1+k%4)/4)
		}
		rows.LessEq(r, e, float64(r%9+1))
	}
	m, err := bl.Build()
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// BenchmarkModelReadMPS1M reads a free MPS file with one million nonzeros.
func BenchmarkModelReadMPS1M(b *testing.B) {
	var buf bytes.Buffer
	if err := mps.Write(&buf, synthetic1M(b)); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := mps.Read(bytes.NewReader(data), "x"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkModelWriteMPS1M writes that model as free MPS.
func BenchmarkModelWriteMPS1M(b *testing.B) {
	m := synthetic1M(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := mps.Write(io.Discard, m); err != nil {
			b.Fatal(err)
		}
	}
}
