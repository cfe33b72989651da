#!/usr/bin/env python3
"""The names of the tests tools/run-tests.sh runs, one a line, from `meson introspect --tests`
on standard input.

  select-tests.py [--max-np N] [--subset FILE] [SUITE-LEFT-OUT ...]

A test is left out when one of its suites is named, or when its name says it runs more than N
ranks ("-np4", " np4"; N 0: no limit). With --subset FILE (regular expressions, one a line,
'#' comments, each matched against whole names) only the unit suite and the MPI tests FILE
names are kept: the sanitizers' configuration.
"""
import argparse
import json
import re
import sys


def ranks(name):
    """The rank count a test's name states, or 0."""
    found = re.search(r"(?:^|[- ])np(\d+)(?:$|[- ])", name)
    return int(found.group(1)) if found else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-np", type=int, default=0)
    parser.add_argument("--subset", default="")
    parser.add_argument("left_out", nargs="*", help="suites left out")
    args = parser.parse_args()
    patterns = []
    if args.subset:
        with open(args.subset) as lines:
            patterns = [re.compile(line.strip()) for line in lines if line.strip() and not line.startswith("#")]
    for test in json.load(sys.stdin):
        name = test["name"]
        suites = {s.split(":", 1)[-1] for s in test["suite"]}
        if suites & set(args.left_out):
            continue
        if args.max_np and ranks(name) > args.max_np:
            continue
        if args.subset and "unit" not in suites and not ("mpi" in suites and any(p.fullmatch(name) for p in patterns)):
            continue
        print(name)


if __name__ == "__main__":
    main()
