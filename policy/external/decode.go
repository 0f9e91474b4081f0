package external

// A reply is decoded once per message, and on the FB-2009 day it was a
// fifth of mrbound's CPU time with encoding/json's reflection
// (docs/results.md, "Issue 27"). decodeReply reads the replies clients
// actually write — `{"actions":[…]}` with integer fields and plain
// strings — directly; anything else (escapes in a string, null, a number
// with a fraction or exponent, a key in another case, a repeated key,
// trailing bytes) makes it give up, and exchange then decodes the line with
// encoding/json, which accepts or refuses it and words the error. So the
// fast path decides nothing encoding/json would decide differently
// (TestDecodeReplyAgrees, FuzzDecodeReply).

// maxFastDigits bounds the integers the fast path reads: 18 decimal digits
// always fit an int64; a longer one goes to encoding/json, which knows
// where int64 overflows.
const maxFastDigits = 18

// replyDecoder keeps the actions of the last reply between messages, so
// that decoding allocates nothing once it has grown.
type replyDecoder struct {
	b       []byte
	i       int
	actions []act
}

// act is an action as apply reads it, whichever decoder made it.
type act struct {
	typ                 string
	task, node, at, tag int64
	has                 uint8 // hasTask | hasNode | hasAt: the fields the action carried
}

const (
	hasTask = 1 << iota
	hasNode
	hasAt
)

// actionNames are the action types, so that a decoded name is one of
// these strings rather than a new allocation.
var actionNames = [...]string{"launch", "kill", "suspend", "resume", "timer", "wake"}

// decode parses line; ok is false when the line is not one the fast path
// is sure of (the caller then asks encoding/json).
func (d *replyDecoder) decode(line []byte) (actions []act, ok bool) {
	d.b, d.i = line, 0
	d.actions = d.actions[:0]
	if !d.byte('{') || !d.key("actions") || !d.byte('[') {
		return nil, false
	}
	if !d.peek(']') {
		for {
			if !d.action() {
				return nil, false
			}
			if d.peek(']') {
				break
			}
			if !d.byte(',') {
				return nil, false
			}
		}
	}
	d.i++ // the ']'
	if !d.byte('}') {
		return nil, false
	}
	d.space()
	if d.i != len(d.b) {
		return nil, false
	}
	return d.actions, true
}

// action parses one action object.
func (d *replyDecoder) action() bool {
	if !d.byte('{') {
		return false
	}
	var a act
	var seen [5]bool // type, task, node, at, tag: a repeated key is left to encoding/json
	if d.peek('}') {
		d.i++
		d.actions = append(d.actions, a)
		return true
	}
	for {
		name, ok := d.str()
		if !ok || !d.byte(':') {
			return false
		}
		field := -1
		switch string(name) { // no allocation: the compiler compares in place
		case "type":
			field = 0
		case "task":
			field = 1
		case "node":
			field = 2
		case "at":
			field = 3
		case "tag":
			field = 4
		}
		if field < 0 || seen[field] {
			return false
		}
		seen[field] = true
		if field == 0 {
			v, ok := d.str()
			if !ok {
				return false
			}
			a.typ = ""
			for _, n := range actionNames {
				if string(v) == n {
					a.typ = n
				}
			}
			if a.typ == "" {
				a.typ = string(v) // an unknown action: apply refuses it by name
			}
		} else {
			v, ok := d.int()
			if !ok {
				return false
			}
			switch field {
			case 1:
				a.task, a.has = v, a.has|hasTask
			case 2:
				a.node, a.has = v, a.has|hasNode
			case 3:
				a.at, a.has = v, a.has|hasAt
			case 4:
				a.tag = v
			}
		}
		if d.peek('}') {
			d.i++
			break
		}
		if !d.byte(',') {
			return false
		}
	}
	d.actions = append(d.actions, a)
	return true
}

// space skips JSON whitespace.
func (d *replyDecoder) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// byte skips whitespace and then c.
func (d *replyDecoder) byte(c byte) bool {
	d.space()
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}

// peek skips whitespace and reports whether c is next (not consuming it).
func (d *replyDecoder) peek(c byte) bool {
	d.space()
	return d.i < len(d.b) && d.b[d.i] == c
}

// key reads "name" and the colon.
func (d *replyDecoder) key(name string) bool {
	s, ok := d.str()
	return ok && string(s) == name && d.byte(':')
}

// str reads a string of printable ASCII without escapes.
func (d *replyDecoder) str() ([]byte, bool) {
	if !d.byte('"') {
		return nil, false
	}
	start := d.i
	for d.i < len(d.b) {
		c := d.b[d.i]
		switch {
		case c == '"':
			d.i++
			return d.b[start : d.i-1], true
		case c == '\\' || c < 0x20 || c >= 0x7f:
			return nil, false
		}
		d.i++
	}
	return nil, false
}

// int reads an integer as JSON writes it: -?(0|[1-9][0-9]*), followed by
// no fraction or exponent.
func (d *replyDecoder) int() (int64, bool) {
	d.space()
	neg := d.i < len(d.b) && d.b[d.i] == '-'
	if neg {
		d.i++
	}
	start := d.i
	var v int64
	for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
		v = v*10 + int64(d.b[d.i]-'0')
		d.i++
	}
	n := d.i - start
	if n == 0 || n > maxFastDigits || n > 1 && d.b[start] == '0' {
		return 0, false
	}
	if d.i < len(d.b) {
		if c := d.b[d.i]; c == '.' || c == 'e' || c == 'E' {
			return 0, false
		}
	}
	if neg {
		v = -v
	}
	return v, true
}
