#!/usr/bin/env python3
"""Hadoop 1's FIFO scheduler over mrbound's protocol: the same decisions as the built-in `fifo`
(policy/fifo without --h1caps), so its trace is byte-identical to it.

    mrbound simulate TRACE --policy 'exec:python3 clients/python/examples/fifo.py'
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import mrbound_policy as mp  # noqa: E402


class FIFO(mp.Policy):
    name = "fifo"

    def init(self, sim):
        self.map_q, self.red_q = [], []

    def key(self, job):
        # higher priority first, then arrival, then id
        return (-job.priority, job.arrival, job.id)

    def job_arrival(self, sim, job):
        # jobs arrive in time order, so an arrival almost always goes at the end
        k = self.key(job)
        for q, wanted in ((self.map_q, True), (self.red_q, job.num_reduces > 0)):
            if not wanted:
                continue
            i = len(q)
            while i > 0 and self.key(sim.jobs[q[i - 1]]) > k:
                i -= 1
            q.insert(i, job.id)

    def offer(self, sim, x, free):
        self._prune(sim)
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

    def _prune(self, sim):
        q = self.map_q
        k = 0
        while k < len(q) and sim.jobs[q[k]].map_phase_done:
            k += 1
        if k:
            del q[:k]
        q = self.red_q
        k = 0
        while k < len(q) and sim.jobs[q[k]].done:
            k += 1
        if k:
            del q[:k]

    # A job whose tasks of a kind all run or are done stays in its queue (a kill, by this policy or a
    # subclass, gives it work back) and is skipped, as in the Go FIFO.
    def _map(self, sim, x):
        if sim.launchable(mp.MAP) == 0:
            return False
        jobs = sim.jobs
        for j in self.map_q:
            if jobs[j].maps_pending == 0:  # sim.has_work(j, MAP), inlined: this loop is the hot path
                continue
            t = sim.pick_map(j, x)[0]
            if not sim.fits(t, x):
                return False
            sim.launch(t, x)
            return True
        return False

    def _reduce(self, sim, x):
        if sim.launchable(mp.REDUCE) == 0:
            return False
        jobs = sim.jobs
        for j in self.red_q:
            job = jobs[j]
            if job.reds_pending == 0 or job.maps_done < job.need_maps:  # sim.has_work(j, REDUCE)
                continue
            t = sim.pick_reduce(j)
            if not sim.fits(t, x):
                return False
            sim.launch(t, x)
            return True
        return False


if __name__ == "__main__":
    mp.run(FIFO())
