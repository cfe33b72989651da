#!/usr/bin/env python3
"""Checks that a tuning file written by mcorecoll-tune steers the library: runs the tuner, reads
the file it wrote, works out from the file alone which path bcast, alltoall and barrier calls of
chosen sizes must take, and compares that with MCORECOLL_STATS of a real job that names the
file in MCORECOLL_CONFIG.

    tune_check.py --flavor F --mpirun PATH --bench PATH --tuner PATH
                  [--expect-setting KEY=VALUE]... [--expect-no-setting KEY]... [--expect-change]
                  -- TUNER_ARGS...

--expect-setting: the file must set KEY to VALUE (KEY ending in '*': the first key that starts
so). --expect-no-setting KEY: the file must leave KEY alone. --expect-change: the same job without the
file must take other paths (the file changed the library's decisions).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from mpirun_check import launcher_command  # noqa: E402

NP = 2
ROUNDS, ITERS = 2, 1
CALLS_PER_SIZE = 1 + ROUNDS * ITERS  # the bench's warm-up call, then its timed calls of MPI_X
MAX_PROBE = 16 << 20


def parse_size(text):
    m = re.fullmatch(r"(\d+)([KMGT]?)", text.strip().upper())
    if not m:
        raise ValueError(f"not a byte count: {text!r}")
    return int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30, "T": 40}[m.group(2)]


def read_tuning(path):
    settings = {}
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        if line:
            key, _, value = line.partition("=")
            settings[key.strip().lower()] = value.strip()
    return settings


def row_bands(settings, coll):
    """The file's decision-table row for the job's process count: [(max_bytes, path)]."""
    value = settings.get(f"{coll}_paths_np{NP}")
    if value is None:
        raise ValueError(f"the file has no {coll}_paths_np{NP} row for the job's {NP} ranks")
    bands = []
    for item in value.split():
        path, _, bound = item.partition(":")
        if bound:
            bands.append((parse_size(bound), path))
    return bands


def expected_path(settings, coll, size):
    """The path the library's router must pick for this size, from the file alone (the tuner
    writes every setting this needs: a table row per process count)."""
    mode = settings.get(coll, "auto")
    if coll == "barrier" and mode in ("auto", "shm"):  # the node's choice, named
        return "poll" if NP <= int(settings.get("barrier_all_poll_max", "8")) else "tree"
    if mode != "auto":
        return mode
    for bound, path in row_bands(settings, coll):
        if size <= bound:
            return path
    return "pmpi"


def probe_sizes(settings, coll):
    """Sizes on both sides of every bound of the row: from the smallest bound to twice the
    largest, doubling, as the bench will run them."""
    if settings.get(coll, "auto") != "auto" or not row_bands(settings, coll):
        return [1024]
    bounds = [b for b, _ in row_bands(settings, coll)]
    sizes, size = [], bounds[0]
    while size <= min(2 * bounds[-1], MAX_PROBE):
        sizes.append(size)
        size *= 2
    return sizes


def run_job(a, coll, sizes, config):
    # Every call counted on the path the file gives it: the communicator set up on its first,
    # the rows as written (no learning in the run).
    env = {"MCORECOLL_STATS": "1", "MCORECOLL_VERBOSE": "1", "MCORECOLL_SETUP_AFTER": "1", "MCORECOLL_LEARN": "off"}
    if config:
        env["MCORECOLL_CONFIG"] = config
    cmd = launcher_command(a.flavor, a.mpirun, NP, env) + [
        a.bench, "--coll", coll, "--min", str(sizes[0]), "--max", str(sizes[-1]), "--factor", "2",
        "--rounds", str(ROUNDS), "--iters", str(ITERS)]
    os_env = {k: v for k, v in os.environ.items() if not k.startswith("MCORECOLL_") and k != "LD_PRELOAD"}
    os_env.update({"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"})
    print("+", " ".join(cmd), flush=True)
    run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=os_env, text=True,
                         errors="replace", timeout=60)
    sys.stdout.write(run.stdout)
    if run.returncode != 0:
        raise RuntimeError(f"the job exited with status {run.returncode}")
    stats = {}
    for path, calls, nbytes in re.findall(rf"stats {coll} (\w+) calls=(\d+) bytes=(\d+)", run.stdout):
        stats[path] = (int(calls), int(nbytes))
    refused = "single copy (Cross Memory Attach) is refused" in run.stdout
    return stats, refused


def expected_stats(settings, coll, sizes, cma_refused):
    """Calls and bytes per path, summed over the ranks, as MCORECOLL_STATS counts them."""
    stats = {}
    for size in sizes:
        path = expected_path(settings, coll, size)
        if path == "cma" and cma_refused:
            path = "pmpi"  # in auto mode, where the node refuses single copy
        per_call = 0 if coll == "barrier" else size * (NP if coll == "alltoall" else 1)
        calls, nbytes = stats.get(path, (0, 0))
        stats[path] = (calls + CALLS_PER_SIZE * NP, nbytes + CALLS_PER_SIZE * NP * per_call)
    return stats


def main():
    p = argparse.ArgumentParser()
    for name in ("--flavor", "--mpirun", "--bench", "--tuner"):
        p.add_argument(name, required=True)
    p.add_argument("--expect-setting", action="append", default=[])
    p.add_argument("--expect-no-setting", action="append", default=[])
    p.add_argument("--expect-change", action="store_true")
    p.add_argument("tuner_args", nargs=argparse.REMAINDER)
    a = p.parse_args()
    tuner_args = a.tuner_args[1:] if a.tuner_args[:1] == ["--"] else a.tuner_args
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        config = os.path.join(tmp, "tuned.conf")
        cmd = [a.tuner] + tuner_args + ["-o", config]
        print("+", " ".join(cmd), flush=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith("MCORECOLL_")}
        tune = subprocess.run(cmd, env=env, timeout=120)
        if tune.returncode != 0:
            print(f"FAIL: the tuner exited with status {tune.returncode}")
            return 1
        print(open(config).read())
        settings = read_tuning(config)
        for item in a.expect_setting:
            key, _, value = item.partition("=")
            if key.endswith("*"):  # the first key with this prefix
                key = next((k for k in sorted(settings) if k.startswith(key[:-1])), key)
            if settings.get(key) != value:
                failures.append(f"the file sets {key} = {settings.get(key)}, expected {value}")
        for key in a.expect_no_setting:
            if key in settings:
                failures.append(f"the file sets {key} = {settings[key]}, expected nothing")

        changed = False
        for coll in ("bcast", "alltoall", "barrier"):
            sizes = [1] if coll == "barrier" else probe_sizes(settings, coll)  # barrier: no size
            got, refused = run_job(a, coll, sizes, config)
            want = expected_stats(settings, coll, sizes, refused)
            print(f"{coll} {sizes}: stats with the file {got}, from the file {want}")
            if got != want:
                failures.append(f"{coll}: the library's paths {got} differ from the file's {want}")
            if a.expect_change:
                without, _ = run_job(a, coll, sizes, None)
                print(f"{coll} {sizes}: stats without the file {without}")
                changed |= without != got
        if a.expect_change and not changed:
            failures.append("the file changed no decision: every path was the same without it")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
