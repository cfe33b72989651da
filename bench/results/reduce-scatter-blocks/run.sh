#!/usr/bin/env bash
# The reduce-scatters forced onto shared memory against the MPI library's own in the same run,
# before and after each rank folds only its own block (reduce_shm.hpp's fold_block(); before:
# the staged allreduce of the whole vector, then the block): run.sh OLD_PREFIX NEW_PREFIX OUTDIR,
# each prefix holding build-rel-openmpi and build-rel-mpich. np 2 bound to cores, both MPIs,
# the whole vector 8 B-4 MiB by factors of 4, before and after alternating, twice.
set -euo pipefail
old=$1 new=$2 out=$3
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
args=(--min 8 --max 4M --factor 4 --rounds 9)
for run in 1 2; do
  for coll in reduce_scatter_block reduce_scatter; do
    for which in old new; do
      prefix=$old; [ "$which" = new ] && prefix=$new
      env_name=MCORECOLL_$(echo "$coll" | tr a-z A-Z)
      mpirun.openmpi --bind-to core -np 2 --mca btl self,vader -x "$env_name=shm" \
        "$prefix/build-rel-openmpi/bench/mcorecoll_bench" --coll "$coll" "${args[@]}" \
        --csv "$out/openmpi-np2-$coll-$which-$run.csv" >/dev/null
      mpirun.mpich -np 2 -bind-to core -genv "$env_name" shm \
        "$prefix/build-rel-mpich/bench/mcorecoll_bench" --coll "$coll" "${args[@]}" \
        --csv "$out/mpich-np2-$coll-$which-$run.csv" >/dev/null
    done
  done
done
