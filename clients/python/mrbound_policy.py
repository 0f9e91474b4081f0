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

import gc
import json
import sys
from bisect import bisect_left
from operator import itemgetter

PROTOCOL = 2

MAP, REDUCE = "map", "reduce"
PENDING, RUNNING, SUSPENDED, DONE = "pending", "running", "suspended", "done"

# A task's state in the mirror is a small int in one bytearray for all tasks (0: its job has not
# arrived): no Python object per task unless the policy asks for one (Sim.tasks[t]).
_NONE, _PENDING, _RUNNING, _SUSPENDED, _DONE = 0, 1, 2, 3, 4
_STATE = (None, PENDING, RUNNING, SUSPENDED, DONE)


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
    (maps), RAM and disk demand, and its state as this mirror knows it. A view made on demand: the
    mirror itself keeps tasks in flat arrays, and two views of one task are equal."""

    __slots__ = ("_sim", "id")

    def __init__(self, sim, tid):
        self._sim, self.id = sim, tid

    def __eq__(self, other):
        return isinstance(other, Task) and other.id == self.id and other._sim is self._sim

    def __hash__(self):
        return hash(self.id)

    def __repr__(self):
        return "Task(%d, %s %d of job %d, %s)" % (self.id, self.kind, self.index, self.job, self.state)

    @property
    def job(self):
        return self._sim._job[self.id]

    @property
    def kind(self):
        return MAP if self._sim._ismap[self.id] else REDUCE

    @property
    def index(self):
        job = self._sim.jobs[self.job]
        return self.id - (job.first_map if self._sim._ismap[self.id] else job.first_reduce)

    @property
    def est(self):
        job = self._sim.jobs[self.job]
        cols = job._map_est if self._sim._ismap[self.id] else job._red_est
        if cols is None:
            return None
        i = self.index
        return [c[i] for c in cols]

    @property
    def replicas(self):
        """The nodes holding a map's block, ascending (() for a reduce)."""
        if not self._sim._ismap[self.id]:
            return ()
        i = self.index
        reps = []
        for x, lst in self._sim.jobs[self.job]._local.items():
            k = bisect_left(lst, i, 1)
            if k < len(lst) and lst[k] == i:
                reps.append(x)
        return sorted(reps)

    @property
    def ram(self):
        return self._sim._ram[self.id]

    @property
    def disk(self):
        return self._sim._disk[self.id]

    @property
    def state(self):
        return _STATE[self._sim._state[self.id]]

    @property
    def node(self):
        return self._sim._node[self.id]

    @property
    def launch(self):
        return self._sim._launch[self.id]


