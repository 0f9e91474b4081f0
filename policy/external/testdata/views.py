#!/usr/bin/env python3
"""FIFO that checks the client's task views at every task end and arrival and stops (exit 1) at the
first inconsistency: the views are made on demand from the mirror's flat arrays (TestViews)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "clients", "python"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "clients", "python", "examples"))
import mrbound_policy as mp  # noqa: E402
from fifo import FIFO  # noqa: E402


def check(ok, what):
    if not ok:
        sys.stderr.write("views.py: %s\n" % what)
        sys.exit(1)


class Views(FIFO):
    def job_arrival(self, sim, job):
        super().job_arrival(sim, job)
        nmaps = 0
        for t in range(job.first_map, job.first_map + job.num_maps):
            task = sim.tasks[t]
            check(task is not None and task.kind == mp.MAP and task.job == job.id, "map %d: %r" % (t, task))
            check(task.state == mp.PENDING and task.index == t - job.first_map, "map %d: %r" % (t, task))
            for x in task.replicas:
                check(task.index in job._local[x][1:], "map %d: replica %d not in the local index" % (t, x))
            nmaps += len(task.replicas)
            for x in range(len(sim.nodes)):
                e = sim.estimate(t, x)
                check(e == (None if task.est is None else task.est[sim.nodes[x].cls]), "map %d: estimate on %d" % (t, x))
        # a row of the local index is [node, map indexes…]
        check(nmaps == sum(len(lst) - 1 for lst in job._local.values()), "job %d: replicas and local index differ" % job.id)
        for t in range(job.first_reduce, job.first_reduce + job.num_reduces):
            task = sim.tasks[t]
            check(task.kind == mp.REDUCE and task.replicas == () and task.state == mp.PENDING, "reduce %d: %r" % (t, task))

    def task_end(self, sim, task, observed):
        check(task == sim.tasks[task.id] and task.state == mp.DONE, "ended task %r" % (task,))
        check(observed >= 0 and 0 <= task.node < len(sim.nodes), "ended task %r on %d" % (task, task.node))
        check(task.launch <= sim.now, "ended task %r launched at %d after now" % (task, task.launch))


if __name__ == "__main__":
    mp.run(Views())
