#!/usr/bin/env bash
# Learning among three candidates (the row's path, PMPI, single copy): three.sh BUILD OUTDIR PASSES.
# mcorecoll_bench with the library preloaded against the MPI library's own PMPI_Bcast in the same
# launch (ratio: mcorecoll over PMPI; both measures), bcast 16 KiB-4 MiB by factors of 4, Open MPI
# np 2 bound, 21 rounds of 200 calls per size, each size a new size class (so every class explores
# inside the rounds it is measured in):
#   row-ring: the row gives the ring at every size (MCORECOLL_BCAST_PATHS_NP2=shm:16M pmpi),
#     learning off and on;
#   cma-forced: single copy forced (MCORECOLL_BCAST=cma), learning off (it is never overturned).
# The configurations alternate within each pass.
set -euo pipefail
build=$1 out=$2 passes=${3:-2}
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
lib=$build/libmcorecoll.so.0 bench=$build/bench/mcorecoll_bench
run() {  # tag env...
  local tag=$1
  shift
  local envs=(-x "LD_PRELOAD=$lib" -x MCORECOLL_LEARN_DIR=none)  # learning in the run, not a file
  for e in "$@"; do envs+=(-x "$e"); done
  mpirun.openmpi --bind-to core -np 2 --mca btl self,vader "${envs[@]}" "$bench" --coll bcast \
    --min 16K --max 4M --factor 4 --csv "$out/openmpi-np2-bcast-$tag.csv" >/dev/null
}
for pass in $(seq 1 "$passes"); do
  for learn in off auto; do
    run "row-ring-$learn-$pass" "MCORECOLL_BCAST_PATHS_NP2=shm:16M pmpi" "MCORECOLL_LEARN=$learn"
  done
  run "cma-forced-off-$pass" MCORECOLL_BCAST=cma MCORECOLL_LEARN=off
done
# What the learner chose, in one more launch with verbose mode on (not timed): its verdicts.
mpirun.openmpi --bind-to core -np 2 --mca btl self,vader -x "LD_PRELOAD=$lib" -x MCORECOLL_LEARN_DIR=none -x "MCORECOLL_BCAST_PATHS_NP2=shm:16M pmpi" \
  -x MCORECOLL_VERBOSE=1 "$bench" --coll bcast --min 16K --max 4M --factor 4 2>&1 | grep "learned bcast" \
  > "$out/openmpi-np2-bcast-row-ring-verdicts.txt" || true
