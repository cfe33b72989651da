#!/usr/bin/env python3
"""The np 16 rows of src/decisions/decision_table.cpp from the lent 16-core machine's runs of
2026-11-26 (README.md here): the bands mcorecoll-tune decided from tune/<mpi>/ (both measures,
the worse of the two per size), less the sizes that lost on mcorecoll's path in both defaults
runs (VETOED), and each band's range of the worse ratio, printed as the table's C++ lines.
Usage: rows.py (from anywhere)"""
import csv, os

HERE = os.path.dirname(os.path.abspath(__file__))
RUN = {"bcast": "shm", "alltoall": "shm", "allreduce": "reductions", "reduce": "reductions",
       "allgather": "reductions"}  # the others: node-only
# mcorecoll-tune --from tune/<mpi> (tools/mcorecoll-tune), and exscan, which its budget did not
# reach, from the defaults runs (1-defaults/ and 2-defaults/).
BANDS = {
    "openmpi": {
        "bcast": "shm:16M pmpi", "alltoall": "shm:4K cma:1M pmpi",
        "allreduce": "shm:2K pmpi:16K shm:16M pmpi", "reduce": "pmpi:16K shm:16M pmpi",
        "allgather": "shm:1M pmpi", "alltoallv": "shm:8K pmpi", "allgatherv": "shm:1M pmpi",
        "gather": "pmpi:256 shm:1M pmpi", "gatherv": "shm:1 pmpi:64 shm:512K pmpi",
        "scatter": "pmpi:32 shm:16K pmpi", "scatterv": "shm:32K pmpi",
        "reduce_scatter_block": "shm:256 pmpi:4M shm:16M pmpi", "reduce_scatter": "shm:256 pmpi",
        "scan": "pmpi"},  # exscan: not reached; the row of the earlier run stays
    "mpich": {
        "bcast": "shm:16M pmpi", "alltoall": "shm:4K cma:32K pmpi",
        "allreduce": "shm:2K pmpi:16K shm:16M pmpi",
        # the tuner's shm:128: 16 B lost in both defaults runs (mean 1.08x and 1.15x)
        "reduce": "shm:8 pmpi:16K shm:16M pmpi",
        "allgather": "shm:1M pmpi", "alltoallv": "shm:4K pmpi", "allgatherv": "shm:1M pmpi",
        "gather": "pmpi:64 shm:1M pmpi", "gatherv": "shm:4K pmpi:64K shm:1M pmpi",
        "scatter": "shm:256 pmpi:1K shm:8K pmpi:256K shm:1M pmpi", "scatterv": "shm:2K pmpi",
        "reduce_scatter_block": "shm:512 pmpi", "reduce_scatter": "shm:512 pmpi",
        # exscan: the defaults runs, where the np 2 row (shm:256K) had it on shared memory up to
        # 256 KiB: its pmpi band's ratios are shared memory's up to there
        "scan": "shm:128K pmpi", "exscan": "shm:16K pmpi"},
}


def parse(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    bands = []
    for part in text.split():
        path, _, size = part.partition(":")
        bands.append((path, int(size[:-1]) * units[size[-1]] if size and size[-1] in units else int(size) if size else None))
    return bands


def points(mpi, coll, run):
    path = os.path.join(HERE, "tune", mpi, f"np16-{run}.csv") if coll != "exscan" else \
        os.path.join(HERE, "2-defaults", f"{mpi}-np16-node-only.csv")
    rows = [r for r in csv.DictReader(open(path)) if r["collective"] == coll]
    return {int(r["bytes"]): max(float(r["ratio"]), float(r["mean_ratio"])) for r in rows}, path


def cma_points(mpi):
    path = os.path.join(HERE, "tune", mpi, "np16-cma.csv")
    return {int(r["bytes"]): max(float(r["ratio"]), float(r["mean_ratio"]))
            for r in csv.DictReader(open(path)) if r["collective"] == "alltoall"}


def human(n):
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} B"


for mpi, table in BANDS.items():
    print(f"// {mpi}")
    for coll, text in table.items():
        pts, path = points(mpi, coll, RUN.get(coll, "node-only"))
        cma = cma_points(mpi) if coll == "alltoall" else {}
        parts, low = [], 0
        for band, high in parse(text):
            top = high if high is not None else max(pts)
            sizes = [s for s in sorted(pts) if low <= s <= top]
            if coll == "exscan" and band == "pmpi":
                sizes = [s for s in sizes if s <= 256 << 10]
            if sizes:
                ratios = [cma.get(s, pts[s]) if band == "cma" else pts[s] for s in sizes]
                what = f"{band} {{}}" if band != "pmpi" else "PMPI where shared memory took {}"
                span = f"{min(ratios):.2f}x" if f"{min(ratios):.2f}" == f"{max(ratios):.2f}" else \
                    f"{min(ratios):.2f}-{max(ratios):.2f}x"
                parts.append(what.format(span) +
                             f" at {human(sizes[0])}" + (f"-{human(sizes[-1])}" if len(sizes) > 1 else ""))
            if high is None:
                break
            low = high + 1
        source = os.path.relpath(path, os.path.dirname(HERE))
        extra = " " + os.path.relpath(os.path.join(HERE, "tune", mpi, "np16-cma.csv"), os.path.dirname(HERE)) if cma else ""
        print(f'  if (c == Collective::{coll}) rows.push_back(row(c, 16, false, "{text}", '
              f'"device16 np 16, both measures: {"; ".join(parts)} [bench/results: {source}{extra}]"));')
