// Package coshh is the COSHH scheduler of Rasooli and Down (policies.md §2.5):
// k-means job classes, two capacity LPs solved at run time, suggested-class
// sets per resource, replica placement and the two-stage routing of their
// Algorithm 2.
//
// It is the one policy that imports a solver and a formulation: the
// classification (KMeans) and the capacity LPs (Build, Solve, Suggest) come
// from formulations/coshh, solved by the backend named in Policy.Solve.
//
// # Classification (Algorithm 1)
//
// At a job's arrival its feature vector is
//
//	(priority, log mean_execRate(J, R_1..R_M), arrival rate of its user)
//
// with mean_execTime(J, R) = Σ_maps est(τ,R)/mapSlots_R + Σ_reds est(τ,R)/redSlots_R
// (A-C3: the fluid time for R alone) from the simulator's estimates, and the
// user's rate from Policy.UserRates (the generator's rate, A-C4's oracle) or,
// without it, the user's arrivals over the elapsed time. Features are min-max
// normalised over the jobs classified so far. The primary classification
// holds the jobs of users with a min share (k = their number), the secondary
// all jobs (k = the number of users). A job that fits a class of both (A-C5:
// distance to the centroid ≤ 1.1 × the class radius, or ≤ 0.1 × ‖centroid‖
// for a singleton) joins the nearest class it fits; otherwise every job seen
// so far is re-clustered, both LPs are re-solved and SC, SC' recomputed. The
// first arrival always classifies. α drift alone triggers nothing, unless
// ResolveEvery asks for a periodic re-solve with the current rates.
//
// # Resources are node types
//
// Nodes with the same group, speed and slots have the same estimates for every
// job, so the LP has one column per node type with μ scaled by the number of
// its nodes. That is the per-node LP with the optimal δ spread evenly over the
// identical nodes: λ is the same, and identical nodes get the same suggested
// sets (the per-node LP's tie-break would split them arbitrarily). With given
// classes (Policy.Stated) every node is its own column, as in the paper's
// worked example.
//
// # Replica placement (§3.2)
//
// At a job's arrival (BlockPlacer) each block gets Replicas distinct nodes
// drawn from the storage-capable nodes whose SC ∪ SC' contains one of the
// job's classes, filled from the other storage-capable nodes when there are
// too few.
//
// # Routing (Algorithm 2)
//
// At an offer from node R, separately for free map and reduce slots (A-C6):
// stage 1 serves jobs of users below their min share whose primary class is
// in SC_R, user by largest (minShare − running)·weight; stage 2 serves jobs
// whose secondary class is in SC'_R, user by smallest running/weight. Within a
// user the earliest-arrived job with work goes first; ties between users are
// broken by the policy's seeded stream; running counts all slots of the user
// and is updated after every launch. With Fallback the slots left are filled
// in stage-2 order ignoring SC'_R (A-C9); without it a resource may idle while
// jobs of other classes wait, as the paper's algorithm does.
//
// # Cost
//
// Stats counts the classifications, the LP solves and their wall time.
package coshh
