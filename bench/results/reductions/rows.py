#!/usr/bin/env python3
"""The decision-table rows of allreduce, reduce and allgather (src/decisions/decision_table.cpp)
from the CSV files here. Per measured size, the library has two routes: its shared-memory path
(*-forced-shm-*.csv: MPI_X with the path forced, against PMPI_X in the same run) and the MPI
library's own through the interposition (*-forced-pmpi-*.csv: MPI_X forced to PMPI against
PMPI_X). A size takes shared memory where its median ratio over the runs is below 0.95 of the
other route's median and no run measured it more than 5% slower than that route's worst run;
the sizes up to it follow it."""
import collections
import csv
import glob
import statistics


def human(n):
    for unit, suffix in ((1 << 20, "M"), (1 << 10, "K")):
        if n >= unit and n % unit == 0:
            return f"{n // unit}{suffix}"
    return str(n)


def load(kind):
    data = collections.defaultdict(lambda: collections.defaultdict(list))
    files = collections.defaultdict(set)
    for f in sorted(glob.glob(f"*-forced-{kind}-*.csv")):
        mpi, np_ = f.split("-")[0:2]
        files[(mpi, np_)].add(f)
        for r in csv.DictReader(open(f)):
            assert r["ok"] == "1", f
            data[(mpi, np_, r["collective"])][int(r["bytes"])].append(float(r["ratio"]))
    return data, files


shm, files = load("shm")
pmpi, _ = load("pmpi")
for key in sorted(shm):
    mpi, np_, coll = key
    bands, taken, left = [], [], []
    for size, ratios in sorted(shm[key].items()):
        other = pmpi[key].get(size, [1.0])
        use = statistics.median(ratios) < 0.95 * statistics.median(other) and max(ratios) <= 1.05 * max(other)
        (taken if use else left).append((min(ratios), max(ratios)) if use else (min(other), max(other)))
        path = "shm" if use else "pmpi"
        if bands and bands[-1][0] == path:
            bands[-1][1] = size
        else:
            bands.append([path, size])
    if bands and bands[-1][0] == "pmpi":
        bands.pop()
    row = (" ".join(f"{p}:{human(b)}" for p, b in bands) + " pmpi") if bands else "pmpi"
    n = int(np_[2:])
    runs = len(next(iter(shm[key].values())))
    top = max(shm[key])
    desc = f"VM np {n}{' oversubscribed' if n == 4 else ''}, {runs} runs, 8 B-{human(top)}: "
    desc += f"shared memory {min(a for a, _ in taken):.2f}-{max(b for _, b in taken):.2f}x where taken" if taken else "shared memory never taken"
    if left:
        desc += f", PMPI through mcorecoll {min(a for a, _ in left):.2f}-{max(b for _, b in left):.2f}x where left to it"
    src = " ".join("reductions/" + f for f in sorted(files[(mpi, np_)]) + sorted(glob.glob(f"{mpi}-{np_}-forced-pmpi-*.csv")))
    print(f"{mpi}|{coll}|{n}|{row}|{desc} [bench/results: {src}]")
