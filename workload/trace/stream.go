package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/sim"
)

const mapKind = sim.Map

// Objects calls fn with each top-level JSON object of data, a stream of
// concatenated objects as SLS and Rumen write them, and where it starts
// ("name:line:column", 1-based). A syntax error, or a value that is not an
// object, is a bad-input error naming its line and column.
func Objects(data []byte, name string, fn func(raw json.RawMessage, at string) error) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	pos := newPositions(data)
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if err == io.EOF {
			return nil
		}
		off := int(dec.InputOffset()) - len(raw)
		if err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) {
				off = int(se.Offset) - 1 // Offset is just after the offending byte
			} else {
				off = len(data)
			}
			return &badinput.PathError{File: pos.at(name, off), Problem: "JSON syntax: " + err.Error()}
		}
		// skip the whitespace before the value
		for off < len(data) && off >= 0 && isSpace(data[off]) {
			off++
		}
		at := pos.at(name, off)
		if len(raw) == 0 || raw[0] != '{' {
			return &badinput.PathError{File: at, Problem: "a top-level value that is not a JSON object"}
		}
		if err := fn(raw, at); err != nil {
			return err
		}
	}
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

// Unmarshal decodes one object of a stream into v, naming the JSON path of
// a field of the wrong type.
func Unmarshal(raw json.RawMessage, at string, v any) error {
	if err := json.Unmarshal(raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return &badinput.PathError{File: at, Path: te.Field, Problem: fmt.Sprintf("%s where a %s was expected", te.Value, te.Type)}
		}
		return &badinput.PathError{File: at, Problem: err.Error()}
	}
	return nil
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
