package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mrbound/mrbound/badinput"
)

// frame is one open object or array while walking the document.
type frame struct {
	object bool
	// keys maps an object's keys to where each starts (objects).
	keys map[string]int64
	// key is the object's current key; index the array's next index.
	key     string
	index   int
	wantKey bool
}

// Check reports the first syntax error or repeated key of data, a single
// JSON value, as a *badinput.PathError whose File is "file:line:column"
// (the place of the error) and whose Path is the JSON path of a repeated
// key (jobs[2].kind); nil when data is one well-formed value with distinct
// keys in every object. Data after the value is an error too.
func Check(file string, data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var stack []*frame
	tokens := 0
	at := func(off int64) string { l, c := LineCol(data, off); return fmt.Sprintf("%s:%d:%d", file, l, c) }
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err == io.EOF && len(stack) == 0 && tokens > 0 {
			return nil
		}
		if err != nil {
			// The decoder's offsets differ between its token and value
			// readers; decode the whole document to report the place
			// every reader reports.
			if verr := json.Unmarshal(data, new(json.RawMessage)); verr != nil {
				return SyntaxError(file, data, verr)
			}
			return SyntaxError(file, data, err)
		}
		tokens++
		if len(stack) == 0 && start > 0 && dec.InputOffset() > start && nonSpaceBefore(data, start) {
			return &badinput.PathError{File: at(firstNonSpace(data, start)), Problem: "data after the top-level JSON value"}
		}
		top := (*frame)(nil)
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.wantKey {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				advance(stack)
				continue
			}
			key := tok.(string) // the decoder allows nothing else here
			if first, dup := top.keys[key]; dup {
				top.key = key
				l, c := LineCol(data, first)
				return &badinput.PathError{File: at(firstNonSpace(data, start)), Path: path(stack),
					Problem: fmt.Sprintf("key %q repeats the one at line %d, column %d; mrbound refuses repeated keys rather than keep one", key, l, c)}
			}
			top.keys[key] = firstNonSpace(data, start)
			top.key, top.wantKey = key, false
			continue
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, &frame{object: true, keys: map[string]int64{}, wantKey: true})
			case '[':
				stack = append(stack, &frame{})
			case ']':
				stack = stack[:len(stack)-1]
				advance(stack)
			}
		default:
			advance(stack)
		}
	}
}

// advance moves the innermost container past a value.
func advance(stack []*frame) {
	if len(stack) == 0 {
		return
	}
	top := stack[len(stack)-1]
	if top.object {
		top.wantKey = true
	} else {
		top.index++
	}
}

// path writes the JSON path of the current key: jobs[2].maps[0].kind.
func path(stack []*frame) string {
	return jsonPath(len(stack), func(i int) (bool, string, int) {
		return stack[i].object, stack[i].key, stack[i].index
	})
}

// jsonPath joins n levels, each an object's current key or an array's
// index: jobs[2].maps[0].kind.
func jsonPath(n int, level func(i int) (object bool, key string, index int)) string {
	var b bytes.Buffer
	for i := range n {
		object, key, index := level(i)
		if object {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(key)
		} else {
			b.WriteString("[" + strconv.Itoa(index) + "]")
		}
	}
	return b.String()
}

// SyntaxError turns a decoding error of data into a *badinput.PathError at
// "file:line:column" when it is a syntax error (or an unexpected end); any
// other error is returned as bad input in file.
func SyntaxError(file string, data []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// The offset is just past the offending character; at the end of
		// the input, the place is the end.
		off := max(0, se.Offset-1)
		if se.Offset >= int64(len(data)) && strings.Contains(se.Error(), "unexpected end") {
			off = int64(len(data))
		}
		l, c := LineCol(data, off)
		return &badinput.PathError{File: fmt.Sprintf("%s:%d:%d", file, l, c), Problem: se.Error()}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		l, c := LineCol(data, int64(len(data)))
		return &badinput.PathError{File: fmt.Sprintf("%s:%d:%d", file, l, c), Problem: "unexpected end of JSON input"}
	}
	return badinput.InFile(file, badinput.Errorf("%v", err))
}

// LineCol turns a byte offset into a 1-based line and column (in bytes).
func LineCol(data []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(data)))
	line = 1 + bytes.Count(data[:off], []byte("\n"))
	col = int(off) - bytes.LastIndexByte(data[:off], '\n')
	return line, col
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

func firstNonSpace(data []byte, off int64) int64 {
	for off < int64(len(data)) && (isSpace(data[off]) || data[off] == ',' || data[off] == ':') {
		off++
	}
	return off
}

func nonSpaceBefore(data []byte, off int64) bool {
	for _, b := range data[:off] {
		if !isSpace(b) {
			return true
		}
	}
	return false
}

// Explain prefixes the problem of a syntax error from Check with what the
// reader expected ("not a JSON scenario"); a repeated key, which names its
// JSON path, and other errors are returned unchanged.
func Explain(err error, expected string) error {
	var pe *badinput.PathError
	if errors.As(err, &pe) && pe.Path == "" && pe == err {
		e := *pe
		e.Problem = expected + ": " + e.Problem
		return &e
	}
	return err
}
