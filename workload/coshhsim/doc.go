// Package coshhsim turns a COSHH scenario whose jobs carry task counts
// (`mrbound generate coshh --tasks`) into a simulator workload (policies.md
// §3.3).
//
// # Mapping
//
// Each resource is a node with its map_slots and reduce_slots (A-C10), speed
// exec_rate_mhz / 500 (A-C11: Table 4's task-seconds are at 500 MHz) and its
// storage_bytes, which decides whether it can hold a block (A-C7). Blocks are
// block_bytes with replicas copies; a non-local map pays
// block_bytes·8 / network_mbps (A-C8: 10.74 s for 128 MB at 100 Mbps). Users
// keep their min share and their priority as weight (A-F1). Each job has maps
// tasks of map_seconds and reduces tasks of reduce_seconds of work at the
// reference speed; its estimate is that work times est_factor (1+E of §6.3),
// seen by a policy under sim.EstimateGiven. UserRates returns the users'
// arrival_rate for COSHH's classifier (A-C4's oracle).
//
// COSHH's user metrics of a run (§4, A-C17) are sim/report's UserReadings.
package coshhsim
