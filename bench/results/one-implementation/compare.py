#!/usr/bin/env python3
"""Sets the two builds' ratios to the MPI library's own side by side (run.sh's CSVs): for every
MPI, np, collective and size, the ratio (slowest rank) and mean_ratio (each rank's own time, what
OSU reports) of base and new, each the median of its launches, and new / base. Lists the cells
where new is more than 3% slower than base in both measures. Usage: compare.py DIR"""
import csv
import glob
import os
import statistics
import sys
from collections import defaultdict

d = sys.argv[1]
cells = defaultdict(lambda: defaultdict(list))  # (flavor, np, coll, bytes) -> label -> rows
for path in sorted(glob.glob(os.path.join(d, '*.csv'))):
    name = os.path.basename(path)[:-4]          # openmpi-np2-all-base-1
    flavor, np, _group, label, _launch = name.split('-')
    for row in csv.DictReader(open(path)):
        if row.get('ok') != '1':
            continue
        cells[(flavor, np, row['collective'], int(row['bytes']))][label].append(row)

worse = []
print('%-8s %-4s %-10s %8s | %7s %7s %6s | %7s %7s %6s' % ('mpi', 'np', 'collective', 'bytes', 'base', 'new',
                                                         'change', 'base_m', 'new_m', 'change'))
for key in sorted(cells):
    by = cells[key]
    if 'base' not in by or 'new' not in by:
        continue
    def mean(label, col):
        return statistics.median(float(r[col]) for r in by[label])
    b, n = mean('base', 'ratio'), mean('new', 'ratio')
    bm, nm = mean('base', 'mean_ratio'), mean('new', 'mean_ratio')
    c, cm = n / b - 1, nm / bm - 1
    print('%-8s %-4s %-10s %8d | %7.3f %7.3f %+5.1f%% | %7.3f %7.3f %+5.1f%%' % (key + (b, n, 100 * c, bm, nm, 100 * cm)))
    if c > 0.03 and cm > 0.03:
        worse.append('%s %s %s %d: %+.1f%% / %+.1f%%' % (key + (100 * c, 100 * cm)))
print('\nnew more than 3%% slower than base in both measures: %d cells' % len(worse))
for w in worse:
    print('  ' + w)
