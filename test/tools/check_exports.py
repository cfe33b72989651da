#!/usr/bin/env python3
"""The library's entry points as the dynamic linker sees them (nm -D, readelf -r), for every
collective of wrappers/collectives.txt: the blocking MPI_X, non-blocking MPI_IX and persistent
MPI_X_init and MPIX_X_init in C, each under its profiling name too (PMPI_X, ..., for a tool
loaded before mcorecoll), and each in Fortran's manglings (mpi_x_, mpi_x__, mpi_x, MPI_X,
mpi_x_f08_); the same C pair for MPI_Init, MPI_Finalize and the completion calls. And none of
the library's own calls of those PMPI_ names is left for the dynamic linker, which would bind it
to mcorecoll's own definition: they go to the MPI library's (wrappers/library_calls.h).

Usage: check_exports.py LIBRARY COLLECTIVES_TXT
"""
import subprocess
import sys

RUNTIME = ["Init", "Init_thread", "Finalize", "Wait", "Test", "Waitall", "Testall", "Waitany", "Testany",
           "Waitsome", "Testsome", "Request_get_status", "Request_free", "Start", "Startall"]


def symbols(lib, which):
    out = subprocess.run(["nm", "-D", which, lib], check=True, stdout=subprocess.PIPE, text=True).stdout
    return {line.split()[-1].split("@")[0] for line in out.splitlines() if line.strip()}


def relocated(lib):
    """The symbols the library's dynamic relocations name (its calls the dynamic linker binds)."""
    out = subprocess.run(["readelf", "-rW", lib], check=True, stdout=subprocess.PIPE, text=True).stdout
    names = set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 5 and fields[0][:1].isalnum() and "R_X86_64" in line:
            names.add(fields[4].split("@")[0])
    return names


def main():
    lib, table = sys.argv[1:3]
    lines = [line.split("#", 1)[0].split() for line in open(table) if line.split("#", 1)[0].strip()]
    names = [fields[0] for fields in lines]
    defined = symbols(lib, "--defined-only")
    missing = []
    c_all = ["MPI_" + n for n in RUNTIME]
    for name in names:
        lower = name.lower()
        ilower = "i" + lower
        c = ["MPI_" + name, "MPI_I" + name[0].lower() + name[1:], "MPI_" + name + "_init", "MPIX_" + name + "_init"]
        c_all += c
        fortran = []
        for prefix, base in (("mpi", lower), ("mpi", ilower), ("mpi", lower + "_init"), ("mpix", lower + "_init")):
            f = prefix + "_" + base
            fortran += [f + "_", f + "__", f, f.upper(), f + "_f08_"]
        missing += [s for s in c + fortran if s not in defined]
    profiling = ["P" + s for s in c_all]
    missing += [s for s in c_all + profiling if s not in defined]
    bound_to_itself = sorted(set(profiling) & relocated(lib))
    for s in missing:
        print("missing:", s)
    for s in bound_to_itself:
        print("the library's own call of", s, "is left to the dynamic linker, which binds it to mcorecoll's own")
    ok = not missing and not bound_to_itself
    print(f"check_exports: {len(names)} collectives, {len(profiling)} profiling names, {'passed' if ok else 'FAILED'}")
    return 0 if ok else 1


sys.exit(main())
