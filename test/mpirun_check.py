#!/usr/bin/env python3
"""Runs one MPI program under the launcher of the chosen MPI and checks how it ended.

    mpirun_check.py --flavor openmpi|mpich --mpirun PATH --np N [--preload LIB]
                    [--env NAME=VALUE]... [--expect REGEX]... [--reject REGEX]...
                    [--expect-failure [--launcher-may-report-0]] [--no-leftovers]
                    [--timeout SECONDS] [--bed slot|node] [--finalize-hang]
                    [--same-as-plain REGEX] [--expect-printed-stats] -- PROGRAM [ARGS...]

--bed: across the hosts of a multi-host bed (run under `tools/hostbed run`), ranks filling each
host in turn (slot) or round-robin (node).

--expect / --reject are matched against stdout+stderr together (each REGEX must / must not
occur). Settings reach every rank through the launcher's own flags (-x for Open MPI, -genv for
MPICH), as mcorecoll-run does. Communicators are set up on their first collective
(MCORECOLL_SETUP_AFTER=1) unless --env gives MCORECOLL_SETUP_AFTER; an empty value
(--env MCORECOLL_SETUP_AFTER=) leaves the library's default. --no-leftovers: once the launcher
has returned, no process of PROGRAM may still run (after a grace period) and no new mcorecoll
object may be in /dev/shm.
--finalize-hang: the MPI library is one whose MPI_Finalize hangs now and then across hosts after
the job's work is done (MPICH before 4.2 over UCX: doc/mpi-defects.md). A job whose output
holds every --expect and whose ranks then do not end within 10 s is ended here and said, not
failed (its other checks still decide).
--launcher-may-report-0: with --expect-failure, an exit status of 0 is accepted too, for a launcher
that now and then reports 0 for a job one of whose ranks was killed (MPICH 4.2's Hydra:
doc/mpi-defects.md); the other checks still decide.
--same-as-plain REGEX: the program runs a second time, without the library and its settings, and
the first line that REGEX matches must be the same in both outputs (a digest of the results,
say), so that the library is held to the MPI library's own results.
--expect-printed-stats: the program printed the statistics the run must show, as lines
"expect stats FORM PATH calls=N"; each must appear as mcorecoll's "stats FORM PATH calls=N", and
mcorecoll may show no other path of those forms (MCORECOLL_STATS=1 must be set). An expected shm
of a form of allreduce, reduce, allgather, barrier, scan or exscan is the sum of the node
algorithms shm stands for (allreduce: lines, tree, fold, slices; barrier: poll, tree; ...).
Exit status 0 when every check holds.
"""
import argparse
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time


def bed_flags(flavor, mapping):
    """The launch flags of the multi-host bed that tools/hostbed run put in the environment.
    mapping "node": ranks round-robin over the hosts instead of filling each host in turn."""
    name = "HOSTBED_OMPI" if flavor == "openmpi" else "HOSTBED_MPICH"
    if name not in os.environ:
        raise SystemExit(f"mpirun_check: --bed without {name}: run under tools/hostbed run")
    flags = os.environ[name].split()
    if flavor == "openmpi":
        # Every host of the bed shares this machine's CPUs: the MPI library must not spin. The
        # mapping always named: Open MPI 5's launcher, told to oversubscribe (--oversubscribe,
        # or its default mapping policy ":oversubscribe"), puts every rank on the first host.
        flags += ["--mca", "mpi_yield_when_idle", "1", "--map-by", "node" if mapping == "node" else "slot"]
    elif mapping == "node":
        i = flags.index("-hosts") + 1
        flags[i] = ",".join(h.split(":")[0] + ":1" for h in flags[i].split(","))
    return flags


def launcher_command(flavor, mpirun, np, env, bed=None):
    """`bed`: None, or the mapping ("slot", "node") of a run across the bed's hosts."""
    cmd = [mpirun]
    if flavor == "openmpi":
        cmd += ["--oversubscribe"] + (bed_flags(flavor, bed) if bed else ["--mca", "btl", "self,vader"])
        cmd += ["-np", str(np)]
        for name, value in env.items():
            cmd += ["-x", f"{name}={value}"]
    else:
        cmd += (bed_flags(flavor, bed) if bed else []) + ["-np", str(np)]
        for name, value in env.items():
            cmd += ["-genv", name, value]
    return cmd


