"""An mpi4py program of the usual kind: numpy buffers, every collective mcorecoll intercepts in
its blocking, non-blocking and (where mpi4py has them, mpi4py 4) persistent forms, on
communicators made and freed as it goes. A seeded random sequence; every result is checked
against numpy, and folded into a digest that rank 0 prints, so that a run with the library and
one without can be compared byte for byte (test/python/meson.build runs both).

Usage: python3 mpi4py_collectives.py SEED CALLS
"""
import hashlib
import sys

import numpy as np
from mpi4py import MPI

seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
calls = int(sys.argv[2]) if len(sys.argv) > 2 else 200
world = MPI.COMM_WORLD
digest = hashlib.sha256()
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


def keep(*arrays):
    for a in arrays:
        digest.update(np.ascontiguousarray(a).tobytes())


def values(rank, n, salt, dtype):
    """Integers small enough that every sum is exact in every type and any order of folding."""
    return ((np.arange(n, dtype=np.int64) * 7 + rank * 13 + salt) % 97).astype(dtype)


def complete(form, comm, name, *args):
    """The collective `name` in one form: 0 blocking, 1 non-blocking, 2 persistent."""
    if form == 0:
        return getattr(comm, name)(*args)
    if form == 1:
        return getattr(comm, "I" + name[0].lower() + name[1:])(*args).Wait()
    request = getattr(comm, name + "_init")(*args)
    request.Start()
    request.Wait()
    request.Free()


