#!/usr/bin/env python3
"""What the hierarchy saves on a cluster: a latency-bandwidth (alpha-beta) model of the flat
algorithms an MPI library runs over all ranks and of mcorecoll's hierarchical ones (the node on
shared memory, only the node leaders on the network), per collective and size, for H hosts of
P ranks each. See doc/cost-model.md for the formulas and where each figure comes from.

  tools/cost-model.py [--out DIR]    writes DIR/predicted.csv (every H, P, collective, size),
                                     DIR/rows.csv (the rows the model predicts: for each network,
                                     H, P and collective, the faster algorithm by size, as bands),
                                     DIR/bed.csv (the bed's 2 x 2, to set against measurements)
                                     and, with gnuplot, DIR/speedup.png

Figures (microseconds, bytes per microsecond):
  the node (measured on the 2-core VM, bench/results/bed/levels.csv): SHM_FLAG, the library's
      hand-off through a cache line; SHM_P2P, the MPI library's message inside a node; SHM_BW,
      one core's copy bandwidth through shared memory;
  the bed's link (measured likewise): TCP between network namespaces over veth;
  an InfiniBand HDR class network (predicted, from published figures): 200 Gb/s, sub-0.6 us
      adapter latency and 215 million messages/s (NVIDIA ConnectX-6 VPI manual), plus a switch
      hop and the MPI library's software, taken as 1.0 us a message and 0.2 us of a rank's time
      per message sent (assumed, not measured).
"""
import argparse
import csv
import math
import os
import shutil
import subprocess

# name: (latency us, one adapter's bandwidth B/us, software cost of sending one message us, the
# adapter's time per message us: its message rate shared by the host's ranks, adapters a host)
# A rank drives one adapter; a host's ranks sending at once spread over all of them.
NETWORKS = {
    # predicted: the adapter's 200 Gb/s, sub-0.6 us and 215 million messages/s (NVIDIA ConnectX-6
    # VPI manual), a switch hop and the MPI library's software taken as 1.0 us a message
    "ib-hdr": (1.0, 24000.0, 0.2, 1 / 215.0, 1),
    # the same with two adapters a host (dual rail, as the cluster of Traff's full-lane
    # collectives): one rank still drives one
    "ib-hdr-2rail": (1.0, 24000.0, 0.2, 1 / 215.0, 2),
}


# A two-socket node's memory bandwidth in all, B/us (assumed: STREAM-class figures of today's
# two-socket servers are 300-700 GB/s; not measured here). Where all P ranks of a host copy at
# once (a ring's read-out, the alltoall's staging, the slices of a node fold), each gets at most
# its share of it, and less than one core's own copy bandwidth once P is large.
NODE_MEMORY_BW = 400000.0


def log2c(x):
    return math.ceil(math.log2(x)) if x > 1 else 0


def spread(share, rails):
    """How many adapters `share` ranks of a host sending at once use."""
    return max(1, min(share, rails))


def allreduce_among(n, m, a, bw, o, g, share, rails=1):
    """The better of recursive doubling and reduce-scatter + allgather (Rabenseifner) over n
    ranks of one level; `share` ranks of a host send at once, over up to `rails` adapters."""
    k = share / spread(share, rails)  # ranks a adapter
    rd = log2c(n) * (a + o + k * (g + m / bw))
    rab = 2 * log2c(n) * (a + o + k * g) + 2 * k * m * (n - 1) / n / bw if n > 1 else 0.0
    return min(rd, rab)


def bcast_among(n, m, a, bw, o, g, share, rails=1):
    """A binomial bcast over n ranks of one level; `share` ranks of a host send at once."""
    k = share / spread(share, rails)
    return log2c(n) * (a + o + k * (g + m / bw))


def reduce_scatter_among(n, m, a, bw, o, g, share, rails=1):
    """Recursive halving over n ranks of one level (the reduce-scatter half of Rabenseifner's
    allreduce): log n rounds, each rank's m (n - 1) / n bytes; `share` ranks of a host at once."""
    k = share / spread(share, rails)
    return log2c(n) * (a + o + k * g) + k * m * (n - 1) / n / bw if n > 1 else 0.0