# How long a job's ranks may take to end once its output holds everything expected of it,
# where the MPI library's MPI_Finalize is known to hang (--finalize-hang).
END_S = 10


class Job:
    """One launch, run to its end: `output`, `status` (the launcher's exit status, or None if it
    was ended here), `failures`. A job that outlives `timeout` is ended (its program's processes
    killed, `stop` called: scancel, say). With `finalize_hang`, a job whose output (or
    `output_file`'s, for a batch job) matches every regex of `expect` and that then runs on for
    END_S seconds is ended and said: the MPI library's own MPI_Finalize, not a failure."""

    def __init__(self, cmd, env, timeout, program, expect=(), finalize_hang=False, output_file=None, stop=None):
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
        out, complete_at, closed = "", None, False
        deadline = time.monotonic() + timeout
        # Until every writer has closed the output (as subprocess.run's communicate waits), or
        # the time is up. Raw reads: a buffered reader may hold lines select() no longer sees.
        while not closed and time.monotonic() < deadline:
            if select.select([proc.stdout], [], [], 0.5)[0]:
                chunk = os.read(proc.stdout.fileno(), 65536)
                out += chunk.decode(errors="replace")
                closed = not chunk
                continue
            if finalize_hang and complete_at is None and not output_failures(self._text(out, output_file), expect, []):
                complete_at = time.monotonic()
            if complete_at is not None and time.monotonic() > complete_at + END_S:
                break
        try:
            self.status = proc.wait(timeout=max(0.1, deadline - time.monotonic())) if closed else proc.poll()
        except subprocess.TimeoutExpired:
            self.status = None
        if self.status is None:
            if stop:
                stop()
            proc.kill()
            for pid in processes_running(program):
                try:
                    os.kill(pid, 9)
                except OSError:
                    pass
            proc.wait()
        self.output = self._text(out, output_file)
        self.failures = []
        if self.status is None and complete_at is not None:
            self.output += (f"mpirun_check: the job's output was complete, its ranks had not ended {END_S} s later: "
                            "the MPI library's own MPI_Finalize across hosts (doc/mpi-defects.md); ended here\n")
        elif self.status is None:
            self.failures.append(f"no end after {timeout:.0f} s (hang?)")

    @staticmethod
    def _text(out, output_file):
        if output_file and os.path.exists(output_file):
            with open(output_file, errors="replace") as f:
                return out + f.read()
        return out


# The node algorithms `shm` stands for inside one node, by collective
# (src/decisions/node_algorithms.hpp).
NODE_ALGORITHMS = {"allreduce": ("lines", "tree", "fold", "slices"), "reduce": ("lines", "tree", "fold", "slices"),
                   "allgather": ("lines", "groups", "staged"), "barrier": ("poll", "tree"),
                   "scan": ("lines", "staged"), "exscan": ("lines", "staged")}


def node_algorithms(form):
    """The node algorithms of a form's collective ("iallreduce", "barrier_init": its three forms)."""
    base = form[:-len("_init")] if form.endswith("_init") else form
    if base not in NODE_ALGORITHMS and base.startswith("i"):
        base = base[1:]
    return NODE_ALGORITHMS.get(base, ())


def printed_stats_failures(out):
    """--expect-printed-stats: the program's "expect stats FORM PATH calls=N" lines against
    mcorecoll's "stats FORM PATH calls=N" lines; "calls=LOW-HIGH" where the ranks agree on a
    call the program cannot know (learning without waiting: the switch the schedule bounds)."""
    expected = dict(((m[0], m[1]), m[2]) for m in re.findall(r"^expect stats (\S+) (\S+) calls=(\d+(?:-\d+)?)$", out, re.M))
    if not expected:
        return ["--expect-printed-stats: the program printed no expected statistics"]
    shown = dict(((m[0], m[1]), m[2]) for m in re.findall(r"mcorecoll: stats (\S+) (\S+) calls=(\d+) ", out))
    # A collective's "shm" is the node's choice, counted by the algorithm it took inside a node
    # (decisions/node_algorithms.hpp): an expected shm is their sum.
    for form in {form for form, path in expected if path == "shm" and node_algorithms(form)}:
        named = [(form, path) for path in node_algorithms(form) if (form, path) in shown and (form, path) not in expected]
        if named:
            total = int(shown.get((form, "shm"), 0)) + sum(int(shown.pop(k)) for k in named)
            shown[(form, "shm")] = str(total)
    failures = []
    def matches(shown_calls, calls):
        if shown_calls is None or "-" not in calls:
            return shown_calls == calls
        low, high = (int(x) for x in calls.split("-"))
        return low <= int(shown_calls) <= high

    for (form, path), calls in sorted(expected.items()):
        if not matches(shown.get((form, path)), calls):
            failures.append(f"stats {form} {path}: expected calls={calls}, shown {shown.get((form, path), 'none')}")
    forms = {form for form, _ in expected}
    for (form, path), calls in sorted(shown.items()):
        if form in forms and (form, path) not in expected:
            failures.append(f"stats {form} {path}: calls={calls} shown, none expected")
    return failures


