"""Write an mrbound online scheduling policy in Python (standard library only, Python >= 3.9).

mrbound starts your program with `--policy 'exec:python3 my_policy.py'` and speaks the protocol of
docs/protocol.md over its stdin and stdout. This module keeps a mirror of what a built-in Go policy
sees (the jobs that arrived, their tasks' estimates and block replicas, free slots, slow-start) and
turns your method calls into protocol actions, so a policy is a class with the callbacks of
sim.Policy:

    import mrbound_policy as mp

    class Greedy(mp.Policy):
        def offer(self, sim, node, free):
            ...  # sim.pick_map(j, node), sim.launch(t, node), ...

    mp.run(Greedy())

Nothing here ever sees a true duration: estimates are what `--estimates` allows, and task ends
report the observed launch-to-end time. Write debugging output to stderr: stdout is the protocol.
"""

import json
import sys
from bisect import bisect_left

PROTOCOL = 1

MAP, REDUCE = "map", "reduce"
PENDING, RUNNING, SUSPENDED, DONE = "pending", "running", "suspended", "done"


class ProtocolError(Exception):
    """mrbound sent something this library does not understand."""


class Free:
    """The free slots of an offered node; in fungible mode map == reduce == the free slots of either kind."""

    __slots__ = ("map", "reduce", "fungible")

    def __init__(self, map_, reduce, fungible):
        self.map, self.reduce, self.fungible = map_, reduce, fungible

    def __repr__(self):
        return "Free(map=%d, reduce=%d%s)" % (self.map, self.reduce, ", fungible" if self.fungible else "")


class Task:
    """A task of an arrived job: its estimates per node class (None without estimates), block replicas
    (maps), RAM and disk demand, and its state as this mirror knows it."""

    __slots__ = ("id", "job", "kind", "index", "est", "replicas", "ram", "disk", "state", "node", "launch")

    def __init__(self, tid, job, kind, index, spec):
        self.id, self.job, self.kind, self.index = tid, job, kind, index
        get = spec.get
        self.est, self.replicas, self.ram, self.disk = get("est"), get("replicas", ()), get("ram", 0.0), get("disk", 0.0)
        self.state, self.node, self.launch = PENDING, -1, 0


class Job:
    """An arrived job (what sim.JobView shows in Go)."""

    def __init__(self, d):
        self.id = d["id"]
        self.name = d.get("name", "")
        self.category = d.get("category", "")
        self.user, self.priority = d["user"], d["priority"]
        self.arrival = d["arrival"]
        self.deadline = d.get("deadline")  # None: no deadline
        self.need_maps = d["need_maps"]
        self.first_map, self.first_reduce = d["first_map"], d["first_reduce"]
        self.num_maps, self.num_reduces = len(d["maps"]), len(d["reduces"])
        self.maps_done = self.reds_done = 0
        self.maps_pending, self.reds_pending = self.num_maps, self.num_reduces
        self.running_maps = self.running_reds = 0
        self.done = False
        self.completion = self.last_map_end = None
        # pick_map's indexes: per node the job's maps with a replica there, by index, and a cursor
        self._local = {}
        self._local_cur = {}
        self._map_cur = self._red_cur = 0

    @property
    def map_phase_done(self):
        return self.maps_done == self.num_maps

    @property
    def reduces_eligible(self):
        return self.maps_done >= self.need_maps


class Node:
    __slots__ = ("id", "name", "rack", "cls", "map_slots", "reduce_slots", "total_slots", "ram", "disk",
                 "free_map", "free_reduce", "free_any", "ram_used", "disk_used")

    def __init__(self, x, d):
        self.id, self.name, self.rack, self.cls = x, d.get("name", ""), d["rack"], d["class"]
        self.map_slots, self.reduce_slots, self.total_slots = d["map_slots"], d["reduce_slots"], d["total_slots"]
        self.ram, self.disk = d.get("ram", 0.0), d.get("disk", 0.0)
        self.free_map, self.free_reduce, self.free_any = self.map_slots, self.reduce_slots, self.total_slots
        self.ram_used = self.disk_used = 0.0


