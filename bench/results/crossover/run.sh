#!/usr/bin/env bash
# The node-only collectives forced onto shared memory against PMPI at 64 B-1 KiB by factors of 2
# (where Open MPI's own switches protocol), under Open MPI: run.sh BUILD NP OUT.csv
set -euo pipefail
b=$1 np=$2 out=$3
bind=(--bind-to core); [ "$np" -gt 2 ] && bind=(--bind-to none --oversubscribe)
env=()
for c in ALLTOALLV ALLGATHERV GATHER GATHERV SCATTER SCATTERV REDUCE_SCATTER_BLOCK REDUCE_SCATTER SCAN EXSCAN; do
  env+=(-x "MCORECOLL_$c=shm")
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun.openmpi "${bind[@]}" -np "$np" --mca btl self,vader "${env[@]}" "$b/bench/mcorecoll_bench" --coll node-only \
  --min 64 --max 1K --factor 2 --rounds 7 --csv "$out" >/dev/null
