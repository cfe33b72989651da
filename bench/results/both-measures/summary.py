#!/usr/bin/env python3
"""Both measures of mcorecoll_bench per MPI: the cells above 1.05x of the MPI library's own in
either, and the cells where the two measures disagree about that. Usage: summary.py [DIR]"""
import csv, glob, os, sys

d = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
for mpi in ("openmpi", "mpich"):
    rows = [r for f in sorted(glob.glob(f"{d}/{mpi}-np*-*.csv")) for r in csv.DictReader(open(f))]
    if not rows:
        continue
    slow = [r for r in rows if float(r["ratio"]) > 1.05]
    mean = [r for r in rows if float(r["mean_ratio"]) > 1.05]
    either = [r for r in rows if float(r["ratio"]) > 1.05 or float(r["mean_ratio"]) > 1.05]
    differ = [r for r in rows if (float(r["ratio"]) > 1.05) != (float(r["mean_ratio"]) > 1.05)]
    print(f"{mpi} np {rows[0]['np']}: {len(rows)} cells; above 1.05x: slowest rank {len(slow)}, "
          f"mean over ranks {len(mean)}, either {len(either)}; the measures disagree in {len(differ)}")
    for r in either:
        print(f"  {r['collective']:22s} {int(r['bytes']):>8d} B  slowest {float(r['ratio']):5.2f}  mean {float(r['mean_ratio']):5.2f}"
              f"  ({float(r['mcorecoll_mean_us']):.3f} vs {float(r['pmpi_mean_us']):.3f} us)")