CAPACITY_TOL = 1e-9  # the engine's tolerance on RAM/disk sums (sim.capacityTol)


class Sim:
    """The view and the actions, as in Go's *sim.Sim. Actions are checked here first (so that a mistake
    raises at its line) and sent to mrbound with the reply, which applies them in order."""

    def __init__(self, hello):
        self.hello = hello
        self.options = hello["options"]
        cl = hello["cluster"]
        self.fungible = cl["fungible"]
        self.classes = cl["classes"]
        self.nodes = [Node(x, d) for x, d in enumerate(cl["nodes"])]
        self.users = hello["users"]
        self.num_jobs, self.num_tasks = hello["jobs"], hello["tasks"]
        self.jobs = [None] * self.num_jobs  # None until arrival
        self.tasks = [None] * self.num_tasks
        self.now = 0
        self.actions = []
        self._work = {MAP: 0, REDUCE: 0}
        self.suspended = 0

    # --- the view -------------------------------------------------------------------------------
    def job(self, j):
        return self.jobs[j]

    def task(self, t):
        return self.tasks[t]

    def estimate(self, t, x):
        """The estimate of task t on node x in ms (without the non-local penalty); None without estimates."""
        est = self.tasks[t].est
        return None if est is None else est[self.nodes[x].cls]

    def has_work(self, j, kind):
        job = self.jobs[j]
        if job is None:
            return False
        if kind == MAP:
            return job.maps_pending > 0
        return job.reds_pending > 0 and job.maps_done >= job.need_maps

    def launchable(self, kind):
        """Tasks of kind that could launch now cluster-wide (pending maps; pending eligible reduces)."""
        return self._work[kind]

    def pick_map(self, j, x):
        """(task, local) for the lowest-index pending map of job j with a replica on x, else its
        lowest-index pending map; None when it has none (Go's Sim.PickMap)."""
        job = self.jobs[j]
        if job is None or job.maps_pending == 0:
            return None
        tasks = self.tasks
        lst = job._local.get(x)
        if lst is not None:
            cur = job._local_cur[x]
            first = job.first_map
            while cur < len(lst) and tasks[first + lst[cur]].state != PENDING:
                cur += 1
            job._local_cur[x] = cur
            if cur < len(lst):
                return first + lst[cur], True
        cur = job._map_cur
        while cur < job.num_maps and tasks[job.first_map + cur].state != PENDING:
            cur += 1
        job._map_cur = cur
        if cur < job.num_maps:
            return job.first_map + cur, False
        return None

    def pick_reduce(self, j):
        """The lowest-index pending reduce of job j if slow-start holds, else None."""
        if not self.has_work(j, REDUCE):
            return None
        job = self.jobs[j]
        cur = job._red_cur
        while cur < job.num_reduces and self.tasks[job.first_reduce + cur].state != PENDING:
            cur += 1
        job._red_cur = cur
        return job.first_reduce + cur if cur < job.num_reduces else None

    def fits(self, t, x):
        """Task t's RAM and disk fit on node x now (slots aside)."""
        task, n = self.tasks[t], self.nodes[x]
        return ((n.ram == 0 or n.ram_used + task.ram <= n.ram + CAPACITY_TOL)
                and (n.disk == 0 or n.disk_used + task.disk <= n.disk + CAPACITY_TOL))

    def free(self, x):
        n = self.nodes[x]
        if self.fungible:
            return Free(n.free_any, n.free_any, True)
        return Free(n.free_map, n.free_reduce, False)

    # --- the actions ----------------------------------------------------------------------------
    def launch(self, t, x):
        task = self.tasks[t] if 0 <= t < self.num_tasks else None
        if task is None:
            raise ValueError("launch: task %r has not arrived" % (t,))
        if task.state != PENDING:
            raise ValueError("launch: task %d is %s" % (t, task.state))
        job = self.jobs[task.job]
        if task.kind == REDUCE and job.maps_done < job.need_maps:
            raise ValueError("launch: reduce %d: slow-start does not hold" % t)
        self._take_slot(task, x)
        if task.kind == MAP:
            job.maps_pending -= 1
        else:
            job.reds_pending -= 1
        self._work[task.kind] -= 1
        self._run(task, x)
        self.actions.append({"type": "launch", "task": t, "node": x})

    def kill(self, t):
        task = self.tasks[t]
        job = self.jobs[task.job]
        if task.state == RUNNING:
            self._leave_slot(task)
        elif task.state == SUSPENDED:
            self.suspended -= 1
        else:
            raise ValueError("kill: task %d is %s" % (t, task.state))
        task.state, task.node = PENDING, -1
        self._work[task.kind] += 1
        if task.kind == MAP:
            job.maps_pending += 1
            job._map_cur = min(job._map_cur, task.index)
            for x in task.replicas:
                lst = job._local.get(x)
                if lst is not None:
                    job._local_cur[x] = min(job._local_cur[x], bisect_left(lst, task.index))
        else:
            job.reds_pending += 1
            job._red_cur = min(job._red_cur, task.index)
        self.actions.append({"type": "kill", "task": t})

    def suspend(self, t):
        task = self.tasks[t]
        if task.state != RUNNING:
            raise ValueError("suspend: task %d is not running" % t)
        self._leave_slot(task)
        task.state = SUSPENDED
        self.suspended += 1
        self.actions.append({"type": "suspend", "task": t})

    def resume(self, t):
        task = self.tasks[t]
        if task.state != SUSPENDED:
            raise ValueError("resume: task %d is not suspended" % t)
        self._take_slot(task, task.node)
        self.suspended -= 1
        self._run(task, task.node)
        self.actions.append({"type": "resume", "task": t})

    def set_timer(self, at, tag=0):
        if at < self.now:
            raise ValueError("timer at %d ms is before now (%d ms)" % (at, self.now))
        self.actions.append({"type": "timer", "at": at, "tag": tag})

    def wake(self):
        self.actions.append({"type": "wake"})

    # --- the mirror -----------------------------------------------------------------------------
    def _take_slot(self, task, x):
        n = self.nodes[x]
        if self.fungible:
            ok = n.free_any > 0
        else:
            ok = n.free_map > 0 if task.kind == MAP else n.free_reduce > 0
        if not ok:
            raise ValueError("%s %d: node %d has no free %s slot" % (task.kind, task.id, x, task.kind))
        if not self.fits(task.id, x):
            raise ValueError("%s %d does not fit on node %d (RAM/disk)" % (task.kind, task.id, x))
        n.ram_used += task.ram
        n.disk_used += task.disk
        if self.fungible:
            n.free_any -= 1
        elif task.kind == MAP:
            n.free_map -= 1
        else:
            n.free_reduce -= 1

    def _run(self, task, x):
        task.state, task.node, task.launch = RUNNING, x, self.now
        job = self.jobs[task.job]
        if task.kind == MAP:
            job.running_maps += 1
        else:
            job.running_reds += 1

    def _leave_slot(self, task):
        n = self.nodes[task.node]
        n.ram_used -= task.ram
        n.disk_used -= task.disk
        if self.fungible:
            n.free_any += 1
        elif task.kind == MAP:
            n.free_map += 1
        else:
            n.free_reduce += 1
        job = self.jobs[task.job]
        if task.kind == MAP:
            job.running_maps -= 1
        else:
            job.running_reds -= 1

    def _usable(self, x):
        # The engine offers a node only if some task could use its free slots. An offer message may
        # list several nodes (one pass of an offer round, node-id order): the launches for the earlier
        # ones can use up the work, and then the later ones are skipped here as the engine would.
        n = self.nodes[x]
        if self.suspended > 0:
            return n.free_any > 0 or n.free_map > 0 or n.free_reduce > 0
        if self.fungible:
            return n.free_any > 0 and (self._work[MAP] > 0 or self._work[REDUCE] > 0)
        return n.free_map > 0 and self._work[MAP] > 0 or n.free_reduce > 0 and self._work[REDUCE] > 0

    def _arrive(self, d):
        job = Job(d)
        self.jobs[job.id] = job
        tasks = self.tasks
        local = job._local
        for i, spec in enumerate(d["maps"]):
            t = Task(job.first_map + i, job.id, MAP, i, spec)
            tasks[t.id] = t
            for x in t.replicas:
                lst = local.get(x)
                if lst is None:
                    local[x] = [i]
                    job._local_cur[x] = 0
                else:
                    lst.append(i)
        for i, spec in enumerate(d["reduces"]):
            t = Task(job.first_reduce + i, job.id, REDUCE, i, spec)
            tasks[t.id] = t
        self._work[MAP] += job.num_maps
        if job.need_maps == 0:
            self._work[REDUCE] += job.num_reduces
        return job

    def _end(self, t):
        task = self.tasks[t]
        if task.state != RUNNING:
            raise ProtocolError("task_end for task %d, which is %s here" % (t, task.state))
        self._leave_slot(task)
        task.state = DONE
        job = self.jobs[task.job]
        if task.kind == MAP:
            job.maps_done += 1
            if job.maps_done == job.need_maps and job.need_maps > 0:
                self._work[REDUCE] += job.reds_pending
            if job.maps_done == job.num_maps:
                job.last_map_end = self.now
        else:
            job.reds_done += 1
        if job.maps_done == job.num_maps and job.reds_done == job.num_reduces:
            job.done, job.completion = True, self.now
        return task


