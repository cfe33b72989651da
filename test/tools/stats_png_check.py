#!/usr/bin/env python3
"""Checks tools/mcorecoll-stats-png: from three canned statistics lines it must write a PNG
whose bars are long in proportion to each line's time, longest first, grey for pmpi and blue
for mcorecoll's paths; from a job's report (MCORECOLL_REPORT) holding the same three, the same
bars, and below them, per size class learned, the cost of exploring (red) and the time saved
(green), long in proportion to each other (values worked out here by hand).

    stats_png_check.py TOOL WORKDIR
"""
import json
import os
import struct
import subprocess
import sys
import zlib

LINES = """noise before
mcorecoll: stats bcast ring calls=300 bytes=2400 time_us=600.000 mean_us=2.000 max_rank_us=310.000
mcorecoll: stats allreduce pmpi calls=100 bytes=800 time_us=150.000 mean_us=1.500 max_rank_us=80.000
mcorecoll: stats gather_init shm calls=50 bytes=400 time_us=300.000 mean_us=6.000 max_rank_us=160.000
"""
EXPECTED = [(600.0, "blue"), (300.0, "blue"), (150.0, "grey")]  # longest first
# The same three as a report's entries (only the fields the tool reads; the order scrambled).
REPORT = {"format": "mcorecoll-report/1", "collectives": [
    {"form": "allreduce", "path": "pmpi", "calls": 100, "time_us": {"sum": 150.0}},
    {"form": "gather_init", "path": "shm", "calls": 50, "time_us": {"sum": 300.0}},
    {"form": "bcast", "path": "ring", "calls": 300, "time_us": {"sum": 600.0}}],
    "learned": [
        # The other path won: 14 explored, 7 of them on the loser (the row) 1.5 us slower than
        # the learned 0.5 us: 10.5 us; 100 calls after, each 1.5 us faster than the row: 150 us.
        {"collective": "allreduce", "sizes": "256-512", "row": "shm", "other": "pmpi", "path": "pmpi",
         "origin": "learned in this run", "mean_us": [2.0, 0.5], "slowest_us": [2.5, 0.6],
         "calls": {"explored": 14, "after": 100}},
        # The row stood: 7 calls on the other, 3 us slower: 21 us; nothing saved.
        {"collective": "bcast", "sizes": "1K-2K", "row": "ring", "other": "pmpi", "path": "ring",
         "origin": "learned in this run", "mean_us": [1.0, 4.0], "slowest_us": [1.2, 4.4],
         "calls": {"explored": 14, "after": 50}},
        # From the learned file: nothing explored; 40 calls after, 2 us faster than the row: 80 us.
        {"collective": "gather", "sizes": "8-16", "row": "pmpi", "other": "shm", "path": "shm",
         "origin": "learned file", "mean_us": [3.0, 1.0], "slowest_us": [3.5, 1.1],
         "calls": {"explored": 0, "after": 40}},
        # Three candidates, single copy won: 21 explored, 7 a candidate; the row 2 us and PMPI
        # 4 us slower than the learned 1 us: 7 x 6 = 42 us; 10 calls after, 2 us saved each: 20 us.
        {"collective": "bcast", "sizes": "8K-16K", "row": "ring", "other": "pmpi,cma", "path": "cma",
         "origin": "learned in this run", "mean_us": [3.0, 5.0, 1.0], "slowest_us": [3.5, 5.5, 1.2],
         "calls": {"explored": 21, "after": 10}}]}
# Below the time bars, in order: each class's red bar (none where nothing was explored or lost)
# and green bar (none where nothing was saved).
LEARNED = [(10.5, "red"), (150.0, "green"), (21.0, "red"), (80.0, "green"), (42.0, "red"), (20.0, "green")]


def read_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert (depth, colour) == (8, 2), "expected 8-bit RGB"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = 1 + 3 * width
    assert len(raw) == stride * height, "pixel data of the wrong size"
    return [[tuple(raw[y * stride + 1 + 3 * x:y * stride + 4 + 3 * x]) for x in range(width)] for y in range(height)]


def bars_of(png):
    rows = read_png(png)
    colours = {(40, 90, 200): "blue", (150, 150, 150): "grey", (200, 60, 50): "red", (60, 160, 80): "green"}
    # The bars, top to bottom: runs of rows holding bar pixels, each bar's length its widest row.
    bars, current = [], None
    for row in rows:
        found = [colours[p] for p in row if p in colours]
        if found:
            if current is None:
                current = [0, found[0]]
                bars.append(current)
            current[0] = max(current[0], len(found))
        else:
            current = None
    return bars


def main():
    tool, work = sys.argv[1:3]
    os.makedirs(work, exist_ok=True)
    for name, text in (("stats.log", LINES), ("job.json", json.dumps(REPORT))):
        source, png = os.path.join(work, name), os.path.join(work, name + ".png")
        open(source, "w").write(text)
        subprocess.run([sys.executable, tool, source, png], check=True)
        bars = bars_of(png)
        learned = LEARNED if name == "job.json" else []
        expected = EXPECTED + learned
        assert [b[1] for b in bars] == [e[1] for e in expected], f"{name}: bars {bars}, expected colours {expected}"
        for (length, _), (time_us, _) in zip(bars, EXPECTED):
            want = bars[0][0] * time_us / EXPECTED[0][0]
            assert abs(length - want) <= 1, f"{name}: a bar of {length} pixels for {time_us} us, expected {want:.0f}"
        # The learning section has a scale of its own: its longest bar is the full width.
        longest = max(v for v, _ in learned) if learned else 0
        for (length, colour), (value, _) in zip(bars[len(EXPECTED):], learned):
            want = bars[0][0] * value / longest
            assert abs(length - want) <= 1, f"{name}: a {colour} bar of {length} pixels for {value} us, expected {want:.0f}"
        print(f"stats_png_check: {name} passed ({len(bars)} bars: {[b[0] for b in bars]} pixels)")


if __name__ == "__main__":
    main()
