#!/usr/bin/env python3
"""Jobs under Slurm (run inside tools/slurmbed, which sets SLURM_CONF): the library preloaded by
`mcorecoll-run srun`, by `srun ... mcorecoll-exec` and in an `sbatch` batch script, its
statistics printed as under mpirun; then a job cancelled with scancel while its ranks wait
inside MPI_Bcast on mcorecoll's path: no rank and no shared memory left behind.

Across the hosts of a bed (`tools/hostbed run -- tools/slurmbed run -- slurm_check.py ...`:
one Slurm node a host), every job spans all nodes, and with --collectives and --mpirun the
collectives' test runs under srun and under mpirun on the same hosts: the job report must
find one node a host, and the statistics' calls on each path must be the same under both
launchers (learning off, so that the table alone decides).

--finalize-hang: the MPI library is one whose MPI_Finalize hangs now and then across hosts
after the job's work is done (MPICH before 4.2 over UCX: doc/mpi-defects.md). A job whose
output is complete and whose ranks then do not end within 10 s is ended here and said, not
failed (mpirun_check.Job).

Usage: slurm_check.py --flavor openmpi|mpich --run MCORECOLL_RUN --exec MCORECOLL_EXEC
                      --barrier ONE_BARRIER --waiter WAIT_IN_BCAST
                      [--collectives TEST_COLLECTIVES --mpirun MPIRUN] [--finalize-hang]
"""
import argparse
import json
import os
import re
import select
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from mpirun_check import (Job, launcher_command, leftover_failures, output_failures, shm_objects,  # noqa: E402
                          verdict)

# How long a job may take.
JOB_S = 180


def bed_layout():
    """The bed's hosts and their slots (tools/hostbed's hostfile), or None outside a bed."""
    if "HOSTBED" not in os.environ:
        return None
    slots = {}
    with open(os.environ["HOSTBED_HOSTFILE"]) as f:
        for line in f:
            name, spec = line.split()
            slots[name] = int(spec.split("=")[1])
    return slots


def path_calls(out):
    """{(collective, path): {calls}} from the statistics' lines (every rank prints the job's
    totals, so the set holds one value where the ranks agree)."""
    calls = {}
    for m in re.finditer(r"^mcorecoll: stats (\S+) (\S+) calls=(\d+) ", out, re.MULTILINE):
        calls.setdefault((m.group(1), m.group(2)), set()).add(int(m.group(3)))
    return calls


class Jobs:
    """The jobs of this check, each run to its end (mpirun_check.Job), their failures kept."""

    def __init__(self, env, finalize_hang):
        self.env = env
        self.finalize_hang = finalize_hang
        self.failures = []
        self.count = 0

    def run(self, name, cmd, expect, program, output_file=None, env=None):
        """Runs a job; its output (the launcher's, or `output_file` for sbatch) must match every
        regex of `expect`. Returns the output."""
        self.count += 1
        job_name = f"mcorecoll-check-{os.getpid()}-{self.count}"
        for at, word in enumerate(cmd[:2]):  # named, so that scancel can end it
            if word in ("srun", "sbatch"):
                cmd = cmd[:at + 1] + ["-J", job_name] + cmd[at + 1:]
                break
        print(f"=== {name}\n+ {' '.join(cmd)}", flush=True)
        job = Job(cmd, env or self.env, JOB_S, program, expect, self.finalize_hang, output_file,
                  stop=lambda: subprocess.run(["scancel", "-n", job_name], env=self.env))
        print(job.output, flush=True)
        self.failures.extend(f"{name}: {f}" for f in job.failures)
        if job.status not in (None, 0):
            self.failures.append(f"{name}: exit status {job.status}")
        self.failures.extend(f"{name}: {f}" for f in output_failures(job.output, expect, []))
        return job.output


def launcher_agreement(a, jobs, mpi, hosts, tmp):
    """The collectives' test under srun, then under mpirun on the same hosts: the report finds
    one node a host; the same calls on the same paths under both launchers."""
    np = sum(hosts.values())
    report = os.path.join(tmp, "report.json")
    table = dict(jobs.env, MCORECOLL_LEARN="off", MCORECOLL_REPORT=report)
    expect = ["^test_collectives: passed", r"^mcorecoll: stats bcast \S+ calls="]
    calls = {}
    # Both through mcorecoll-run, which hands the MCORECOLL_* settings to each launcher's ranks.
    for launcher, cmd in (("srun", [a.run, "srun", "-n", str(np), "-N", str(len(hosts)), mpi, a.collectives]),
                          ("mpirun", [a.run] + launcher_command(a.flavor, a.mpirun, np, {}, bed="slot") +
                           [a.collectives])):
        before = len(jobs.failures)
        out = jobs.run(f"collectives under {launcher}", cmd, expect, a.collectives, env=table)
        if launcher == "srun" and len(jobs.failures) == before:
            jobs.failures += report_failures(report, hosts)
        calls[launcher] = path_calls(out)
    if not calls["srun"]:
        jobs.failures.append("collectives under srun: no statistics")
    for key in sorted(set(calls["srun"]) | set(calls["mpirun"])):
        if calls["srun"].get(key) != calls["mpirun"].get(key):
            jobs.failures.append(f"stats {key[0]} {key[1]}: calls {sorted(calls['srun'].get(key, []))} under srun, "
                                 f"{sorted(calls['mpirun'].get(key, []))} under mpirun")


