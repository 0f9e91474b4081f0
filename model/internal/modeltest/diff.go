// Package modeltest holds test helpers shared by the model readers and
// writers.
package modeltest

import (
	"fmt"

	"github.com/mrbound/mrbound/model"
)

// Diff reports the first difference between two models, "" when they are
// the same array for array (floats compared with ==, names included). The
// readers' round-trip tests use it.
func Diff(a, b *model.Model) string {
	if a.Name != b.Name || a.Sense != b.Sense || a.ObjOffset != b.ObjOffset {
		return fmt.Sprintf("header %q %v %v vs %q %v %v", a.Name, a.Sense, a.ObjOffset, b.Name, b.Sense, b.ObjOffset)
	}
	fs := []struct {
		n    string
		x, y []float64
	}{{"Obj", a.Obj, b.Obj}, {"ColLower", a.ColLower, b.ColLower}, {"ColUpper", a.ColUpper, b.ColUpper},
		{"RowLower", a.RowLower, b.RowLower}, {"RowUpper", a.RowUpper, b.RowUpper}, {"Value", a.Value, b.Value}}
	for _, f := range fs {
		if len(f.x) != len(f.y) {
			return fmt.Sprintf("%s: len %d vs %d", f.n, len(f.x), len(f.y))
		}
		for i := range f.x {
			if f.x[i] != f.y[i] {
				return fmt.Sprintf("%s[%d]: %v vs %v", f.n, i, f.x[i], f.y[i])
			}
		}
	}
	if fmt.Sprint(a.ColType) != fmt.Sprint(b.ColType) {
		return fmt.Sprintf("ColType %v vs %v", a.ColType, b.ColType)
	}
	if fmt.Sprint(a.ColStart, a.RowIndex) != fmt.Sprint(b.ColStart, b.RowIndex) {
		return "matrix structure differs"
	}
	if fmt.Sprintf("%q", a.ColNames) != fmt.Sprintf("%q", b.ColNames) {
		return fmt.Sprintf("ColNames %q vs %q", a.ColNames, b.ColNames)
	}
	if fmt.Sprintf("%q", a.RowNames) != fmt.Sprintf("%q", b.RowNames) {
		return fmt.Sprintf("RowNames %q vs %q", a.RowNames, b.RowNames)
	}
	return ""
}
