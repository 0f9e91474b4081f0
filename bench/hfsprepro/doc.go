// Package hfsprepro reproduces HFSP's evaluation in simulation
// (policies.md §2.8, §3.4–3.5, §4): HFSP (wait, kill, suspend) against Fair
// and FIFO on the Facebook 2009 SWIM day, 600 nodes × (2 map + 2 reduce).
//
// # Metrics
//
// Per policy: mean sojourn C_j − a_j; slowdown (C_j − a_j)/A_j as mean, p50, p95,
// p99 (nearest rank) and max, where A_j is the job's critical path on the idle cluster
// (policies.md §6: max(longest map, map work / map slots) + the same for
// reduces), the alone time without heartbeats or locality penalties, so a
// valid lower bound on every sojourn (Run fails if a job beats it); mean
// sojourn per size class (maps: 1, 2–10, 11–100, >100); the FSP dominance
// check, the number and share of jobs with C_j ≤ C_j under the reference policy
// (Fair with equal weights and no min shares: the SWIM day has no users,
// so one pool); preemptions; and the wall time per decision (every Offer
// callback timed by a wrapper), mean and worst.
//
// # Output
//
// go test -v ./bench/hfsprepro -run TestFB2009Day -args -write $PWD/docs
// prints the markdown table and writes docs/figures/hfsp-*.svg; it is
// skipped under -short and when ../shared/traces/swim is absent.
package hfsprepro
