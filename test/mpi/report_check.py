#!/usr/bin/env python3
"""The job's report (MCORECOLL_REPORT, src/entry/job_report.hpp): jobs of test_learning.c, each
checked by mpirun_check.py, then the report itself:

  stats      with MCORECOLL_STATS=1: the file is valid against doc/report.schema.json; every
             statistics line is one of its entries with the same calls and bytes, and no entry
             more; each entry's times consistent (least <= mean <= most, sum = mean x ranks); the
             class learned in the run is there, with rank 0's calls explored and after, exactly;
             one file, written by one rank, no temporary left;
  quiet      without MCORECOLL_STATS: the report alone (no statistics printed), the same counts;
  unwritable a path that cannot be written: a warning naming it, and the job ends well.

The schema is checked by the small validator below (the keywords the schema uses), so that the
test needs no Python package.

Usage: report_check.py --flavor F --mpirun PATH --preload LIB --program test_learning --schema SCHEMA
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from mpirun_check import checked_job_command, verdict  # noqa: E402  (the jobs' checker)

NP = 2
# The row's shm (fold at 256 B) and its sibling slices slowed: the learner takes PMPI.
SETTINGS = ["MCORECOLL_ALLREDUCE_MAX_BYTES=8M", "MCORECOLL_TEST_SLOWDOWN=allreduce:shm:1000,allreduce:slices:1000"]
STATS = re.compile(r"^mcorecoll: stats (\S+) (\S+) calls=(\d+) bytes=(\d+) ", re.MULTILINE)


def validate(value, schema, where="report"):
    """The JSON Schema keywords doc/report.schema.json uses: type, enum, required, properties,
    additionalProperties, items, minimum, minItems, maxItems. A list of what is wrong."""
    names = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}
    wrong = []
    types = schema.get("type")
    if types is not None:
        types = types if isinstance(types, list) else [types]

        def fits(t):
            if t == "integer":
                return isinstance(value, int) and not isinstance(value, bool)
            if t == "number":
                return isinstance(value, (int, float)) and not isinstance(value, bool)
            return isinstance(value, names[t])
        if not any(fits(t) for t in types):
            return [f"{where}: {value!r} is not of type {types}"]
    if "enum" in schema and value not in schema["enum"]:
        wrong.append(f"{where}: {value!r} is not one of {schema['enum']}")
    if isinstance(value, (int, float)) and not isinstance(value, bool) and "minimum" in schema and value < schema["minimum"]:
        wrong.append(f"{where}: {value} is below {schema['minimum']}")
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                wrong.append(f"{where}: no '{key}'")
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in props:
                wrong += validate(item, props[key], f"{where}.{key}")
            elif extra is False:
                wrong.append(f"{where}: '{key}' is not in the schema")
            elif isinstance(extra, dict):
                wrong += validate(item, extra, f"{where}.{key}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", len(value)):
            wrong.append(f"{where}: {len(value)} items")
        for k, item in enumerate(value):
            wrong += validate(item, schema.get("items", {}), f"{where}[{k}]")
    return wrong


def job(a, env, expect=(), reject=()):
    cmd = checked_job_command(a.flavor, a.mpirun, NP, a.preload, SETTINGS + list(env),
                              ["test_learning: passed"] + list(expect), reject)
    cmd += ["--", a.program, "allreduce", "shm=fold,pmpi,slices", "pmpi", "40"]
    run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(run.stdout, flush=True)
    return run.returncode, run.stdout


def report_failures(path, schema, stats, learned_in_run):
    if not os.path.exists(path):
        return [f"no report at {path}"]
    directory = os.path.dirname(path)
    others = [f for f in os.listdir(directory) if f != os.path.basename(path)]
    failures = [f"files beside the report (one rank writes it, whole): {others}"] if others else []
    try:
        report = json.load(open(path))
    except ValueError as e:
        return failures + [f"the report is not JSON: {e}"]
    failures += validate(report, schema)
    if failures:
        return failures
    if report["job"]["ranks"] != NP:
        failures.append(f"job.ranks {report['job']['ranks']}, expected {NP}")
    entries = {(e["form"], e["path"]): e for e in report["collectives"]}
    if len(entries) != len(report["collectives"]):
        failures.append("an entry twice")
    if stats is not None:
        for (form, path_name), (calls, size) in stats.items():
            e = entries.get((form, path_name))
            if not e:
                failures.append(f"statistics line {form} {path_name} is not in the report")
            elif (e["calls"], e["bytes"]) != (calls, size):
                failures.append(f"{form} {path_name}: the report says calls={e['calls']} bytes={e['bytes']}, "
                                f"the statistics calls={calls} bytes={size}")
        for key in entries:
            if key not in stats:
                failures.append(f"report entry {key} is in no statistics line")
    for e in report["collectives"]:
        t = e["time_us"]
        if not (t["least"] <= t["mean"] + 1e-3 and t["mean"] <= t["most"] + 1e-3):
            failures.append(f"{e['form']} {e['path']}: times not least <= mean <= most: {t}")
        if abs(t["sum"] - t["mean"] * NP) > 0.01 * NP:
            failures.append(f"{e['form']} {e['path']}: sum {t['sum']} is not mean x ranks")
    times = [e["time_us"]["mean"] for e in report["collectives"]]
    if times != sorted(times, reverse=True):
        failures.append("the entries are not the most time first")
    learned = [l for l in report["learned"] if l["origin"] == "learned in this run" and l["collective"] == "allreduce"
               and l["sizes"] == "256-512" and l["path"] == "pmpi"]
    if learned_in_run and not learned:
        failures.append(f"the class learned in the run is not in the report: {report['learned']}")
    # Rank 0's calls of the class on its two communicators (the world and a duplicate): 21
    # explored on each (three candidates), then the agreeing call and 18 more blocking ones, 2
    # non-blocking calls and 2 persistent initializations on the learned path.
    if learned and learned[0]["calls"] != {"explored": 2 * 21, "after": 2 * (19 + 2 + 2)}:
        failures.append(f"the class's calls: {learned[0]['calls']}, expected explored 42, after 46")
    # The row the world took for bcast (allreduce's bounds are given: no row decides it).
    if not any(r["collective"] == "bcast" and r["origin"] == "table" for r in report["rows"]):
        failures.append(f"no bcast row from the table: {report['rows']}")
    return failures


def main():
    p = argparse.ArgumentParser()
    for name in ("--flavor", "--mpirun", "--preload", "--program", "--schema"):
        p.add_argument(name, required=True)
    a = p.parse_args()
    schema = json.load(open(a.schema))
    failures = []
    with tempfile.TemporaryDirectory(prefix="report-check-") as tmp:
        path = os.path.join(tmp, "stats", "job.json")
        rc, out = job(a, ["MCORECOLL_STATS=1", "MCORECOLL_REPORT=" + path], expect=[r"^mcorecoll: stats allreduce pmpi"])
        stats = {(m[0], m[1]): (int(m[2]), int(m[3])) for m in STATS.findall(out)}
        failures += ([] if rc == 0 else ["stats: the job's check failed"]) + \
            [f"stats: {f}" for f in report_failures(path, schema, stats, True)]

        path = os.path.join(tmp, "quiet", "job.json")
        rc, out = job(a, ["MCORECOLL_REPORT=" + path], reject=[r"^mcorecoll: stats"])
        failures += ([] if rc == 0 else ["quiet: the job's check failed"]) + \
            [f"quiet: {f}" for f in report_failures(path, schema, stats, True)]

        blocker = os.path.join(tmp, "a-file")
        open(blocker, "w").write("not a directory\n")
        rc, out = job(a, ["MCORECOLL_REPORT=" + os.path.join(blocker, "job.json")],
                      expect=[r"warning: the job's report \(MCORECOLL_REPORT\) is not written: cannot create '.*a-file/job.json.tmp.\d+': Not a directory"])
        if rc != 0:
            failures.append("unwritable: the job's check failed (a report that cannot be written must not fail the job)")
    return verdict("report_check", failures)


if __name__ == "__main__":
    sys.exit(main())
