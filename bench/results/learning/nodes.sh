#!/usr/bin/env bash
# Learning in the run across nodes (issue #54): nodes.sh PREFIX OUTDIR, PREFIX holding
# build-rel-openmpi (a release build). Open MPI np 4 oversubscribed on pretend nodes of 2
# consecutive ranks (MCORECOLL_TEST_NODE_SIZE=2), mcorecoll_bench against PMPI_X in the same
# launch, 21 rounds of 200 calls per size, allreduce 8 B-64 KiB by factors of 4, each size a new
# size class (it explores during the rounds it is measured in):
#   nodes-wrong-pmpi-{off,auto}: MCORECOLL_REDUCE_NODES_MAX_BYTES=0 gives every size to PMPI
#     across nodes, learning off and on (on: the node and leaders' composition is tried);
#   nodes-forced-shm-off: the composition at every size (MCORECOLL_ALLREDUCE=shm), learning off:
#     its own time, the other candidate's reference.
# Each configuration twice, alternating. MPICH is left out: four ranks on two cores spin there.
set -euo pipefail
prefix=$1 out=$2
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
lib=$prefix/build-rel-openmpi/libmcorecoll.so.0 bench=$prefix/build-rel-openmpi/bench/mcorecoll_bench
run() {  # tag env...
  local tag=$1
  shift
  local envs=(-x "LD_PRELOAD=$lib" -x MCORECOLL_TEST_NODE_SIZE=2)
  for e in "$@"; do envs+=(-x "$e"); done
  mpirun.openmpi --bind-to none --oversubscribe -np 4 --mca btl self,vader "${envs[@]}" "$bench" --coll allreduce \
    --min 8 --max 64K --factor 4 --csv "$out/openmpi-np4-allreduce-$tag.csv" >/dev/null
}
for pass in 1 2; do
  for learn in off auto; do
    run "nodes-wrong-pmpi-$learn-$pass" MCORECOLL_REDUCE_NODES_MAX_BYTES=0 "MCORECOLL_LEARN=$learn"
  done
  run "nodes-forced-shm-off-$pass" MCORECOLL_ALLREDUCE=shm MCORECOLL_LEARN=off
done
