#!/usr/bin/env python3
"""A protocol client that misbehaves in the way argv[1] names, at its first events message (message
1), once the hello went well. The tests of policy/external check mrbound's one-line error for each."""
import json
import os
import subprocess
import sys
import time

mode = sys.argv[1]


def send(obj):
    sys.stdout.write((obj if isinstance(obj, str) else json.dumps(obj)) + "\n")
    sys.stdout.flush()


maps = []
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        send({"actions": []})
        continue
    if msg["type"] == "end":
        break
    for ev in msg["events"]:
        if ev["type"] == "arrival":
            job = ev["job"]
            maps += [job["first_map"] + i for i in range(job["maps"]["count"])]
    if mode == "crash":
        sys.stderr.write("policy: something went wrong\n")
        sys.exit(3)
    elif mode == "hang":
        # a child in the same process group, which must not outlive the run
        with open(sys.argv[2], "w") as f:
            f.write(str(subprocess.Popen(["sleep", "60"]).pid))
        if len(sys.argv) > 3:  # and its own pid, for a caller that cannot see it (the CLI's tests)
            with open(sys.argv[3], "w") as f:
                f.write(str(os.getpid()))
        time.sleep(60)
    elif mode == "malformed":
        send('{"actions": [')
    elif mode == "flood":
        # a line without end: mrbound must stop reading it, not run out of memory
        chunk = "x" * (1 << 20)
        while True:
            sys.stdout.write(chunk)
    elif mode == "noise":
        send("launching map 0 now")
    elif mode == "unknown-action":
        send({"actions": [{"type": "explode", "task": 0}]})
    elif mode == "busy-slot":
        # two maps on node 0, which has one free map slot
        send({"actions": [{"type": "launch", "task": maps[0], "node": 0},
                          {"type": "launch", "task": maps[1], "node": 0}]})
    elif mode == "not-pending":
        send({"actions": [{"type": "launch", "task": maps[0], "node": 0},
                          {"type": "kill", "task": maps[0]}, {"type": "suspend", "task": maps[0]}]})
    elif mode == "missing-field":
        send({"actions": [{"type": "launch", "task": maps[0]}]})
    else:
        sys.exit("unknown mode " + mode)
