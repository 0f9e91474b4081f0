// Package slurm runs a sweep as a Slurm job array: one array task per item,
// each `mrbound sweep run MANIFEST` with the item's index in
// SLURM_ARRAY_TASK_ID.
//
// # The script
//
// Script writes an sbatch script whose #SBATCH lines carry the array of the
// items still to run (with a throttle "%k" when asked), one CPU per task, the
// sweep's per-item time and memory limits, and one log per item in the
// sweep's logs directory (<index>.slurm.out, appended to across
// submissions). Submit hands it to sbatch --parsable and returns the job ID.
//
// # Limits
//
// Slurm refuses array indices at or above its MaxArraySize (1001 by
// default); Script refuses them too, naming the setting, unless the caller
// says the cluster allows more.
package slurm
