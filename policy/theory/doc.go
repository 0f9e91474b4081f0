// Package theory holds no code: its tests check the simulator and the
// baseline policies against results known from queueing and scheduling
// theory and from the papers' own models (M/M/1 under FIFO, EDF with
// feasible deadlines, TuMM's Algorithm 1, Fair against processor sharing).
package theory
