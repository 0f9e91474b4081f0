// Package jlassiscenario reads, validates and generates scenarios for the
// time-indexed MILP of Jlassi, Martineau and Tkindt ("Offline scheduling of
// map and reduce tasks on Hadoop systems", CLOSER 2015).
//
// # Format
//
// A scenario is one JSON object (schema.json, embedded as Schema, describes
// it for editors; docs/jlassi.md shows an example):
//
//	{"kind": "jlassi", "schema_version": 1,
//	 "name": "…", "scenario": 5, "seed": 3,      // optional
//	 "horizon": 7,                              // T; absent = eq 17
//	 "objective": "realtime",                   // optional
//	 "migration_bandwidth": 12.8,               // bwd, MB/s
//	 "machines": [{"id": "m1", "category": "c3.2xlarge", "ram_mb": 15360, "disk_mb": 163840,
//	               "cost_ram": 0.0625, "cost_disk": 0.001,
//	               "map_slots": [{"ghz": 2.8, "cost": 2}, …], "reduce_slots": […]}],
//	 "blocks": [{"id": "b1", "size_mb": 64, "homes": ["m2"]}],
//	 "jobs": [{"id": "j1", "type": 1,
//	           "maps": [{"id": "j1.m1", "ram_mb": 30, "disk_mb": 1200, "blocks": ["b1"],
//	                     "durations": {"m1": [85, 85, 85, 85, 85], …}}],
//	           "reduces": [{"id": "j1.r1", "ram_mb": 30, "disk_mb": 1200,
//	                        "durations": {…}, "shuffle": {"j1.m1": 6.4}}]}],
//	 "network": {"switches": ["s1"], "links": [{"a": "s1", "b": "m1", "capacity": 128}, …]}}
//
// Units: MB, seconds, MB/s. Durations list one processing time per slot of
// the task's kind on each machine that may run it. Ids are unique across
// machines, switches, blocks, jobs and tasks.
//
// # Validation
//
// Load, Parse and Compile report the first problem as a *PathError naming
// the JSON path, e.g.
//
//	scenario.json: jobs[2].maps[1].blocks: a map task needs at least one block
//
// They reject unknown fields, zero or negative durations and capacities,
// unknown machine, block or map ids, a duration list whose length is not the
// machine's slot count, a map with no block, tasks of a kind no machine has
// slots for, and a network that is not a tree reaching every machine.
//
// # Generator
//
// Generate draws the instances of the paper's Table 5 scenarios from Tables
// 2–4 and eq 16, reproducibly from (scenario, seed). The readings chosen where
// the paper is silent are the constants of generate.go and are discussed in
// docs/jlassi.md.
package jlassiscenario
