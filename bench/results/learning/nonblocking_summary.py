#!/usr/bin/env python3
"""The tables of nonblocking.sh's runs: per MPI, np and size, mcorecoll's MPI_Iallreduce over the
MPI library's own (vs_mpi: start + wait, the slowest rank's mean, median of 7 rounds), for the
wrong row with learning off and on and the shipped row, each as the two passes' values."""
import csv
import sys
from pathlib import Path

folder = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent / "nonblocking")
for mpi, np in (("openmpi", 2), ("openmpi", 4), ("mpich", 2)):
    tags = ("wrong-pmpi-off", "wrong-pmpi-auto", "shipped-off")
    cells = {}
    for tag in tags:
        for p in (1, 2):
            f = folder / f"{mpi}-np{np}-iallreduce-{tag}-{p}.csv"
            for row in csv.DictReader(f.open()):
                if row["side"] == "mcorecoll":
                    cells.setdefault((int(row["bytes"]), tag), []).append(float(row["vs_mpi"]))
    print(f"\n{mpi} np {np}, MPI_Iallreduce only, row wrong-pmpi: mcorecoll / PMPI (start + wait, slowest rank), passes 1 and 2")
    print("| bytes | learning off | learning on | shipped row, off |")
    print("|---|---|---|---|")
    for b in sorted({b for b, _ in cells}):
        print(f"| {b} | " + " | ".join(" / ".join(f"{v:.2f}" for v in cells[(b, t)]) for t in tags) + " |")
