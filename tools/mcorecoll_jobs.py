"""How mcorecoll's tools launch benchmark jobs and read what they measured. Shared by
mcorecoll-tune (installed next to it) and bench/compare-peers.

A job is one mcorecoll_bench run under one MPI's launcher. The ranks get only the MCORECOLL_*
settings a job names: the caller's own would change what is measured.
"""
import csv
import json
import os
import selectors
import signal
import socket
import subprocess
import time


def cpus():
    """CPUs this process may run on: more ranks than this oversubscribe."""
    return len(os.sched_getaffinity(0))


def machine():
    """What the numbers were measured on, for the headers of results and tuning files."""
    info = {"host": socket.gethostname(), "cpus": cpus(), "model": "?", "packages": "?",
            "numa_nodes": "?", "kernel": os.uname().release}
    try:
        fields = json.loads(subprocess.run(["lscpu", "-J"], capture_output=True, text=True,
                                           check=True).stdout)["lscpu"]
        by_name = {f["field"].rstrip(":"): f["data"] for f in fields}
        info["model"] = by_name.get("Model name", "?")
        info["packages"] = by_name.get("Socket(s)", "?")
        info["numa_nodes"] = by_name.get("NUMA node(s)", "1")
        info["hypervisor"] = by_name.get("Hypervisor vendor", "")
    except (OSError, ValueError, KeyError, subprocess.CalledProcessError):
        pass
    return info


def describe_machine(m):
    text = f"{m['host']}: {m['model']}, {m['cpus']} CPUs, {m['packages']} package(s), " \
           f"{m['numa_nodes']} NUMA node(s), Linux {m['kernel']}"
    return text + (f", VM ({m['hypervisor']})" if m.get("hypervisor") else "")


def flavor_of(launcher):
    """'openmpi' or 'mpich', from what the launcher says about itself (as mcorecoll-run does)."""
    out = subprocess.run([launcher, "--version"], capture_output=True, text=True,
                         stdin=subprocess.DEVNULL).stdout
    if "Open MPI" in out or "OpenRTE" in out:
        return "openmpi"
    if "HYDRA" in out:
        return "mpich"
    raise RuntimeError(f"cannot tell which MPI '{launcher}' launches")


def launcher_command(flavor, launcher, np, settings=None, extra=()):
    """The launcher's command line for np ranks: bound to cores when every rank has a CPU,
    oversubscribed otherwise. `settings` reach every rank (also on other nodes)."""
    bound = np <= cpus()
    cmd = [launcher]
    if flavor == "openmpi":
        cmd += ["--bind-to", "core"] if bound else ["--bind-to", "none", "--oversubscribe"]
        for name, value in (settings or {}).items():
            cmd += ["-x", f"{name}={value}"]
    else:
        cmd += ["-bind-to", "core"] if bound else []
        for name, value in (settings or {}).items():
            cmd += ["-genv", name, value]
    return cmd + list(extra) + ["-np", str(np)]


def job_env(settings=None):
    """The launcher's environment: the caller's, less its MCORECOLL_* and LD_PRELOAD, plus
    `settings`. Local ranks inherit it whatever the launcher forwards."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("MCORECOLL_") and k != "LD_PRELOAD"}
    env.update({"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"})
    env.update(settings or {})
    return env


def run(cmd, env, timeout, on_line=None):
    """Runs a command in its own process group; calls on_line(line) for each line of output as
    it comes. Past `timeout` seconds the whole group is killed. Returns (exit status, output,
    timed_out)."""
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + timeout
    lines, pending, timed_out = [], b"", False
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                os.killpg(proc.pid, signal.SIGKILL)
                break
            if not sel.select(timeout=min(left, 1.0)):
                continue
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                break
            pending += chunk
            *complete, pending = pending.split(b"\n")
            for raw in complete:
                line = raw.decode(errors="replace")
                lines.append(line)
                if on_line:
                    on_line(line)
    proc.stdout.close()
    proc.wait()
    if pending:
        lines.append(pending.decode(errors="replace"))
    return proc.returncode, "\n".join(lines), timed_out


def read_bench_csv(path):
    """Rows of a mcorecoll_bench --csv file, with numbers as numbers. A missing file (a job that
    died before its first size) reads as no rows."""
    if not os.path.exists(path):
        return []
    rows = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            rows.append({"collective": r["collective"], "np": int(r["np"]), "bytes": int(r["bytes"]),
                         "mcorecoll_us": float(r["mcorecoll_us"]), "pmpi_us": float(r["pmpi_us"]),
                         "ratio": float(r["ratio"]), "diff_ns": float(r["diff_ns"]),
                         # the mean over ranks of each rank's own time (files before it: the slowest rank's)
                         "mean_ratio": float(r.get("mean_ratio") or r["ratio"]),
                         "ok": r["ok"] == "1"})
    return rows


def human_bytes(n):
    """1024 -> '1K', 16777216 -> '16M'; the form MCORECOLL_*_BYTES settings accept."""
    for suffix in ("", "K", "M", "G"):
        if n < 1024 or n % 1024:
            return f"{n}{suffix}"
        n //= 1024
    return f"{n}T"
