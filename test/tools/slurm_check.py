#!/usr/bin/env python3
"""Jobs under Slurm (run inside tools/slurmbed, which sets SLURM_CONF): the library preloaded by
`mcorecoll-run srun`, by `srun ... mcorecoll-exec` and in an `sbatch` batch script, its
statistics printed as under mpirun; then a job cancelled with scancel while its ranks wait
inside MPI_Bcast on mcorecoll's path: no rank and no shared memory left behind.

Usage: slurm_check.py --flavor openmpi|mpich --run MCORECOLL_RUN --exec MCORECOLL_EXEC
                      --barrier ONE_BARRIER --waiter WAIT_IN_BCAST
"""
import argparse
import os
import select
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from mpirun_check import leftover_failures, output_failures, shm_objects, verdict  # noqa: E402

STATS = r"^mcorecoll: stats barrier \S+ calls=2 "


def main():
    p = argparse.ArgumentParser()
    for name in ("--flavor", "--run", "--exec", "--barrier", "--waiter"):
        p.add_argument(name, required=True)
    a = p.parse_args()
    if "SLURM_CONF" not in os.environ:
        print("slurm_check: no SLURM_CONF (run it inside tools/slurmbed run --)")
        return 2
    # Open MPI starts through PMIx, MPICH through PMI2 (Slurm's plugins).
    mpi = "--mpi=pmix" if a.flavor == "openmpi" else "--mpi=pmi2"
    env = {k: v for k, v in os.environ.items() if not k.startswith("MCORECOLL_") and k != "LD_PRELOAD"}
    env.update({"MCORECOLL_STATS": "1", "MCORECOLL_LEARN_DIR": "none",
                "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"})
    failures = []

    def job(name, cmd, expect):
        print(f"=== {name}\n+ {' '.join(cmd)}", flush=True)
        try:
            run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True,
                                 timeout=60)
        except subprocess.TimeoutExpired as e:
            print(e.stdout if isinstance(e.stdout, str) else (e.stdout or b"").decode(errors="replace"), flush=True)
            failures.append(f"{name}: no end after 60 s")
            subprocess.run(["squeue"], env=env)
            return
        print(run.stdout, flush=True)
        if run.returncode != 0:
            failures.append(f"{name}: exit status {run.returncode}")
        failures.extend(f"{name}: {f}" for f in output_failures(run.stdout, expect, []))

    job("mcorecoll-run srun", [a.run, "srun", "-n", "2", mpi, a.barrier], ["^one_barrier: done$", STATS])
    job("srun mcorecoll-exec", ["srun", "-n", "2", mpi, a.exec, a.barrier], ["^one_barrier: done$", STATS])

    with tempfile.TemporaryDirectory(prefix="slurm-check-") as tmp:
        out = os.path.join(tmp, "batch.out")
        job("sbatch", ["sbatch", "--wait", "-n", "2", "-o", out, "--wrap", f"srun {mpi} {a.exec} {a.barrier}"],
            [r"^Submitted batch job \d+"])
        text = open(out).read() if os.path.exists(out) else ""
        print(f"--- {out}:\n{text}", flush=True)
        failures.extend(f"sbatch output: {f}" for f in output_failures(text, ["^one_barrier: done$", STATS], []))

    # scancel in the middle of a collective: rank 1 waits in MPI_Bcast on shared memory (2 ranks:
    # the bed's node has 2 CPUs, and a job of more tasks than CPUs waits for a second node).
    print("=== scancel", flush=True)
    shm_before = shm_objects()
    env.update({"MCORECOLL_BCAST": "shm", "MCORECOLL_SETUP_AFTER": "1"})
    name = f"mcorecoll-cancel-{os.getpid()}"
    srun = subprocess.Popen(["srun", "-n", "2", "-J", name, mpi, a.exec, a.waiter], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, env=env, text=True)
    waiting, seen, deadline = 0, [], time.monotonic() + 60
    while not waiting and time.monotonic() < deadline:
        if not select.select([srun.stdout], [], [], 1.0)[0]:
            continue
        line = srun.stdout.readline()
        if not line:
            break
        seen.append(line)
        waiting += "in MPI_Bcast" in line
    if not waiting:
        failures.append(f"scancel: the ranks did not reach MPI_Bcast: {''.join(seen)}")
    time.sleep(1)  # inside the call
    subprocess.run(["scancel", "-n", name], env=env)
    try:
        rest, _ = srun.communicate(timeout=60)
        print("".join(seen) + rest, flush=True)
    except subprocess.TimeoutExpired:
        srun.kill()
        failures.append("scancel: srun did not end 60 s after scancel")
    failures.extend(f"scancel: {f}" for f in leftover_failures(a.waiter, shm_before, grace=15))
    return verdict("slurm_check", failures)


if __name__ == "__main__":
    sys.exit(main())
