#!/usr/bin/env python3
"""The table of run.sh's CSVs: per MPI, size and algorithm, the range over passes of the ratio
to PMPI_Allreduce in both measures (slowest rank / mean over ranks), and which algorithm the
node's choice (shm) takes there at np 2. Usage: summary.py DIR"""
import csv
import glob
import os
import re
import sys

LINE = 248  # a record line's data (common/shm_layout.hpp)
SLICE_MIN = 2048  # kSliceMinBytes (decisions/route.hpp), a node of up to 16 ranks


def choice(size, np=2):
    return "lines" if size <= LINE else "slices" if size >= np * SLICE_MIN else "fold"


def main():
    d = sys.argv[1]
    data = {}  # (mpi, size, alg) -> [(ratio, mean_ratio)]
    for path in sorted(glob.glob(os.path.join(d, "*-np2-allreduce-*-*.csv"))):
        m = re.match(r"(\w+)-np2-allreduce-(lines|tree|fold|slices)-\d+\.csv", os.path.basename(path))
        if not m:
            continue  # the learning runs (shipped-*)
        for row in csv.DictReader(open(path)):
            if row["collective"] != "allreduce" or row["ok"] != "1":
                continue
            data.setdefault((m[1], int(row["bytes"]), m[2]), []).append((float(row["ratio"]), float(row["mean_ratio"])))
    for mpi in ("openmpi", "mpich"):
        sizes = sorted({s for (x, s, _) in data if x == mpi})
        if not sizes:
            continue
        print(f"\n{mpi} np 2: algorithm / PMPI_Allreduce, slowest rank and mean over ranks (range over passes)")
        algs = ("lines", "tree", "fold", "slices")
        print(f"{'bytes':>8} " + "".join(f"{a:>22}" for a in algs) + "   choice")
        for s in sizes:
            cells = []
            for a in algs:
                v = data.get((mpi, s, a))
                if not v:
                    cells.append(f"{'-':>22}")
                    continue
                lo, hi = min(r for r, _ in v), max(r for r, _ in v)
                mlo, mhi = min(m for _, m in v), max(m for _, m in v)
                cells.append(f"{lo:.2f}-{hi:.2f}/{mlo:.2f}-{mhi:.2f}".rjust(22))
            print(f"{s:>8} " + "".join(cells) + f"   {choice(s)}")


if __name__ == "__main__":
    main()
