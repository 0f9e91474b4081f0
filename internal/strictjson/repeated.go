package strictjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/mrbound/mrbound/badinput"
)

// scanFrame is one open object or array of RepeatedKey's scan.
type scanFrame struct {
	object   bool
	wantKey  bool
	index    int
	key      []byte   // the current key, for the path
	keys     [][]byte // the keys seen so far in this object (unescaped)
	keyStart []int    // where each of keys starts
}

// push opens a frame, reusing the key slices of the frame that last stood
// at this depth: a trace has millions of small objects.
func push(stack []scanFrame, object bool) []scanFrame {
	if len(stack) < cap(stack) {
		stack = stack[:len(stack)+1]
		f := &stack[len(stack)-1]
		*f = scanFrame{object: object, wantKey: object, keys: f.keys[:0], keyStart: f.keyStart[:0]}
		return stack
	}
	return append(stack, scanFrame{object: object, wantKey: object})
}

// punct follows one bracket or comma: it opens or closes a frame, or
// moves the innermost one to its next key or index.
func punct(stack []scanFrame, c byte) []scanFrame {
	switch c {
	case '{', '[':
		return push(stack, c == '{')
	case '}', ']':
		if len(stack) > 0 {
			return stack[:len(stack)-1]
		}
	case ',':
		if len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.object {
				top.wantKey = true
			} else {
				top.index++
			}
		}
	}
	return stack
}

// RepeatedKey reports the first repeated key of data, which must already be
// known to be well-formed JSON (decoded without error): a
// *badinput.PathError whose File is "file:line:column" of the second copy
// and whose Path is its JSON path, as Check reports it; nil when every
// object's keys are distinct.
//
// It is Check's repeated-key test for large machine-written streams (SLS
// and Rumen traces): one pass over the bytes that follows only strings and
// brackets, without tokenising numbers or building values, several times
// faster than Check's json.Decoder.Token loop. Keys are compared after
// unescaping, so "a" and "\u0061" are the same key, as encoding/json reads
// them. Objects have few keys in these formats, so each object's keys are
// kept in a slice and searched linearly.
func RepeatedKey(file string, data []byte) error {
	var stack []scanFrame
	for i := 0; i < len(data); i++ {
		if !structural[data[i]] {
			continue
		}
		switch c := data[i]; c {
		case '{', '[', '}', ']', ',':
			stack = punct(stack, c)
		case '"':
			end := stringEnd(data, i)
			if len(stack) > 0 && stack[len(stack)-1].object && stack[len(stack)-1].wantKey {
				top := &stack[len(stack)-1]
				key := unquote(data[i:end])
				for k, seen := range top.keys {
					if bytes.Equal(seen, key) {
						top.key = key
						l, col := LineCol(data, int64(i))
						fl, fc := LineCol(data, int64(top.keyStart[k]))
						return &badinput.PathError{File: fmt.Sprintf("%s:%d:%d", file, l, col), Path: scanPath(stack),
							Problem: fmt.Sprintf("key %q repeats the one at line %d, column %d; mrbound refuses repeated keys rather than keep one", key, fl, fc)}
					}
				}
				top.keys = append(top.keys, key)
				top.keyStart = append(top.keyStart, i)
				top.key, top.wantKey = key, false
			}
			i = end - 1
		}
	}
	return nil
}

// structural marks the bytes RepeatedKey acts on; it skips all others.
var structural = func() (t [256]bool) {
	for _, c := range []byte(`{}[],"`) {
		t[c] = true
	}
	return t
}()

// stringEnd returns the offset just after the string that starts at
// data[start] ('"'), or len(data) when it is not closed.
func stringEnd(data []byte, start int) int {
	j := start + 1
	for {
		k := bytes.IndexByte(data[j:], '"')
		if k < 0 {
			return len(data)
		}
		j += k
		// the quote is escaped when an odd number of backslashes precede it
		n := 0
		for b := j - 1; b > start && data[b] == '\\'; b-- {
			n++
		}
		if n%2 == 0 {
			return j + 1
		}
		j++
	}
}

// unquote is the value of a quoted JSON string: a slice of q without
// escapes or invalid UTF-8 (which encoding/json turns into U+FFFD), else
// decoded (the raw text when it cannot be, which a
// well-formed document never has).
func unquote(q []byte) []byte {
	if len(q) < 2 {
		return q
	}
	if bytes.IndexByte(q, '\\') < 0 && utf8.Valid(q) {
		return q[1 : len(q)-1]
	}
	var s string
	if json.Unmarshal(q, &s) != nil {
		return q
	}
	return []byte(s)
}

// scanPath is the JSON path of the current key: jobs[2].maps[0].kind.
func scanPath(stack []scanFrame) string {
	return jsonPath(len(stack), func(i int) (bool, string, int) {
		return stack[i].object, string(stack[i].key), stack[i].index
	})
}