def flat(coll, m, H, P, node, net):
    """The MPI library's algorithms over all N = H*P ranks, ranks of a host consecutive: the
    rounds between near ranks stay in the host's shared memory, the others cross the network,
    where the host's P ranks share one adapter."""
    flag, p2p, bw_s = node
    a_n, bw_n, o_n, g_n, rails = net
    N = H * P
    k = P / spread(P, rails)  # the host's ranks on one adapter when all of them send
    every = min(bw_s, NODE_MEMORY_BW / P)  # a rank's copy bandwidth while all P copy at once
    if coll == "barrier":  # dissemination
        return log2c(P) * p2p + log2c(H) * (a_n + o_n + k * g_n)
    if coll == "bcast":  # binomial tree from rank 0: one rank per host receives each round
        return log2c(P) * (p2p + m / bw_s) + log2c(H) * (a_n + o_n + g_n + m / bw_n)
    if coll in ("allreduce", "reduce"):  # the near rounds first: by the host rounds a rank holds
        # m/P (Rabenseifner; a reduce's gather to the root costs what the allgather does)
        inside = allreduce_among(P, m, p2p, every, 0.0, 0.0, 1)
        rd = inside + log2c(H) * (a_n + o_n + k * (g_n + m / bw_n))
        rab = inside + allreduce_among(H, m / P, a_n, bw_n, o_n, g_n, P, rails)
        return min(rd, rab)
    if coll == "alltoall":  # pairwise: each rank sends N-P messages off the host, its adapter P*(N-P)
        return (P - 1) * (p2p + m / every) + a_n + (N - P) * o_n + k * (N - P) * (g_n + m / bw_n)
    if coll in ("allgather", "allgatherv"):  # recursive doubling, near rounds first: each rank
        # takes the other hosts' N - P blocks over the host rounds
        return log2c(P) * p2p + (P - 1) * m / every + log2c(H) * (a_n + o_n + k * g_n) + k * (N - P) * m / bw_n
    if coll in ("gather", "scatter"):  # binomial tree at rank 0: the root's rank moves every
        # other host's blocks through its one adapter
        return log2c(P) * p2p + (P - 1) * m / bw_s + log2c(H) * (a_n + o_n + g_n) + (N - P) * m / bw_n
    if coll == "reduce_scatter":  # m: the whole vector; recursive halving, near rounds first: by
        # the host rounds a rank holds m/P, which the network rounds halve among the hosts
        return (reduce_scatter_among(P, m, p2p, every, 0.0, 0.0, 1)
                + reduce_scatter_among(H, m / P, a_n, bw_n, o_n, g_n, P, rails))
    if coll == "scan":  # recursive doubling over N ranks: every round moves the whole vector
        return log2c(P) * (p2p + m / every) + log2c(H) * (a_n + o_n + k * (g_n + m / bw_n))
    raise ValueError(coll)


DIRECT_MAX_HOSTS = 16  # MCORECOLL_LEADERS_DIRECT_MAX_NODES (src/decisions/config.cpp)
GATHER_FOLD_BYTES = 64 * 1024  # src/reduction/reduce_across_nodes.hpp: kGatherFoldBytes


def direct(H, m, a_n, bw_n, o_n, g_n, rails=1):
    """The leaders' direct exchange: every leader posts one message of m bytes to each other at
    once; one latency, and the H - 1 sends' software, adapter and wire time of one leader."""
    return a_n + (H - 1) * (o_n + g_n + m / bw_n)


def hierarchical(coll, m, H, P, node, net):
    """mcorecoll's: the node phase on shared memory (flag hand-offs, one copy in and out),
    the leaders' phase a direct exchange up to 16 hosts (barrier, allreduce up to 64 KiB of
    partials), else the MPI library's algorithm over H ranks, one per host."""
    flag, p2p, bw_s = node
    a_n, bw_n, o_n, g_n, rails = net
    N = H * P
    every = min(bw_s, NODE_MEMORY_BW / P)  # a rank's copy bandwidth while all P copy at once
    tree = max(1, math.ceil(math.log(P, 8))) if P > 1 else 0  # gather-and-release tree of fan-in 8
    if coll == "barrier":
        leaders = direct(H, 0, *net) if H <= DIRECT_MAX_HOSTS else log2c(H) * (a_n + o_n + g_n)
        return 2 * tree * flag + leaders
    if coll == "bcast":  # leaders' binomial tree, then the node's ring (one copy out)
        return log2c(H) * (a_n + o_n + g_n + m / bw_n) + flag + m / every
    if coll in ("allreduce", "reduce", "reduce_scatter"):  # node fold (each rank a slice), the
        # leaders, the node's read-out (the reduce-scatters: the allreduce's composition, each
        # rank keeping its block: no read-out of the whole)
        leaders = (direct(H, m, *net) if H <= DIRECT_MAX_HOSTS and H * m <= GATHER_FOLD_BYTES
                   else allreduce_among(H, m, a_n, bw_n, o_n, g_n, 1))
        read_out = m / N if coll == "reduce_scatter" else m / every
        return 2 * flag + 2 * m / every + leaders + flag + read_out
    if coll == "alltoall":  # node staging in and out, the leaders' pairwise exchange of P*P blocks
        return 2 * (flag + N * m / every) + a_n + (H - 1) * (o_n + g_n + P * P * m / bw_n)
    if coll in ("allgather", "allgatherv"):  # the node's blocks at the leader, the leaders' exchange
        # of P blocks each, everything through the ring; allgatherv places each block once more
        leaders = (direct(H, P * m, *net) if H <= DIRECT_MAX_HOSTS
                   else log2c(H) * (a_n + o_n + g_n) + (H - 1) * P * m / bw_n)
        place = N * m / every if coll == "allgatherv" else 0.0
        return flag + P * m / bw_s + leaders + flag + N * m / every + place
    if coll in ("gather", "scatter"):  # the node's blocks at (from) its leader, the leaders'
        # gatherv (scatterv): one message a host, the root's blocks put in place by rank
        return flag + P * m / bw_s + log2c(H) * (a_n + o_n + g_n) + (H - 1) * P * m / bw_n + N * m / bw_s
    if coll == "scan":  # the node's total at its leader and its scan (the prefix tree: log P
        # reads of the vector on the longest chain), the leaders' exscan of the totals (the MPI
        # library's recursive doubling over H), every rank folding its node's prefix in
        return (2 * flag + m / every + log2c(P) * (flag + m / bw_s)
                + log2c(H) * (a_n + o_n + g_n + m / bw_n) + flag + m / every)
    raise ValueError(coll)