class Policy:
    """Override the callbacks you need; each may call the actions of sim."""

    name = "python"

    def init(self, sim):
        pass

    def job_arrival(self, sim, job):
        pass

    def task_end(self, sim, task, observed):
        pass

    def timer(self, sim, tag):
        pass

    def offer(self, sim, node, free):
        pass

    def end(self, sim):
        pass


_EMPTY = b'{"actions":[]}\n'


def run(policy, stdin=None, stdout=None):
    """Serve mrbound's protocol on stdin/stdout until the end message (or end of input)."""
    rd = (stdin or sys.stdin.buffer).readline
    out = stdout or sys.stdout.buffer
    sim = None
    while True:
        line = rd()
        if not line:
            return
        msg = json.loads(line)
        typ = msg["type"]
        if typ == "events":
            # Every event of the message has happened when it arrives, and the reply's actions apply
            # after all of them: the mirror takes in the arrivals and task ends first, then the
            # callbacks run (seeing the instant's state, as the engine will when it applies their
            # actions), then the offers, in order, each seeing the actions before it.
            sim.now = msg["now"]
            calls = []
            offers = []
            for ev in msg["events"]:
                et = ev["type"]
                if et == "offer":
                    offers.append(ev["node"])
                elif et == "task_end":
                    calls.append((policy.task_end, sim._end(ev["task"]), ev["observed"]))
                elif et == "arrival":
                    calls.append((policy.job_arrival, sim._arrive(ev["job"]), None))
                elif et == "timer":
                    calls.append((policy.timer, ev["tag"], None))
                else:
                    raise ProtocolError("unknown event %r" % (et,))
            for f, a, b in calls:
                if b is None:
                    f(sim, a)
                else:
                    f(sim, a, b)
            for x in offers:
                if sim._usable(x):
                    policy.offer(sim, x, sim.free(x))
        elif typ == "hello":
            if msg["protocol"] != PROTOCOL:
                raise ProtocolError("protocol %r; this client speaks %d" % (msg["protocol"], PROTOCOL))
            sim = Sim(msg)
            policy.init(sim)
        elif typ == "end":
            sim.now = msg["now"]
            policy.end(sim)
            return
        else:
            raise ProtocolError("unknown message %r" % (typ,))
        if sim.actions:
            out.write(json.dumps({"actions": sim.actions}, separators=(",", ":")).encode() + b"\n")
            sim.actions = []
        else:
            out.write(_EMPTY)
        out.flush()
