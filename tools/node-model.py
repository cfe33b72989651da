#!/usr/bin/env python3
"""The node's cost model: what mcorecoll's allreduce and reduce inside one node cost at 16 to 128
ranks, against the MPI library's own, from the np 16 measurements of the lent 16-core machine
and the shapes of the algorithms. See doc/node-model.md for the formulas, the figures and what
is measured and what predicted.

  tools/node-model.py [--out DIR]   writes DIR/predicted.csv (node, MPI, collective, ranks, size:
                                    both times and their ratio), DIR/rows.txt (the decision
                                    rows this predicts) and, with gnuplot, DIR/ratio.png

Measured (bench/results/np16-device/6-defaults, np 16 bound, both MPIs): the MPI library's own
times at every size, and mcorecoll's at the sizes that calibrate its three paths. Assumed: the
latency of a read across L3 groups and across sockets, as multiples of a read inside one L3.
"""
import argparse
import csv
import math
import os
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
MEASURED = os.path.join(HERE, "..", "bench", "results", "np16-device", "6-defaults")

LINE_DATA = 248        # bytes of image a record line holds (node/record_lines.hpp)
FLAT_MAX = 16          # MCORECOLL_REDUCE_FLAT_MAX
RADIX = 4              # MCORECOLL_REDUCE_TREE_RADIX
SLICE_MIN_FLAT = 2048  # a slice's least bytes up to FLAT_MAX ranks (reduce_shm.hpp), then:
SLICE_MIN_TREE = 128
# A predicted row takes mcorecoll's path only where the model has it at most this fraction of
# the MPI library's time: a margin for what the model leaves out.
MARGIN = 0.8

# The largest scans the shipped rows give shared memory at 32-128 ranks: those MPICH's np 16
# rows take, measured with the flat scan before the tree. The model leaves out the node's
# memory bandwidth, shared by every rank of a large call.
SCAN_CAP = {"scan": 131072, "exscan": 16384}

# Nodes of 2 sockets with compact binding (rank r on core r): (name, cores per L3 group, cores
# per socket, read latency across L3 groups and across sockets as multiples of one inside an L3).
# Assumed from the published shape of such parts, not measured here.
NODES = [
    ("epyc-like", 8, 64, 2.0, 3.5),    # 8-core CCDs sharing an L3, 64 cores a socket
    ("xeon-like", 64, 64, 1.0, 2.5),   # one L3 (mesh) per socket of 64 cores
]


def read_measured(mpi, group="reductions"):
    """{(collective, bytes): (mcorecoll us, the MPI library's us)} of the np 16 run's group
    (reductions, node-only)."""
    out = {}
    with open(os.path.join(MEASURED, f"{mpi}-np16-{group}.csv")) as f:
        for row in csv.DictReader(f):
            out[(row["collective"], int(row["bytes"]))] = (float(row["mcorecoll_us"]), float(row["pmpi_us"]))
    return out


def distance(node, a, b):
    _, l3, socket, cross_l3, cross_socket = node
    if a // socket != b // socket:
        return cross_socket
    return 1.0 if a // l3 == b // l3 else cross_l3


def flat_reads(node, n, reader):
    """Record reads of a rank that folds every other rank's record, in read units."""
    return sum(distance(node, reader, j) for j in range(n) if j != reader)


def tree_reads(node, n, allreduce):
    """Record reads on the critical path of the tree (node rank 0's folds, then one read of its
    result by the farthest other rank for allreduce), in read units."""
    total, span = 0.0, 1
    while span < n:
        children = [j * span for j in range(1, RADIX) if j * span < n]
        # The leader waits for the last of its children: the level's reads, each at its distance.
        total += sum(distance(node, 0, c) for c in children)
        span *= RADIX
    if allreduce:
        total += max(distance(node, 0, j) for j in range(1, n))
    return total


def mcorecoll_us(node, cal, coll, n, m):
    """Predicted time of mcorecoll's path for `m` bytes at n ranks (defaults)."""
    allreduce = coll == "allreduce"
    if m <= LINE_DATA:
        if n <= FLAT_MAX:
            return cal["o_line"] + cal["read"] * flat_reads(node, n, n - 1)
        return cal["o_line"] + cal["read"] * tree_reads(node, n, allreduce)
    slice_min = SLICE_MIN_FLAT if n <= FLAT_MAX else SLICE_MIN_TREE
    if m >= n * slice_min:  # reduce-scatter by slices, then gather: 2 m read per rank, any n
        return cal["slices"](m)
    return cal["o_whole"] + n * m / cal["bw_whole"]  # the result's rank(s) fold n images


def interpolate(points, m):
    """Log-log between measured sizes (points: {bytes: us})."""
    sizes = sorted(points)
    if m in points:
        return points[m]
    lo = max(x for x in sizes if x < m)
    hi = min(x for x in sizes if x > m)
    f = math.log(m / lo) / math.log(hi / lo)
    return math.exp(math.log(points[lo]) + f * (math.log(points[hi]) - math.log(points[lo])))


