#!/usr/bin/env python3
"""The learned file (src/decisions/learned_file.hpp): what one job learned, the next takes from
its first call. Jobs of test_learning.c in turn on one directory, each checked by
mpirun_check.py (exact statistics: --expect-printed-stats):

  first      nothing known: the schedule explores, the file is written (one, keyed, parsed);
  second     the file read: every call on the learned path from the first (no exploration);
  damaged    a line of the file broken: a warning names the file and the line, the job explores
             again, and its end leaves a whole file;
  foreign    the file's key says another MPI library, or another node: a warning names the field,
             the job explores;
  concurrent two jobs at once on one directory (either may read the other's file): a whole file is
             left, which the next job takes;
  other-rank the world's other ranks are pointed at a damaged file: they do not read it (no
             warning), rank 0's file is taken;
  three      a bcast of 8 KiB, three candidates (the row's ring, PMPI, single copy), the first
             two slowed: single copy is learned, written with every candidate's times, and
             the next job takes it from the first call.

Usage: learned_file_check.py --flavor F --mpirun PATH --preload LIB --program test_learning
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from mpirun_check import checked_job_command, verdict  # noqa: E402  (the jobs' checker)

# The MPI library's path made slower on purpose at 256 B: the learner takes the shared-memory one.
SETTINGS = ["MCORECOLL_STATS=1", "MCORECOLL_ALLREDUCE_MAX_BYTES=8", "MCORECOLL_TEST_SLOWDOWN=allreduce:pmpi:1000"]


ALLREDUCE = ["allreduce", "pmpi,shm=fold", "shm=fold", "40"]


def job(a, directory, remembered, expect=(), reject=(), extra_env=(), background=False, exact=True, args=ALLREDUCE):
    cmd = checked_job_command(a.flavor, a.mpirun, 2, a.preload, ["MCORECOLL_LEARN_DIR=" + directory] + SETTINGS + list(extra_env),
                              ["test_learning: passed"] + list(expect), reject, ["--expect-printed-stats"] if exact else [])
    cmd += ["--", a.program] + args + (["remembered"] if remembered else [])
    if background:
        return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return run.returncode, run.stdout


def only_file(directory):
    files = glob.glob(os.path.join(directory, "learned-*.txt"))
    leftovers = [f for f in os.listdir(directory) if ".tmp." in f]
    if len(files) != 1 or leftovers:
        return None, f"expected one learned file and no temporary one in {directory}: {os.listdir(directory)}"
    return files[0], None


def main():
    p = argparse.ArgumentParser()
    for name in ("--flavor", "--mpirun", "--preload", "--program"):
        p.add_argument(name, required=True)
    a = p.parse_args()
    failures = []

    def step(name, rc_out, extra=None):
        rc, out = rc_out
        print(f"=== {name}\n{out}", flush=True)
        if rc != 0:
            failures.append(f"{name}: the job's check failed (above)")
        if extra:
            failures.extend(f"{name}: {f}" for f in extra() if f)

    with tempfile.TemporaryDirectory(prefix="learned-check-") as tmp:
        d = os.path.join(tmp, "cache", "mcorecoll")  # missing: the first job makes it
        step("first", job(a, d, False, expect=[r"1 size learned in this job written"]))
        path, error = only_file(d)
        if error:
            failures.append("first: " + error)
            return verdict("learned_file_check", failures)
        good = open(path).read()

        def learned_line():
            text = open(path).read()
            return [] if "learned: allreduce ranks=2 nodes=1 node-ranks=2 sizes=256-512 row=pmpi other=shm path=shm" in text \
                else [f"the file does not hold what was learned:\n{text}"]
        failures.extend("first: " + f for f in learned_line())

        step("second", job(a, d, True, expect=[r"learned file .*: 1 size learned by earlier jobs"],
                           reject=[r"learned allreduce", r"warning"]))

        lines = good.splitlines()
        lines[6] = lines[6].replace("path=shm", "path=ring")
        open(path, "w").write("\n".join(lines) + "\n")
        step("damaged", job(a, d, False, expect=[r"warning: ignoring the learned file '.*learned-.*': line 7: 'path=ring'"]),
             lambda: [only_file(d)[1]] + learned_line())

        for field, value in (("mpi", "Some Other MPI v9.9"), ("node", "Another CPU (2 packages, 8 NUMA domains, 128 cores, 256 PUs)")):
            lines = good.splitlines()
            lines = [f"{field}: {value}" if line.startswith(field + ": ") else line for line in lines]
            open(path, "w").write("\n".join(lines) + "\n")
            step(f"foreign-{field}", job(a, d, False, expect=[rf"warning: ignoring the learned file .*: line \d: learned for {field} '{re.escape(value)}'"]),
                 lambda: [only_file(d)[1]] + learned_line())

        d2 = os.path.join(tmp, "concurrent")
        # Either may find the other's file at its start (then it explores nothing): only their
        # results are checked, and the file they leave.
        jobs = [job(a, d2, False, background=True, exact=False) for _ in range(2)]
        for k, j in enumerate(jobs):
            out, _ = j.communicate()
            step(f"concurrent-{k}", (j.returncode, out))
        # The file they leave is whole and taken from the first call, with nothing explored. Not
        # which path it names: two jobs of two ranks on two CPUs measure under twice their load
        # (in CI, Debian 13's MPICH: one communicator measured its shared-memory path at 1.4 ms
        # against the MPI library's slowed 1.0 ms, and learned PMPI).
        step("after-concurrent", job(a, d2, True, expect=[r"learned file .*: 1 size learned by earlier jobs"],
                                     reject=[r"warning", r"learned allreduce"], exact=False),
             lambda: [only_file(d2)[1]])

        other = os.path.join(tmp, "other")
        os.makedirs(other)
        open(os.path.join(other, os.path.basename(path)), "w").write("damaged\n")
        step("other-rank", job(a, d, True, reject=[r"warning"], extra_env=["TEST_OTHER_LEARN_DIR=" + other]))

        d3 = os.path.join(tmp, "three")
        three = dict(args=["bcast", "shm,pmpi,cma", "cma", "40"],
                     extra_env=["MCORECOLL_BCAST_MAX_BYTES=8M", "MCORECOLL_BCAST_CMA_MIN_BYTES=1M", "TEST_LEARNING_DOUBLES=1024",
                                "MCORECOLL_TEST_SLOWDOWN=bcast:shm:1000,bcast:pmpi:1000"])
        step("three-first", job(a, d3, False, expect=[r"1 size learned in this job written"], **three))

        def three_line():
            text = open(only_file(d3)[0] or os.devnull).read()
            line = re.search(r"learned: bcast ranks=2 nodes=1 node-ranks=2 sizes=8K-16K row=ring other=pmpi,cma path=cma "
                             r"mean-us=[\d.]+/[\d.]+/[\d.]+ slowest-us=[\d.]+/[\d.]+/[\d.]+", text)
            return [] if line else [f"the file does not hold the three candidates' verdict:\n{text}"]
        failures.extend("three-first: " + f for f in three_line())
        step("three-second", job(a, d3, True, expect=[r"learned file .*: 1 size learned by earlier jobs"],
                                 reject=[r"learned bcast", r"warning"], **three))
    return verdict("learned_file_check", failures)


if __name__ == "__main__":
    sys.exit(main())
