package instances

import (
	"fmt"

	"github.com/mrbound/mrbound/internal/enum"
)

// TaskKind says whether a task is a map or a reduce (and so which kind of
// slot it runs in). The zero value is unknown.
type TaskKind int8

const (
	KindUnknown TaskKind = iota
	Map
	Reduce
)

var taskKindNames = enum.Names[TaskKind]{"unknown", "map", "reduce"}

func (k TaskKind) String() string { return taskKindNames.String(k) }

// MarshalText encodes the kind by name.
func (k TaskKind) MarshalText() ([]byte, error) { return taskKindNames.Text(k) }

// UnmarshalText decodes a kind name.
func (k *TaskKind) UnmarshalText(b []byte) error {
	v, ok := taskKindNames.Decode(string(b))
	if ok {
		*k = v
		return nil
	}
	return fmt.Errorf("instances: unknown task kind %q", b)
}