def pmpi_us(measured, coll, n, m):
    """The MPI library's own at n ranks from its np 16 time: log2(n) rounds of latency, a
    quarter of its 1-byte time each at np 16, added to the np 16 time for the rounds beyond 4."""
    t16 = interpolate({b: t[1] for (c, b), t in measured.items() if c == coll}, m)
    per_round = measured[(coll, 1)][1] / 4
    return t16 + (math.log2(n) - 4) * per_round


def calibrate(measured, coll):
    """mcorecoll's figures from its own np 16 times (one L3: every read at distance 1)."""
    line = measured[(coll, 1)][0]
    o_line = 0.4  # the call's fixed part, taken as one hand-off and the entry (assumed)
    read = (line - o_line) / 15
    # Folding whole: 256 B and 1 KiB at 16 ranks (16 images each).
    t256, t1k = measured[(coll, 256)][0], measured[(coll, 1024)][0]
    bw_whole = 16 * (1024 - 256) / (t1k - t256)
    o_whole = t256 - 16 * 256 / bw_whole
    # Slices read 2 m a rank whatever n: their np 16 times from 64 KiB (where np 16 sliced),
    # below it that of 64 KiB scaled by size over a fixed 2.5 us (assumed).
    sliced = {b: t[0] for (c, b), t in measured.items() if c == coll and b >= 65536}
    t64k = sliced[65536]

    def slices(m):
        return interpolate(sliced, m) if m >= 65536 else 2.5 + (t64k - 2.5) * m / 65536
    return {"o_line": o_line, "read": read, "bw_whole": bw_whole, "o_whole": o_whole, "slices": slices}


def scan_line_reads(node, n):
    """Record reads on the longest chain of the small scans' tree (reduction/scan_lines.hpp):
    rank i reads the blocks of i - 1, i - 2, i - 4, ... below low(i + 1), posts its own, then
    the blocks of its prefix; each read ends one read (at its distance) after the later of the
    reader's clock and the block's post. Exscans read the same blocks."""
    def low(j):
        return j & -j
    posted, longest = [0.0] * n, 0.0
    for i in range(n):
        t, d = 0.0, 1
        while d < low(i + 1):
            t = max(t, posted[i - d]) + distance(node, i, i - d)
            d *= 2
        posted[i] = t
        q = i - low(i + 1)
        while q >= 0:
            t = max(t, posted[q]) + distance(node, i, q)
            q -= low(q + 1)
        longest = max(longest, t)
    return longest


def scan_tree_blocks(n):
    """Blocks the most burdened rank reads in the scans' tree: its own block's parts and its
    prefix's blocks, at most 2 log2 n (src/node/line_tree.hpp's PrefixBlocks)."""
    def low(j):
        return j & -j
    most = 0
    for i in range(n):
        parts = max(low(i + 1).bit_length() - 1, 0)
        q, prefix = i - low(i + 1), 0
        while q >= 0:
            prefix += 1
            q -= low(q + 1)
        most = max(most, parts + prefix)
    return most


def scan_us(measured, cal, node, coll, n, m):
    """mcorecoll's scan at n ranks, over the ranks' binary indexed tree. One record line: the
    tree's longest chain of reads, with the allreduce's figures for a line's fixed part and a
    read (the same records). Larger: rounds through the staging areas, in which a rank reads at
    most 2 log2 n blocks. Calibrated on the np 16 times, measured when rank 15 read 15 images:
    the time at 256 B taken as the fixed part (kept whole), the rest as 15 images' reads, of
    which the most burdened rank now reads scan_tree_blocks(n). The MPI library's (MPICH:
    recursive doubling) as log2(n) / 4. Open MPI's scan is left to it at np 16."""
    if m <= LINE_DATA:
        ours = cal["o_line"] + cal["read"] * scan_line_reads(node, n)
    else:
        times = {b: t[0] for (c, b), t in measured.items() if c == coll}
        fixed = times[256]
        ours = fixed + max(interpolate(times, m) - fixed, 0.0) * scan_tree_blocks(n) / 15
    theirs = interpolate({b: t[1] for (c, b), t in measured.items() if c == coll}, m) * math.log2(n) / 4
    return ours, theirs


