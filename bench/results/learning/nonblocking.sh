#!/usr/bin/env bash
# Learning on a communicator used only with non-blocking calls, or only with the starts of
# persistent requests, against a row made wrong on purpose (issue #54): nonblocking.sh PREFIX
# OUTDIR [nonblocking|persistent], PREFIX holding build-rel-openmpi and build-rel-mpich (release
# builds). mcorecoll_overlap --form FORM --blocking no: the world sees only MPI_Iallreduce (or
# MPI_Start of an MPI_Allreduce_init request made before each size's first call; start + wait,
# and start + compute + wait), mcorecoll's against the MPI library's own in the same launch, 7
# rounds alternating; each size (8 B-32 KiB, factor 4) is a new size class that explores and
# agrees, without waiting, inside the warm-up's 41 calls, so the rounds measure the path agreed on:
#   the row giving PMPI where the node's staged reductions win ("wrong-pmpi"), learning off and
#   on, and the row the build ships ("shipped"), learning off.
# Open MPI np 2 (bound) and np 4 (oversubscribed), MPICH np 2 (it spins when oversubscribed).
# Each configuration twice, alternating.
set -euo pipefail
prefix=$1 out=$2 form=${3:-nonblocking}
name=iallreduce; [ "$form" = persistent ] && name=allreduce_init
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
run() {  # mpi np tag env...
  local mpi=$1 np=$2 tag=$3
  shift 3
  local lib=$prefix/build-rel-$mpi/libmcorecoll.so.0 bench=$prefix/build-rel-$mpi/bench/mcorecoll_overlap
  local csv=$out/$mpi-np$np-$name-$tag.csv
  local args=(--op allreduce --form "$form" --blocking no --min 8 --max 32768)
  if [ "$mpi" = openmpi ]; then
    local flags=(--bind-to core); [ "$np" -gt 2 ] && flags=(--bind-to none --oversubscribe)
    local envs=(-x "LD_PRELOAD=$lib" -x MCORECOLL_LEARN_DIR=none)
    for e in "$@"; do envs+=(-x "$e"); done
    mpirun.openmpi "${flags[@]}" -np "$np" --mca btl self,vader "${envs[@]}" "$bench" "${args[@]}" > "$csv"
  else
    local envs=(-genv LD_PRELOAD "$lib" -genv MCORECOLL_LEARN_DIR none)
    for e in "$@"; do envs+=(-genv "${e%%=*}" "${e#*=}"); done
    mpirun.mpich -np "$np" -bind-to core "${envs[@]}" "$bench" "${args[@]}" > "$csv"
  fi
}
for pass in 1 2; do
  for mpi_np in openmpi:2 openmpi:4 mpich:2; do
    mpi=${mpi_np%:*} np=${mpi_np#*:}
    row=NP$np; [ "$np" -gt 2 ] && row=NP${np}_OVERSUBSCRIBED
    for learn in off auto; do
      run "$mpi" "$np" "wrong-pmpi-$learn-$pass" "MCORECOLL_ALLREDUCE_PATHS_$row=shm:4 pmpi" "MCORECOLL_LEARN=$learn"
    done
    run "$mpi" "$np" "shipped-off-$pass" MCORECOLL_LEARN=off
  done
done
