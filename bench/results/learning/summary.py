#!/usr/bin/env python3
"""The learning runs side by side (run.sh's CSVs): per configuration and size, the ratio to the
MPI library's own (slowest rank / mean over ranks) with learning off and on, median of the two
passes, and for allreduce the row the build ships with learning off (the better path here)."""
import csv
import glob
import os
import statistics
import sys

here = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))


def load(pattern):
    rows = {}
    for path in sorted(glob.glob(os.path.join(here, pattern))):
        for r in csv.DictReader(open(path)):
            rows.setdefault(int(r["bytes"]), []).append((float(r["ratio"]), float(r["mean_ratio"])))
    return {b: (statistics.median(x for x, _ in v), statistics.median(y for _, y in v)) for b, v in rows.items()}


def cell(pair):
    return f"{pair[0]:.2f} / {pair[1]:.2f}" if pair else "-"


for mpi, np in (("openmpi", 2), ("openmpi", 4), ("mpich", 2)):
    for coll, wrong in (("allreduce", "wrong-pmpi"), ("alltoall", "wrong-cma")):
        off = load(f"{mpi}-np{np}-{coll}-{wrong}-off-*.csv")
        on = load(f"{mpi}-np{np}-{coll}-{wrong}-auto-*.csv")
        shipped = load(f"{mpi}-np{np}-{coll}-shipped-off-*.csv")
        print(f"\n{mpi} np {np}, {coll}, row {wrong}: ratio to PMPI, slowest rank / mean over ranks")
        print("| bytes | learning off | learning on | shipped row, off |")
        print("|---|---|---|---|")
        for b in sorted(off):
            print(f"| {b} | {cell(off.get(b))} | {cell(on.get(b))} | {cell(shipped.get(b))} |")
