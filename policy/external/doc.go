// Package external runs an online policy written in any language in its own
// process, speaking newline-delimited JSON over the process's stdin and
// stdout (docs/protocol.md, schema docs/protocol.schema.json).
//
// # Names
//
// `--policy 'exec:COMMAND ARGS…'` names one: the words are split as a POSIX
// shell would (quotes, backslashes), but no shell runs, so nothing is
// expanded or redirected. policy.New resolves the prefix.
//
// # Batching
//
// The arrivals, task ends and timers of an instant are queued and travel in
// one "events" message with the instant's next offer (an offer is always the
// last event of its message, because its actions must apply before the
// engine offers the next node), or, when no offer follows, alone at the end
// of the instant (sim.InstantEnder). Every message but the last ("end") gets
// exactly one reply line carrying any number of actions, applied in order.
//
// # Failures
//
// A crash, a hang (no reply within Options.Timeout), a reply that is not
// protocol JSON, an unknown action or one the engine refuses stops the run
// (sim.Abort) with one line naming the message number and what was wrong;
// the process group is killed and reaped, and nothing is written.
package external
