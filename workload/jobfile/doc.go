// Package jobfile reads and writes the plain job file: JSON Lines, one job a
// line, that anyone can write by hand or from a script (docs/traces.md,
// docs/jobfile.schema.json).
//
// # Format
//
// Every non-blank line is one JSON object. The first may be the cluster:
//
//	{"cluster": {"nodes": 4, "map_slots": 2, "reduce_slots": 1}}
//
// (optional "node_names": the nodes' names, as many as "nodes"). Every other
// line is a job:
//
//	{"id": "etl-1", "submit_ms": 0, "pool": "etl", "maps_ms": [12000, 9500], "reduces_ms": [30000]}
//
// Times are whole milliseconds (the simulator's unit, so that a file
// round-trips exactly): submit_ms from the start of the trace, deadline_ms
// on the same clock, maps_ms and reduces_ms the true duration of each task
// on a node of speed 1 (its work). Optional: user, pool (the Fair
// scheduler's pool is pool, else user), weight (the pool's Fair weight; the
// jobs of a pool agree), deadline_ms, parent (the id of an earlier job whose
// completion submits this one; submit_ms is then ignored). Unknown fields,
// a missing id, submit_ms or maps_ms, negative times and a job without a
// task are errors naming file:line and the field.
package jobfile
