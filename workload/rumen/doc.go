// Package rumen reads Rumen job traces (Hadoop's rumen tool's output from
// JobHistory logs, as YARN SLS replays them) into the common trace form
// (workload/trace).
//
// # Format
//
// A stream of concatenated job objects (jobID, user, queue, submitTime,
// outcome, mapTasks and reduceTasks, directDependantJobs); each task has
// attempts with hostName, startTime, finishTime and result (SUCCESS, FAILED,
// KILLED). Times are epoch milliseconds; the trace is shifted so that its
// first submission is at 0.
//
// # Attempts to durations
//
// A task's true duration comes from its successful attempt: a map's is the
// attempt's length, a reduce's its length after the job's last map ended
// (the model's reduce idles in shuffle until then). A successful attempt
// without times (missing or -1) takes the task's startTime and finishTime.
// A task without a successful attempt (failed or killed, or never run) is
// dropped, and so is a job whose outcome is not SUCCESS or that is left
// without tasks; each drop is counted in the trace's notes. Attempts that
// ended before the successful one started stay in the record as killed
// segments (they held a slot); attempts that overlapped it (speculative
// copies) are left out of the record, since the model runs one attempt of a
// task at a time.
//
// # Chained jobs
//
// directDependantJobs lists the jobs that a job's completion submits. A
// dependant with exactly one parent in the trace gets that parent; one with
// several is refused (the model chains a job to one parent), naming the
// dependant's place.
package rumen
