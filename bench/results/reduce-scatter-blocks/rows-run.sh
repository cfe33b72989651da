#!/usr/bin/env bash
# The reduce-scatters' rows at np 2 (bound, both MPIs) and np 4 (oversubscribed, Open MPI: MPICH
# spins when oversubscribed), the way bench/results/reductions/ measures the reductions': each
# run MPI_X forced onto shared memory against PMPI_X (forced-shm), and MPI_X forced to the MPI
# library through mcorecoll against PMPI_X (forced-pmpi), the whole vector 8 B-8 MiB by factors
# of 2, four runs each: rows-run.sh BUILD_PREFIX OUTDIR (build-rel-openmpi, build-rel-mpich).
set -euo pipefail
prefix=$1 out=$2
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
args=(--coll reduce_scatter_block --min 8 --max 8M --factor 2 --rounds 9)
args2=(--coll reduce_scatter --min 8 --max 8M --factor 2 --rounds 9)
for run in 1 2 3 4; do
  for path in shm pmpi; do
    for np in 2 4; do
      bind=(--bind-to core); [ "$np" -gt 2 ] && bind=(--bind-to none --oversubscribe)
      for a in args args2; do
        declare -n list=$a
        coll=${list[1]}
        mpirun.openmpi "${bind[@]}" -np "$np" --mca btl self,vader -x MCORECOLL_REDUCE_SCATTER_BLOCK=$path \
          -x MCORECOLL_REDUCE_SCATTER=$path "$prefix/build-rel-openmpi/bench/mcorecoll_bench" "${list[@]}" \
          --csv "$out/openmpi-np$np-$coll-forced-$path-$run.csv" >/dev/null
        [ "$np" -gt 2 ] && continue
        mpirun.mpich -np 2 -bind-to core -genv MCORECOLL_REDUCE_SCATTER_BLOCK $path -genv MCORECOLL_REDUCE_SCATTER $path \
          "$prefix/build-rel-mpich/bench/mcorecoll_bench" "${list[@]}" --csv "$out/mpich-np2-$coll-forced-$path-$run.csv" >/dev/null
      done
    done
  done
done