def row_text(sizes, wins):
    """Bands in decision-table syntax: shm where predicted to win, pmpi elsewhere."""
    bands, last = [], None
    for m, win in zip(sizes, wins):
        path = "shm" if win else "pmpi"
        if bands and bands[-1][1] == path:
            bands[-1][0] = m
        else:
            bands.append([m, path])
    text = []
    for i, (m, path) in enumerate(bands):
        if i == len(bands) - 1 and path == "pmpi":
            text.append("pmpi")
        else:
            text.append(f"{path}:{m}")
    if bands and bands[-1][1] == "shm":
        text.append("pmpi")
    return " ".join(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join(HERE, "..", "doc", "node-model"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    powers = [2 ** k for k in range(23)]  # 1 B to 4 MiB
    rows = []
    row_lines = []
    both = {}  # (mpi, coll, n) -> (sizes, wins on every node shape)
    for mpi in ("openmpi", "mpich"):
        measured = read_measured(mpi)
        for coll in ("allreduce", "reduce"):
            cal = calibrate(measured, coll)
            for node in NODES:
                for n in (16, 32, 64, 128):
                    # The powers of two, and each side of where the paths change: the record
                    # line's end, and where the slices begin at n ranks.
                    slice_min = SLICE_MIN_FLAT if n <= FLAT_MAX else SLICE_MIN_TREE
                    sizes = sorted(set(powers + [LINE_DATA, LINE_DATA + 1, n * slice_min - 1, n * slice_min]))
                    wins = []
                    for m in sizes:
                        ours, theirs = mcorecoll_us(node, cal, coll, n, m), pmpi_us(measured, coll, n, m)
                        rows.append([node[0], mpi, coll, n, m, f"{ours:.3f}", f"{theirs:.3f}", f"{ours / theirs:.3f}"])
                        wins.append(ours < MARGIN * theirs)
                    row_lines.append(f"{mpi} {coll} np{n} {node[0]}: {row_text(sizes, wins)}")
                    _, before = both.get((mpi, coll, n), (sizes, [True] * len(sizes)))
                    both[(mpi, coll, n)] = (sizes, [w and x for w, x in zip(wins, before)])
    # The scans, MPICH (Open MPI's are the MPI library's at np 16: the rows follow it).
    measured = read_measured("mpich", "node-only")
    line_cal = calibrate(read_measured("mpich"), "allreduce")
    # The measured sizes, 1 B to 4 MiB, each side of the record line's end, and the caps.
    sizes_scan = sorted(set([2 ** k for k in range(0, 23, 2)] + [LINE_DATA, LINE_DATA + 1] + list(SCAN_CAP.values())))
    for coll in ("scan", "exscan"):
        for node in NODES:
            for n in (16, 32, 64, 128):
                wins = []
                for m in sizes_scan:
                    ours, theirs = scan_us(measured, line_cal, node, coll, n, m)
                    rows.append([node[0], "mpich", coll, n, m, f"{ours:.3f}", f"{theirs:.3f}", f"{ours / theirs:.3f}"])
                    wins.append(ours < MARGIN * theirs)
                row_lines.append(f"mpich {coll} np{n} {node[0]}: {row_text(sizes_scan, wins)}")
                _, before = both.get(("mpich", coll, n), (sizes_scan, [True] * len(sizes_scan)))
                both[("mpich", coll, n)] = (sizes_scan, [w and x for w, x in zip(wins, before)])
    row_lines.append("# The rows shipped for 32, 64 and 128 ranks (src/decisions/decision_table.cpp): a win on both;")
    row_lines.append("# the scans no larger than MPICH's measured np 16 rows take (SCAN_CAP)")
    for (mpi, coll, n), (sizes, wins) in sorted(both.items()):
        if coll in SCAN_CAP:
            wins = [w and m <= SCAN_CAP[coll] for m, w in zip(sizes, wins)]
        if n > 16:
            row_lines.append(f"{mpi} {coll} np{n} both: {row_text(sizes, wins)}")
    with open(os.path.join(args.out, "predicted.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["node", "mpi", "collective", "ranks", "bytes", "mcorecoll_us", "pmpi_us", "ratio"])
        w.writerows(rows)
    with open(os.path.join(args.out, "rows.txt"), "w") as f:
        f.write(f"# Bands where mcorecoll is predicted at most {MARGIN}x of the MPI library's own (tools/node-model.py)\n")
        f.write("\n".join(row_lines) + "\n")
    if shutil.which("gnuplot"):
        plot(args.out, rows)


def plot(out, rows):
    data = os.path.join(out, "plot.dat")
    with open(data, "w") as f:
        for n in (16, 32, 64, 128):
            for r in rows:
                if r[0] == "epyc-like" and r[1] == "openmpi" and r[2] == "allreduce" and r[3] == n:
                    f.write(f"{r[4]} {r[7]}\n")
            f.write("\n\n")
    script = f"""set terminal pngcairo size 800,480
set output '{os.path.join(out, "ratio.png")}'
set logscale x 2
set logscale y 2
set xlabel 'bytes'
set ylabel 'mcorecoll / Open MPI (predicted)'
set xtics ("1 B" 1, "32 B" 32, "1 KiB" 1024, "32 KiB" 32768, "1 MiB" 1048576)
set title "Allreduce, EPYC-like node: mcorecoll's shared-memory path over Open MPI's own, predicted\\n(below 1: mcorecoll faster; the table gives the sizes above 1 to Open MPI)"
set key top left
plot 1 notitle lc rgb 'gray', for [i=0:3] '{data}' index i with linespoints title sprintf('%d ranks', 16 * 2**i)
"""
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
    os.remove(data)


if __name__ == "__main__":
    main()
