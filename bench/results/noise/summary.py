#!/usr/bin/env python3
"""Summary of a noise run (run.sh): per collective, size and setting, the users' measure (mean
over ranks of each rank's own time per call) over the launches: median, the spread (max/min),
the launches above twice the median, for mcorecoll and for the MPI library's own calls in the
same launches, and the median ratio.
Usage: summary.py OUTDIR"""
import csv, glob, os, re, statistics, sys
from collections import defaultdict

runs = defaultdict(lambda: ([], []))  # (coll, bytes, spin) -> (ours, theirs)
for path in glob.glob(os.path.join(sys.argv[1], "spin*-*-*.csv")):
    spin = re.match(r"spin(\d+)-", os.path.basename(path)).group(1)
    for row in csv.DictReader(open(path)):
        ours, theirs = runs[(row["collective"], int(row["bytes"]), int(spin))]
        ours.append(float(row["mcorecoll_mean_us"]))
        theirs.append(float(row["pmpi_mean_us"]))

def describe(xs):
    med = statistics.median(xs)
    return f"{med:8.3f} {max(xs) / min(xs):7.2f} {sum(x > 2 * med for x in xs):3d}"

print("coll       bytes  spin_us launches | mcorecoll: median us, max/min, above 2x median"
      " | MPI library: the same | median ratio")
for (coll, size, spin), (ours, theirs) in sorted(runs.items()):
    ratio = statistics.median(o / t for o, t in zip(ours, theirs))
    print(f"{coll:9} {size:7d} {spin:7d} {len(ours):8d} | {describe(ours)} | {describe(theirs)} | {ratio:5.2f}")
