#!/usr/bin/env bash
# Where the shipped rows were right: mcorecoll_bench of every collective (1 B-1 MiB by factors
# of 4) with learning off and on, in one launch each, alternating off and on, twice: shipped.sh
# PREFIX OUTDIR (build-rel-openmpi and build-rel-mpich under PREFIX). np 2 bound, both MPIs. Each
# size is a new size class, explored inside the 21 rounds of 200 calls it is measured in.
set -euo pipefail
prefix=$1 out=$2
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for pass in 1 2; do
  for learn in off auto; do
    for group in all reductions node-only; do
      mpirun.openmpi --bind-to core -np 2 --mca btl self,vader -x "LD_PRELOAD=$prefix/build-rel-openmpi/libmcorecoll.so.0" \
        -x "MCORECOLL_LEARN=$learn" "$prefix/build-rel-openmpi/bench/mcorecoll_bench" --coll "$group" --max 1M \
        --csv "$out/openmpi-np2-$group-$learn-$pass.csv" >/dev/null
      mpirun.mpich -np 2 -bind-to core -genv LD_PRELOAD "$prefix/build-rel-mpich/libmcorecoll.so.0" \
        -genv MCORECOLL_LEARN "$learn" "$prefix/build-rel-mpich/bench/mcorecoll_bench" --coll "$group" --max 1M \
        --csv "$out/mpich-np2-$group-$learn-$pass.csv" >/dev/null
    done
  done
done
