package jlassiscenario

import _ "embed"

// Schema is the JSON Schema (draft 2020-12) of a scenario file, for editors.
// The loader checks more than the schema can (ids resolve, slot counts, the
// network tree).
//
//go:embed schema.json
var Schema []byte