def one_call(comm, rng, form, step):
    rank, size = comm.Get_rank(), comm.Get_size()
    kind = rng.integers(0, 16)
    n = int(rng.choice([0, 1, 3, 17, 256, 1000, 5000]))
    dtype = [np.int32, np.float64, np.int64][rng.integers(0, 3)]
    mpitype = {np.int32: MPI.INT, np.float64: MPI.DOUBLE, np.int64: MPI.INT64_T}[dtype]
    # Every rank draws the same numbers, also on the halves of a split, whose sizes differ.
    root = int(rng.integers(0, 1 << 30)) % size
    salt = step
    mine = values(rank, n, salt, dtype)
    every = [values(r, n, salt, dtype) for r in range(size)]
    total = np.sum(every, axis=0).astype(dtype) if n else np.zeros(0, dtype)
    what = f"call {step} kind {kind} form {form} n {n} {dtype.__name__} size {size}"

    if kind == 0:
        complete(form, comm, "Barrier")
    elif kind == 1:
        buf = mine.copy() if rank == root else np.full(n, -1, dtype)
        complete(form, comm, "Bcast", [buf, mpitype], root)
        check(np.array_equal(buf, every[root]), what)
        keep(buf)
    elif kind == 2:
        send = np.concatenate([values(rank * size + d, n, salt, dtype) for d in range(size)])
        recv = np.full(n * size, -1, dtype)
        complete(form, comm, "Alltoall", [send, mpitype], [recv, mpitype])
        want = np.concatenate([values(s * size + rank, n, salt, dtype) for s in range(size)]) if n else recv
        check(np.array_equal(recv, want), what)
        keep(recv)
    elif kind == 3:
        recv = np.full(n, -1, dtype)
        complete(form, comm, "Allreduce", [mine, mpitype], [recv, mpitype], MPI.SUM)
        check(np.array_equal(recv, total), what)
        keep(recv)
    elif kind == 4:
        recv = np.full(n, -1, dtype)
        complete(form, comm, "Reduce", [mine, mpitype], [recv, mpitype], MPI.SUM, root)
        if rank == root:
            check(np.array_equal(recv, total), what)
            keep(recv)
    elif kind == 5:
        recv = np.full(n * size, -1, dtype)
        complete(form, comm, "Allgather", [mine, mpitype], [recv, mpitype])
        check(np.array_equal(recv, np.concatenate(every)), what)
        keep(recv)
    elif kind in (6, 7):
        # Allgatherv and Gatherv: rank r gives r % 3 * n / 2 elements, placed in reverse order.
        counts = [r % 3 * n // 2 for r in range(size)]
        displs = list(np.cumsum([0] + counts[::-1][:-1])[::-1])
        send = mine[: counts[rank]].copy()
        recv = np.full(sum(counts), -1, dtype)
        spec = [recv, (counts, [int(d) for d in displs]), mpitype]
        if kind == 6:
            complete(form, comm, "Allgatherv", [send, mpitype], spec)
        else:
            complete(form, comm, "Gatherv", [send, mpitype], spec if rank == root else None, root)
        if kind == 6 or rank == root:
            for r in range(size):
                check(np.array_equal(recv[displs[r]:displs[r] + counts[r]], every[r][: counts[r]]), what)
            keep(recv)
    elif kind == 8:
        counts = [(rank + d) % 3 * n // 2 for d in range(size)]   # to each destination
        rcounts = [(s + rank) % 3 * n // 2 for s in range(size)]  # from each source
        send = np.concatenate([values(rank * size + d, counts[d], salt, dtype) for d in range(size)])
        recv = np.full(sum(rcounts), -1, dtype)
        sd = [int(x) for x in np.cumsum([0] + counts[:-1])]
        rd = [int(x) for x in np.cumsum([0] + rcounts[:-1])]
        complete(form, comm, "Alltoallv", [send, (counts, sd), mpitype], [recv, (rcounts, rd), mpitype])
        for s in range(size):
            check(np.array_equal(recv[rd[s]:rd[s] + rcounts[s]], values(s * size + rank, rcounts[s], salt, dtype)),
                  what)
        keep(recv)
    elif kind == 9:
        recv = np.full(n * size, -1, dtype) if rank == root else None
        complete(form, comm, "Gather", [mine, mpitype], [recv, mpitype] if rank == root else None, root)
        if rank == root:
            check(np.array_equal(recv, np.concatenate(every)), what)
            keep(recv)
    elif kind in (10, 11):
        send = np.concatenate([values(root * size + d, n, salt, dtype) for d in range(size)])
        recv = np.full(n, -1, dtype)
        if kind == 10:
            complete(form, comm, "Scatter", [send, mpitype] if rank == root else None, [recv, mpitype], root)
            want = values(root * size + rank, n, salt, dtype)
        else:
            counts = [d % 3 * n // 2 for d in range(size)]
            displs = [int(x) for x in np.cumsum([0] + counts[:-1])]
            recv = recv[: counts[rank]]
            complete(form, comm, "Scatterv", [send, (counts, displs), mpitype] if rank == root else None,
                     [recv, mpitype], root)
            want = send[displs[rank]:displs[rank] + counts[rank]]
        check(np.array_equal(recv, want), what)
        keep(recv)
    elif kind == 12:
        allsend = [values(r, n * size, salt, dtype) for r in range(size)]
        recv = np.full(n, -1, dtype)
        complete(form, comm, "Reduce_scatter_block", [allsend[rank], mpitype], [recv, mpitype], MPI.SUM)
        want = np.sum(allsend, axis=0).astype(dtype)[rank * n:(rank + 1) * n]
        check(np.array_equal(recv, want), what)
        keep(recv)
    elif kind == 13:
        counts = [(r + 1) % 3 * n // 2 for r in range(size)]
        allsend = [values(r, sum(counts), salt, dtype) for r in range(size)]
        recv = np.full(counts[rank], -1, dtype)
        complete(form, comm, "Reduce_scatter", [allsend[rank], mpitype], [recv, mpitype], counts, MPI.SUM)
        start = sum(counts[:rank])
        want = np.sum(allsend, axis=0).astype(dtype)[start:start + counts[rank]]
        check(np.array_equal(recv, want), what)
        keep(recv)
    else:
        recv = np.full(n, -1, dtype)
        name = "Scan" if kind == 14 else "Exscan"
        complete(form, comm, name, [mine, mpitype], [recv, mpitype], MPI.SUM)
        upto = rank + 1 if kind == 14 else rank
        if upto > 0:
            want = np.sum(every[:upto], axis=0).astype(dtype) if n else recv
            check(np.array_equal(recv, want), what)
            keep(recv)


def main():
    rng = np.random.default_rng(seed)
    persistent = hasattr(world, "Barrier_init")
    comms = [world]
    for step in range(calls):
        # Communicators made and freed as the program goes: a copy of the world, or halves.
        if rng.integers(0, 20) == 0 and len(comms) < 4:
            comms.append(world.Dup() if rng.integers(0, 2) else world.Split(world.Get_rank() % 2, -world.Get_rank()))
        if rng.integers(0, 25) == 0 and len(comms) > 1:
            comms.pop(int(rng.integers(1, len(comms)))).Free()
        comm = comms[int(rng.integers(0, len(comms)))]
        form = int(rng.integers(0, 3 if persistent else 2))
        one_call(comm, rng, form, step)
    for comm in comms[1:]:
        comm.Free()
    digests = world.gather(digest.hexdigest(), root=0)
    bad = world.allreduce(len(failures))
    for f in failures[:5]:
        print(f"rank {world.Get_rank()}: wrong result: {f}", flush=True)
    if world.Get_rank() == 0:
        print("mpi4py digest: " + hashlib.sha256("".join(digests).encode()).hexdigest())
        print(f"mpi4py collectives (mpi4py {__import__('mpi4py').__version__}, persistent forms: "
              f"{'yes' if persistent else 'no'}): {'FAILED' if bad else 'passed'}")
    return 1 if bad else 0


sys.exit(main())