def lanes(coll, m, H, P, node, net):
    """The lanes (src/lanes/): a node phase on shared memory, the MPI library's collective on
    each lane (the ranks of equal node rank across hosts), all P lanes at once over every
    adapter, a node phase. None where the collective has no lanes form.
      allreduce, reduce: a reduce-scatter inside the node (each rank folds its m/P slice of
          every rank's vector), the lane's allreduce (reduce) of that slice, the node's
          allgather (the root's node's);
      reduce_scatter (m: the whole vector): the node's reduce-scatter by lanes, the lane's
          reduce-scatter of its m/P slice, each rank keeping its block (no node allgather);
      bcast: the root's node's ring (every rank there reads m), the lane's bcast of its m/P
          slice, every other node's allgather of the slices (every rank reads m);
      allgather (m: a rank's block): the lane's allgather of one block a host, the node's
          allgather of the H blocks each rank took (every rank reads N m)."""
    flag, p2p, bw_s = node
    a_n, bw_n, o_n, g_n, rails = net
    if P < 2:
        return None
    N = H * P
    every = min(bw_s, NODE_MEMORY_BW / P)
    if coll in ("allreduce", "reduce"):
        return 2 * (flag + m / every) + allreduce_among(H, m / P, a_n, bw_n, o_n, g_n, P, rails)
    if coll == "reduce_scatter":
        return flag + m / every + reduce_scatter_among(H, m / P, a_n, bw_n, o_n, g_n, P, rails)
    if coll == "bcast":
        return 2 * (flag + m / every) + bcast_among(H, m / P, a_n, bw_n, o_n, g_n, P, rails)
    if coll == "allgather":
        k = P / spread(P, rails)
        return log2c(H) * (a_n + o_n + k * g_n) + k * (H - 1) * m / bw_n + flag + N * m / every
    return None


def size_name(m):
    for unit, shift in (("M", 20), ("K", 10)):
        if m >= 1 << shift and m % (1 << shift) == 0:
            return f"{m >> shift}{unit}"
    return str(m)


def predicted_row(coll, H, P, node, net):
    """The faster algorithm at each size from 1 B to 16 MiB (powers of 2), as a row of bands in
    the decision table's form: "leaders:16K lanes:4M pmpi" (pmpi: the MPI library's flat one)."""
    bands = []
    for k in range(25):
        m = 1 << k
        times = {"pmpi": flat(coll, m, H, P, node, net), "leaders": hierarchical(coll, m, H, P, node, net)}
        la = lanes(coll, m, H, P, node, net)
        if la is not None:
            times["lanes"] = la
        best = min(times, key=times.get)
        if bands and bands[-1][0] == best:
            bands[-1][1] = m
        else:
            bands.append([best, m])
    return " ".join(f"{name}:{size_name(upto)}" if i < len(bands) - 1 else name for i, (name, upto) in enumerate(bands))


