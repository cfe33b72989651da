#!/usr/bin/env python3
"""The library's entry points as the dynamic linker sees them (nm -D), for every collective of
wrappers/collectives.txt: the blocking MPI_X, non-blocking MPI_IX and persistent MPI_X_init
and MPIX_X_init in C, and each in Fortran's manglings (mpi_x_, mpi_x__, mpi_x, MPI_X,
mpi_x_f08_). And the persistent forwarders reach the MPI library by the names it has:
PMPIX_X_init where it has only those (Open MPI 4.1), PMPI_X_init otherwise; the collectives
handed on untouched (`forward`) call the next definition of their own name instead.

Usage: check_exports.py LIBRARY COLLECTIVES_TXT mpi|mpix
"""
import subprocess
import sys


def symbols(lib, which):
    out = subprocess.run(["nm", "-D", which, lib], check=True, stdout=subprocess.PIPE, text=True).stdout
    return {line.split()[-1].split("@")[0] for line in out.splitlines() if line.strip()}


def main():
    lib, table, persistent = sys.argv[1:4]
    lines = [line.split("#", 1)[0].split() for line in open(table) if line.split("#", 1)[0].strip()]
    names = [fields[0] for fields in lines]
    forwarded = {fields[0] for fields in lines if "forward" in fields}
    defined, undefined = symbols(lib, "--defined-only"), symbols(lib, "--undefined-only")
    missing = []
    for name in names:
        lower = name.lower()
        ilower = "i" + lower
        c = ["MPI_" + name, "MPI_I" + name[0].lower() + name[1:], "MPI_" + name + "_init", "MPIX_" + name + "_init"]
        fortran = []
        for prefix, base in (("mpi", lower), ("mpi", ilower), ("mpi", lower + "_init"), ("mpix", lower + "_init")):
            f = prefix + "_" + base
            fortran += [f + "_", f + "__", f, f.upper(), f + "_f08_"]
        missing += [s for s in c + fortran if s not in defined]
        forwarder = ("PMPIX_" if persistent == "mpix" else "PMPI_") + name + "_init"
        if name not in forwarded and forwarder not in undefined:
            missing.append(f"{forwarder} (the MPI library's own, which the persistent forwarder calls)")
    wrong = sorted(s for s in undefined if s.startswith("PMPIX_") and s.endswith("_init")) if persistent == "mpi" else []
    for s in missing:
        print("missing:", s)
    for s in wrong:
        print("calls a name this MPI library lacks:", s)
    print(f"check_exports: {len(names)} collectives, {'FAILED' if missing or wrong else 'passed'}")
    return 1 if missing or wrong else 0


sys.exit(main())
