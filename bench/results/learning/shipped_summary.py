#!/usr/bin/env python3
"""shipped.sh's CSVs: per MPI, collective and size, the time through mcorecoll with learning on
over the same with learning off (both measures: the slowest rank's time per call, and the mean
over ranks of each rank's own), the median of the two passes; the cells above 1.03 in either
measure, and the spread of the whole table."""
import csv
import glob
import os
import statistics
import sys

here = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "shipped")
for mpi in ("openmpi", "mpich"):
    times = {}
    for learn in ("off", "auto"):
        for path in glob.glob(os.path.join(here, f"{mpi}-np2-*-{learn}-*.csv")):
            for r in csv.DictReader(open(path)):
                key = (r["collective"], int(r["bytes"]))
                times.setdefault(key, {}).setdefault(learn, []).append(
                    (float(r["ratio"]), float(r["mean_ratio"])))
    ratios = []
    worse = []
    for key in sorted(times):
        d = times[key]
        if len(d.get("off", [])) < 1 or len(d.get("auto", [])) < 1:
            continue
        off = [statistics.median(x[i] for x in d["off"]) for i in (0, 1)]
        on = [statistics.median(x[i] for x in d["auto"]) for i in (0, 1)]
        r = (on[0] / off[0], on[1] / off[1])
        ratios.append(r)
        if max(r) > 1.03:
            worse.append((key, r))
    print(f"{mpi} np 2: {len(ratios)} cells, learning on / off: slowest rank "
          f"{min(x for x, _ in ratios):.2f}-{max(x for x, _ in ratios):.2f} (median {statistics.median(x for x, _ in ratios):.3f}), "
          f"mean over ranks {min(y for _, y in ratios):.2f}-{max(y for _, y in ratios):.2f} "
          f"(median {statistics.median(y for _, y in ratios):.3f}); above 1.03 in either: {len(worse)}")
    for (coll, b), r in worse:
        print(f"  {coll} {b}: {r[0]:.2f} / {r[1]:.2f}")
