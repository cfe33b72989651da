#!/usr/bin/env python3
"""The two runs side by side: per file and collective, the sizes whose ratio (mcorecoll over the
MPI library's own, the slowest rank's time per call) was above 1.05 in both runs, with both
ratios, and each file's range of ratios over both runs."""
import csv
import glob
import os

here = os.path.dirname(os.path.abspath(__file__))
for path in sorted(glob.glob(os.path.join(here, "run1", "*.csv"))):
    name = os.path.basename(path)
    runs = [list(csv.DictReader(open(os.path.join(here, r, name)))) for r in ("run1", "run2")]
    ratio = [{(x["collective"], int(x["bytes"])): float(x["ratio"]) for x in rows} for rows in runs]
    both = sorted(set(ratio[0]) & set(ratio[1]), key=lambda k: (k[0], k[1]))
    values = [ratio[i][k] for k in both for i in (0, 1)]
    over = [k for k in both if ratio[0][k] > 1.05 and ratio[1][k] > 1.05]
    detail = {}
    for c, b in over:
        detail.setdefault(c, []).append(f"{b} B {ratio[0][(c, b)]:.2f}/{ratio[1][(c, b)]:.2f}")
    print(f"{name[:-4]}: {len(both)} sizes, {min(values):.2f}-{max(values):.2f}; above 1.05 in both runs: {len(over)}")
    for c, d in detail.items():
        print(f"    {c}: {', '.join(d)}")
