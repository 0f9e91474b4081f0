// Package fifo is Hadoop 1's FIFO scheduler (JobQueueTaskScheduler) and MRCP's
// EDF, which is FIFO with the queue keyed by deadline (policies.md §2.1, §2.3).
//
// # Order
//
// FIFO serves jobs by (priority, arrival, id) — all papers use one priority,
// so arrival order — and EDF by (deadline, arrival, id). Both are
// non-preemptive and work-conserving: a job that has no launchable task of a
// kind is passed over, so "one job at a time" means strict priority, not
// exclusive use of the cluster.
//
// # Offers
//
// Without caps every free map slot takes pickTask of the first job with map
// work (a node-local map of that job if there is one, else its lowest-index
// pending map), and every free reduce slot the lowest eligible reduce of the
// first job with eligible reduces. With H1Caps (hadoop1 mode) the map slots
// are capped by the cluster load factor, a non-local map ends map assignment
// for the heartbeat, and at most one reduce is assigned per heartbeat.
package fifo
