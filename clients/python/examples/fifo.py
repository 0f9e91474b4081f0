#!/usr/bin/env python3
"""Hadoop 1's FIFO scheduler over mrbound's protocol: the same decisions as the built-in `fifo`
(policy/fifo without --h1caps), so its trace is byte-identical to it.

    mrbound simulate TRACE --policy 'exec:python3 clients/python/examples/fifo.py'
"""
import os
import sys
from heapq import heappop, heappush

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import mrbound_policy as mp  # noqa: E402


class FIFO(mp.Policy):
    name = "fifo"

    # The queues are heaps of (key, job id) of the jobs that have launchable work of the kind, fed
    # by sim.on_work (at arrival, when slow-start starts to hold, after a kill): the head is the job
    # the Go FIFO's scan of its queue in key order would reach first, and a job whose work ran out
    # is popped once instead of being scanned past at every offer until it is done.
    def init(self, sim):
        self.map_q, self.red_q = [], []
        sim.on_work = self.work
        # without RAM or disk limits every task fits: sim.fits need not be asked at each launch
        self.limits = any(n.ram or n.disk for n in sim.nodes)

    def work(self, job, kind):
        # higher priority first, then arrival, then id; a job may be in a heap twice (work regained
        # by a kill while an old entry is still in): the stale entry is popped like any other
        heappush(self.map_q if kind == mp.MAP else self.red_q, (-job.priority, job.arrival, job.id))

    def offer(self, sim, x, free):
        if free.fungible:
            for _ in range(free.map):
                if not self._map(sim, x) and not self._reduce(sim, x):
                    return
            return
        for _ in range(free.map):
            if not self._map(sim, x):
                break
        for _ in range(free.reduce):
            if not self._reduce(sim, x):
                break

    def _map(self, sim, x):
        q, jobs = self.map_q, sim.jobs
        while q:
            j = q[0][2]
            if jobs[j].maps_pending == 0:  # sim.has_work(j, MAP), inlined: this is the hot path
                heappop(q)
                continue
            t = sim.pick_map(j, x)[0]
            if self.limits and not sim.fits(t, x):
                return False
            sim.launch(t, x)
            return True
        return False

    def _reduce(self, sim, x):
        q, jobs = self.red_q, sim.jobs
        while q:
            j = q[0][2]
            job = jobs[j]
            if job.reds_pending == 0:  # slow-start holds for every job in the heap
                heappop(q)
                continue
            t = sim.pick_reduce(j)
            if self.limits and not sim.fits(t, x):
                return False
            sim.launch(t, x)
            return True
        return False


if __name__ == "__main__":
    mp.run(FIFO())