def report_failures(path, hosts):
    """The job report of a job across the bed: one node a host, each with its slots' ranks."""
    try:
        with open(path) as f:
            job = json.load(f)["job"]
    except (OSError, ValueError, KeyError) as e:
        return [f"report {path}: {e}"]
    failures = []
    if job.get("nodes") != len(hosts):
        failures.append(f"report: nodes {job.get('nodes')}, the bed has {len(hosts)} hosts")
    per_node = job.get("ranks_per_node") or {}
    least, most = min(hosts.values()), max(hosts.values())
    if (per_node.get("least"), per_node.get("most")) != (least, most):
        failures.append(f"report: ranks a node {per_node}, the bed's hosts have {least} to {most} slots")
    return failures


def cancel_in_bcast(a, jobs, mpi, n, np, bed):
    """scancel in the middle of a collective: the ranks but 0 wait in MPI_Bcast on shared
    memory; nothing of the job may be left on any host."""
    print("=== scancel", flush=True)
    shm_before = shm_objects(bed)
    env = dict(jobs.env, MCORECOLL_BCAST="shm", MCORECOLL_SETUP_AFTER="1")
    name = f"mcorecoll-cancel-{os.getpid()}"
    srun = subprocess.Popen(["srun"] + n + ["-J", name, mpi, a.exec, a.waiter], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, env=env, text=True)
    waiting, seen, deadline = 0, [], time.monotonic() + 60
    while waiting < np - 1 and time.monotonic() < deadline:
        if not select.select([srun.stdout], [], [], 1.0)[0]:
            continue
        line = srun.stdout.readline()
        if not line:
            break
        seen.append(line)
        waiting += "in MPI_Bcast" in line
    if waiting < np - 1:
        jobs.failures.append(f"scancel: the ranks did not reach MPI_Bcast: {''.join(seen)}")
    time.sleep(1)  # inside the call
    subprocess.run(["scancel", "-n", name], env=env)
    try:
        rest, _ = srun.communicate(timeout=60)
        print("".join(seen) + rest, flush=True)
    except subprocess.TimeoutExpired:
        srun.kill()
        jobs.failures.append("scancel: srun did not end 60 s after scancel")
    jobs.failures.extend(f"scancel: {f}" for f in leftover_failures(a.waiter, shm_before, grace=15, bed=bed))


def main():
    p = argparse.ArgumentParser()
    for name in ("--flavor", "--run", "--exec", "--barrier", "--waiter"):
        p.add_argument(name, required=True)
    p.add_argument("--collectives")
    p.add_argument("--mpirun")
    p.add_argument("--finalize-hang", action="store_true")
    a = p.parse_args()
    if "SLURM_CONF" not in os.environ:
        print("slurm_check: no SLURM_CONF (run it inside tools/slurmbed run --)")
        return 2
    # Open MPI starts through PMIx, MPICH through PMI2 (Slurm's plugins).
    mpi = "--mpi=pmix" if a.flavor == "openmpi" else "--mpi=pmi2"
    env = {k: v for k, v in os.environ.items() if not k.startswith("MCORECOLL_") and k != "LD_PRELOAD"}
    env.update({"MCORECOLL_STATS": "1", "MCORECOLL_LEARN_DIR": "none",
                "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"})
    hosts = bed_layout()
    if hosts is not None and a.flavor == "openmpi":
        # What the bed's mpirun flags say, as Open MPI's environment: TCP on the bed's subnet,
        # no spinning (the hosts share this machine's CPUs).
        subnet = re.search(r"btl_tcp_if_include (\S+)", os.environ["HOSTBED_OMPI"]).group(1)
        env.update({"OMPI_MCA_btl": "tcp,vader,self", "OMPI_MCA_btl_tcp_if_include": subnet,
                    "OMPI_MCA_mpi_yield_when_idle": "1"})
    jobs = Jobs(env, a.finalize_hang)
    # Every job spans the nodes: the bed's hosts (no more tasks than their CPUs: a job of more
    # waits for nodes that never come), or this host's node with 2 tasks.
    np = 2 if hosts is None else sum(hosts.values())
    n = ["-n", str(np)] + ([] if hosts is None else ["-N", str(len(hosts))])
    done = ["^one_barrier: done$", rf"^mcorecoll: stats barrier \S+ calls={np} "]
    jobs.run("mcorecoll-run srun", [a.run, "srun"] + n + [mpi, a.barrier], done, a.barrier)
    jobs.run("srun mcorecoll-exec", ["srun"] + n + [mpi, a.exec, a.barrier], done, a.barrier)
    with tempfile.TemporaryDirectory(prefix="slurm-check-") as tmp:
        out = os.path.join(tmp, "batch.out")
        jobs.run("sbatch", ["sbatch", "--wait"] + n + ["-o", out, "--wrap", f"srun {mpi} {a.exec} {a.barrier}"],
                 [r"^Submitted batch job \d+"] + done, a.barrier, output_file=out)
        if hosts is not None and a.collectives:
            launcher_agreement(a, jobs, mpi, hosts, tmp)
    cancel_in_bcast(a, jobs, mpi, n, np, hosts is not None)
    return verdict("slurm_check", jobs.failures)


if __name__ == "__main__":
    sys.exit(main())