def output_failures(out, expect, reject):
    """What is wrong with a program's output: each regex of `expect` must occur, none of
    `reject` may."""
    failures = []
    for rx in expect:
        if not re.search(rx, out, re.MULTILINE):
            failures.append(f"missing in output: /{rx}/")
    for rx in reject:
        if re.search(rx, out, re.MULTILINE):
            failures.append(f"unexpected in output: /{rx}/")
    return failures


def checked_job_command(flavor, mpirun, np, preload, env=(), expect=(), reject=(), flags=()):
    """This script's command line for a job, for the drivers that run several jobs in turn
    (test/mpi/learned_file_check.py, report_check.py): its settings NAME=VALUE, the regexes
    its output must show and must not, and more of this script's flags."""
    cmd = [sys.executable, os.path.abspath(__file__), "--flavor", flavor, "--mpirun", mpirun, "--np", str(np),
           "--preload", preload] + list(flags)
    for setting in env:
        cmd += ["--env", setting]
    for rx in expect:
        cmd += ["--expect", rx]
    for rx in reject:
        cmd += ["--reject", rx]
    return cmd


def verdict(name, failures):
    """Prints each failure and the driver's last line; its exit status."""
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print(f"{name}: passed")
    return 1 if failures else 0


def shm_objects(bed=False):
    """mcorecoll's objects in /dev/shm; on a bed, in each host's own /dev/shm (host:name)."""
    if not bed:
        return {n for n in os.listdir("/dev/shm") if n.startswith("mcorecoll-")}
    found = set()
    for host in os.environ.get("HOSTBED_HOSTS", "").split():
        ls = subprocess.run([os.environ["HOSTBED_AGENT"], host, "ls /dev/shm"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
        found |= {f"{host}:{n}" for n in ls.stdout.split() if n.startswith("mcorecoll-")}
    return found


def processes_running(program):
    """Pids of live processes whose command line starts with `program`."""
    pids = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv0 = f.read().split(b"\0")[0].decode(errors="replace")
            with open(f"/proc/{pid}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if os.path.realpath(argv0) == os.path.realpath(program) and state != "Z":
            pids.append(int(pid))
    return pids


def leftover_failures(program, shm_before, grace=10.0, bed=False):
    """What the job left behind: ranks still running after `grace` seconds (they are killed
    here), and mcorecoll objects in /dev/shm that were not there before."""
    failures = []
    deadline = time.monotonic() + grace
    while processes_running(program) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = processes_running(program)
    if left:
        failures.append(f"ranks still running {grace:.0f} s after the launcher returned: {left}")
        for pid in left:
            try:
                os.kill(pid, 9)
            except OSError:
                pass
    new = shm_objects(bed) - shm_before
    if new:
        failures.append(f"left in /dev/shm: {sorted(new)}")
    return failures


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--flavor", required=True, choices=["openmpi", "mpich"])
    p.add_argument("--mpirun", required=True)
    p.add_argument("--np", type=int, required=True)
    p.add_argument("--preload")
    p.add_argument("--env", action="append", default=[])
    p.add_argument("--expect", action="append", default=[])
    p.add_argument("--reject", action="append", default=[])
    p.add_argument("--expect-failure", action="store_true")
    p.add_argument("--launcher-may-report-0", action="store_true")
    p.add_argument("--no-leftovers", action="store_true")
    p.add_argument("--timeout", type=float, default=300)
    p.add_argument("--bed", choices=["slot", "node"],
                   help="across the hosts of tools/hostbed run's bed: ranks filling each host, or round-robin")
    p.add_argument("--finalize-hang", action="store_true")
    p.add_argument("--same-as-plain", metavar="REGEX")
    p.add_argument("--expect-printed-stats", action="store_true")
    p.add_argument("program", nargs=argparse.REMAINDER)
    a = p.parse_args()
    program = a.program[1:] if a.program[:1] == ["--"] else a.program
    if not program:
        p.error("no program given")

    # Most tests aim at the algorithms: their communicators are set up on their first
    # collective, unless a test asks for the default's deferral (or another) itself.
    env = {"MCORECOLL_SETUP_AFTER": "1"}
    for item in a.env:
        name, _, value = item.partition("=")
        env[name] = value
    if env.get("MCORECOLL_SETUP_AFTER") == "":
        del env["MCORECOLL_SETUP_AFTER"]
    if a.preload:
        env["LD_PRELOAD"] = a.preload
    # Each run is a job on a machine where nothing was learned before (the user's cache
    # directory is no test's business), unless the test names the learned files' directory.
    own_learn_dir = None
    if "MCORECOLL_LEARN_DIR" not in env:
        own_learn_dir = tempfile.mkdtemp(prefix="mcorecoll-learned-")
        env["MCORECOLL_LEARN_DIR"] = own_learn_dir
    try:
        return run_checked(a, program, env)
    finally:
        if own_learn_dir:
            shutil.rmtree(own_learn_dir, ignore_errors=True)


def run_checked(a, program, env):
    cmd = launcher_command(a.flavor, a.mpirun, a.np, env, a.bed) + program

    os_env = dict(os.environ)
    os_env.update({"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                   "OMPI_MCA_rmaps_base_oversubscribe": "1",
                   "PRTE_MCA_rmaps_default_mapping_policy": ":oversubscribe"})  # Open MPI 5's launcher
    # Settings of the calling shell must not leak into a test: it sets its own.
    for name in list(os_env):
        if name.startswith("MCORECOLL_") or name == "LD_PRELOAD":
            del os_env[name]
    print("+", " ".join(cmd), flush=True)
    shm_before = shm_objects(bool(a.bed))
    job = Job(cmd, os_env, a.timeout, program[0], a.expect, a.finalize_hang)
    out = job.output
    sys.stdout.write(out)
    if job.failures:  # a hang: what it left in /dev/shm, and nothing more to check
        for f in job.failures + leftover_failures(program[0], shm_before, grace=0, bed=bool(a.bed)):
            print("FAIL:", f)
        return 1
    failures = []
    # No status: ended here once its output was complete (--finalize-hang).
    if job.status is not None and a.expect_failure and job.status == 0:
        if a.launcher_may_report_0:
            print("mpirun_check: the launcher reported 0 for a job that should have failed (accepted here)")
        else:
            failures.append("expected the job to fail, but it exited 0")
    elif job.status is not None and not a.expect_failure and job.status != 0:
        failures.append(f"exit status {job.status}")
    failures += output_failures(out, a.expect, a.reject)
    if a.expect_printed_stats:
        failures += printed_stats_failures(out)
    if a.no_leftovers:
        failures += leftover_failures(program[0], shm_before, bed=bool(a.bed))
    if a.same_as_plain:
        failures += plain_differences(a, program, os_env, a.same_as_plain, out)
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


def first_match(rx, out):
    m = re.search(rx, out, re.MULTILINE)
    return out[m.start():out.find("\n", m.start())] if m else None


def plain_differences(a, program, os_env, rx, out):
    """The program again without the library: the line `rx` matches must be the same."""
    cmd = launcher_command(a.flavor, a.mpirun, a.np, {}, a.bed) + program
    print("+ (without the library)", " ".join(cmd), flush=True)
    try:
        plain = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=os_env,
                               timeout=a.timeout, text=True, errors="replace").stdout
    except subprocess.TimeoutExpired:
        return [f"without the library: no end after {a.timeout} s"]
    sys.stdout.write(plain)
    ours, theirs = first_match(rx, out), first_match(rx, plain)
    if theirs is None:
        return [f"without the library: /{rx}/ missing in output"]
    if ours != theirs:
        return [f"with the library {ours!r}, without it {theirs!r}"]
    return []


if __name__ == "__main__":
    sys.exit(main())
