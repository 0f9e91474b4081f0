package external

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/mrbound/mrbound/sim"
)

// appendArrival appends job j's arrival event, the bytes json.Marshal
// writes for arrivalEvent{"arrival", newJob(s, j, classes)} (the struct
// stays the shape's reference: TestArrivalBytes compares the two on every
// arrival of real runs). It is written with strconv into the message's
// buffer because reflection over a job's columns was a tenth of mrbound's
// CPU time on the FB-2009 day (docs/results.md, "Issue 27").
func (p *Policy) appendArrival(b []byte, s *sim.Sim, j int) ([]byte, error) {
	v := s.Job(j)
	b = append(b, `{"type":"arrival","job":{"id":`...)
	b = strconv.AppendInt(b, int64(j), 10)
	if v.Name != "" {
		b = append(b, `,"name":`...)
		b = appendString(b, v.Name)
	}
	if v.Category != "" {
		b = append(b, `,"category":`...)
		b = appendString(b, v.Category)
	}
	b = append(b, `,"user":`...)
	b = strconv.AppendInt(b, int64(v.User), 10)
	b = append(b, `,"priority":`...)
	b = strconv.AppendInt(b, int64(v.Priority), 10)
	b = append(b, `,"arrival":`...)
	b = strconv.AppendInt(b, int64(v.Arrival), 10)
	if v.Deadline != sim.NoDeadline {
		b = append(b, `,"deadline":`...)
		b = strconv.AppendInt(b, int64(v.Deadline), 10)
	}
	b = append(b, `,"need_maps":`...)
	b = strconv.AppendInt(b, int64(s.NeedMaps(j)), 10)
	b = append(b, `,"first_map":`...)
	b = strconv.AppendInt(b, int64(v.FirstMap), 10)
	b = append(b, `,"first_reduce":`...)
	b = strconv.AppendInt(b, int64(v.FirstRed), 10)
	b = append(b, `,"maps":`...)
	b, err := p.appendTasks(b, s, v.FirstMap, v.NumMaps, true)
	if err != nil {
		return b, err
	}
	b = append(b, `,"reduces":`...)
	if b, err = p.appendTasks(b, s, v.FirstRed, v.NumReduces, false); err != nil {
		return b, err
	}
	return append(b, "}}"...), nil
}

// appendTasks appends a job's maps or reduces by column (type tasks).
func (p *Policy) appendTasks(b []byte, s *sim.Sim, first sim.TaskID, n int, isMap bool) ([]byte, error) {
	b = append(b, `{"count":`...)
	b = strconv.AppendInt(b, int64(n), 10)
	if n == 0 {
		return append(b, '}'), nil
	}
	if _, ok := s.Estimate(first, p.classes[0]); ok {
		b = append(b, `,"est":[`...)
		for c, x := range p.classes {
			if c > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			for i := range n {
				if i > 0 {
					b = append(b, ',')
				}
				e, _ := s.Estimate(first+sim.TaskID(i), x)
				b = strconv.AppendInt(b, int64(e), 10)
			}
			b = append(b, ']')
		}
		b = append(b, ']')
	}
	if isMap {
		b = p.appendLocal(b, s, first, n)
	}
	var hasRAM, hasDisk bool
	for i := range n {
		r, d := s.Demand(first + sim.TaskID(i))
		hasRAM = hasRAM || r != 0
		hasDisk = hasDisk || d != 0
	}
	var err error
	for _, col := range []struct {
		has  bool
		name string
		disk bool
	}{{hasRAM, `,"ram":[`, false}, {hasDisk, `,"disk":[`, true}} {
		if !col.has {
			continue
		}
		b = append(b, col.name...)
		for i := range n {
			if i > 0 {
				b = append(b, ',')
			}
			r, d := s.Demand(first + sim.TaskID(i))
			if col.disk {
				r = d
			}
			if b, err = appendFloat(b, r); err != nil {
				return b, fmt.Errorf("task %d: %v", first+sim.TaskID(i), err)
			}
		}
		b = append(b, ']')
	}
	return append(b, '}'), nil
}

// appendLocal appends the "local" rows of maps first…first+n−1 (see
// tasks.Local): per node holding a block, in node order, the node and the
// ascending indexes of its maps. It counts the maps per node, then fills
// one flat array by offsets, with scratch kept across arrivals, so that a
// job's index costs no map and no allocation per node.
func (p *Policy) appendLocal(b []byte, s *sim.Sim, first sim.TaskID, n int) []byte {
	if len(p.perNode) < len(p.classOf) {
		p.perNode = make([]int32, len(p.classOf))
	}
	cnt := p.perNode // maps per node, then each row's next slot; zero between calls
	nodes := p.touched[:0]
	total := 0
	for i := range n {
		for _, x := range s.Replicas(first + sim.TaskID(i)) {
			if cnt[x] == 0 {
				nodes = append(nodes, x)
			}
			cnt[x]++
			total++
		}
	}
	if len(nodes) == 0 {
		return b
	}
	slices.Sort(nodes)
	start := p.rowStart[:0]
	off := int32(0)
	for _, x := range nodes {
		start = append(start, off)
		c := cnt[x]
		cnt[x] = off // the next free slot of x's row
		off += c
	}
	flat := slices.Grow(p.flat[:0], total)[:total]
	for i := range n {
		for _, x := range s.Replicas(first + sim.TaskID(i)) {
			flat[cnt[x]] = int32(i)
			cnt[x]++
		}
	}
	b = append(b, `,"local":[`...)
	for r, x := range nodes {
		if r > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(x), 10)
		for _, i := range flat[start[r]:cnt[x]] {
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(i), 10)
		}
		b = append(b, ']')
		cnt[x] = 0
	}
	p.touched, p.rowStart, p.flat = nodes, start, flat
	return append(b, ']')
}

// appendString appends s as json.Marshal writes it: as is when it is
// printable ASCII that needs no escape (every name in the traces we read),
// else through encoding/json (which also escapes <, > and &).
func appendString(b []byte, s string) []byte {
	for i := range len(s) {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always marshals
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendFloat appends f as json.Marshal writes a float64: the shortest
// decimal that reads back as f, in exponent form only below 1e-6 or from
// 1e21 up, with a one-digit negative exponent unpadded (1e-07 → 1e-7).
func appendFloat(b []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, fmt.Errorf("demand %v is not a JSON number", f)
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}
