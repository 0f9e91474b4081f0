// Package record keeps the per-item records of a long table in a CSV file, so
// that an interrupted run resumes where it stopped and a distributed sweep
// writes the very same files as a single-machine run.
//
// # Records file
//
// A Codec says how one record reads and writes as a CSV row under a fixed
// header. A run appends each record as soon as it is known (Session.Add); a
// truncated last line — a run killed while writing — is ignored when the file
// is read back, so nothing finished is lost and nothing half-written counts.
//
// # The table beside it
//
// A Session also re-renders the table from all the records after each one and
// writes it atomically (temp file + rename, WriteFileAtomic), so the table on
// disk is always that of the records on disk. WriteOutputs writes both files
// at once from a complete list of records, which is how `mrbound sweep
// collect` produces the files `mrbound table` would have.
package record
