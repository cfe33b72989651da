#!/usr/bin/env bash
# The scans of one record line over the lines' tree (reduction/scan_lines.hpp), forced onto
# shared memory, against the MPI library's own in the same run, 4 B-1 KiB by factors of 2 (one
# line ends at 248 B: 256 B and up are the staged scan): run.sh OMPI_BUILD MPICH_BUILD OUTDIR.
# np 2 bound to cores, both MPIs; np 4 oversubscribed (2 cores), Open MPI only (MPICH spins
# when oversubscribed: its np 4 measures its waits, not ours).
set -euo pipefail
ompi=$1 mpich=$2 out=$3
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
args=(--min 4 --max 1K --factor 2 --rounds 9)
for coll in scan exscan; do
  for np in 2 4; do
    bind=(--bind-to core); [ "$np" -gt 2 ] && bind=(--bind-to none --oversubscribe)
    mpirun.openmpi "${bind[@]}" -np "$np" --mca btl self,vader -x MCORECOLL_SCAN=shm -x MCORECOLL_EXSCAN=shm \
      "$ompi/bench/mcorecoll_bench" --coll "$coll" "${args[@]}" --csv "$out/openmpi-np$np-$coll.csv" >/dev/null
    [ "$np" -gt 2 ] && continue
    mpirun.mpich -np "$np" -bind-to core -genv MCORECOLL_SCAN shm -genv MCORECOLL_EXSCAN shm \
      "$mpich/bench/mcorecoll_bench" --coll "$coll" "${args[@]}" --csv "$out/mpich-np$np-$coll.csv" >/dev/null
  done
done
