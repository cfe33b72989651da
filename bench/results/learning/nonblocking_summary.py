#!/usr/bin/env python3
"""The tables of nonblocking.sh's runs: per MPI, np and size, mcorecoll's MPI_Iallreduce (or
persistent MPI_Allreduce_init's starts) over the MPI library's own, start + wait, in both
measures where the CSVs have them (vs_mpi: the slowest rank's mean; vs_mpi_mean: the mean over
ranks of each rank's own mean; each the median of 7 rounds), for the wrong row with learning off
and on and the shipped row, each cell the two passes' values.

    nonblocking_summary.py [FOLDER [nonblocking|persistent]]"""
import csv
import sys
from pathlib import Path

folder = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent / "nonblocking")
form = sys.argv[2] if len(sys.argv) > 2 else "nonblocking"
name = "allreduce_init" if form == "persistent" else "iallreduce"
measures = (("vs_mpi", "slowest rank"), ("vs_mpi_mean", "mean over ranks"))
for mpi, np in (("openmpi", 2), ("openmpi", 4), ("mpich", 2)):
    tags = ("wrong-pmpi-off", "wrong-pmpi-auto", "shipped-off")
    cells = {}
    for tag in tags:
        for p in (1, 2):
            f = folder / f"{mpi}-np{np}-{name}-{tag}-{p}.csv"
            for row in csv.DictReader(f.open()):
                if row["side"] != "mcorecoll":
                    continue
                for column, _ in measures:
                    if row.get(column):
                        cells.setdefault((column, int(row["bytes"]), tag), []).append(float(row[column]))
    for column, words in measures:
        sizes = sorted({b for c, b, _ in cells if c == column})
        if not sizes:
            continue
        print(f"\n{mpi} np {np}, {name} only, row wrong-pmpi: mcorecoll / PMPI (start + wait, {words}), passes 1 and 2")
        print("| bytes | learning off | learning on | shipped row, off |")
        print("|---|---|---|---|")
        for b in sizes:
            print(f"| {b} | " + " | ".join(" / ".join(f"{v:.2f}" for v in cells[(column, b, t)]) for t in tags) + " |")
