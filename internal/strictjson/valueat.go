package strictjson

import (
	"encoding/json"
	"fmt"
	"reflect"
)

// ValueAt names the value that encoding/json was reading when it stopped
// after end bytes of data (an UnmarshalTypeError's Offset): its JSON path
// with array indexes (mapTasks[1].attempts[0].startTime, where the decoder's
// own Field says mapTasks.attempts.startTime) and the offset where it
// starts. data must be well-formed up to end.
func ValueAt(data []byte, end int) (path string, start int) {
	end = min(max(end, 0), len(data))
	var stack []scanFrame
	start = nextValue(data, 0, end) // the top-level value, after any white space
	justOpened := false             // the last byte acted on opened an object or array
	for i := 0; i < end; i++ {
		c := data[i]
		if !structural[c] && c != ':' {
			continue
		}
		justOpened = c == '{' || c == '['
		switch c {
		case '{', '[', '}', ']', ',':
			stack = punct(stack, c)
			if justOpened {
				start = i
			} else if c == ',' && len(stack) > 0 && !stack[len(stack)-1].object {
				start = nextValue(data, i+1, end) // the array's next element
			}
		case ':':
			start = nextValue(data, i+1, end)
		case '"':
			e := stringEnd(data, i)
			if len(stack) > 0 && stack[len(stack)-1].object && stack[len(stack)-1].wantKey {
				top := &stack[len(stack)-1]
				top.key, top.wantKey = unquote(data[i:e]), false
			}
			i = e - 1
		}
	}
	// The decoder stops just inside an object or array it cannot store: the
	// value is that container, named by its parent's path.
	if justOpened && len(stack) > 0 {
		stack = stack[:len(stack)-1]
	} else if start < end && data[start] == '[' {
		start = nextValue(data, start+1, end) // the array's first element
	}
	return scanPath(stack), start
}

// nextValue skips white space from i (not past end).
func nextValue(data []byte, i, end int) int {
	for i < end && isSpace(data[i]) {
		i++
	}
	return i
}

// TypePath is the JSON path of the value a type error is about, with array
// indexes, for a document data decoded whole; te.Field when the error came
// from a field's own UnmarshalJSON, which gives no offset.
func TypePath(data []byte, te *json.UnmarshalTypeError) string {
	if te.Offset <= 0 {
		return te.Field
	}
	path, _ := ValueAt(data, int(te.Offset))
	return path
}

// TypeProblem says what a type error found and wanted in the file's words,
// not Go's ("a string where a whole number was expected", not "string
// where a int64 was expected").
func TypeProblem(te *json.UnmarshalTypeError) string {
	return fmt.Sprintf("%s where %s was expected", te.Value, jsonKind(te.Type))
}

// jsonKind names a Go type by the JSON values it takes.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "another value"
}
