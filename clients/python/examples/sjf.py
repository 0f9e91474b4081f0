#!/usr/bin/env python3
"""Shortest job first over mrbound's protocol: every free slot goes to the job with the least
estimated work left (the sum of its pending tasks' estimates on the offered node), ties by arrival.
Without estimates (--estimates none) it falls back to the fewest pending tasks.

    mrbound simulate TRACE --policy 'exec:python3 clients/python/examples/sjf.py'
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import mrbound_policy as mp  # noqa: E402


class SJF(mp.Policy):
    name = "sjf"

    def init(self, sim):
        self.active = []  # arrived jobs not done
        self.left = {}  # job -> estimated work of its pending tasks (ms, on a class-0 node)

    def job_arrival(self, sim, job):
        self.active.append(job.id)
        self.left[job.id] = sum(self._est(sim, t) for t in range(job.first_map, job.first_map + job.num_maps)) + \
            sum(self._est(sim, t) for t in range(job.first_reduce, job.first_reduce + job.num_reduces))

    def _est(self, sim, t):
        est = sim.tasks[t].est
        return est[0] if est is not None else 1

    def task_end(self, sim, task, observed):
        # the task ends of one instant come together, and their callbacks see the instant's state:
        # a job that ended is seen done by each of its task ends there
        if sim.jobs[task.job].done and task.job in self.left:
            self.active.remove(task.job)
            del self.left[task.job]

    def offer(self, sim, x, free):
        order = sorted(self.active, key=lambda j: (self.left[j], sim.jobs[j].arrival, j))
        slots = [(mp.MAP, free.map), (mp.REDUCE, free.reduce)]
        if free.fungible:
            slots = [(None, free.map)]
        for kind, n in slots:
            while n > 0 and self._launch(sim, x, kind, order):
                n -= 1

    def _launch(self, sim, x, kind, order):
        for j in order:
            for k in ((mp.MAP, mp.REDUCE) if kind is None else (kind,)):
                if not sim.has_work(j, k):
                    continue
                t = sim.pick_map(j, x)[0] if k == mp.MAP else sim.pick_reduce(j)
                if t is None or not sim.fits(t, x):
                    continue
                sim.launch(t, x)
                self.left[j] -= self._est(sim, t)
                return True
        return False


if __name__ == "__main__":
    mp.run(SJF())
