#!/usr/bin/env python3
"""Runs the MPI's Fortran compiler wrapper with a module directory of its own.

    fortran_compile.py MODDIR COMPILER ARGS...    build: creates MODDIR, runs COMPILER -J MODDIR ARGS...
    fortran_compile.py --probe COMPILER ARGS...   configure-time probe: compiles and links ARGS
                                                  in a temporary directory, leaving nothing behind

Each program gets its own MODDIR (meson's @PRIVATE_DIR@, which meson does not create), so
parallel builds never share .mod files. The exit status is the compiler's; a failed probe
prints the compiler's messages, for the meson log.
"""
import os
import subprocess
import sys
import tempfile


def compile_with(moddir, compiler, args, quiet_success):
    cmd = [compiler, "-J", moddir, *args]
    try:
        run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             errors="replace", timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        print(f"{' '.join(cmd)}: {e}")
        return 1
    if run.returncode != 0 or not quiet_success:
        if run.returncode != 0:
            print(" ".join(cmd))
        sys.stdout.write(run.stdout)
    return run.returncode


def main():
    if len(sys.argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    moddir, compiler, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    if moddir == "--probe":
        with tempfile.TemporaryDirectory(prefix="mcorecoll-fprobe-") as tmp:
            return compile_with(tmp, compiler, args + ["-o", os.path.join(tmp, "probe")], True)
    os.makedirs(moddir, exist_ok=True)
    return compile_with(moddir, compiler, args, False)


if __name__ == "__main__":
    sys.exit(main())
