// Package slurmtest starts a real one-node Slurm cluster on localhost for a
// test: munged with a fresh key, slurmctld and slurmd in the foreground, all
// state, spool, sockets and logs under the test's temporary directory, with a
// minimal slurm.conf of its own (no cgroups, no accounting).
//
// # Requirements
//
// Debian's slurm-wlm and munge packages (`make test` installs them with
// apt-get when it can) and root, which slurmd needs to run jobs as their
// submitter. Without them Start skips the test and says why; a daemon that
// does not come up is a test failure, with its log.
package slurmtest