def read_levels(path):
    """SHM_FLAG, SHM_P2P, SHM_BW and the bed's TCP latency and bandwidth from levels.csv."""
    levels = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            levels[row["figure"]] = float(row["value"])
    node = (levels["shm_flag_us"], levels["shm_p2p_us"], levels["shm_bw_bytes_per_us"])
    # The bed's veth link has no adapter of its own: the kernel's cost is in the software figure.
    bed = (levels["tcp_latency_us"], levels["tcp_bw_bytes_per_us"], levels["tcp_overhead_us"], 0.0, 1)
    return node, bed


COLLECTIVES = {"barrier": [0], "bcast": [8, 65536, 1 << 20, 16 << 20], "allreduce": [8, 65536, 1 << 20, 16 << 20],
               "reduce": [8, 65536, 1 << 20, 16 << 20], "reduce_scatter": [8192, 1 << 20, 16 << 20],
               "alltoall": [8, 1024, 65536], "allgather": [8, 1024, 65536], "allgatherv": [8, 1024, 65536],
               "gather": [8, 1024, 65536], "scatter": [8, 1024, 65536], "scan": [8, 65536, 1 << 20]}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    p = argparse.ArgumentParser()
    p.add_argument("--out", default=os.path.join(here, "..", "doc", "cost-model"))
    p.add_argument("--levels", default=os.path.join(here, "..", "bench", "results", "bed", "levels.csv"))
    a = p.parse_args()
    node, bed = read_levels(a.levels)
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "predicted.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["network", "collective", "bytes", "hosts", "ranks_per_host", "flat_us", "hierarchical_us", "speedup",
                    "lanes_us", "lanes_speedup"])
        for name, net in NETWORKS.items():
            for H in [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]:
                for P in [16, 32, 64, 128]:
                    for coll, sizes in COLLECTIVES.items():
                        for m in sizes:
                            fl = flat(coll, m, H, P, node, net)
                            hi = hierarchical(coll, m, H, P, node, net)
                            la = lanes(coll, m, H, P, node, net)
                            w.writerow([name, coll, m, H, P, f"{fl:.2f}", f"{hi:.2f}", f"{fl / hi:.2f}",
                                        "" if la is None else f"{la:.2f}", "" if la is None else f"{fl / la:.2f}"])
    with open(os.path.join(a.out, "rows.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["network", "hosts", "ranks_per_host", "collective", "predicted_row"])
        for name, net in NETWORKS.items():
            for H in [2, 4, 16, 64, 256]:
                for P in [32, 64, 128]:
                    for coll in COLLECTIVES:
                        if coll != "barrier":
                            w.writerow([name, H, P, coll, predicted_row(coll, H, P, node, net)])
    with open(os.path.join(a.out, "bed.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["network", "collective", "bytes", "hosts", "ranks_per_host", "flat_us", "hierarchical_us", "predicted_ratio"])
        for coll, sizes in COLLECTIVES.items():
            for m in sizes:
                fl = flat(coll, m, 2, 2, node, bed)
                hi = hierarchical(coll, m, 2, 2, node, bed)
                w.writerow(["bed-tcp", coll, m, 2, 2, f"{fl:.2f}", f"{hi:.2f}", f"{hi / fl:.2f}"])
    if shutil.which("gnuplot"):
        plot(a.out)


def plot(out):
    """Predicted speedup against the number of hosts, 64 ranks a host, one line per case."""
    cases = [("barrier", 0), ("bcast", 65536), ("allreduce", 8), ("allreduce", 65536), ("allreduce", 1 << 20),
             ("alltoall", 8), ("alltoall", 65536)]
    data = os.path.join(out, "speedup.dat")
    with open(os.path.join(out, "predicted.csv")) as f:
        rows = [r for r in csv.DictReader(f) if r["ranks_per_host"] == "64" and r["network"] == "ib-hdr"]
    with open(data, "w") as f:
        for coll, m in cases:
            f.write(f'"{coll} {m} B"\n')
            for r in rows:
                if r["collective"] == coll and int(r["bytes"]) == m:
                    f.write(f'{r["hosts"]} {r["speedup"]}\n')
            f.write("\n\n")
    script = f"""set terminal pngcairo size 900,540 font ",11"
set output "{os.path.join(out, 'speedup.png')}"
set title "Predicted: flat time / hierarchical time, 64 ranks a host, InfiniBand HDR class (model)"
set logscale x 2
set logscale y 2
set xlabel "hosts"
set ylabel "speedup (above 1: the hierarchy wins)"
set key outside right
set grid
plot for [i=0:{len(cases) - 1}] "{data}" index i using 1:2 with linespoints title columnheader(1)
"""
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
    os.remove(data)


if __name__ == "__main__":
    main()
