package trace

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/internal/strictjson"
	"github.com/mrbound/mrbound/sim"
)

const mapKind = sim.Map

// Objects reads data, a stream of concatenated JSON objects as SLS and
// Rumen write them, one object at a time: fn decodes the next object with
// decode and is told where it starts ("name:line:column", 1-based). A syntax
// error, or a value that is not an object, is a bad-input error naming its
// line and column; a field of the wrong type names its JSON path.
//
// Each object's extent is found by a scan that follows only braces and
// strings; encoding/json then decodes that slice (and validates it), so the
// data is never copied into a decoder's buffer.
func Objects(data []byte, name string, fn func(decode func(v any) error, at string) error) error {
	pos := newPositions(data)
	off := 0
	for {
		for off < len(data) && isSpace(data[off]) {
			off++
		}
		if off >= len(data) {
			return nil
		}
		at := pos.at(name, off)
		if data[off] != '{' {
			return &badinput.PathError{File: at, Problem: "a top-level value that is not a JSON object"}
		}
		end := objectEnd(data, off)
		if end < 0 {
			// unclosed: let the decoder say where the syntax breaks
			end = len(data)
		}
		obj := data[off:end]
		start := off
		decode := func(v any) error {
			err := json.Unmarshal(obj, v)
			var se *json.SyntaxError
			var te *json.UnmarshalTypeError
			switch {
			case err == nil:
				return repeatedKey(obj, at)
			case errors.As(err, &se):
				// Offset is just after the offending byte
				return &badinput.PathError{File: pos.at(name, start+int(se.Offset)-1), Problem: "JSON syntax: " + err.Error()}
			case errors.As(err, &te):
				problem := strictjson.TypeProblem(te)
				if te.Offset == 0 {
					// from a field's own UnmarshalJSON: no offset, only the decoder's Field
					return &badinput.PathError{File: at, Path: te.Field, Problem: problem}
				}
				// The decoder's Field has no array indexes; name the value itself.
				path, valueStart := strictjson.ValueAt(obj, int(te.Offset))
				return &badinput.PathError{File: pos.at(name, start+valueStart), Path: path, Problem: problem}
			}
			return &badinput.PathError{File: at, Problem: strings.ReplaceAll(err.Error(), "\n", " ")}
		}
		if err := fn(decode, at); err != nil {
			return err
		}
		off = end
	}
}

// repeatedKey refuses an object with a repeated key (encoding/json keeps the
// last one silently), naming the object's place and the key's JSON path.
// It runs only after the object decoded, so the fast scan applies.
func repeatedKey(obj []byte, at string) error {
	var pe *badinput.PathError
	if err := strictjson.RepeatedKey(at, obj); errors.As(err, &pe) {
		return &badinput.PathError{File: at, Path: pe.Path, Problem: pe.Problem}
	}
	return nil
}

// objectEnd returns the offset just after the object that starts at
// data[off] ('{'), or -1 when it is not closed. Only braces, brackets and
// strings (with their escapes) are followed; the decoder validates the rest.
func objectEnd(data []byte, off int) int {
	depth := 0
	for i := off; i < len(data); i++ {
		switch data[i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		case '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		}
	}
	return -1
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// positions turns byte offsets into line:column, scanning forward only
// (offsets come in increasing order, so a whole file costs one pass).
type positions struct {
	data            []byte
	off, line, col0 int // col0: offset of the current line's start
}

func newPositions(data []byte) *positions { return &positions{data: data, line: 1} }

func (p *positions) at(name string, off int) string {
	off = min(max(off, 0), len(p.data))
	if off < p.off {
		p.off, p.line, p.col0 = 0, 1, 0
	}
	for i := p.off; i < off; i++ {
		if p.data[i] == '\n' {
			p.line++
			p.col0 = i + 1
		}
	}
	p.off = off
	return fmt.Sprintf("%s:%d:%d", name, p.line, off-p.col0+1)
}

// Durations sets a job's task durations from its successful containers
// (index order; every task must have one): a map's is its container's
// length; a reduce's is its work after the job's last map ended, end −
// max(start, last map end), since the model's reduce idles in shuffle until
// the map phase is over.
func Durations(job *Job, cs []Container) {
	lastMap := int64(-1 << 62)
	nMaps, nReds := 0, 0
	for _, c := range cs {
		if !c.Successful {
			continue
		}
		if c.Kind == mapKind {
			lastMap = max(lastMap, c.EndMs)
			nMaps = max(nMaps, c.Index+1)
		} else {
			nReds = max(nReds, c.Index+1)
		}
	}
	job.MapsMs, job.ReducesMs = make([]int64, nMaps), nil
	if nReds > 0 {
		job.ReducesMs = make([]int64, nReds)
	}
	for _, c := range cs {
		if !c.Successful {
			continue
		}
		if c.Kind == mapKind {
			job.MapsMs[c.Index] = c.EndMs - c.StartMs
		} else {
			job.ReducesMs[c.Index] = c.EndMs - max(c.StartMs, min(lastMap, c.EndMs))
		}
	}
}
