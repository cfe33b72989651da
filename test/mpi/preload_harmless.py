#!/usr/bin/env python3
"""libmcorecoll.so preloaded into processes that never call MPI (a shell, a launcher's helper)
must print nothing, change nothing and leave nothing in /dev/shm."""
import os
import subprocess
import sys

lib = sys.argv[1]
env = {k: v for k, v in os.environ.items() if not k.startswith("MCORECOLL_")}
env.update({"LD_PRELOAD": lib, "MCORECOLL_STATS": "1", "MCORECOLL_VERBOSE": "2"})
before = sorted(n for n in os.listdir("/dev/shm") if n.startswith("mcorecoll-"))
run = subprocess.run(["/bin/sh", "-c", "echo hello; ls / > /dev/null"], env=env,
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
after = sorted(n for n in os.listdir("/dev/shm") if n.startswith("mcorecoll-"))
problems = []
if run.returncode != 0:
    problems.append(f"exit status {run.returncode}")
if run.stdout != "hello\n":
    problems.append(f"stdout changed: {run.stdout!r}")
if run.stderr != "":
    problems.append(f"stderr not empty: {run.stderr!r}")
if after != before:
    problems.append(f"/dev/shm changed: {before} -> {after}")
for p in problems:
    print("FAIL:", p)
print("preload harmless:", "FAILED" if problems else "passed")
sys.exit(1 if problems else 0)