class _Tasks:
    """sim.tasks: task t's view, or None before its job arrives."""

    __slots__ = ("_sim",)

    def __init__(self, sim):
        self._sim = sim

    def __len__(self):
        return self._sim.num_tasks

    def __getitem__(self, t):
        if t < 0:
            t += self._sim.num_tasks
        if not 0 <= t < self._sim.num_tasks:
            raise IndexError("task %d out of range" % t)
        return Task(self._sim, t) if self._sim._state[t] else None

    def __iter__(self):
        sim, state = self._sim, self._sim._state
        for t in range(sim.num_tasks):
            yield Task(sim, t) if state[t] else None


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
        maps, reds = d["maps"], d["reduces"]
        self.num_maps, self.num_reduces = maps["count"], reds["count"]
        # the columns as sent: _map_est[c][i] is map i's estimate on node class c
        self._map_est, self._red_est = maps.get("est"), reds.get("est")
        self.maps_done = self.reds_done = 0
        self.maps_pending, self.reds_pending = self.num_maps, self.num_reduces
        self.running_maps = self.running_reds = 0
        self.done = False
        self.completion = self.last_map_end = None
        # pick_map's indexes: per node x the row [x, map indexes…] as sent (so the indexes start at 1;
        # keyed without a Python loop per row), and a cursor into it
        rows = maps.get("local", ())
        self._local = dict(zip(map(itemgetter(0), rows), rows))
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
        self.num_jobs, self.num_tasks = n, m = hello["jobs"], hello["tasks"]
        self.jobs = [None] * n  # None until arrival
        self.tasks = _Tasks(self)
        # the mirror of the tasks, one flat array per field indexed by task id
        self._state = bytearray(m)
        self._ismap = bytearray(m)
        self._job = [-1] * m
        self._node = [-1] * m
        self._launch = [0] * m
        self._ram = [0.0] * m
        self._disk = [0.0] * m
        self.now = 0
        self.actions = []  # the reply's actions, as JSON text
        self._work = {MAP: 0, REDUCE: 0}
        self.suspended = 0
        # on_work(job, kind), when a policy sets it, is called as a job gains launchable work of a
        # kind: maps at arrival; reduces when slow-start starts to hold (at arrival when no map is
        # needed) and it has pending reduces; either kind when a kill makes a task pending again. A
        # policy that keeps its jobs in a priority queue of those with work then pops the ones whose
        # work ran out instead of scanning past them at every offer (examples/fifo.py).
        self.on_work = None

    # --- the view -------------------------------------------------------------------------------
    def job(self, j):
        return self.jobs[j]

    def task(self, t):
        return self.tasks[t]

    def estimate(self, t, x):
        """The estimate of task t on node x in ms (without the non-local penalty); None without estimates."""
        job = self.jobs[self._job[t]]
        if self._ismap[t]:
            cols, i = job._map_est, t - job.first_map
        else:
            cols, i = job._red_est, t - job.first_reduce
        return None if cols is None else cols[self.nodes[x].cls][i]

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
        state = self._state
        first = job.first_map
        lst = job._local.get(x)
        if lst is not None:
            cur = job._local_cur.get(x, 1)
            n = len(lst)
            while cur < n and state[first + lst[cur]] != _PENDING:
                cur += 1
            job._local_cur[x] = cur
            if cur < n:
                return first + lst[cur], True
        cur = job._map_cur
        n = job.num_maps
        while cur < n and state[first + cur] != _PENDING:
            cur += 1
        job._map_cur = cur
        if cur < n:
            return first + cur, False
        return None

    def pick_reduce(self, j):
        """The lowest-index pending reduce of job j if slow-start holds, else None."""
        if not self.has_work(j, REDUCE):
            return None
        job = self.jobs[j]
        state = self._state
        first = job.first_reduce
        cur, n = job._red_cur, job.num_reduces
        while cur < n and state[first + cur] != _PENDING:
            cur += 1
        job._red_cur = cur
        return first + cur if cur < n else None

    def fits(self, t, x):
        """Task t's RAM and disk fit on node x now (slots aside)."""
        n = self.nodes[x]
        return ((n.ram == 0 or n.ram_used + self._ram[t] <= n.ram + CAPACITY_TOL)
                and (n.disk == 0 or n.disk_used + self._disk[t] <= n.disk + CAPACITY_TOL))

    def free(self, x):
        n = self.nodes[x]
        if self.fungible:
            return Free(n.free_any, n.free_any, True)
        return Free(n.free_map, n.free_reduce, False)

    # --- the actions ----------------------------------------------------------------------------
    def launch(self, t, x):
        state = self._state
        if not (type(t) is int and 0 <= t < self.num_tasks and state[t] == _PENDING):
            if not (type(t) is int and 0 <= t < self.num_tasks) or not state[t]:
                raise ValueError("launch: task %r has not arrived" % (t,))
            raise ValueError("launch: task %d is %s" % (t, _STATE[state[t]]))
        job = self.jobs[self._job[t]]
        ismap = self._ismap[t]
        if not ismap and job.maps_done < job.need_maps:
            raise ValueError("launch: reduce %d: slow-start does not hold" % t)
        n = self.nodes[x]
        if n.ram or n.disk or self.fungible:
            self._take_slot(t, ismap, x)
        elif ismap:  # the common case, inline: this runs once per task
            if n.free_map <= 0:
                raise ValueError("map %d: node %d has no free map slot" % (t, x))
            n.free_map -= 1
        else:
            if n.free_reduce <= 0:
                raise ValueError("reduce %d: node %d has no free reduce slot" % (t, x))
            n.free_reduce -= 1
        work = self._work
        if ismap:
            job.maps_pending -= 1
            job.running_maps += 1
            work[MAP] -= 1
        else:
            job.reds_pending -= 1
            job.running_reds += 1
            work[REDUCE] -= 1
        state[t] = _RUNNING
        self._node[t] = x
        self._launch[t] = self.now
        self.actions.append('{"type":"launch","task":%d,"node":%d}' % (t, x))

    def kill(self, t):
        st = self._state[t]
        ismap = self._ismap[t]
        job = self.jobs[self._job[t]]
        if st == _RUNNING:
            self._leave_slot(t, ismap)
        elif st == _SUSPENDED:
            self.suspended -= 1
        else:
            raise ValueError("kill: task %d is %s" % (t, _STATE[st]))
        self._state[t], self._node[t] = _PENDING, -1
        if ismap:
            self._work[MAP] += 1
            job.maps_pending += 1
            i = t - job.first_map
            job._map_cur = min(job._map_cur, i)
            # a cursor may only move back: resetting one of a node without this map costs a rescan
            cur = job._local_cur
            for x, lst in job._local.items():
                if x in cur:
                    cur[x] = min(cur[x], bisect_left(lst, i, 1))
            if self.on_work is not None:
                self.on_work(job, MAP)
        else:
            self._work[REDUCE] += 1
            job.reds_pending += 1
            job._red_cur = min(job._red_cur, t - job.first_reduce)
            if self.on_work is not None and job.maps_done >= job.need_maps:
                self.on_work(job, REDUCE)
        self.actions.append('{"type":"kill","task":%d}' % t)

    def suspend(self, t):
        if self._state[t] != _RUNNING:
            raise ValueError("suspend: task %d is not running" % t)
        self._leave_slot(t, self._ismap[t])
        self._state[t] = _SUSPENDED
        self.suspended += 1
        self.actions.append('{"type":"suspend","task":%d}' % t)

    def resume(self, t):
        if self._state[t] != _SUSPENDED:
            raise ValueError("resume: task %d is not suspended" % t)
        ismap = self._ismap[t]
        x = self._node[t]
        self._take_slot(t, ismap, x)
        self.suspended -= 1
        job = self.jobs[self._job[t]]
        if ismap:
            job.running_maps += 1
        else:
            job.running_reds += 1
        self._state[t] = _RUNNING
        self._launch[t] = self.now
        self.actions.append('{"type":"resume","task":%d}' % t)

    def set_timer(self, at, tag=0):
        if at < self.now:
            raise ValueError("timer at %d ms is before now (%d ms)" % (at, self.now))
        self.actions.append('{"type":"timer","at":%d,"tag":%d}' % (at, tag))

    def wake(self):
        self.actions.append('{"type":"wake"}')

    # --- the mirror -----------------------------------------------------------------------------
    def _take_slot(self, t, ismap, x):
        n = self.nodes[x]
        if self.fungible:
            if n.free_any <= 0:
                raise ValueError("%s %d: node %d has no free slot" % (MAP if ismap else REDUCE, t, x))
        elif (n.free_map if ismap else n.free_reduce) <= 0:
            kind = MAP if ismap else REDUCE
            raise ValueError("%s %d: node %d has no free %s slot" % (kind, t, x, kind))
        if n.ram or n.disk:
            if not self.fits(t, x):
                raise ValueError("%s %d does not fit on node %d (RAM/disk)" % (MAP if ismap else REDUCE, t, x))
            n.ram_used += self._ram[t]
            n.disk_used += self._disk[t]
        if self.fungible:
            n.free_any -= 1
        elif ismap:
            n.free_map -= 1
        else:
            n.free_reduce -= 1

    def _leave_slot(self, t, ismap):
        n = self.nodes[self._node[t]]
        if n.ram or n.disk:
            n.ram_used -= self._ram[t]
            n.disk_used -= self._disk[t]
        if self.fungible:
            n.free_any += 1
        elif ismap:
            n.free_map += 1
        else:
            n.free_reduce += 1
        job = self.jobs[self._job[t]]
        if ismap:
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
        j = job.id
        self.jobs[j] = job
        # whole slices at once: one C-level copy per field instead of a Python loop per task
        for first, n, cols, ismap in ((job.first_map, job.num_maps, d["maps"], 1),
                                      (job.first_reduce, job.num_reduces, d["reduces"], 0)):
            end = first + n
            self._state[first:end] = bytes([_PENDING]) * n
            self._ismap[first:end] = bytes([ismap]) * n
            self._job[first:end] = [j] * n
            ram, disk = cols.get("ram"), cols.get("disk")
            if ram is not None:
                self._ram[first:end] = ram
            if disk is not None:
                self._disk[first:end] = disk
        self._work[MAP] += job.num_maps
        if job.need_maps == 0:
            self._work[REDUCE] += job.num_reduces
        on_work = self.on_work
        if on_work is not None:
            if job.num_maps:
                on_work(job, MAP)
            if job.need_maps == 0 and job.num_reduces:
                on_work(job, REDUCE)
        return job

    def _end(self, t):
        st = self._state[t]
        if st != _RUNNING:
            raise ProtocolError("task_end for task %d, which is %s here" % (t, _STATE[st]))
        ismap = self._ismap[t]
        job = self.jobs[self._job[t]]
        n = self.nodes[self._node[t]]
        if n.ram or n.disk or self.fungible:
            self._leave_slot(t, ismap)
        elif ismap:  # _leave_slot's common case, inline: this runs once per task
            n.free_map += 1
            job.running_maps -= 1
        else:
            n.free_reduce += 1
            job.running_reds -= 1
        self._state[t] = _DONE
        if ismap:
            job.maps_done += 1
            if job.maps_done == job.need_maps and job.need_maps > 0:
                self._work[REDUCE] += job.reds_pending
                if job.reds_pending and self.on_work is not None:
                    self.on_work(job, REDUCE)
            if job.maps_done == job.num_maps:
                job.last_map_end = self.now
        else:
            job.reds_done += 1
        if job.maps_done == job.num_maps and job.reds_done == job.num_reduces:
            job.done, job.completion = True, self.now
        return job


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


