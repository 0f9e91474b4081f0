// Package mrcpscenario reads, validates and generates MRCP scenarios: streams
// of MapReduce jobs with release times and deadlines, to be scheduled on a
// cluster of resources with map and reduce slots (Lim, Majumdar and
// Ashwood-Smith, MRCP, §3 and §5.1).
//
// # Format
//
// A scenario is one JSON object (schema: schema.json in this directory; full
// description in docs/mrcp.md):
//
//	{
//	  "kind": "mrcp",
//	  "schema_version": 1,
//	  "name": "tiny",                       optional
//	  "time_unit_seconds": 1,               optional, seconds per time unit (default 1; the simulator scales by it)
//	  "resources": [
//	    {"name": "r0", "map_slots": 1, "reduce_slots": 1}, ...
//	  ],
//	  "jobs": [
//	    {"name": "j0", "release": 0, "deadline": 60,
//	     "maps":    [{"duration": 30, "demand": 1}, ...],
//	     "reduces": [{"duration": 20}]}, ...
//	  ]
//	}
//
// Times (release, deadline, duration) are non-negative integers in time
// units; durations are positive; demand defaults to 1. A job has at least
// one map and at least one reduce; its deadline is not before its release.
// Every task must fit on some resource (demand ≤ slots of its kind). Names are
// optional and default to "r<i>" and "j<i>"; given names must be distinct.
//
// # Loading
//
// Load and Parse validate everything above and report the first problem as
// one line naming the file and the JSON path, e.g.
//
//	stream.json: jobs[3].maps[0].duration: must be a positive integer
//
// # Generating
//
// Generate builds the paper's WordCount workloads (§5.1.2): small (3 maps +
// 1 reduce), medium (10 + 1), large (20 + 1) and mixed (each size with
// probability 1/3), arriving as a Poisson process of rate λ per second, with
// deadline d = s + round(e_m · alone), e_m ~ U[1, 5] and alone the job's
// execution time on the empty cluster. Task durations, in seconds, are chosen
// so that a job alone on the default cluster (4 resources × 1 map + 1 reduce
// slot) takes the paper's 50 / 80 / 100 s:
//
//	size     maps × map s   waves on 4 slots   reduce s   alone
//	small     3 × 30        1                  20         30 + 20 = 50
//	medium   10 × 20        3                  20         60 + 20 = 80
//	large    20 × 16        5                  20         80 + 20 = 100
//
// With a time unit of u seconds every time is divided by u and rounded (at
// least 1 for a duration), which shrinks time-indexed models. Everything is
// deterministic given the seed.
package mrcpscenario
