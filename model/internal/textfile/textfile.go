// Package textfile holds what the model readers (MPS, LP) share: the
// file:line error they report and opening a file by path.
package textfile

import (
	"fmt"
	"io"
	"os"

	"github.com/mrbound/mrbound/model"
)

// ParseError reports bad input at a line of a file.
type ParseError struct {
	File string // the name given to Read, or the path given to ReadFile
	Line int    // 1-based; 0 when the problem concerns the whole file
	Msg  string
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// ReadFile opens path and reads it with read, naming path in errors.
func ReadFile(path string, read func(io.Reader, string) (*model.Model, error)) (*model.Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return read(f, path)
}
