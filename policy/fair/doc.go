// Package fair is Hadoop 1's fair scheduler with delay scheduling
// (policies.md §2.2): pools (one per user), min shares, weights, and
// Zaharia et al.'s delay scheduling for maps.
//
// # Order
//
// At every assignment, re-sorted after each launch: needy pools first (those
// running fewer tasks than min(minShare, demand)), by ascending
// running/min(minShare, demand); then the others by ascending
// running/weight; ties by earliest pending job arrival, then pool id. Min
// shares count all slots of the user (A-F2); the weight is the user's
// Weight (A-F1: the priority). Inside a pool jobs follow the same rule with
// min share 0 and weight 1 (or arrival order with PoolFIFO).
//
// # Delay scheduling
//
// For a free map slot on node x, in fair order: a job with a node-local map
// on x launches it and forgets its wait; a job that has waited at least W
// since it was first skipped launches a non-local map (and keeps waiting
// until it gets a local one); any other job starts waiting and is skipped.
// W defaults to 1.5·H capped at 15 s (Hadoop 1), with H = 3 s in ideal mode.
// A timer at the end of each wait re-offers the idle slots. Reduces follow
// the fair order without delay. With H1Caps one map and one reduce are
// assigned per heartbeat (assignmultiple=false).
//
// # Cost
//
// The state is incremental (a job is re-read only after its arrival, one of
// its task ends or its own launch; each pool keeps its jobs with launchable
// maps and reduces in order), so an offer neither re-reads nor sorts the
// whole backlog; the decisions are those of re-sorting everything before each
// assignment (TestSameAsResort). FB-2009 day on 20 nodes: 1.1-1.4 s, about
// 2 µs per offer (docs/results.md, "Fair under overload").
package fair
