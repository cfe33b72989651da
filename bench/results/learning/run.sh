#!/usr/bin/env bash
# Learning in the run against a row made wrong on purpose (issue #54's goal): run.sh PREFIX OUTDIR,
# PREFIX holding build-rel-openmpi and build-rel-mpich (release builds). mcorecoll_bench, the
# library preloaded against the MPI library's own PMPI_X in the same launch (ratio: mcorecoll over
# PMPI; both measures), 21 rounds of 200 calls per size, each size a new size class (factor 4),
# so every class explores during the run it is measured in:
#   allreduce 8 B-64 KiB, the row giving PMPI where the node's staged reductions win
#     ("wrong-pmpi"), learning off and on, and the row the build ships ("shipped"), learning off;
#   alltoall 1 B-1 KiB blocks, the row giving single copy where it loses ("wrong-cma"), learning
#     off and on.
# Open MPI np 2 (bound) and np 4 (oversubscribed), MPICH np 2 (it spins when oversubscribed).
# Each configuration twice, alternating learning off and on.
set -euo pipefail
prefix=$1 out=$2
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
run() {  # mpi np tag coll min max env...
  local mpi=$1 np=$2 tag=$3 coll=$4 min=$5 max=$6
  shift 6
  local lib=$prefix/build-rel-$mpi/libmcorecoll.so.0 bench=$prefix/build-rel-$mpi/bench/mcorecoll_bench
  local csv=$out/$mpi-np$np-$coll-$tag.csv
  if [ "$mpi" = openmpi ]; then
    local flags=(--bind-to core); [ "$np" -gt 2 ] && flags=(--bind-to none --oversubscribe)
    local envs=(-x "LD_PRELOAD=$lib")
    for e in "$@"; do envs+=(-x "$e"); done
    mpirun.openmpi "${flags[@]}" -np "$np" --mca btl self,vader "${envs[@]}" "$bench" --coll "$coll" \
      --min "$min" --max "$max" --factor 4 --csv "$csv" >/dev/null
  else
    local envs=(-genv LD_PRELOAD "$lib")
    for e in "$@"; do envs+=(-genv "${e%%=*}" "${e#*=}"); done
    mpirun.mpich -np "$np" -bind-to core "${envs[@]}" "$bench" --coll "$coll" --min "$min" --max "$max" \
      --factor 4 --csv "$csv" >/dev/null
  fi
}
for pass in 1 2; do
  for mpi_np in openmpi:2 openmpi:4 mpich:2; do
    mpi=${mpi_np%:*} np=${mpi_np#*:}
    row=NP$np; [ "$np" -gt 2 ] && row=NP${np}_OVERSUBSCRIBED
    for learn in off auto; do
      run "$mpi" "$np" "wrong-pmpi-$learn-$pass" allreduce 8 64K "MCORECOLL_ALLREDUCE_PATHS_$row=shm:4 pmpi" \
        "MCORECOLL_LEARN=$learn"
      run "$mpi" "$np" "wrong-cma-$learn-$pass" alltoall 1 1K "MCORECOLL_ALLTOALL_PATHS_$row=cma:8M pmpi" \
        "MCORECOLL_LEARN=$learn"
    done
    run "$mpi" "$np" "shipped-off-$pass" allreduce 8 64K MCORECOLL_LEARN=off
  done
done
