package sls

import (
	"encoding/json"
	"fmt"

	"github.com/mrbound/mrbound/badinput"
	"github.com/mrbound/mrbound/workload/trace"
)

type rack struct {
	Rack  *string           `json:"rack"`
	Nodes []json.RawMessage `json:"nodes"`
}

type node struct {
	Node *string `json:"node"`
}

// LooksLikeNodes reports whether a decoded first object is a nodes file's rack.
func LooksLikeNodes(first map[string]json.RawMessage) bool {
	_, r := first["rack"]
	_, n := first["nodes"]
	return r && n
}

// Nodes is a cluster read from a nodes file.
type Nodes struct {
	// Names are /rack/node, in file order.
	Names []string
	// Skipped counts entries without a "node".
	Skipped int
}

// ReadNodes parses an SLS nodes file; name is used in errors.
func ReadNodes(data []byte, name string) (*Nodes, error) {
	out := &Nodes{}
	seen := map[string]string{}
	err := trace.Objects(data, name, func(decode func(any) error, at string) error {
		var r rack
		if err := decode(&r); err != nil {
			return err
		}
		if r.Rack == nil || *r.Rack == "" {
			return &badinput.PathError{File: at, Path: "rack", Problem: "missing or empty"}
		}
		for i, rawNode := range r.Nodes {
			var n node
			if err := json.Unmarshal(rawNode, &n); err != nil {
				return &badinput.PathError{File: at, Path: fmt.Sprintf("nodes[%d]", i), Problem: "not a node object"}
			}
			if n.Node == nil {
				out.Skipped++
				continue
			}
			if *n.Node == "" {
				return &badinput.PathError{File: at, Path: fmt.Sprintf("nodes[%d].node", i), Problem: "empty name"}
			}
			full := "/" + *r.Rack + "/" + *n.Node
			if prev, dup := seen[full]; dup {
				return &badinput.PathError{File: at, Path: fmt.Sprintf("nodes[%d].node", i), Problem: fmt.Sprintf("%s is listed twice (first at %s)", full, prev)}
			}
			seen[full] = at
			out.Names = append(out.Names, full)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out.Names) == 0 {
		return nil, badinput.Errorf("%s: no nodes", name)
	}
	return out, nil
}
