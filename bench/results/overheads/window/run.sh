#!/usr/bin/env bash
# A communicator's life (mcorecoll_overheads --what churn: dup or split, K collectives, free;
# K = 1, 2, 4, 16, 64) through the library before and after the set-up without waiting
# (node/setup_window.hpp), each against the MPI library alone in the same launch:
# run.sh BEFORE_PREFIX AFTER_PREFIX OUTDIR, each prefix holding build-rel-openmpi and
# build-rel-mpich. np 2 bound, both MPIs, the default MCORECOLL_SETUP_AFTER (16), before and
# after alternating, twice. The same benchmark binary (the after build's) for both.
set -euo pipefail
before=$1 after=$2 out=$3
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for run in 1 2; do
  for which in before after; do
    prefix=$before; [ "$which" = after ] && prefix=$after
    mpirun.openmpi --bind-to core -np 2 --mca btl self,vader -x "LD_PRELOAD=$prefix/build-rel-openmpi/libmcorecoll.so.0" \
      "$after/build-rel-openmpi/bench/mcorecoll_overheads" --what churn --csv "$out/openmpi-np2-$which-$run.csv" >/dev/null
    mpirun.mpich -np 2 -bind-to core -genv LD_PRELOAD "$prefix/build-rel-mpich/libmcorecoll.so.0" \
      "$after/build-rel-mpich/bench/mcorecoll_overheads" --what churn --csv "$out/mpich-np2-$which-$run.csv" >/dev/null
  done
done
