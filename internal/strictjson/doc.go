// Package strictjson checks a JSON document before a reader decodes it: a
// syntax error is reported at its line and column, and a key repeated in
// one object is refused with its JSON path and both places.
//
// # Why
//
// encoding/json reports a syntax error with a byte offset only, and keeps
// the last of repeated keys silently: {"kind":"mrcp","kind":"coshh"} reads
// as a COSHH scenario. A repeated key is almost always an edit gone wrong
// (two copies of a field, a merge), and which copy a tool keeps differs
// between tools, so mrbound refuses it instead of guessing. Every reader of
// a JSON file a person writes (the scenario kinds, the sweep manifest, the
// CLI's kind sniffing) calls Check first.
package strictjson
