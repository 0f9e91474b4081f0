// Package upperbound finds good offline schedules — the upper end of the
// bracket [certified lower bound, best known schedule] that package compare
// reports — by clairvoyant list scheduling run through the simulator and
// checked by sim/check.
//
// # Why a schedule from here is a valid upper bound
//
// A construction is a sim.Policy run by sim.Run on the very workload and
// options the compared policies run with, so its result is a schedule of the
// simulated problem, and its trace is re-verified by the independent checker
// (sim/check). Best keeps only verified runs: a construction whose trace
// fails the checker, attempts an invalid action or leaves a job unfinished is
// reported with its verdict and never becomes the upper value.
//
// # Clairvoyance, and why it lives outside package policy
//
// Online policies (package policy) see only what Hadoop would show them:
// estimates, never true durations or future arrivals. A construction here
// reads the workload itself when it is built — every arrival and every true
// task duration — which no online policy may do; that is why it is not in
// the policy registry and cannot be picked with --policies. The simulator
// does not stop it: a Policy is handed the workload by whoever builds it, and
// the engine only checks that each action is feasible.
//
// # Constructions (Rule)
//
// Each rule is list scheduling by job priority: whenever a slot is free, it
// takes a task of the highest-priority job that has one ready for it (maps by
// sim.PickMap, reduces once slow-start allows). Priorities, by metric:
//
//   - mean and total turnaround: smallest remaining unlaunched work first
//     (srpt; srpt-hold adds deliberate idling, below), the same work divided by the slots the job could use
//     (srpt-span), and static orders from the preemptive single-machine SRPT
//     relaxation on a machine as fast as the whole cluster (relax-srpt: the
//     job's completion in the relaxation, relax-srpt-mid: its α = ½ point);
//   - makespan: johnson (below; Johnson's rule is the makespan-optimal
//     order of a two-machine flow shop), longest remaining span first
//     (lrpt), longest critical path first (cp-first);
//   - maximum turnaround: Johnson's flow-shop order on the map stage with
//     reduces by latest start (johnson, below), latest start first
//     (latest-start, a_j − CP_j), the same per kind (latest-start-kind:
//     maps by a_j − CP_j, reduces by a_j minus the job's reduce span, their
//     latest start for a common turnaround target) and arrival order;
//   - late jobs and MRCP's product: earliest deadline first (edf).
//
// johnson treats the two stages as a two-machine flow shop: the map slots
// take first the jobs whose map span (map work over map slots) is at most
// their reduce span, shortest map span first, then the others, longest
// reduce span first (Johnson 1954: the makespan-optimal order of a
// two-machine flow shop), so that the reduce stage, the bottleneck of a
// reduce-heavy day, is fed as early as it can be; reduces go by latest start
// as the job's reduces launch (a_j minus the span of its unlaunched
// reduces). Ranking maps by latest start instead lets a map-heavy job with
// almost no reduce work (on the FB-2009 day at 20 nodes, 562,613 s of maps
// and 3,090 s of reduces) hold every map slot for hours while the reduce
// slots idle: 40,471 s max turnaround against johnson's 34,940 s
// (docs/results.md, issue 26, s10upper).
//
// On heterogeneous clusters each rule also runs as a "-fast" variant, which
// leaves a task to faster nodes rather than run it more than slowCap (2)
// times slower than its fastest node would: on COSHH's clusters, whose
// resources differ by 100×, waiting for a fast slot wins by far.
//
// Best runs every rule (the metric's own first), skipping a static rule
// that ranks the jobs exactly as one already run (the same schedule: edf
// without deadlines is arrival order), and then a local search from the
// best verified schedule so far, of one of two kinds (around a dynamic
// rule both, when its completion order replayed as a static order is no
// worse than the rule: the order search first, each with the full budget;
// when the replay is worse it costs that one run):
//
//   - around a dynamic rule (srpt, srpt-span, lrpt, johnson, srpt-hold):
//     each candidate adds a per-job offset to the rule's keys, so the
//     search starts from the rule's own schedule and keeps its dynamics; a
//     move changes one job's offset by up to its work, often promoting the
//     job that waited longest beyond its critical path (around srpt-hold
//     always one of the 16 longest waits among the jobs that fit in one
//     wave of the cluster's slots, the longest most often, when the
//     instance is large enough to rank them); around srpt-hold half the
//     moves change its hold decisions instead — a job's bias on the wait a
//     hold for it saves (on such instances raised for one of the
//     one-reduce jobs that waited longest) or a factor of ½–2 on every
//     hold's cost; given
//     the waits a relaxation charges the jobs (Options.Waits: compare
//     passes the interval Lagrangian's), its last three runs add ½, ¾ and
//     1 times each wait to the offsets of the jobs wider than the reduce
//     slots (chargedFactors) — or, with Options.ChargedFirst (compare sets
//     it when the Lagrangian decides the bound on an instance large
//     enough to rank the longest waits, RanksWaits), its first three, the best
//     of them becoming the search's start when no worse than srpt-hold's
//     schedule, so that the later moves build on the demotion;
//   - otherwise over static job orders, starting from the
//     completion order of the best schedule (a construction's or a verified
//     policy run's): a move shifts one job — often the one that decides the
//     metric (the last to finish, the longest turnaround, a late job, which
//     is sent to the back as in Moore–Hodgson).
//
// A candidate is kept when its value is no worse. It is simulated first and
// checked by sim/check only when it would become the search's best (the
// checker costs about half a simulation), so an unchecked candidate is
// never an upper value. The search draws from a seeded stream and stops
// after Options.Evaluations runs, so a seed fixes the result;
// Options.TimeLimit is a safety stop (a search it cuts short says so in
// Result.Stopped and may depend on the machine).
//
// # Deliberate idling (srpt-hold)
//
// List scheduling never leaves a slot idle while a ready task could use it.
// srpt-hold does, in one targeted case: when a reduce slot frees and srpt's
// next reduce would hold it for p, while a job srpt will rank first once
// its reduce is ready (by its reduces' work alone then, its maps all
// launched) will have it ready at e = now + δ, before any reduce slot
// frees (its maps
// all launched: their ends, with the cluster's non-local penalty for a map
// away from its block; its maps still to launch, in waves on every map
// slot; or, not yet arrived, its arrival plus its maps in waves), the slot
// waits for that job if the wait it saves exceeds δ·n/√R (n jobs with a
// reduce waiting, R reduce slots; see tryHold), or, given a relaxation's
// prices of reduce time (Options.Prices: compare passes the interval
// Lagrangian's duals when every slot weighs the same), their integral over
// [now, e] when that is more. The wait saved runs to the first
// reduce slot to free that no job srpt ranks before the candidate takes
// (being ready by then, or held for; the other slots free at the same
// instant count too, with srpt's next reduces or idle); for a job with more
// reduces, when no other slot is free at this instant, it is the saving of
// its last one's end; and when srpt's reduce is its job's last, that job's
// delay beyond δ (it then starts after the candidate's reduce) is taken
// off. A held slot goes to such a job if
// its reduce is ready first. On instances small enough for a proven
// optimum this is what the optimum does that srpt does not
// (bench/looseside; docs/results.md, issue 26, s13up and s15hold). Holding
// crudely instead — every reduce longer than a threshold held until the
// day's last arrival — made the FB day's mean turnaround far worse
// (s9h26upper): the held jobs' own turnaround counts as much as anyone's.
//
// srpt-hold also waits for a local map slot: when srpt's next map would
// run away from its block and is its job's last, or its job's maps fit in
// one wave of the map slots (they run at once, so any of them may end the
// map phase), and a map slot on a node holding the block frees within the
// non-local penalty, the map is left to that slot and the free one goes to
// the next job (offerMaps; only while at most R/5 jobs have a reduce
// waiting, or the job has none: beyond that an earlier map end does not
// start the reduce sooner). On the FB-2009 day at 20 nodes the last map
// alone took 0.26 s off the search's best mean turnaround (s25maps), every
// map of a one-wave job 0.05 s more, and less at 10, 40 and 100 nodes
// (docs/results.md, issue 26, s26local).
package upperbound
