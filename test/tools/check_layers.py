#!/usr/bin/env python3
"""The folders of src/ form layers: a file includes its own folder and the folders of lower
layers only, and never a folder of its own layer (the collective families do not include each
other). The order is the one src/README.md declares, in its block that starts with "layers:",
bottom first, peers of one layer on one line.

Includes that break the order and are known (the work left of issue #40) are listed in
src/layer-exceptions.txt, one "from/file -> folder/file" a line with why; the check fails on an
include that breaks the order and is not listed, and on a listed one that no longer occurs (so
that the list only shrinks). It also says the folder cycles that remain.

Usage: check_layers.py SOURCE_ROOT [--expect-violations-for-test FIXTURE_DIR]
FIXTURE_DIR: a small tree like src/ with a README.md of its own whose includes break the order
in known ways: every one must be found, or the check itself is broken."""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/([^"]+)"', re.M)


def read_layers(readme):
    """The declared order: {folder: layer index}, from the ```-fenced block starting 'layers:'."""
    text = open(readme).read()
    m = re.search(r"```\s*\nlayers:[^\n]*\n(.*?)```", text, re.S)
    if not m:
        sys.exit(f"{readme}: no ```-fenced block starting with 'layers:'")
    layers = {}
    for index, line in enumerate(l for l in m.group(1).splitlines() if l.strip()):
        names = line.split("#", 1)[0].split()
        for name in names:
            layers[name.rstrip("/")] = index
    return layers


def includes(src):
    """(from 'folder/file', to 'folder/file') for every include of a folder of src/."""
    out = []
    for folder in sorted(os.listdir(src)):
        path = os.path.join(src, folder)
        if not os.path.isdir(path):
            continue
        for name in sorted(os.listdir(path)):
            if not name.endswith((".cpp", ".hpp", ".h", ".c")):
                continue
            for m in INCLUDE.finditer(open(os.path.join(path, name)).read()):
                out.append((f"{folder}/{name}", f"{m.group(1)}/{m.group(2)}"))
    return out


def violations(src, layers):
    found, unknown = [], set()
    for source, target in includes(src):
        a, b = source.split("/")[0], target.split("/")[0]
        if a == b or b not in layers and not os.path.isdir(os.path.join(src, b)):
            continue  # its own folder, or not a folder of src/ (generated headers)
        for folder in (a, b):
            if folder not in layers:
                unknown.add(folder)
        if a in layers and b in layers and layers[b] >= layers[a]:
            found.append(f"{source} -> {target}")
    return found, unknown


def cycles(edges):
    """The folder cycles (each as a list of folders), by strongly connected components."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def check(root, exceptions_path):
    src = os.path.join(root, "src")
    layers = read_layers(os.path.join(src, "README.md"))
    found, unknown = violations(src, layers)
    listed = {}
    if os.path.exists(exceptions_path):
        for number, line in enumerate(open(exceptions_path), 1):
            entry = line.split("#", 1)[0].strip()
            if entry:
                listed[" ".join(entry.split())] = number
    problems = [f"src/{f}: includes a folder of its own layer or above (src/README.md, layers), "
                f"and src/layer-exceptions.txt does not list it" for f in found if f not in listed]
    problems += [f"{exceptions_path}:{n}: '{e}' no longer occurs: take it off the list"
                 for e, n in listed.items() if e not in found]
    problems += [f"src/{u}/: a folder the layers of src/README.md do not name" for u in sorted(unknown)]
    edges = {}
    for source, target in includes(src):
        a, b = source.split("/")[0], target.split("/")[0]
        if a != b and os.path.isdir(os.path.join(src, b)):
            edges.setdefault(a, set()).add(b)
    return problems, found, cycles(edges)


def main():
    if len(sys.argv) not in (2, 4) or (len(sys.argv) == 4 and sys.argv[2] != "--expect-violations-for-test"):
        sys.exit(__doc__)
    root = sys.argv[1]
    if len(sys.argv) == 4:
        # The fixture: every include it marks "breaks" must be found, and nothing else.
        fixture = sys.argv[3]
        layers = read_layers(os.path.join(fixture, "src", "README.md"))
        found, _ = violations(os.path.join(fixture, "src"), layers)
        expected = sorted(l.strip() for l in open(os.path.join(fixture, "expected.txt")) if l.strip())
        if sorted(found) != expected:
            print(f"check_layers: the fixture's violations were {sorted(found)}, not {expected}")
            return 1
    problems, found, folder_cycles = check(root, os.path.join(root, "src", "layer-exceptions.txt"))
    for p in problems:
        print(p)
    print(f"check_layers: {len(found)} includes against the layers, all listed as known"
          if not problems else f"check_layers: {len(problems)} problems")
    for c in folder_cycles:
        print("check_layers: folder cycle (through the listed exceptions): " + " ".join(c))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
