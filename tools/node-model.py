#!/usr/bin/env python3
"""The node's cost model: what each of mcorecoll's collectives costs inside one node at 16 to 128
ranks, against the MPI library's own, from the np 16 measurements of the lent 16-core machine
and the shapes of the algorithms. See doc/node-model.md for the formulas, the figures and what
is measured and what predicted.

  tools/node-model.py [--out DIR]   writes DIR/predicted.csv (node, MPI, collective[:path],
                                    ranks, size: both times, their ratio and the measure),
                                    DIR/rows.txt (the decision rows this predicts), DIR/at128.txt
                                    (every collective's row at 128 ranks and its ratios) and,
                                    with gnuplot, DIR/ratio.png and DIR/others-128.png

Measured (np 16 bound, both MPIs): bench/results/np16-device/6-defaults for the reductions and
scans (the MPI library's own times at every size, mcorecoll's at the sizes that calibrate its
paths), bench/results/np16-device/tune for the other collectives (every path forced at every
size, both measures). Assumed: the latency of a read across L3 groups and across sockets, as
multiples of a read inside one L3, and log2 n rounds for the MPI library.
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


# The other collectives: bcast, barrier, the gathers, scatters, all-to-alls and reduce-scatters.
# Calibrated on mcorecoll-tune's np 16 run (every path forced against PMPI_X at every size, both
# measures), scaled by each algorithm's shape: its hand-offs on the most burdened rank, each at
# its distance, and the bytes that rank moves.
TUNE = os.path.join(HERE, "..", "bench", "results", "np16-device", "tune")
TUNE_FILES = {"shm": ("np16-shm", "np16-node-only", "np16-reductions"), "cma": ("np16-cma",)}
OTHERS = ("bcast", "barrier", "allgather", "allgatherv", "gather", "gatherv", "scatter", "scatterv",
          "alltoall", "alltoallv", "reduce_scatter_block", "reduce_scatter")
# Per-rank bytes that grow with n: every block of the n - 1 others (gathers, all-to-alls), or the
# root's n - 1 tiles (scatters). The bcast, barrier and reduce-scatters (the whole vector: a rank
# reads its block of each other rank's, about the vector) do not. The reduce-scatters above a
# line read each other rank's block (flat); the np 16 run timed them when they went through the
# staged allreduce and read twice the vector: calibrated on it, their prediction is cautious.
GROWS_WITH_N = ("allgather", "allgatherv", "gather", "gatherv", "scatter", "scatterv", "alltoall", "alltoallv")
O_FIXED = 0.4  # a call's fixed part (assumed, as for the reductions)


def read_tune(mpi):
    """{(collective, path): {bytes: (mcorecoll slowest, PMPI slowest, mcorecoll mean, PMPI mean)}}."""
    out = {}
    for path, files in TUNE_FILES.items():
        for name in files:
            with open(os.path.join(TUNE, mpi, name + ".csv")) as f:
                for row in csv.DictReader(f):
                    times = tuple(float(row[k]) for k in ("mcorecoll_us", "pmpi_us", "mcorecoll_mean_us", "pmpi_mean_us"))
                    out.setdefault((row["collective"], path), {})[int(row["bytes"])] = times
    return out


def levels(node, n):
    """The node's levels that split n compactly placed ranks (topology/hierarchy.cpp): the
    leader of each rank's socket, then of its L3 group, coarsest first."""
    _, l3, socket, _, _ = node
    out = []
    if n > socket:
        out.append([r // socket * socket for r in range(n)])
    if l3 < min(n, socket):
        out.append([r // l3 * l3 for r in range(n)])
    return out


def barrier_tree(node, n):
    """Parent of each rank in the barrier's tree with the default fan-in (every group flat
    under its leader, topology/hierarchy.cpp's build_tree with radix 0)."""
    lv = levels(node, n)
    parent = [-1] * n
    for l in range(-1, len(lv)):
        groups = {}
        for i in range(n):
            leads_below = l + 1 >= len(lv) or lv[l + 1][i] == i
            if leads_below:
                groups.setdefault(0 if l < 0 else lv[l][i], []).append(i)
        for members in groups.values():
            for m in members[1:]:
                parent[m] = members[0]
    return parent


def barrier_path(node, n):
    """The barrier's longest chain in read units: each parent reads its children's arrivals in
    turn, then each child reads its parent's release (the counted build's replay rule)."""
    parent = barrier_tree(node, n)
    children = [[c for c in range(n) if parent[c] == p] for p in range(n)]
    arrived = [0.0] * n
    for r in sorted(range(n), key=lambda r: -depth(parent, r)):
        t = 0.0
        for c in children[r]:
            t = max(t, arrived[c]) + distance(node, r, c)
        arrived[r] = t
    released, longest = [0.0] * n, 0.0
    for r in sorted(range(n), key=lambda r: depth(parent, r)):
        released[r] = arrived[0] if r == 0 else max(released[parent[r]], arrived[r]) + distance(node, r, parent[r])
        longest = max(longest, released[r])
    return longest


def depth(parent, r):
    d = 0
    while parent[r] >= 0:
        r, d = parent[r], d + 1
    return d


ALLGATHER_FLAT_MAX = 16  # MCORECOLL_ALLGATHER_FLAT_MAX


def group_size(n, m):
    """node/line_tree.hpp's LineGroups::of: the largest power of two at most sqrt(n) whose
    blocks fit one line."""
    g = 1
    while 4 * g * g <= n and 2 * g * m <= LINE_DATA:
        g *= 2
    return g


def grouped_reads(node, n, g):
    """The allgather by groups' longest chain in read units: each leader reads its members'
    lines, posts its group's, then every rank reads each group's line (its own leader's too,
    unless it leads), each read ending one read after the later of the reader's clock and the
    post (the counted build's replay rule)."""
    leaders = list(range(0, n, g))
    posted = {L: sum(distance(node, L, j) for j in range(L + 1, min(L + g, n))) for L in leaders}
    longest = 0.0
    for r in range(n):
        mine = r - r % g
        t = posted[mine] if mine == r else 0.0
        k = leaders.index(mine)
        for i in range(1, len(leaders) + 1):
            L = leaders[(k + i) % len(leaders)]
            if L == r:
                continue
            t = max(t, posted[L]) + distance(node, r, L)
        longest = max(longest, t)
    return longest


def handoffs(node, coll, n, m=1):
    """Hand-offs on the most burdened rank of a call of m bytes, in read units (one read inside
    an L3 is 1): what its fixed part, less the call's own, grows by."""
    if coll == "allgather" and m <= LINE_DATA and n > ALLGATHER_FLAT_MAX and group_size(n, m) > 1:
        return grouped_reads(node, n, group_size(n, m))
    if coll == "barrier":
        return barrier_path(node, n)
    if coll == "bcast":  # the ring's one chunk, relayed by each coarsest group's leader
        lv = levels(node, n)
        if not lv:
            return max(distance(node, 0, j) for j in range(1, n))
        lead = lv[0]
        return max(distance(node, 0, lead[j]) + (distance(node, lead[j], j) if lead[j] != j else 0)
                   for j in range(1, n))
    if coll.startswith("reduce_scatter") and m <= LINE_DATA:  # the small allreduce's records
        return flat_reads(node, n, n - 1) if n <= FLAT_MAX else tree_reads(node, n, True)
    # The exchange: the root (gathers), or every rank (allgathers, all-to-alls), reads each other
    # rank's line or tile; a scatter's root waits for each reader's "done" before its next call.
    return max(flat_reads(node, n, r) for r in (0, n - 1))


def other_us(node, times, coll, n, m, measure):
    """mcorecoll's and the MPI library's times of `coll` at n ranks and m bytes, from one path's
    np 16 times (times: {bytes: tuple}; measure 0 the slowest rank, 1 the mean). Both split at
    the smallest size: its time is the sync part, the rest the data part. mcorecoll's sync part
    grows with its hand-offs (over the np 16 machine's, one L3), the MPI library's with log2 n
    rounds (a quarter of its np 16 time a round beyond 16); the data part of either with the
    bytes a rank moves."""
    ours16, theirs16 = {b: t[2 * measure] for b, t in times.items()}, {b: t[2 * measure + 1] for b, t in times.items()}
    small = min(times)
    grow = (n - 1) / 15 if coll in GROWS_WITH_N else 1.0
    flat16 = ("epyc-like", 64, 64, 1.0, 1.0)  # the np 16 machine: one L3, one socket
    s = ours16[small]
    fixed = min(O_FIXED, s / 2)  # a bcast of 1 B took 0.35 us at np 16: at most half of it
    ours = fixed + (s - fixed) * handoffs(node, coll, n, m) / handoffs(flat16, coll, 16, m) + \
        max(interpolate(ours16, m) - s, 0.0) * grow
    t = theirs16[small]
    theirs = t * (1 + (math.log2(n) - 4) / 4) + max(interpolate(theirs16, m) - t, 0.0) * grow
    return ours, theirs


def other_rows(mpi, rows, row_lines, shipped):
    """Predicted rows of the other collectives at 32-128 ranks: at each measured size the path
    (shm or cma, as measured at np 16) whose worst predicted ratio over both node shapes and both
    measures is lowest, where that ratio is at most MARGIN; the MPI library's elsewhere."""
    tune = read_tune(mpi)
    chosen = {}
    for coll in OTHERS:
        # The barrier has one path, timed in each file of the run: the first's.
        paths = ["shm"] if coll == "barrier" else [p for p in ("shm", "cma") if (coll, p) in tune]
        sizes = sorted(tune[(coll, "shm")])
        for n in (16, 32, 64, 128):
            bands = []
            for m in sizes:
                best, best_ratio = "pmpi", None
                for p in paths:
                    if m not in tune[(coll, p)]:
                        continue
                    worst = 0.0
                    for node in NODES:
                        for measure in (0, 1):
                            ours, theirs = other_us(node, tune[(coll, p)], coll, n, m, measure)
                            worst = max(worst, ours / theirs)
                            rows.append([node[0], mpi, coll if p == "shm" else f"{coll}:{p}", n, m,
                                         f"{ours:.3f}", f"{theirs:.3f}", f"{ours / theirs:.3f}",
                                         ("slowest", "mean")[measure]])
                    if best_ratio is None or worst < best_ratio:
                        best_ratio, best_path = worst, p
                if best_ratio is not None and best_ratio <= MARGIN:
                    best = best_path
                bands.append((m, best, best_ratio))
            chosen[(coll, n)] = bands
            if n > 16:
                shipped[(mpi, coll, n)] = paths_text(bands)
                row_lines.append(f"{mpi} {coll} np{n} both: {named(coll, shipped[(mpi, coll, n)])}")
    return chosen


def named(coll, text):
    """A row as the library names its paths: bcast's shared-memory algorithm is the ring,
    alltoall's the staged exchange ("shm" still reads as them)."""
    name = {"bcast": "ring", "alltoall": "staged"}.get(coll)
    return " ".join(name + band[3:] if name and band.startswith("shm:") else band for band in text.split())


def paths_text(bands):
    """Bands in decision-table syntax, for rows of several paths: path:bound ... pmpi."""
    text = []
    for m, path, _ in bands:
        if text and text[-1][0] == path:
            text[-1][1] = m
        else:
            text.append([path, m])
    out = [f"{p}:{m}" for p, m in text]
    if text and text[-1][0] == "pmpi":
        out[-1] = "pmpi"
    else:
        out.append("pmpi")
    return " ".join(out)


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
    shipped = {}  # (mpi, coll, n) -> the row shipped for n > 16, in decision-table syntax
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
                        rows.append([node[0], mpi, coll, n, m, f"{ours:.3f}", f"{theirs:.3f}", f"{ours / theirs:.3f}", "slowest"])
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
                    rows.append([node[0], "mpich", coll, n, m, f"{ours:.3f}", f"{theirs:.3f}", f"{ours / theirs:.3f}", "slowest"])
                    wins.append(ours < MARGIN * theirs)
                row_lines.append(f"mpich {coll} np{n} {node[0]}: {row_text(sizes_scan, wins)}")
                _, before = both.get(("mpich", coll, n), (sizes_scan, [True] * len(sizes_scan)))
                both[("mpich", coll, n)] = (sizes_scan, [w and x for w, x in zip(wins, before)])
    for mpi in ("openmpi", "mpich"):
        other_rows(mpi, rows, row_lines, shipped)
    row_lines.append("# The rows shipped for 32, 64 and 128 ranks (src/decisions/rows/<mpi>.txt): a win on both;")
    row_lines.append("# the scans no larger than MPICH's measured np 16 rows take (SCAN_CAP)")
    for (mpi, coll, n), (sizes, wins) in sorted(both.items()):
        if coll in SCAN_CAP:
            wins = [w and m <= SCAN_CAP[coll] for m, w in zip(sizes, wins)]
        if n > 16:
            shipped[(mpi, coll, n)] = row_text(sizes, wins)
            row_lines.append(f"{mpi} {coll} np{n} both: {shipped[(mpi, coll, n)]}")
    with open(os.path.join(args.out, "predicted.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["node", "mpi", "collective", "ranks", "bytes", "mcorecoll_us", "pmpi_us", "ratio", "measure"])
        w.writerows(rows)
    with open(os.path.join(args.out, "rows.txt"), "w") as f:
        f.write(f"# Bands where mcorecoll is predicted at most {MARGIN}x of the MPI library's own (tools/node-model.py)\n")
        f.write("\n".join(row_lines) + "\n")
    with open(os.path.join(args.out, "at128.txt"), "w") as f:
        f.write(at128(rows, shipped))
    if shutil.which("gnuplot"):
        plot(args.out, rows)


def row_path(text, m):
    """The path a row in decision-table syntax takes for m bytes."""
    for band in text.split():
        path, _, bound = band.partition(":")
        if not bound or m <= int(bound):
            return path
    return "pmpi"


def at128(rows, shipped):
    """Per MPI and collective at 128 ranks: where the shipped row takes mcorecoll's path, its
    predicted ratio to the MPI library's own (the worse node shape and measure), and where it
    leaves the call to the MPI library, what mcorecoll's own path would have been."""
    out = ["# 128 ranks: the shipped rows' paths and their predicted ratios (mcorecoll / the MPI "
           "library's own, the worse of the two node shapes and, where modelled, of the two measures)"]
    for (mpi, coll, n), text in sorted(shipped.items()):
        if n != 128:
            continue
        worst = {}  # (path, bytes) -> worst ratio over the node shapes
        for node, r_mpi, r_coll, ranks, m, _, _, ratio, _ in rows:
            name, _, path = r_coll.partition(":")
            if r_mpi != mpi or name != coll or ranks != 128:
                continue
            key = (path or "shm", m)
            worst[key] = max(worst.get(key, 0.0), float(ratio))
        taken, left = [], []
        for (path, m), ratio in sorted(worst.items(), key=lambda kv: kv[0][1]):
            chosen = row_path(text, m)
            if chosen == path:
                taken.append((m, path, ratio))
            elif chosen == "pmpi" and path == "shm":
                left.append((m, ratio))
        line = f"{mpi} {coll}: row '{text}'"
        for path in ("shm", "cma"):
            mine = [(m, r) for m, p, r in taken if p == path]
            if mine:
                line += f"; {path} at {len(mine)} sizes {mine[0][0]}-{mine[-1][0]} B: {min(r for _, r in mine):.2f}-{max(r for _, r in mine):.2f}x"
        if left:
            line += f"; the MPI library's at {len(left)} sizes (shm would be {min(r for _, r in left):.2f}-{max(r for _, r in left):.2f}x)"
        elif not taken:
            line += "; the MPI library's at every size (not modelled: as measured at np 16)"
        out.append(line)
    for mpi in ("mpich", "openmpi"):
        for coll in ("scan", "exscan"):
            if (mpi, coll, 128) not in shipped:
                out.append(f"{mpi} {coll}: no predicted row (not modelled): the np 16 row, measured, serves: the MPI "
                           "library's at every size")
    return "\n".join([out[0]] + sorted(out[1:])) + "\n"


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
    # The other collectives at 128 ranks, mcorecoll's shared-memory path (slowest rank).
    colls = ("bcast", "allgather", "gather", "scatter", "alltoall", "reduce_scatter")
    with open(data, "w") as f:
        for coll in colls:
            for r in rows:
                if r[0] == "epyc-like" and r[1] == "openmpi" and r[2] == coll and r[3] == 128 and r[8] == "slowest":
                    f.write(f"{r[4]} {r[7]}\n")
            f.write("\n\n")
    titles = " ".join(colls)
    script = f"""set terminal pngcairo size 900,480 noenhanced
set output '{os.path.join(out, "others-128.png")}'
set logscale x 2
set logscale y 2
set xlabel 'bytes'
set ylabel 'mcorecoll / Open MPI (predicted)'
set xtics ("1 B" 1, "32 B" 32, "1 KiB" 1024, "32 KiB" 32768, "1 MiB" 1048576)
set title "128 ranks, EPYC-like node, predicted: mcorecoll's shared-memory paths over Open MPI's own\\n(slowest rank; the shipped rows give the sizes above 0.8, dashed, to Open MPI)"
set key outside right
titles = "{titles}"
plot 1 notitle lc rgb 'gray', 0.8 notitle lc rgb 'gray' dt 2, for [i=0:{len(colls) - 1}] '{data}' index i with linespoints title word(titles, i + 1)
"""
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
    os.remove(data)


if __name__ == "__main__":
    main()
