package instances

import "fmt"

// TaskKind says whether a task is a map or a reduce (and so which kind of
// slot it runs in). The zero value is unknown.
type TaskKind int8

const (
	KindUnknown TaskKind = iota
	Map
	Reduce
)

var taskKindNames = [...]string{"unknown", "map", "reduce"}

func (k TaskKind) String() string {
	if int(k) >= 0 && int(k) < len(taskKindNames) {
		return taskKindNames[k]
	}
	return fmt.Sprintf("TaskKind(%d)", int(k))
}

// MarshalText encodes the kind by name.
func (k TaskKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText decodes a kind name.
func (k *TaskKind) UnmarshalText(b []byte) error {
	for i, n := range taskKindNames {
		if n == string(b) {
			*k = TaskKind(i)
			return nil
		}
	}
	return fmt.Errorf("instances: unknown task kind %q", b)
}
