#!/usr/bin/env python3
"""Runs one command and checks its exit status and output (for the tests of mcorecoll-run,
which is itself the launcher's caller, so mpirun_check.py does not fit).

    check_command.py [--env NAME=VALUE]... [--status N]
                     [--expect REGEX]... [--reject REGEX]... [--timeout S] -- COMMAND [ARGS...]

The command runs without the caller's MCORECOLL_* variables and LD_PRELOAD (a test sets
its own), plus --env. REGEXes are matched against stdout+stderr together. --status: the
exit status expected (default 0).
"""
import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from mpirun_check import output_failures  # noqa: E402  (shared with the MPI tests)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--env", action="append", default=[])
    p.add_argument("--status", type=int, default=0)
    p.add_argument("--expect", action="append", default=[])
    p.add_argument("--reject", action="append", default=[])
    p.add_argument("--timeout", type=float, default=100)
    p.add_argument("command", nargs=argparse.REMAINDER)
    a = p.parse_args()
    command = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not command:
        p.error("no command given")

    env = {k: v for k, v in os.environ.items()
           if not k.startswith("MCORECOLL_") and k != "LD_PRELOAD"}
    for item in a.env:
        name, _, value = item.partition("=")
        env[name] = value
    with tempfile.TemporaryDirectory(prefix="mcorecoll-learned-") as learned:
        env.setdefault("MCORECOLL_LEARN_DIR", learned)  # nothing learned before, nothing left after
        return run_checked(a, command, env)


def run_checked(a, command, env):
    print("+", " ".join(command), flush=True)
    try:
        run = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                             timeout=a.timeout, text=True, errors="replace")
    except subprocess.TimeoutExpired:
        print(f"FAIL: no end after {a.timeout} s (hang?)")
        return 1
    out = run.stdout
    sys.stdout.write(out)
    failures = []
    if run.returncode != a.status:
        failures.append(f"exit status {run.returncode}, expected {a.status}")
    failures += output_failures(out, a.expect, a.reject)
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
