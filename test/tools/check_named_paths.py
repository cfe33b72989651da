#!/usr/bin/env python3
"""Every path that the docs and the sources name exists: the repository paths written out
(src/..., doc/..., bench/..., test/..., tools/..., wrappers/..., include/...), the links of the
Markdown files, and the file names written alone (bcast_shm.cpp), which must name some file
of the repository. A doc that points at a file since renamed or removed fails here.

Usage: check_named_paths.py SOURCE_ROOT [--expect-missing-for-test FIXTURE]
Prints each missing path with where it is named; exit status 1 when any is missing. FIXTURE: a
file of names that do not exist, one kind a line after its two first lines, left out of the
scan and checked on its own: every one must be found, or the check itself is broken."""
import os
import re
import sys

ROOTS = ("src", "doc", "bench", "test", "tools", "wrappers", "include", ".ci")
# Where names are read: the docs, and the comments and strings of the sources.
READ = ("README.md", "doc", "src", "include", "wrappers", "tools", "bench", "test", "meson.build", ".ci")
READ_SUFFIXES = (".md", ".cpp", ".hpp", ".h", ".c", ".py", ".sh", ".build", ".txt", ".in", ".cu")
SKIP_DIRS = {".git", "__pycache__"}
# A path written out: a known top folder, then path characters.
WRITTEN = re.compile(r"(?<![\w./-])((?:%s)/[\w./<>*{}-]*[\w/*>}])" % "|".join(re.escape(r) for r in ROOTS))
# A file name alone (no folder before it); not .h, which is mostly the system's.
ALONE = re.compile(r"(?<![\w./<-])([A-Za-z][\w-]*\.(?:cpp|hpp|c|cu|py|md))(?![\w.])")
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")
# Written as patterns or for other trees: not paths of this repository.
PATTERN = re.compile(r"[<>*{}]|\.\.\.|XXX")
# File names of other projects (the MPI libraries' sources), and the files the build generates
# (wrappers/generate_bindings.py, test/gpu/generate_emulated_mpi.py, src/decisions/embed_rows.py).
FOREIGN = {"coll_xhc.c", "osu_util.c", "osu_util_mpi.c", "mpir_localproc.c"}
GENERATED = {"collective_entries.hpp", "collective_list.hpp", "pmpi_persistent.hpp", "c_collectives.c", "raw_collectives.cpp", "fortran_collectives.cpp",
             "emulated_cuda_aware.c", "built_in_rows.hpp"}
# Stems this short are code (self.cpp, st.c: members) or examples (app.c), not file names.
SHORTEST_STEM = 5
# A path written without its suffix names a source pair or what the build makes of a source.
MADE_FROM = ("", ".cpp", ".hpp", ".c", ".cu", ".in", ".py")


def files_of(root):
    """Every file and folder of the repository (relative paths), and every file name."""
    found = set()
    names = set()
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.startswith("build")]
        rel = os.path.relpath(folder, root)
        for f in files:
            path = os.path.normpath(os.path.join(rel, f))
            found.add(path)
            names.add(f)
        found.add(os.path.normpath(rel))
    return found, names


def scan(path, root, exists, names):
    """The names in one file that do not exist: ["file:line: name", ...]."""
    rel = os.path.relpath(path, root)
    try:
        text = open(path, encoding="utf-8").read()
    except UnicodeDecodeError:
        return []
    missing = []
    for number, line in enumerate(text.splitlines(), 1):
        for m in WRITTEN.finditer(line):
            named = m.group(1).rstrip(".,;:)")
            if not PATTERN.search(named) and not named.endswith("/.") and not exists(named):
                missing.append(f"{rel}:{number}: {named}")
        if rel.endswith(".md"):
            for m in LINK.finditer(line):
                target = m.group(1)
                if re.match(r"[a-z]+:", target) or PATTERN.search(target):
                    continue
                resolved = os.path.normpath(os.path.join(os.path.dirname(rel), target))
                if resolved.startswith("../shared"):  # the project's shared folder, beside the checkout
                    continue
                if resolved.startswith("..") or not exists(resolved):
                    missing.append(f"{rel}:{number}: link {target}")
        for m in ALONE.finditer(line):
            name = m.group(1)
            if (name in FOREIGN or name in GENERATED or name in names or PATTERN.search(name)
                    or len(name.rsplit(".", 1)[0]) < SHORTEST_STEM):
                continue
            missing.append(f"{rel}:{number}: {name} (no file of that name)")
    return missing


def main():
    root = sys.argv[1]
    fixture = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--expect-missing-for-test" else None
    existing, names = files_of(root)

    def exists(path):
        path = os.path.normpath(path.rstrip("/"))
        return any(path + suffix in existing or os.path.exists(os.path.join(root, path + suffix))
                   for suffix in MADE_FROM)

    missing = []
    for top in READ:
        start = os.path.join(root, top)
        candidates = [start] if os.path.isfile(start) else []
        for folder, dirs, files in os.walk(start):
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS and d != "results" and not d.startswith("build")]
            candidates += [os.path.join(folder, f) for f in files if f.endswith(READ_SUFFIXES)]
        for path in candidates:
            if not (fixture and os.path.abspath(path) == os.path.abspath(fixture)):
                missing += scan(path, root, exists, names)
    for m in missing:
        print("missing:", m)
    status = 1 if missing else 0
    if fixture:
        expected = len(open(fixture).read().splitlines()) - 2
        found = scan(fixture, root, exists, names)
        if len(found) != expected:
            print(f"check_named_paths: the fixture's {expected} missing names gave {len(found)}: {found}")
            status = 1
    print(f"check_named_paths: {len(missing)} missing")
    return status


if __name__ == "__main__":
    sys.exit(main())
