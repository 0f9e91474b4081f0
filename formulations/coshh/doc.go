// Package coshh builds, solves and checks the capacity LPs of the COSHH
// scheduler (Rasooli and Down, "COSHH: A classification and optimization
// based scheduler for heterogeneous Hadoop systems", §3), and derives its job
// classes by k-means.
//
// # The model
//
// For F job classes with arrival rates α_i and M resources on which class i
// runs at rate μ[i,j]:
//
//	maximise    λ
//	subject to  Σ_j μ[i,j]·δ[i,j] ≥ λ·α_i     for every class i      (1)
//	            Σ_i δ[i,j] ≤ 1                for every resource j   (2)
//	            δ[i,j] ≥ 0, λ ≥ 0                                    (3)
//
// F·M + 1 variables, F + M rows, at most F·M + F nonzeros in (1) and F·M in (2).
// One LP is solved for the primary classification (jobs of users with
// min_share > 0) and one for the secondary (all jobs).
//
// # Tie-breaking
//
// δ is not unique in general. Solve is lexicographic: stage 1 finds λ*; stage 2
// keeps λ ≥ λ*·(1 − LambdaRelSlack) and minimises Σ c[i,j]·δ[i,j] with
// c[i,j] = 1 + (i·M + j)/(F·M): the least total resource fraction, preferring
// lower-numbered (class, resource) pairs. The suggested sets are
// SC_j = {C_i : δ[i,j] > SuggestTol}. On the paper's example this gives
// λ = 1.0204, δ = [[0, 0.5], [1, 0.5]], SC_1 = {C2}, SC_2 = {C1, C2}.
//
// # Checking
//
// Check recomputes, from δ and the instance only, every class's served rate
// Σ_j μ[i,j]·δ[i,j], the largest λ those rates sustain (min over classes with
// α_i > 0 of served/α_i) and every resource's load Σ_i δ[i,j]; the answer is
// verified when the loads are ≤ 1 and the recomputed λ matches the solver's.
//
// # Classification
//
// Classify groups a job stream by k-means (k = number of users, k-means++
// seeding from a seeded PCG, Lloyd iterations) over each job's features:
// priority, log execution rate on every resource and its user's arrival rate,
// each standardised. Class α is the class's job count over the stream's span;
// μ[i,j] is 1 / (mean estimated execution time of the class's jobs on j).
//
// # Front door
//
// Run(ctx, path, data, Options) loads, classifies, solves and checks a
// scenario, the same entry as every formulation's (see package
// formulations); its *Report's Outcome is the first classification's λ,
// maximised. RunScenario does the same for a parsed scenario.
package coshh