def _overrides(policy, name):
    return getattr(type(policy), name) is not getattr(Policy, name)


def run(policy, stdin=None, stdout=None):
    """Serve mrbound's protocol on stdin/stdout until the end message (or end of input)."""
    # a 1 MiB buffer: an events message of a busy instant is read in one read(2), not 8 KiB at a time
    rd = (stdin or open(sys.stdin.fileno(), "rb", buffering=1 << 20, closefd=False)).readline
    out = stdout or sys.stdout.buffer
    loads = json.loads
    sim = None
    # a callback the policy does not override is not called (no task view is made for it)
    want_end = _overrides(policy, "task_end")
    want_arrival = _overrides(policy, "job_arrival")
    want_timer = _overrides(policy, "timer")
    while True:
        line = rd()
        if not line:
            return
        msg = loads(line)
        typ = msg["type"]
        if typ == "events":
            # Every event of the message has happened when it arrives, and the reply's actions apply
            # after all of them: the mirror takes in the arrivals and task ends first, then the
            # callbacks run (seeing the instant's state, as the engine will when it applies their
            # actions), then the offers, in order, each seeing the actions before it.
            sim.now = msg["now"]
            calls = []
            offers = ()
            end = sim._end
            for ev in msg["events"]:
                et = ev["type"]
                if et == "task_ends":
                    tasks = ev["tasks"]
                    for t in tasks:
                        end(t)
                    if want_end:
                        task_end = policy.task_end
                        calls.extend((task_end, Task(sim, t), o) for t, o in zip(tasks, ev["observed"]))
                elif et == "offers":
                    offers = ev["nodes"]
                elif et == "arrival":
                    job = sim._arrive(ev["job"])
                    if want_arrival:
                        calls.append((policy.job_arrival, job, None))
                elif et == "timer":
                    if want_timer:
                        calls.append((policy.timer, ev["tag"], None))
                else:
                    raise ProtocolError("unknown event %r" % (et,))
            for f, a, b in calls:
                if b is None:
                    f(sim, a)
                else:
                    f(sim, a, b)
            usable, free, offer, work, nodes = sim._usable, sim.free, policy.offer, sim._work, sim.nodes
            fixed = not sim.fungible
            for x in offers:
                # _usable's common case inline (fixed slots, nothing suspended): once per offer
                if fixed and not sim.suspended:
                    n = nodes[x]
                    if n.free_map > 0 and work[MAP] > 0 or n.free_reduce > 0 and work[REDUCE] > 0:
                        offer(sim, x, Free(n.free_map, n.free_reduce, False))
                elif usable(x):
                    offer(sim, x, free(x))
        elif typ == "hello":
            if msg["protocol"] != PROTOCOL:
                raise ProtocolError("protocol %r; this client speaks %d" % (msg["protocol"], PROTOCOL))
            sim = Sim(msg)
            policy.init(sim)
            # The mirror's arrays (a few entries per task) live as long as the run: out of the
            # collector's sight, its full collections do not walk them again and again.
            gc.freeze()
        elif typ == "end":
            sim.now = msg["now"]
            policy.end(sim)
            return
        else:
            raise ProtocolError("unknown message %r" % (typ,))
        if sim.actions:
            out.write(('{"actions":[' + ",".join(sim.actions) + "]}\n").encode())
            sim.actions = []
        else:
            out.write(_EMPTY)
        out.flush()
