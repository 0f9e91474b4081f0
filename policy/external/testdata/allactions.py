#!/usr/bin/env python3
"""A valid client that uses every action once (launch, suspend, resume, kill, timer, wake) and
otherwise runs FIFO: the schema test records its messages."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "clients", "python"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "clients", "python", "examples"))
import mrbound_policy as mp  # noqa: E402
from fifo import FIFO  # noqa: E402


class AllActions(FIFO):
    def init(self, sim):
        super().init(sim)
        self.step = 0
        sim.set_timer(1000, 7)

    def timer(self, sim, tag):
        sim.wake()

    def task_end(self, sim, task, observed):
        running = [t for t in sim.tasks if t is not None and t.state == mp.RUNNING]
        if self.step == 0 and running:
            sim.suspend(running[0].id)
            self.suspended = running[0].id
            self.step = 1
        elif self.step == 1 and self._room(sim, sim.tasks[self.suspended]):
            sim.resume(self.suspended)
            self.step = 2
        elif self.step == 2 and running:
            sim.kill(running[0].id)
            self.step = 3

    def _room(self, sim, task):
        f = sim.free(task.node)
        return (f.map if task.kind == mp.MAP else f.reduce) > 0


if __name__ == "__main__":
    mp.run(AllActions())
