// Package report renders a simulated run: it verifies the trace with
// sim/check first (a run is reported verified only when it passes), then
// writes the metrics as text or one JSON object, the per-task trace as TSV,
// and the schedule as a text or SVG Gantt chart with one lane per slot.
//
// # JSON fields
//
// policy, file, jobs, tasks, completed_jobs, makespan, mean_turnaround,
// late_jobs, late_fraction, locality, utilisation, map_utilisation,
// throughput (jobs/h), killed, suspended, events, task_events, offers,
// wall_seconds, overhead_seconds, overhead_per_job_seconds,
// heartbeat_seconds, slowstart, seed, nodes, map_slots, reduce_slots,
// dissatisfaction and fairness (COSHH, when the workload has users),
// verified, check_error (when not verified). Times are in seconds.
package report
