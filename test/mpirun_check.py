#!/usr/bin/env python3
"""Runs one MPI program under the launcher of the chosen MPI and checks how it ended.

    mpirun_check.py --flavor openmpi|mpich --mpirun PATH --np N [--preload LIB]
                    [--env NAME=VALUE]... [--expect REGEX]... [--reject REGEX]...
                    [--expect-failure] [--timeout SECONDS] -- PROGRAM [ARGS...]

--expect / --reject are matched against stdout+stderr together (each REGEX must / must not
occur). Settings reach every rank through the launcher's own flags (-x for Open MPI, -genv for
MPICH), as mcorecoll-run does. Exit status 0 when every check holds.
"""
import argparse
import os
import re
import subprocess
import sys


def launcher_command(flavor, mpirun, np, env):
    cmd = [mpirun]
    if flavor == "openmpi":
        cmd += ["--oversubscribe", "--mca", "btl", "self,vader", "-np", str(np)]
        for name, value in env.items():
            cmd += ["-x", f"{name}={value}"]
    else:
        cmd += ["-np", str(np)]
        for name, value in env.items():
            cmd += ["-genv", name, value]
    return cmd


def output_failures(out, expect, reject):
    """What is wrong with a program's output: each regex of `expect` must occur, none of
    `reject` may."""
    failures = []
    for rx in expect:
        if not re.search(rx, out, re.MULTILINE):
            failures.append(f"missing in output: /{rx}/")
    for rx in reject:
        if re.search(rx, out, re.MULTILINE):
            failures.append(f"unexpected in output: /{rx}/")
    return failures


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--flavor", required=True, choices=["openmpi", "mpich"])
    p.add_argument("--mpirun", required=True)
    p.add_argument("--np", type=int, required=True)
    p.add_argument("--preload")
    p.add_argument("--env", action="append", default=[])
    p.add_argument("--expect", action="append", default=[])
    p.add_argument("--reject", action="append", default=[])
    p.add_argument("--expect-failure", action="store_true")
    p.add_argument("--timeout", type=float, default=300)
    p.add_argument("program", nargs=argparse.REMAINDER)
    a = p.parse_args()
    program = a.program[1:] if a.program[:1] == ["--"] else a.program
    if not program:
        p.error("no program given")

    env = {}
    for item in a.env:
        name, _, value = item.partition("=")
        env[name] = value
    if a.preload:
        env["LD_PRELOAD"] = a.preload
    cmd = launcher_command(a.flavor, a.mpirun, a.np, env) + program

    os_env = dict(os.environ)
    os_env.update({"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                   "OMPI_MCA_rmaps_base_oversubscribe": "1"})
    # Settings of the calling shell must not leak into a test: it sets its own.
    for name in list(os_env):
        if name.startswith("MCORECOLL_") or name == "LD_PRELOAD":
            del os_env[name]
    print("+", " ".join(cmd), flush=True)
    try:
        run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=os_env,
                             timeout=a.timeout, text=True, errors="replace")
    except subprocess.TimeoutExpired as e:
        print(e.stdout if isinstance(e.stdout, str) else (e.stdout or b"").decode(errors="replace"))
        print(f"FAIL: no end after {a.timeout} s (hang?)")
        return 1
    out = run.stdout
    sys.stdout.write(out)
    failures = []
    if a.expect_failure and run.returncode == 0:
        failures.append("expected the job to fail, but it exited 0")
    if not a.expect_failure and run.returncode != 0:
        failures.append(f"exit status {run.returncode}")
    failures += output_failures(out, a.expect, a.reject)
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
